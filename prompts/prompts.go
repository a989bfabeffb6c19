// Loading prompt files, their front matter, and expanding them.

package prompts

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxSize bounds a prompt file.
const maxSize = 256 << 10

// Prompt is one prompt file, a slash command.
type Prompt struct {
	Name         string // the command without its slash
	Description  string // from the front matter; "" when none
	ArgumentHint string // from the front matter; "" when none
	Text         string // what follows the front matter
	Path         string // the file's host path
	Size         int64  // the file's size in bytes
	Repository   bool   // the repository's (.harness/prompts), not the person's own
}

// Problem is a prompt file that did not become a command.
type Problem struct {
	Path    string
	Message string // what is wrong and what to do
}

func (p Problem) String() string { return "prompt file " + p.Path + ": " + p.Message }

var validName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)

// Load reads the prompt files of home ($HARNESS_HOME) and of top (the
// repository's top); either may be "". reserved are the built-in command
// names (without their slash), which no file can take. Prompts are sorted
// by name.
func Load(home, top string, reserved []string) ([]Prompt, []Problem) {
	taken := map[string]bool{}
	for _, r := range reserved {
		taken[strings.TrimPrefix(r, "/")] = true
	}
	byName := map[string]Prompt{}
	var problems []Problem
	for _, src := range []struct {
		dir  string
		repo bool
	}{{joinIf(home, "prompts"), false}, {joinIf(top, ".harness", "prompts"), true}} {
		if src.dir == "" {
			continue
		}
		ps, probs := loadDir(src.dir, src.repo, taken)
		problems = append(problems, probs...)
		for _, p := range ps {
			byName[p.Name] = p // the repository's, read second, wins
		}
	}
	out := make([]Prompt, 0, len(byName))
	for _, p := range byName {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, problems
}

func joinIf(dir string, elem ...string) string {
	if dir == "" {
		return ""
	}
	return filepath.Join(append([]string{dir}, elem...)...)
}

// loadDir reads the *.md files of dir.
func loadDir(dir string, repo bool, reserved map[string]bool) ([]Prompt, []Problem) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []Problem{{dir, fmt.Sprintf("the folder cannot be read (%v)", unwrapPath(err))}}
	}
	var out []Prompt
	var problems []Problem
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".md")
		if !ok || strings.HasPrefix(e.Name(), ".") || e.IsDir() {
			continue
		}
		path := filepath.Join(dir, e.Name())
		switch {
		case !validName.MatchString(name):
			problems = append(problems, Problem{path, "its name is not a command name; use letters, digits, '-', '_' and '.', starting with a letter or digit"})
			continue
		case reserved[name]:
			problems = append(problems, Problem{path, "/" + name + " is a built-in command, so this file is not used; rename it"})
			continue
		}
		p, err := read(path)
		if err != nil {
			problems = append(problems, Problem{path, err.Error()})
			continue
		}
		p.Name, p.Repository = name, repo
		out = append(out, p)
	}
	return out, problems
}

// read reads one prompt file and parses its front matter.
func read(path string) (Prompt, error) {
	f, err := os.Open(path)
	if err != nil {
		return Prompt{}, fmt.Errorf("it cannot be read (%v)", unwrapPath(err))
	}
	defer f.Close()
	fi, err := f.Stat()
	switch {
	case err != nil:
		return Prompt{}, fmt.Errorf("it cannot be read (%v)", unwrapPath(err))
	case !fi.Mode().IsRegular():
		return Prompt{}, errors.New("it is not a regular file")
	case fi.Size() > maxSize:
		return Prompt{}, fmt.Errorf("it is %d bytes, more than the %d a prompt file may have", fi.Size(), maxSize)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxSize+1))
	if err != nil {
		return Prompt{}, fmt.Errorf("it cannot be read (%v)", unwrapPath(err))
	}
	if !utf8.Valid(data) {
		return Prompt{}, errors.New("it is not UTF-8 text")
	}
	p := Parse(string(data))
	p.Path, p.Size = path, fi.Size()
	return p, nil
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Parse splits a prompt file's text into its front matter and its text.
func Parse(data string) Prompt {
	data = strings.TrimPrefix(data, "\ufeff")
	var p Prompt
	first, rest, ok := cutLine(data)
	if ok && strings.TrimRight(first, " \t") == "---" {
		var meta []string
		for {
			line, after, more := cutLine(rest)
			if strings.TrimRight(line, " \t") == "---" {
				for _, m := range meta {
					p.setMeta(m)
				}
				data = after
				break
			}
			if !more {
				break // no closing line: no front matter
			}
			meta, rest = append(meta, line), after
		}
	}
	p.Text = strings.TrimRight(strings.TrimLeft(data, "\r\n"), " \t\r\n")
	return p
}

