package prompts

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, data := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if data == "DIR" {
			if err := os.MkdirAll(full, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(full, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLoad(t *testing.T) {
	root := t.TempDir()
	home, top := filepath.Join(root, "home"), filepath.Join(root, "repo")
	writeFiles(t, root, map[string]string{
		"home/prompts/review.md":          "---\ndescription: Review a file (mine)\n---\nReview $1.",
		"home/prompts/explain.md":         "Explain $ARGUMENTS\nin detail.",
		"home/prompts/help.md":            "taken",
		"home/prompts/bad name.md":        "x",
		"home/prompts/notes.txt":          "not a prompt",
		"home/prompts/.hidden.md":         "hidden",
		"home/prompts/folder.md":          "DIR",
		"home/prompts/binary.md":          "\xff\xfe",
		"repo/.harness/prompts/review.md": "---\ndescription: \"Review a file: the team's way\"\nargument-hint: FILE\n---\n\nReview $1 as the team does.\n",
		"repo/.harness/prompts/fix-it.md": "Fix it.",
	})
	ps, probs := Load(home, top, []string{"/help", "init", "rename"})
	var got []string
	for _, p := range ps {
		got = append(got, p.Name)
	}
	if !reflect.DeepEqual(got, []string{"explain", "fix-it", "review"}) {
		t.Fatalf("prompts %q", got)
	}
	review := ps[2]
	if !review.Repository || review.Description != "Review a file: the team's way" || review.ArgumentHint != "FILE" ||
		review.Text != "Review $1 as the team does." || review.Path != filepath.Join(top, ".harness", "prompts", "review.md") || review.Size == 0 {
		t.Errorf("the repository's review won? %+v", review)
	}
	if ps[0].Repository || ps[0].Text != "Explain $ARGUMENTS\nin detail." {
		t.Errorf("explain %+v", ps[0])
	}
	var msgs []string
	for _, p := range probs {
		msgs = append(msgs, p.String())
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{
		"help.md: /help is a built-in command, so this file is not used; rename it",
		"bad name.md: its name is not a command name",
		"binary.md: it is not UTF-8 text",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("problems lack %q:\n%s", want, all)
		}
	}
	if len(probs) != 3 {
		t.Errorf("%d problems:\n%s", len(probs), all)
	}
	if ps, probs := Load(filepath.Join(root, "none"), "", nil); len(ps) != 0 || len(probs) != 0 {
		t.Errorf("no folders: %v %v", ps, probs)
	}
}

func TestParse(t *testing.T) {
	cases := []struct {
		in              string
		text, desc, arg string
	}{
		{"plain\ntext\n", "plain\ntext", "", ""},
		{"---\ndescription: d\n---\nbody", "body", "d", ""},
		{"\ufeff---\r\ndescription: 'it''s'\r\nargument_hint: A B\r\nother: x\r\n---\r\n\r\nbody\r\n", "body", "it's", "A B"},
		{"---\ndescription: never closed\nbody", "---\ndescription: never closed\nbody", "", ""},
		{"---\n---\nempty front matter", "empty front matter", "", ""},
		{"---", "---", "", ""},
	}
	for _, c := range cases {
		p := Parse(c.in)
		if p.Text != c.text || p.Description != c.desc || p.ArgumentHint != c.arg {
			t.Errorf("Parse(%q) = %+v", c.in, p)
		}
	}
}

func TestExpand(t *testing.T) {
	cases := []struct{ text, args, want string }{
		{"Review $1 and $2.", `main.go "a b.go" extra`, "Review main.go and a b.go."},
		{"All: $ARGUMENTS!", "  x  y ", "All: x  y!"},
		{"Missing: [$3]", "a b", "Missing: []"},
		{"Cost $$5, $HOME and $", "z", "Cost $5, $HOME and $\n\nz"},
		{"No placeholders.", "these words", "No placeholders.\n\nthese words"},
		{"No placeholders.", "", "No placeholders."},
		{"$1$1", "'it''s'", "itsits"},
	}
	for _, c := range cases {
		if got := (Prompt{Text: c.text}).Expand(c.args); got != c.want {
			t.Errorf("Expand(%q, %q) = %q, want %q", c.text, c.args, got, c.want)
		}
	}
}

func TestSplitAndResolve(t *testing.T) {
	for _, c := range []struct {
		in, name, args string
		ok             bool
	}{
		{"/review main.go", "review", " main.go", true},
		{"/init", "init", "", true},
		{"/x\nmore", "x", "\nmore", true},
		{"/", "", "", false},
		{"/ x", "", "", false},
		{"review", "", "", false},
	} {
		name, args, ok := Split(c.in)
		if name != c.name || args != c.args || ok != c.ok {
			t.Errorf("Split(%q) = %q %q %v", c.in, name, args, ok)
		}
	}
	s := &Set{Prompts: []Prompt{{Name: "review", Text: "Review $1."}}, Init: "INIT PROMPT", InitFile: "AGENTS.md"}
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{"/review main.go", "Review main.go.", true},
		{"/init", "INIT PROMPT", true},
		{"/init focus on tests", "INIT PROMPT\n\nfocus on tests", true},
		{"/rename x", "", false},
		{"/reviewer", "", false},
		{"review main.go", "", false},
	} {
		got, ok := s.Resolve(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("Resolve(%q) = %q, %v", c.in, got, ok)
		}
	}
	if _, ok := (*Set)(nil).Resolve("/init"); ok {
		t.Error("a nil Set resolves")
	}
	cmds := (&Set{Init: "x", InitFile: "CLAUDE.md", Prompts: []Prompt{
		{Name: "a", Text: "Do $1"}, {Name: "b", Text: "Plain\nsecond line", Repository: true, Path: "/r/b.md"}, {Name: "c", ArgumentHint: "FILE", Description: "see"},
	}}).Commands()
	want := []Command{
		{Name: "init", Description: "have a subagent write CLAUDE.md for this repository, or improve it"},
		{Name: "a", Args: "[arguments]", Description: "Do $1"},
		{Name: "b", Description: "Plain", Repository: true, Path: "/r/b.md"},
		{Name: "c", Args: "FILE", Description: "see"},
	}
	if !reflect.DeepEqual(cmds, want) {
		t.Errorf("Commands = %+v", cmds)
	}
}

func TestSummaryCut(t *testing.T) {
	s := (Prompt{Text: strings.Repeat("é", 100)}).Summary()
	if utf8.RuneCountInString(s) != 72 || !strings.HasSuffix(s, "…") {
		t.Errorf("Summary %q", s)
	}
}

func FuzzParseExpand(f *testing.F) {
	f.Add("---\ndescription: d\n---\nReview $1 $ARGUMENTS $$", `a "b c"`)
	f.Add("$", "")
	f.Fuzz(func(t *testing.T, data, args string) {
		p := Parse(data)
		out := p.Expand(args)
		if utf8.ValidString(data) && utf8.ValidString(args) && !utf8.ValidString(out) {
			t.Fatalf("Expand(%q, %q) = %q is not UTF-8", data, args, out)
		}
		_ = p.Summary()
		_ = Words(args)
	})
}
