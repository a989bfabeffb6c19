// Building the diff lines of a patch.

package diffview

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"

	"harness/patch"
	"harness/styled"
)

// OldText returns the text a file had before the patch (path as the patch
// names it), and whether it is known.
type OldText func(path string) (string, bool)

// contextLines is how many unchanged lines a Replace File's diff shows
// around each change.
const contextLines = 2

// Lines returns the lines showing patch text at width cells. old gives
// Replace File's old text (nil: never known).
func Lines(text string, old OldText, width int) []styled.Line {
	b := builder{width: max(width, 4)}
	p, err := patch.Parse(text)
	if err != nil && !strings.Contains(text, "*** End Patch") {
		p, err = patch.Parse(strings.TrimRight(text, "\n") + "\n*** End Patch") // still streaming
	}
	if err != nil {
		b.raw(text)
		if len(b.out) == 0 && strings.TrimSpace(text) != "" {
			for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
				b.line(l, styled.Style{}) // only markers: show them as sent
			}
		}
		return b.out
	}
	for _, op := range p.Ops {
		b.op(op, old)
	}
	return b.out
}

type builder struct {
	width int
	out   []styled.Line
}

var (
	fileSt = styled.Style{Class: styled.DiffFile, Attr: styled.Bold}
	hunkSt = styled.Style{Class: styled.DiffHunk}
	addSt  = styled.Style{Class: styled.DiffAdd}
	delSt  = styled.Style{Class: styled.DiffRemove}
	ctxSt  = styled.Style{Class: styled.DiffContext, Attr: styled.Dim}
	noteSt = styled.Style{Class: styled.Note, Attr: styled.Italic}
)

// line appends text in style st, cut at the width.
func (b *builder) line(text string, st styled.Style) {
	text = strings.ReplaceAll(text, "\t", strings.Repeat(" ", styled.TabWidth))
	first := true
	for {
		room := b.width
		if !first {
			room -= 2
		}
		head, rest := cut(text, room)
		l := styled.Line{Spans: []styled.Span{{Text: head, Style: st}}}
		if !first {
			l = styled.Line{Spans: []styled.Span{{Text: "  ", Style: st}, {Text: head, Style: st}}, Break: styled.Cut, Decoration: 2}
		}
		b.out = append(b.out, l)
		if rest == "" {
			return
		}
		text, first = rest, false
	}
}

// cut splits s after as many characters as fit in n cells (at least one).
func cut(s string, n int) (string, string) {
	col := 0
	for i, r := range s {
		w := styled.RuneWidth(r)
		if col+w > n && i > 0 {
			return s[:i], s[i:]
		}
		col += w
	}
	return s, ""
}

func (b *builder) op(op *patch.Op, old OldText) {
	switch op.Kind {
	case patch.Add:
		b.line(fmt.Sprintf("A %s (+%d)", op.Path, len(op.Lines)), fileSt)
		for _, l := range op.Lines {
			b.line("+ "+l, addSt)
		}
	case patch.Delete:
		b.line("D "+op.Path, fileSt)
	case patch.Update:
		head := "M " + op.Path
		if op.MoveTo != "" {
			head = "R " + op.Path + " -> " + op.MoveTo
		}
		add, del := 0, 0
		for _, h := range op.Hunks {
			for _, l := range h.Lines {
				switch l.Op {
				case '+':
					add++
				case '-':
					del++
				}
			}
		}
		if len(op.Hunks) > 0 {
			head += counts(add, del)
		}
		b.line(head, fileSt)
		for i, h := range op.Hunks {
			if h.HasAnchor || i > 0 {
				b.line(h.Header(), hunkSt)
			}
			for _, l := range h.Lines {
				b.hunkLine(l.Op, l.Text)
			}
		}
	case patch.Replace:
		b.replace(op, old)
	}
}

func counts(add, del int) string {
	return fmt.Sprintf(" (+%d -%d)", add, del)
}

func (b *builder) hunkLine(op byte, text string) {
	switch op {
	case '+':
		b.line("+ "+text, addSt)
	case '-':
		b.line("- "+text, delSt)
	default:
		b.line("  "+text, ctxSt)
	}
}

