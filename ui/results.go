// How some blocks read better than their text: a run() value as the
// command, its exit code and its output; the root's FYI call as one line;
// a subagent's answer as markdown; a patch that did not apply; reasoning
// labelled and folded; user messages with a marker in the margin. The
// model always gets the text itself.

package ui

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"harness/approval"
	"harness/markdown"
	"harness/styled"
)

// logLine is one line of a result as shown, in its styles.
type logLine []styled.Span

func plainLog(text string) logLine { return logLine{{Text: text, Style: plainSt}} }

var (
	failSt   = styled.Style{Class: styled.Failure}
	faintSt  = styled.Style{Attr: styled.Dim} // the block's own colour, dimmed
	userMark = []styled.Span{{Text: "▌ "}}
)

// runValue is what run() returns: {'exit_code': N, 'stdout': '…', 'stderr': '…'}.
type runValue struct {
	exit           int
	stdout, stderr string
}

// parseRunValue reads a line that is exactly the repr of a run() value
// (its three keys in any order, strings in Python's quoting).
func parseRunValue(line string) (runValue, bool) {
	p := pyReader{s: strings.TrimSpace(line)}
	var v runValue
	if !p.lit("{") {
		return v, false
	}
	seen := map[string]bool{}
	for i := 0; i < 3; i++ {
		if i > 0 && !p.lit(", ") {
			return v, false
		}
		key, ok := p.str()
		if !ok || seen[key] || !p.lit(": ") {
			return v, false
		}
		seen[key] = true
		switch key {
		case "exit_code":
			v.exit, ok = p.int()
		case "stdout":
			v.stdout, ok = p.str()
		case "stderr":
			v.stderr, ok = p.str()
		default:
			return v, false
		}
		if !ok {
			return v, false
		}
	}
	return v, p.lit("}") && p.i == len(p.s)
}

// pyReader reads Python literals as repr writes them.
type pyReader struct {
	s string
	i int
}

func (p *pyReader) lit(t string) bool {
	if strings.HasPrefix(p.s[p.i:], t) {
		p.i += len(t)
		return true
	}
	return false
}

func (p *pyReader) int() (int, bool) {
	j := p.i
	if j < len(p.s) && p.s[j] == '-' {
		j++
	}
	for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
		j++
	}
	n, err := strconv.Atoi(p.s[p.i:j])
	p.i = j
	return n, err == nil
}

// str reads a string in single or double quotes with Python's escapes.
func (p *pyReader) str() (string, bool) {
	if p.i >= len(p.s) || p.s[p.i] != '\'' && p.s[p.i] != '"' {
		return "", false
	}
	q := p.s[p.i]
	p.i++
	var sb strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == q:
			p.i++
			return sb.String(), true
		case c != '\\':
			sb.WriteByte(c)
			p.i++
			continue
		}
		if p.i+1 >= len(p.s) {
			return "", false
		}
		e := p.s[p.i+1]
		p.i += 2
		switch e {
		case 'n':
			sb.WriteByte('\n')
		case 't':
			sb.WriteByte('\t')
		case 'r':
			sb.WriteByte('\r')
		case '\\', '\'', '"':
			sb.WriteByte(e)
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if p.i+n > len(p.s) {
				return "", false
			}
			r, err := strconv.ParseUint(p.s[p.i:p.i+n], 16, 32)
			if err != nil {
				return "", false
			}
			sb.WriteRune(rune(r))
			p.i += n
		default:
			sb.WriteByte('\\')
			sb.WriteByte(e)
		}
	}
	return "", false
}

// runCall matches run( or subprocess.run( with a literal list first.
var runCall = regexp.MustCompile(`\brun\(\s*\[`)

