// Parsing of patch text into operations and hunks (the grammar is in doc.go).

package patch

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"harness/jail"
)

// Kind is the kind of one file operation.
type Kind int

// Operation kinds, one per file header.
const (
	Add     Kind = iota + 1 // *** Add File: path
	Delete                  // *** Delete File: path
	Update                  // *** Update File: path (optionally *** Move to: path)
	Replace                 // *** Replace File: path
)

var kindHeader = map[Kind]string{
	Add:     "*** Add File: ",
	Delete:  "*** Delete File: ",
	Update:  "*** Update File: ",
	Replace: "*** Replace File: ",
}

func (k Kind) String() string {
	switch k {
	case Add:
		return "Add File"
	case Delete:
		return "Delete File"
	case Update:
		return "Update File"
	case Replace:
		return "Replace File"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Patch is a parsed patch: its operations in the order they apply.
type Patch struct {
	Ops []*Op
}

// Op is one file operation.
type Op struct {
	Kind   Kind
	Path   string   // root-relative, cleaned
	MoveTo string   // Update only: the destination, or "" to keep the path
	Lines  []string // Add and Replace: the new text, one entry per line, without line endings
	Hunks  []*Hunk  // Update only, in file order
	Line   int      // patch line of the file header (1-based)
}

// Hunk is one "@@" section of an Update.
type Hunk struct {
	HasAnchor  bool   // "@@ text" or "@@ line N: text"
	Anchor     string // anchor text, leading and trailing white space removed
	AnchorLine int    // N of "@@ line N: text"; 0 when absent
	Lines      []Line // context (' '), removed ('-') and added ('+') lines in order
	EOF        bool   // ended by "*** End of File": the hunk must end at the file's last line
	Line       int    // patch line of the "@@" header, or of the first hunk line when it has none
}

// Line is one hunk line: Op is ' ' (context), '-' (remove) or '+' (add).
type Line struct {
	Op   byte
	Text string
}

// Old returns the lines the hunk expects in the file: context and removed lines.
func (h *Hunk) Old() []string { return h.side('-') }

// New returns the lines the hunk leaves: context and added lines.
func (h *Hunk) New() []string { return h.side('+') }

func (h *Hunk) side(keep byte) []string {
	out := make([]string, 0, len(h.Lines))
	for _, l := range h.Lines {
		if l.Op == ' ' || l.Op == keep {
			out = append(out, l.Text)
		}
	}
	return out
}

// Header renders the hunk's "@@" line.
func (h *Hunk) Header() string {
	switch {
	case h.AnchorLine > 0:
		return strings.TrimRight(fmt.Sprintf("@@ line %d: %s", h.AnchorLine, h.Anchor), " ")
	case h.HasAnchor:
		return "@@ " + h.Anchor
	}
	return "@@"
}

// Header renders the operation's file header line.
func (op *Op) Header() string { return kindHeader[op.Kind] + op.Path }

// String renders the patch in canonical form; Parse(p.String()) yields p again.
func (p *Patch) String() string {
	var b strings.Builder
	b.WriteString(beginMarker + "\n")
	for _, op := range p.Ops {
		b.WriteString(op.Header() + "\n")
		for _, l := range op.Lines {
			b.WriteString("+" + l + "\n")
		}
		if op.MoveTo != "" {
			b.WriteString(moveMarker + op.MoveTo + "\n")
		}
		for _, h := range op.Hunks {
			b.WriteString(h.Header() + "\n")
			for _, l := range h.Lines {
				b.WriteString(string(l.Op) + l.Text + "\n")
			}
			if h.EOF {
				b.WriteString(eofMarker + "\n")
			}
		}
	}
	b.WriteString(endMarker + "\n")
	return b.String()
}

const (
	beginMarker = "*** Begin Patch"
	endMarker   = "*** End Patch"
	eofMarker   = "*** End of File"
	moveMarker  = "*** Move to: "
)

// SyntaxError is a malformed patch; Line is the 1-based patch line.
type SyntaxError struct {
	Line int
	Msg  string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("patch line %d: %s", e.Line, e.Msg) }

// parser walks the patch lines; i is the index of the next unread line.
type parser struct {
	lines []string
	i     int
}

// Parse parses a whole patch. It changes nothing on disk; an error is a
// *SyntaxError naming the patch line.
func Parse(text string) (*Patch, error) {
	p := &parser{lines: splitPatch(text)}
	return p.parse()
}

// splitPatch splits on "\n" and removes the carriage returns that end each
// line, so a patch with CRLF line endings reads like one with LF endings.
func splitPatch(text string) []string {
	lines := strings.Split(text, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, "\r")
	}
	return lines
}

func (p *parser) errf(i int, format string, args ...any) error {
	return &SyntaxError{Line: i + 1, Msg: fmt.Sprintf(format, args...)}
}

func isBlank(s string) bool { return strings.TrimSpace(s) == "" }

// marker reports whether line i is the marker m, ignoring trailing white space.
func (p *parser) marker(i int, m string) bool {
	return i < len(p.lines) && strings.TrimRight(p.lines[i], " \t") == m
}

func (p *parser) parse() (*Patch, error) {
	p.i = p.blankRun(0)
	if p.i == len(p.lines) {
		return nil, p.errf(0, "the patch is empty; it must start with %q and end with %q", beginMarker, endMarker)
	}
	if !p.marker(p.i, beginMarker) {
		return nil, p.errf(p.i, "the patch must start with %q, found %q%s", beginMarker, clip(p.lines[p.i]), diffHint(p.lines[p.i]))
	}
	p.i++
	patch := &Patch{}
	for {
		p.i = p.blankRun(p.i)
		if p.i == len(p.lines) {
			return nil, p.errf(p.i, "the patch ends without %q (was it cut short?)", endMarker)
		}
		if p.marker(p.i, endMarker) {
			break
		}
		op, err := p.op()
		if err != nil {
			return nil, err
		}
		patch.Ops = append(patch.Ops, op)
	}
	for j := p.i + 1; j < len(p.lines); j++ {
		if !isBlank(p.lines[j]) {
			return nil, p.errf(j, "text after %q: %q; put every operation before the end marker", endMarker, clip(p.lines[j]))
		}
	}
	if len(patch.Ops) == 0 {
		return nil, p.errf(p.i, "the patch has no operations; add *** Add File, *** Update File, *** Replace File or *** Delete File sections")
	}
	return patch, nil
}

// op parses one file operation starting at its header.
func (p *parser) op() (*Op, error) {
	line := p.lines[p.i]
	op := &Op{Line: p.i + 1}
	for k, h := range kindHeader {
		if name, ok := strings.CutPrefix(line, strings.TrimSuffix(h, " ")); ok {
			op.Kind = k
			path, err := p.path(p.i, name, strings.TrimSuffix(h, " "))
			if err != nil {
				return nil, err
			}
			op.Path = path
		}
	}
	if op.Kind == 0 {
		return nil, p.errf(p.i, "expected a file header (*** Add File:, *** Update File:, *** Replace File:, *** Delete File:) or %q, found %q%s",
			endMarker, clip(line), diffHint(line))
	}
	p.i++
	switch op.Kind {
	case Add, Replace:
		lines, err := p.content()
		if err != nil {
			return nil, err
		}
		op.Lines = lines
	case Delete:
		if p.sectionEnd(); !p.atSectionEnd(p.i) {
			p.i = p.blankRun(p.i)
			return nil, p.errf(p.i, "*** Delete File takes no lines; found %q", clip(p.lines[p.i]))
		}
	case Update:
		if err := p.update(op); err != nil {
			return nil, err
		}
	}
	return op, nil
}

// path validates the path text after a header's colon.
func (p *parser) path(i int, rest, header string) (string, error) {
	raw := strings.TrimSpace(rest)
	if raw == "" {
		return "", p.errf(i, "%q needs a path after the colon", header)
	}
	clean, err := cleanPath(raw)
	if err != nil {
		return "", p.errf(i, "%v", err)
	}
	return clean, nil
}

// atSectionEnd reports whether line i starts a new section or ends the
// patch: a "***" header other than End of File and Move to, or the end.
func (p *parser) atSectionEnd(i int) bool {
	if i >= len(p.lines) {
		return true
	}
	l := p.lines[i]
	return strings.HasPrefix(l, "***") && !p.marker(i, eofMarker) && !strings.HasPrefix(l, strings.TrimSuffix(moveMarker, " "))
}

// sectionEnd moves past blank lines when they lead to the end of the
// section; otherwise it leaves p.i where it is.
func (p *parser) sectionEnd() {
	if j := p.blankRun(p.i); p.atSectionEnd(j) {
		p.i = j
	}
}

// trailingBlank reports whether lines i.. are blank up to the end of the
// section (a header, the end marker, an "@@" line, or the patch's end).
func (p *parser) trailingBlank(i int, orHunk bool) bool {
	i = p.blankRun(i)
	return p.atSectionEnd(i) || (orHunk && strings.HasPrefix(p.lines[i], "@@"))
}

// blankRun returns the index of the first non-blank line from i on.
func (p *parser) blankRun(i int) int {
	for i < len(p.lines) && isBlank(p.lines[i]) {
		i++
	}
	return i
}

// content reads the "+" lines of Add File and Replace File.
func (p *parser) content() ([]string, error) {
	lines := []string{}
	for ; p.i < len(p.lines); p.i++ {
		l := p.lines[p.i]
		switch {
		case strings.HasPrefix(l, "+"):
			lines = append(lines, l[1:])
		case p.atSectionEnd(p.i):
			return lines, nil
		case isBlank(l) && p.trailingBlank(p.i, false):
			p.sectionEnd()
			return lines, nil
		case isBlank(l):
			return nil, p.errf(p.i, "every line of the file text starts with \"+\"; write \"+\" alone for an empty line")
		default:
			return nil, p.errf(p.i, "every line of the file text starts with \"+\", found %q", clip(l))
		}
	}
	return lines, nil
}

// update reads an Update File body: an optional Move to line, then hunks.
func (p *parser) update(op *Op) error {
	if p.i < len(p.lines) && strings.HasPrefix(p.lines[p.i], strings.TrimSuffix(moveMarker, " ")) {
		dst, err := p.path(p.i, strings.TrimPrefix(p.lines[p.i], strings.TrimSuffix(moveMarker, " ")), strings.TrimSuffix(moveMarker, " "))
		if err != nil {
			return err
		}
		if dst == op.Path {
			return p.errf(p.i, "*** Move to names the file being updated (%s); remove the Move to line", dst)
		}
		op.MoveTo = dst
		p.i++
	}
	for {
		if p.sectionEnd(); p.atSectionEnd(p.i) {
			break
		}
		p.i = p.blankRun(p.i) // blank lines before a hunk header
		l := p.lines[p.i]
		var h *Hunk
		switch {
		case strings.HasPrefix(l, "@@"):
			var err error
			if h, err = p.hunkHeader(p.i, l); err != nil {
				return err
			}
			p.i++
		case len(op.Hunks) == 0 && len(l) > 0 && strings.IndexByte(" -+", l[0]) >= 0:
			h = &Hunk{Line: p.i + 1} // the first hunk may omit its "@@" line
		default:
			return p.badHunkLine(p.i, op.Hunks == nil)
		}
		if err := p.hunkBody(h); err != nil {
			return err
		}
		op.Hunks = append(op.Hunks, h)
	}
	if len(op.Hunks) == 0 && op.MoveTo == "" {
		return p.errf(op.Line-1, "*** Update File %s has no hunks and no *** Move to; add \"@@\" hunks, or use *** Delete File", op.Path)
	}
	return nil
}

// hunkHeader parses "@@", "@@ text" and "@@ line N: text".
func (p *parser) hunkHeader(i int, l string) (*Hunk, error) {
	h := &Hunk{Line: i + 1}
	rest := strings.TrimSpace(l[2:])
	if rest == "" {
		return h, nil
	}
	if unifiedHeader(rest) {
		return nil, p.errf(i, "unified-diff line numbers (%q) are not used; write \"@@\", \"@@ <anchor line>\" or \"@@ line N: <anchor line>\"", clip(l))
	}
	h.HasAnchor = true
	h.Anchor = rest
	if after, ok := strings.CutPrefix(rest, "line"); ok && len(after) > 1 && (after[0] == ' ' || after[0] == '\t') {
		num := strings.TrimLeft(after, " \t")
		end := 0
		for end < len(num) && num[end] >= '0' && num[end] <= '9' {
			end++
		}
		if end > 0 {
			n, err := strconv.Atoi(num[:end])
			if err != nil || n < 1 || end == len(num) || num[end] != ':' {
				return nil, p.errf(i, "a numbered anchor is written \"@@ line N: <text of line N>\" with N ≥ 1, found %q", clip(l))
			}
			h.AnchorLine = n
			h.Anchor = strings.TrimSpace(num[end+1:])
		}
	}
	return h, nil
}

// unifiedHeader reports whether s looks like "-12,7 +12,8 @@...".
func unifiedHeader(s string) bool {
	f := strings.Fields(s)
	if len(f) < 2 || len(f[0]) < 2 || len(f[1]) < 2 || f[0][0] != '-' || f[1][0] != '+' {
		return false
	}
	digits := func(x string) bool {
		return strings.Trim(x, "0123456789,") == "" && x[0] != ','
	}
	return digits(f[0][1:]) && digits(f[1][1:])
}

// hunkBody reads hunk lines up to the next "@@", header or end of patch.
func (p *parser) hunkBody(h *Hunk) error {
	interior := 0 // blank lines before this index are known to be inside the hunk
	for p.i < len(p.lines) {
		l := p.lines[p.i]
		if strings.HasPrefix(l, "@@") || p.atSectionEnd(p.i) {
			break
		}
		if p.marker(p.i, eofMarker) {
			h.EOF = true
			p.i++
			j := p.blankRun(p.i)
			if !p.atSectionEnd(j) && !strings.HasPrefix(p.lines[j], "@@") {
				return p.errf(j, "%q must be the last line of its hunk; found %q after it", eofMarker, clip(p.lines[j]))
			}
			break
		}
		if isBlank(l) && p.i >= interior {
			if p.trailingBlank(p.i, true) {
				p.i = p.blankRun(p.i) // blank lines at a hunk's end are spacing, not context
				break
			}
			interior = p.blankRun(p.i)
		}
		switch {
		case l == "":
			h.Lines = append(h.Lines, Line{Op: ' '}) // an empty line is an empty context line
		case strings.IndexByte(" -+", l[0]) >= 0:
			h.Lines = append(h.Lines, Line{Op: l[0], Text: l[1:]})
		default:
			return p.badHunkLine(p.i, false)
		}
		p.i++
	}
	return p.checkHunk(h)
}

func (p *parser) checkHunk(h *Hunk) error {
	if len(h.Lines) == 0 {
		return p.errf(h.Line-1, "the hunk has no lines; give context lines (\" \"), removed lines (\"-\") and added lines (\"+\")")
	}
	for _, l := range h.Lines {
		if l.Op != ' ' {
			return nil
		}
	}
	return p.errf(h.Line-1, "the hunk changes nothing (it has only context lines); add \"-\" and \"+\" lines or remove the hunk")
}

func (p *parser) badHunkLine(i int, first bool) error {
	l := p.lines[i]
	switch {
	case strings.HasPrefix(l, strings.TrimSuffix(moveMarker, " ")):
		return p.errf(i, "*** Move to must directly follow its *** Update File line")
	case strings.HasPrefix(l, `\`):
		return p.errf(i, "%q lines are not used: a file keeps its final-newline state; remove the line", clip(l))
	case first:
		return p.errf(i, "expected a hunk (a line starting with \"@@\") after *** Update File, found %q", clip(l))
	}
	return p.errf(i, "a hunk line starts with \" \" (context), \"-\" (remove) or \"+\" (add); found %q (start unchanged lines with a space)", clip(l))
}

// diffHint explains what to write instead of a unified-diff or git header.
func diffHint(l string) string {
	for _, pre := range []string{"diff ", "--- ", "+++ ", "Index: ", "@@ -"} {
		if strings.HasPrefix(l, pre) {
			return "; unified diffs are not accepted, write *** Begin Patch / *** Update File: path / @@ hunks / *** End Patch"
		}
	}
	switch {
	case strings.HasPrefix(l, "```"):
		return "; send the patch text itself, without a Markdown code fence"
	case strings.Contains(l, "<<"), strings.HasPrefix(l, "apply_patch"):
		return "; send the patch text itself, not a shell command"
	}
	return ""
}

// clip shortens s for quoting in an error message.
func clip(s string) string {
	const max = 80
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// cleanPath validates a patch path with jail.Clean and refuses the root
// itself, a path ending in "/" (a directory), and a path that cleaning
// would leave with white space at an end, which the patch text cannot
// express (it trims paths).
func cleanPath(raw string) (string, error) {
	c, err := jail.Clean(raw)
	if err != nil {
		var je *jail.Error
		if errors.As(err, &je) && je.Reason != "" {
			return "", fmt.Errorf("path %q refused: %s", clip(raw), je.Reason)
		}
		return "", fmt.Errorf("path %q refused: %v", clip(raw), err)
	}
	switch {
	case c == ".":
		return "", fmt.Errorf("path %q names the root directory; name a file", clip(raw))
	case strings.HasSuffix(raw, "/"):
		return "", fmt.Errorf("path %q ends in \"/\", which names a directory; name a file", clip(raw))
	case strings.TrimSpace(c) != c:
		return "", fmt.Errorf("path %q is %q once cleaned, a name that begins or ends with white space; "+
			"apply_patch removes white space around paths, so rename such a file with the REPL", clip(raw), c)
	}
	return c, nil
}