// cutLine returns s's first line (without its line ending) and the rest;
// more is false when s has no line ending.
func cutLine(s string) (line, rest string, more bool) {
	line, rest, more = strings.Cut(s, "\n")
	return strings.TrimSuffix(line, "\r"), rest, more
}

// setMeta applies one front-matter line "key: value".
func (p *Prompt) setMeta(line string) {
	key, val, ok := strings.Cut(line, ":")
	if !ok {
		return
	}
	val = unquote(strings.TrimSpace(val))
	switch strings.ToLower(strings.TrimSpace(key)) {
	case "description":
		p.Description = val
	case "argument-hint", "argument_hint":
		p.ArgumentHint = val
	}
}

func unquote(v string) string {
	if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"') {
		if s, err := strconv.Unquote(v); err == nil {
			return s
		}
	}
	if len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'' {
		return strings.ReplaceAll(v[1:len(v)-1], "''", "'")
	}
	return v
}

// Summary is the line shown for p by /help and the completion: its
// description, else its text's first line, cut to 72 characters.
func (p Prompt) Summary() string {
	s := p.Description
	if s == "" {
		s, _, _ = cutLine(p.Text)
	}
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) > 72 {
		r := []rune(s)
		s = strings.TrimRightFunc(string(r[:71]), unicode.IsSpace) + "…"
	}
	return s
}

// Expand returns p's text with args in it (see the package documentation).
func (p Prompt) Expand(args string) string {
	args = strings.TrimSpace(args)
	out, used := p.substitute(args, Words(args))
	if !used && args != "" {
		out = strings.TrimRight(out, "\n") + "\n\n" + args
	}
	return out
}

// substitute replaces $ARGUMENTS, $1 … $9 and $$ in p's text; used says
// whether an argument placeholder was there.
func (p Prompt) substitute(args string, words []string) (out string, used bool) {
	var b strings.Builder
	t := p.Text
	for i := 0; i < len(t); i++ {
		c := t[i]
		if c != '$' || i+1 == len(t) {
			b.WriteByte(c)
			continue
		}
		switch n := t[i+1]; {
		case n == '$':
			b.WriteByte('$')
			i++
		case n >= '1' && n <= '9':
			if k := int(n - '1'); k < len(words) {
				b.WriteString(words[k])
			}
			used = true
			i++
		case strings.HasPrefix(t[i+1:], "ARGUMENTS"):
			b.WriteString(args)
			used = true
			i += len("ARGUMENTS")
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), used
}

// takesArguments reports whether p's text uses $ARGUMENTS or $1 … $9.
func (p Prompt) takesArguments() bool {
	_, used := p.substitute("", nil)
	return used
}

// Words splits args into words: white space separates them, and a
// "double-quoted" or 'single-quoted' part keeps its spaces (the quotes
// are dropped; an unclosed quote runs to the end).
func Words(args string) []string {
	var out []string
	var cur strings.Builder
	in, quote := false, rune(0)
	for _, r := range args {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote == 0 && (r == '"' || r == '\''):
			quote, in = r, true
		case quote == 0 && unicode.IsSpace(r):
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}