// codeCommands returns the literal argument lists of the run() calls in a
// REPL call's code, in order; a call whose list is not all string
// literals stops the search (what follows cannot be paired with values).
func codeCommands(code string) [][]string {
	var out [][]string
	for _, loc := range runCall.FindAllStringIndex(code, -1) {
		p := pyReader{s: code, i: loc[1]}
		var argv []string
		for {
			for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\n') {
				p.i++
			}
			if p.lit("]") {
				break
			}
			s, ok := p.str()
			if !ok {
				return out
			}
			argv = append(argv, s)
			p.lit(",")
		}
		out = append(out, argv)
	}
	return out
}

// resultLines returns a REPL result's lines as shown: each line that is a
// run() value becomes its command (the i-th of cmds for the i-th value,
// when there are as many), its exit code, its output and its error
// output as text. It reports whether there was a run() value.
func resultLines(text string, cmds [][]string) ([]logLine, bool) {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	var vals []int
	for i, l := range lines {
		if strings.HasPrefix(l, "{") {
			if _, ok := parseRunValue(l); ok {
				vals = append(vals, i)
			}
		}
	}
	if len(vals) == 0 {
		return nil, false
	}
	out := make([]logLine, 0, len(lines)+4*len(vals))
	next := 0
	for i, l := range lines {
		if next >= len(vals) || vals[next] != i {
			out = append(out, plainLog(l))
			continue
		}
		v, _ := parseRunValue(l)
		cmd := "run()"
		if len(cmds) == len(vals) {
			cmd = "$ " + approval.ShellLine(cmds[next])
		}
		next++
		exitSt := markerSt
		if v.exit != 0 {
			exitSt = failSt
		}
		out = append(out, logLine{{Text: cmd + " · ", Style: markerSt}, {Text: fmt.Sprintf("exit %d", v.exit), Style: exitSt}})
		if v.stdout == "" && v.stderr == "" {
			out = append(out, logLine{{Text: "(no output)", Style: markerSt}})
		}
		for _, s := range splitOutput(v.stdout) {
			out = append(out, plainLog(s))
		}
		if v.stderr != "" {
			out = append(out, logLine{{Text: "stderr:", Style: markerSt}})
			for _, s := range splitOutput(v.stderr) {
				out = append(out, plainLog(s))
			}
		}
	}
	return out, true
}

func splitOutput(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// wrapLog wraps logical lines to w, each in its style.
func wrapLog(ls []logLine, w int, out []styled.Line) []styled.Line {
	for _, l := range ls {
		out = append(out, styled.Wrap(l, w, styled.Indent{})...)
	}
	return out
}

// fyiTime and fyiTokens read FYI's result.
var (
	fyiTime   = regexp.MustCompile(`(?m)^Date: .* (\d\d:\d\d)\b`)
	fyiTokens = regexp.MustCompile(`(?m)^Prompt tokens: (~?\d+)`)
)

// fyiLine is the folded line of the root's FYI call: "FYI · 527 tokens ·
// 14:02" from its result; "FYI · …" while it runs.
func fyiLine(result *block) string {
	if result == nil {
		return "FYI · …"
	}
	text := result.String()
	s := "FYI"
	if m := fyiTokens.FindStringSubmatch(text); m != nil {
		s += " · " + m[1] + " tokens"
	}
	if m := fyiTime.FindStringSubmatch(text); m != nil {
		s += " · " + m[1]
	}
	return s
}

// patchFailure says why an apply_patch result is not that of an applied
// patch ("" when it is): an applied patch's result starts with its change
// lines ("M path", "A path", "D path", "R a -> b", "= path"). The reason
// is the result's first sentence, without what the header says already.
func patchFailure(result string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(result), "\n")
	if len(first) > 2 && first[1] == ' ' && strings.ContainsRune("AMDR=", rune(first[0])) {
		return ""
	}
	first = strings.TrimPrefix(first, "apply_patch cannot write here: ")
	first, _, _ = strings.Cut(first, ". Nothing was changed")
	first = strings.TrimSuffix(first, ".")
	if first == "" {
		return "no result"
	}
	return first
}