// replace appends a Replace File as a diff against the old text.
func (b *builder) replace(op *patch.Op, old OldText) {
	var before string
	known := false
	if old != nil {
		before, known = old(op.Path)
	}
	if !known {
		b.line(fmt.Sprintf("M %s (+%d)", op.Path, len(op.Lines)), fileSt)
		b.line("the old text was not kept: the whole new text", noteSt)
		for _, l := range op.Lines {
			b.line("+ "+l, addSt)
		}
		return
	}
	oldLines := splitLines(before)
	if slices.Equal(oldLines, op.Lines) {
		b.line("= "+op.Path, fileSt)
		return
	}
	ds := lineDiff(oldLines, op.Lines)
	add, del := 0, 0
	for _, d := range ds {
		switch d.op {
		case '+':
			add++
		case '-':
			del++
		}
	}
	b.line("M "+op.Path+counts(add, del), fileSt)
	b.context(ds)
}

// context appends diff lines, keeping contextLines unchanged lines around
// each change and a "@@ line N" header where lines are skipped.
func (b *builder) context(ds []dline) {
	keep := make([]bool, len(ds))
	for i, d := range ds {
		if d.op != ' ' {
			for j := max(i-contextLines, 0); j <= min(i+contextLines, len(ds)-1); j++ {
				keep[j] = true
			}
		}
	}
	oldLine := 1
	for i, d := range ds {
		if keep[i] {
			if i > 0 && !keep[i-1] {
				b.line(fmt.Sprintf("@@ line %d", oldLine), hunkSt)
			}
			b.hunkLine(d.op, d.text)
		}
		if d.op != '+' {
			oldLine++
		}
	}
}

// dline is one line of a line diff.
type dline struct {
	op   byte // ' ', '-' or '+'
	text string
}

// lineDiff diffs two texts by line.
func lineDiff(a, b []string) []dline {
	dmp := diffmatchpatch.New()
	ta, tb := strings.Join(a, "\n")+"\n", strings.Join(b, "\n")+"\n"
	ca, cb, table := dmp.DiffLinesToChars(ta, tb)
	diffs := dmp.DiffCharsToLines(dmp.DiffMain(ca, cb, false), table)
	var out []dline
	for _, d := range diffs {
		op := byte(' ')
		switch d.Type {
		case diffmatchpatch.DiffInsert:
			op = '+'
		case diffmatchpatch.DiffDelete:
			op = '-'
		}
		for _, l := range strings.SplitAfter(d.Text, "\n") {
			if l == "" {
				continue
			}
			out = append(out, dline{op, strings.TrimSuffix(l, "\n")})
		}
	}
	return out
}

// splitLines splits a file's text into lines without their endings.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	s = strings.TrimSuffix(strings.TrimSuffix(s, "\n"), "\r")
	ls := strings.Split(s, "\n")
	for i, l := range ls {
		ls[i] = strings.TrimSuffix(l, "\r")
	}
	return ls
}

// raw appends a patch that does not parse, line by line.
func (b *builder) raw(text string) {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	for i, l := range lines {
		l = strings.TrimSuffix(l, "\r")
		switch {
		case strings.HasPrefix(l, "*** Begin Patch"), strings.HasPrefix(l, "*** End Patch"), strings.HasPrefix(l, "*** End of File"):
		case strings.HasPrefix(l, "*** Add File: "):
			b.line("A "+strings.TrimSpace(l[len("*** Add File: "):]), fileSt)
		case strings.HasPrefix(l, "*** Delete File: "):
			b.line("D "+strings.TrimSpace(l[len("*** Delete File: "):]), fileSt)
		case strings.HasPrefix(l, "*** Replace File: "):
			b.line("M "+strings.TrimSpace(l[len("*** Replace File: "):]), fileSt)
		case strings.HasPrefix(l, "*** Update File: "):
			p := strings.TrimSpace(l[len("*** Update File: "):])
			if i+1 < len(lines) && strings.HasPrefix(lines[i+1], "*** Move to: ") {
				b.line("R "+p+" -> "+strings.TrimSpace(lines[i+1][len("*** Move to: "):]), fileSt)
			} else {
				b.line("M "+p, fileSt)
			}
		case strings.HasPrefix(l, "*** Move to: "):
		case strings.HasPrefix(l, "@@"):
			b.line(l, hunkSt)
		case strings.HasPrefix(l, "+"):
			b.hunkLine('+', l[1:])
		case strings.HasPrefix(l, "-"):
			b.hunkLine('-', l[1:])
		case strings.HasPrefix(l, " "):
			b.hunkLine(' ', l[1:])
		default:
			b.line(l, styled.Style{})
		}
	}
}
