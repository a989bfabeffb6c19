// Stream: the diff of a patch that grows as an apply_patch call streams.

package diffview

import (
	"fmt"
	"strings"

	"harness/patch"
	"harness/styled"
)

// Stream draws a patch that grows at its end, as Lines draws it with no
// old text. While the patch ends in an Add File or Replace File whose
// lines so far are all "+" lines, text appended adds their lines to the
// ones drawn before (and draws the header's count again) instead of
// parsing and drawing the whole patch: a frame costs the lines that
// arrived. Anything else (another header, a blank or other line, a
// marker being written, a new width, text that is not the old text with
// more) draws the patch whole with Lines, and looks again for a last
// section it can extend. Its zero value is ready to use; it is not safe
// for concurrent use.
type Stream struct {
	text  string
	width int
	lead  []styled.Line // the lines drawn above the diff (LinesAfter)
	out   []styled.Line // lead, then the diff

	fast   bool
	kind   patch.Kind // Add or Replace
	path   string
	prefix int // lines of the lead and of the sections before the last
	head   int // lines of the last section's header (and note)
	count  int // its complete "+" lines
	body   int // lines drawn for them
	done   int // offset in text after its last complete line
}

const endPatch = "*** End Patch"

// Lines returns the lines of text at width. The slice is the Stream's:
// valid until the next call, not to be changed (appending to it is safe).
func (s *Stream) Lines(text string, width int) []styled.Line {
	return s.LinesAfter(nil, text, width)
}

// LinesAfter is Lines with the lines of lead first (a call's name above
// its diff): the slice returned starts with them, so that a caller who
// draws lines above the diff need not copy the diff below them at every
// frame. A lead other than the last call's draws the patch whole.
func (s *Stream) LinesAfter(lead []styled.Line, text string, width int) []styled.Line {
	same := sameLines(lead, s.lead)
	if s.out != nil && same && text == s.text && width == s.width {
		return s.out
	}
	if s.fast && same && width == s.width && strings.HasPrefix(text, s.text) && s.extend(text) {
		s.text = text
		return s.out
	}
	s.text, s.width = text, width
	s.lead = append(s.lead[:0], lead...)
	s.out = append(append([]styled.Line(nil), lead...), Lines(text, nil, width)...)
	s.fast = s.setup()
	return s.out
}

// sameLines reports whether a and b are the same lines.
func sameLines(a, b []styled.Line) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Break != y.Break || x.Decoration != y.Decoration || len(x.Spans) != len(y.Spans) {
			return false
		}
		for j := range x.Spans {
			if x.Spans[j] != y.Spans[j] {
				return false
			}
		}
	}
	return true
}

// extend draws the lines of text that arrived after s.text, and reports
// false when they are not all "+" lines of the last section.
func (s *Stream) extend(text string) bool {
	// Lines parses a text holding the end marker as it is (not as one
	// still streaming): all of it, then.
	if strings.Contains(text[max(len(s.text)-len(endPatch)+1, 0):], endPatch) {
		return false
	}
	b := builder{width: max(s.width, 4), out: s.out[:s.prefix+s.head+s.body]}
	count, done := s.count, s.done
	for {
		i := strings.IndexByte(text[done:], '\n')
		if i < 0 {
			break
		}
		l := strings.TrimRight(text[done:done+i], "\r")
		if !strings.HasPrefix(l, "+") {
			return false
		}
		b.line("+ "+l[1:], addSt)
		count++
		done += i + 1
	}
	body := len(b.out) - s.prefix - s.head
	partial := 0
	if last := strings.TrimRight(text[done:], "\r"); last != "" {
		if !strings.HasPrefix(last, "+") {
			return false
		}
		b.line("+ "+last[1:], addSt)
		partial = 1
	}
	head := s.header(count + partial)
	if len(head) != s.head {
		return false // the count's new digit moved the lines: draw it all
	}
	copy(b.out[s.prefix:], head)
	s.out, s.count, s.done, s.body = b.out, count, done, body
	return true
}

// header returns the lines of the last section's header for n lines.
func (s *Stream) header(n int) []styled.Line {
	b := builder{width: max(s.width, 4)}
	if s.kind == patch.Add {
		b.line(fmt.Sprintf("A %s (+%d)", s.path, n), fileSt)
	} else {
		b.line(fmt.Sprintf("M %s (+%d)", s.path, n), fileSt)
		b.line("the old text was not kept: the whole new text", noteSt)
	}
	return b.out
}

// setup finds, after the text was drawn whole, whether it ends in a
// section that extend can add to: its header the text's last "***" line,
// an Add File or Replace File, followed only by "+" lines; and where its
// lines start among the lines drawn.
func (s *Stream) setup() bool {
	text := s.text
	if strings.Contains(text, endPatch) {
		return false
	}
	at := len(text) // the start of the last "***" line
	for at > 0 {
		j := strings.LastIndexByte(text[:at-1], '\n') + 1
		if strings.HasPrefix(text[j:], "***") {
			at = j
			break
		}
		if !strings.HasPrefix(text[j:], "+") {
			return false
		}
		at = j
	}
	line, _, _ := strings.Cut(text[at:], "\n")
	header := strings.TrimRight(line, "\r")
	p, err := patch.Parse("*** Begin Patch\n" + header + "\n*** End Patch")
	if err != nil || len(p.Ops) != 1 || p.Ops[0].Kind != patch.Add && p.Ops[0].Kind != patch.Replace {
		return false
	}
	s.kind, s.path = p.Ops[0].Kind, p.Ops[0].Path
	// The sections before: drawn as Lines draws them, or nothing when
	// there are none (the whole parses only if they do).
	before := text[:at]
	prefix := len(s.lead)
	if _, err := patch.Parse(before + "*** End Patch"); err == nil {
		prefix += len(Lines(before+"*** End Patch", nil, s.width))
	} else if strings.TrimSpace(before) != "*** Begin Patch" {
		return false
	}
	done := at + len(line) + 1
	if done > len(text) {
		return false // the header line is not complete
	}
	rest := text[done:]
	count := strings.Count(rest, "\n")
	n, partial := count, 0
	if last := strings.TrimRight(rest[strings.LastIndexByte(rest, '\n')+1:], "\r"); last != "" {
		b := builder{width: max(s.width, 4)}
		b.line("+ "+last[1:], addSt)
		n, partial = n+1, len(b.out)
	}
	s.prefix, s.head = prefix, len(s.header(n))
	s.count, s.done = count, len(text)-len(rest)+strings.LastIndexByte(rest, '\n')+1
	s.body = len(s.out) - prefix - s.head - partial
	return s.body >= 0
}