// notAppliedHead is the header of a patch that did not apply: in the
// error colour, with why.
func notAppliedHead(name, reason string, w int) []styled.Line {
	return styled.Wrap([]styled.Span{{Text: "● " + name + " · not applied: " + reason, Style: failSt}}, w,
		styled.Indent{Rest: []styled.Span{{Text: "  "}}})
}

// notAppliedDiff returns the diff of a patch that did not apply without
// the colours of an applied one: its files, hunks and lines dimmed.
func notAppliedDiff(diff []styled.Line) []styled.Line {
	out := make([]styled.Line, len(diff))
	for j, l := range diff {
		c := l
		c.Spans = make([]styled.Span, len(l.Spans))
		for i, sp := range l.Spans {
			switch sp.Style.Class {
			case styled.DiffAdd, styled.DiffRemove, styled.DiffFile, styled.DiffHunk:
				sp.Style = styled.Style{Class: styled.DiffContext, Attr: sp.Style.Attr | styled.Dim}
			}
			c.Spans[i] = sp
		}
		out[j] = c
	}
	return out
}

// userLines draws a user message with a marker down its left margin, so
// that messages can be found when scrolling.
func userLines(text string, w int) []styled.Line {
	return styled.Wrap([]styled.Span{{Text: text, Style: plainSt}}, w,
		styled.Indent{First: userMark, FirstDecor: 2, Rest: userMark})
}

// reasoningLines draws reasoning: labelled "thinking" and dim; folded to
// one line once its turn has ended, until expanded.
func (b *block) reasoningLines(w int) []styled.Line {
	if !b.r.streaming && !b.r.expanded {
		n := b.textLines()
		unit := "lines"
		if n == 1 {
			unit = "line"
		}
		return styled.Wrap([]styled.Span{{Text: fmt.Sprintf("thinking · %d %s · click or %s to expand", n, unit, foldKey), Style: faintSt}},
			w, styled.Indent{})
	}
	if b.r.md == nil {
		b.r.md = &markdown.Doc{Streaming: b.r.streaming}
	}
	body := b.r.md.Lines(b.text, w)
	// The lines the Doc kept stay dimmed as they were: a frame dims the
	// lines that changed.
	out := b.r.dimmed[:min(1+b.r.md.Kept(), len(b.r.dimmed))]
	if len(out) == 0 || b.r.dimmedW != w {
		out = append(out[:0], styled.One("thinking", faintSt.With(styled.Italic)))
	}
	for _, l := range body[len(out)-1:] {
		out = append(out, dimLine(l))
	}
	b.r.dimmed, b.r.dimmedW = out, w
	return out
}

// dimLine returns l with every span dimmed.
func dimLine(l styled.Line) styled.Line {
	c := l
	c.Spans = make([]styled.Span, len(l.Spans))
	for i, sp := range l.Spans {
		sp.Style.Attr |= styled.Dim
		c.Spans[i] = sp
	}
	return c
}

// answerLines draws a subagent's answer (an rlm call's result) as
// markdown, folded to its first and last lines when long.
func (b *block) answerLines(w int) []styled.Line {
	if b.r.md == nil {
		b.r.md = &markdown.Doc{}
	}
	lines := b.r.md.Lines(b.text, w)
	n := b.textLines()
	if n <= foldOver {
		return lines
	}
	if b.r.expanded {
		out := append([]styled.Line(nil), lines...)
		return append(out, styled.Wrap([]styled.Span{{Text: fmt.Sprintf("▲ %d lines · click or %s to fold", n, foldKey), Style: markerSt}}, w, styled.Indent{})...)
	}
	if len(lines) <= 2*foldShow+1 {
		return lines
	}
	out := append([]styled.Line(nil), lines[:foldShow]...)
	out = append(out, styled.Wrap([]styled.Span{{Text: fmt.Sprintf("… %d more lines · click or %s to expand", len(lines)-2*foldShow, foldKey), Style: markerSt}}, w, styled.Indent{})...)
	return append(out, lines[len(lines)-foldShow:]...)
}
