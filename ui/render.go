// Styled blocks: markdown replies, patch diffs, folded output, rlm calls.

package ui

import (
	"fmt"
	"strings"

	"harness/diffview"
	"harness/instructions"
	"harness/markdown"
	"harness/rlm"
	"harness/styled"
)

// Folding: a result or printed output of more than foldOver lines shows
// its first and last foldShow lines around a marker row.
const (
	foldOver = 12
	foldShow = 4
)

// foldKey is the key that folds and unfolds, named in the marker rows.
const foldKey = "Ctrl+O"

// rendering is a styled block's state: the lines drawn at width w for
// version ver of the block's text, and what they are drawn from.
type rendering struct {
	lines []styled.Line
	w     int
	ver   int
	valid bool

	md        *markdown.Doc // replies and reasoning: drawn block by block
	streaming bool          // a reply being streamed (its message replaces it)
	dimmed    []styled.Line // reasoning: the thinking line, then the Doc's lines dimmed
	dimmedW   int           // the width they were drawn at

	expanded bool   // a folded block shown whole
	startup  bool   // the subagent's start-up call, or its output or result
	call     *block // a start-up output or result: its call, which folds it
	res      *block // the start-up call: its result, once it arrived
	nlines   int    // lines of the text, counted at lineVer
	lineVer  int
	counted  bool

	bases  map[string]string // apply_patch: the texts its Replace Files replaced
	sub    *subStats         // rlm: the subagent's figures
	subVer int               // sub.ver the lines were drawn with

	cmds []command // help: the commands it lists

	fyi     bool       // the root's FYI call, folded into one line
	answer  bool       // a subagent's answer (an rlm result): drawn as markdown
	repl    bool       // a REPL call's result: its run() values drawn as text
	argvs   [][]string // the result's run() commands, in order
	shown   []logLine  // a REPL result's lines as shown, at shownVer
	shownOK bool       // it holds a run() value
	shownAt int        // ver+1 the lines were made at
	failure string     // apply_patch: why the patch did not apply ("" when it did)
	touched bool       // reasoning the person folded or unfolded
}

// runLines returns a REPL result's lines as shown, and whether it holds
// a run() value (only then are they not its text, line by line).
func (b *block) runLines() ([]logLine, bool) {
	if !b.r.repl || b.kind != kResult {
		return nil, false
	}
	if b.r.shownAt != b.ver+1 {
		b.r.shown, b.r.shownOK = resultLines(b.String(), b.r.argvs)
		b.r.shownAt = b.ver + 1
	}
	return b.r.shown, b.r.shownOK
}

// styledOn reports whether b is drawn from styled lines rather than its
// text wrapped in one colour.
func (b *block) styledOn() bool {
	switch b.kind {
	case kAssistant, kReasoning, kWelcome, kHelp, kUser:
		return true
	case kCall:
		return b.r.startup || b.name == rlm.ApplyPatchTool || b.name == rlm.RLMTool
	case kResult, kOutput:
		if _, ok := b.runLines(); ok {
			return true
		}
		return b.r.startup || b.r.answer || b.textLines() > foldOver
	}
	return false
}

// textLines returns how many lines b's text has (a REPL result with run()
// values: how many it is shown in).
func (b *block) textLines() int {
	if ls, ok := b.runLines(); ok {
		return len(ls)
	}
	if !b.r.counted || b.r.lineVer != b.ver {
		t := strings.TrimSuffix(b.String(), "\n")
		b.r.nlines, b.r.lineVer, b.r.counted = strings.Count(t, "\n")+1, b.ver, true
	}
	return b.r.nlines
}

// foldable reports whether a click or the fold key folds and unfolds b.
func (b *block) foldable() bool {
	switch b.kind {
	case kCall:
		return b.r.startup
	case kReasoning:
		return !b.r.streaming
	case kResult, kOutput:
		return b.r.startup && b.r.call != nil || b.textLines() > foldOver
	}
	return false
}

// toggle folds or unfolds b (a start-up output or result: its call).
func (b *block) toggle() {
	t := b
	if b.r.call != nil {
		t = b.r.call
	}
	t.r.expanded = !t.r.expanded
	t.r.touched = true
	t.r.valid = false
	t.ver++
	if t.r.res != nil { // the start-up result shows or hides with it
		t.r.res.ver++
	}
}

// folded reports whether a start-up block is hidden in its call's line.
func (b *block) startupHidden() bool {
	return b.r.call != nil && !b.r.call.r.expanded
}

// nrows returns the rows b takes at width w, its gap line included.
func (b *block) nrows(w int) int {
	if !b.styledOn() {
		return len(b.lines(w))
	}
	n := len(b.slines(w))
	if b.gap && n > 0 {
		n++
	}
	return n
}

// srow returns row i of a styled block at width w (the gap row is empty).
func (b *block) srow(w, i int) styled.Line {
	if b.gap {
		if i == 0 {
			return styled.Line{}
		}
		i--
	}
	return b.slines(w)[i]
}

// slines returns a styled block's lines at width w, without the gap.
func (b *block) slines(w int) []styled.Line {
	if !b.argsStale { // a streamed call is drawn from its arguments
		b.ensure()
	}
	subVer := 0
	if b.r.sub != nil {
		subVer = b.r.sub.ver
	}
	if b.r.valid && b.r.w == w && b.r.ver == b.ver && b.r.subVer == subVer {
		return b.r.lines
	}
	var out []styled.Line
	switch {
	case b.kind == kAssistant:
		if b.r.md == nil {
			b.r.md = &markdown.Doc{Streaming: b.r.streaming}
		}
		out = b.r.md.Lines(b.text, w)
	case b.kind == kReasoning:
		out = b.reasoningLines(w)
	case b.kind == kUser:
		out = userLines(b.text, w)
	case b.kind == kCall:
		out = b.callLines(w)
	case b.kind == kWelcome:
		out = welcomeLines(b.text, w)
	case b.kind == kHelp:
		out = helpLines(b.r.cmds, w)
	case b.kind == kResult && b.r.answer && b.r.call == nil:
		out = b.answerLines(w)
	default:
		out = b.foldLines(w)
	}
	if b.r.sub != nil {
		subVer = b.r.sub.ver // figures() may have read the saved conversation
	}
	b.r.lines, b.r.w, b.r.ver, b.r.valid, b.r.subVer = out, w, b.ver, true, subVer
	return out
}

// plainLines wraps text in one style, line by line.
func plainLines(text string, w int, st styled.Style, out []styled.Line) []styled.Line {
	for _, l := range strings.Split(text, "\n") {
		out = append(out, styled.Wrap([]styled.Span{{Text: l, Style: st}}, w, styled.Indent{})...)
	}
	return out
}

var (
	plainSt  = styled.Style{}
	markerSt = styled.Style{Class: styled.Marker, Attr: styled.Italic}
)

// foldLines draws a result or printed output: whole, or folded to its
// first and last lines around a marker; a start-up block hidden in its
// call's line draws nothing.
func (b *block) foldLines(w int) []styled.Line {
	if b.startupHidden() {
		return nil
	}
	ls, runs := b.runLines()
	if !runs {
		text := strings.TrimSuffix(b.String(), "\n")
		for _, l := range strings.Split(text, "\n") {
			ls = append(ls, plainLog(l))
		}
	}
	n := len(ls)
	if b.r.call != nil || b.r.expanded || n <= foldOver {
		out := wrapLog(ls, w, nil)
		if b.r.call != nil && b.kind == kResult {
			what := "start-up"
			if b.r.call.r.fyi {
				what = "FYI"
			}
			out = append(out, styled.Wrap([]styled.Span{{Text: "▲ " + what + " · click or " + foldKey + " to fold", Style: markerSt}}, w, styled.Indent{})...)
		} else if n > foldOver {
			out = append(out, styled.Wrap([]styled.Span{{Text: fmt.Sprintf("▲ %d lines · click or %s to fold", n, foldKey), Style: markerSt}}, w, styled.Indent{})...)
		}
		return out
	}
	out := wrapLog(ls[:foldShow], w, nil)
	marker := fmt.Sprintf("… %d more lines · click or %s to expand", n-2*foldShow, foldKey)
	out = append(out, styled.Wrap([]styled.Span{{Text: marker, Style: markerSt}}, w, styled.Indent{})...)
	return wrapLog(ls[n-foldShow:], w, out)
}

// wholeMarkers leaves out the last line of a patch being streamed while
// it is a marker line still arriving ("*** Begin Pat", "*** Update File:
// a"), and the patch while it is only its Begin Patch line: drawn as they
// stand they would show raw, or as a wrong file, for a frame or two
// before the first header replaces them.
func wholeMarkers(patch string) string {
	i := strings.LastIndexByte(patch, '\n')
	if strings.HasPrefix(patch[i+1:], "*") {
		patch = patch[:i+1]
	}
	if strings.TrimSpace(patch) == "*** Begin Patch" {
		return ""
	}
	return patch
}

// labelRow reports whether row i of reasoning b is its first, the
// thinking label (or the folded line).
func (b *block) labelRow(i int) bool {
	if b.gap {
		i--
	}
	return i == 0
}

// isMarker reports whether row i of b at width w is a fold marker.
func (b *block) isMarker(w, i int) bool {
	if !b.styledOn() || i >= b.nrows(w) {
		return false
	}
	l := b.srow(w, i)
	return len(l.Spans) == 1 && l.Spans[0].Style == markerSt
}

// callLines draws a styled call: the start-up call folded to one line, an
// apply_patch call as a diff, an rlm call with its subagent's figures.
func (b *block) callLines(w int) []styled.Line {
	args := b.callArgs
	var fields []field
	if args == "" && !b.lazy { // streamed: decoded as the arguments arrive
		args = b.argsText()
		fields, _ = b.live().dec.decode(args)
	} else if f, ok := objectFields(args); ok {
		fields = f
	} else {
		fields, _ = partialFields(args)
	}
	get := func(k string) string {
		for _, f := range fields {
			if f.key == k {
				return f.val
			}
		}
		return ""
	}
	switch {
	case b.r.startup:
		if b.r.expanded {
			return plainLines(formatCall(b.name, args), w, plainSt, nil)
		}
		if b.r.fyi {
			return styled.Wrap([]styled.Span{{Text: fyiLine(b.r.res), Style: faintSt}}, w, styled.Indent{Rest: []styled.Span{{Text: "  "}}})
		}
		summary := startupSummary(get("code"))
		if b.r.res != nil && strings.Contains(b.r.res.String(), instructions.Preamble) {
			summary += " · instructions"
		}
		return styled.Wrap([]styled.Span{{Text: "● start-up: " + summary, Style: plainSt},
			{Text: " · " + b.r.startupSize(), Style: markerSt}}, w, styled.Indent{Rest: []styled.Span{{Text: "  "}}})
	case b.name == rlm.ApplyPatchTool:
		var old diffview.OldText
		if b.r.bases != nil {
			old = func(p string) (string, bool) { s, ok := b.r.bases[p]; return s, ok }
		}
		text := get("patch")
		if b.r.streaming {
			text = wholeMarkers(text)
		}
		out := []styled.Line{styled.One("● "+b.name, plainSt)}
		if r := get("root"); r != "" {
			out = append(out, styled.One("root: "+r, plainSt))
		}
		switch {
		case text == "":
		case old == nil && b.r.streaming && b.r.failure == "":
			// Drawn as the patch arrives, below out: the lines drawn
			// before are not copied again.
			out = b.live().diff.LinesAfter(out, text, w)
		default:
			diff := diffview.Lines(text, old, w)
			if b.r.failure != "" {
				out = append(notAppliedHead(b.name, b.r.failure, w), out[1:]...)
				diff = notAppliedDiff(diff)
			}
			out = append(out, diff...)
		}
		for _, f := range fields {
			if f.key != "patch" && f.key != "root" {
				out = plainLines(f.key+": "+f.val, w, plainSt, out)
			}
		}
		return out
	}
	// rlm
	head := []styled.Span{{Text: "● rlm " + get("name"), Style: styled.Style{Attr: styled.Bold}}}
	if s := b.r.sub; s != nil {
		if fig := s.figures(); fig != "" {
			head = append(head, styled.Span{Text: " · " + fig, Style: markerSt})
		}
	}
	out := styled.Wrap(head, w, styled.Indent{Rest: []styled.Span{{Text: "  "}}})
	out = plainLines(get("task"), w, plainSt, out)
	for _, f := range fields {
		if f.key != "task" && f.key != "name" {
			out = plainLines(f.key+": "+f.val, w, plainSt, out)
		}
	}
	return out
}

// startupSummary names what the start-up code runs: "FYI · help() · store".
func startupSummary(code string) string {
	var parts []string
	for _, l := range strings.Split(code, "\n") {
		switch strings.TrimSpace(l) {
		case "FYI()":
			parts = append(parts, "FYI")
		case "help()":
			parts = append(parts, "help()")
		case "store_summary()":
			parts = append(parts, "store")
		case "library_summary()":
			parts = append(parts, "library")
		}
	}
	return strings.Join(parts, " · ")
}

// isStartupCode reports whether a repl call's code is the start-up call's.
func isStartupCode(args string) bool {
	fields, ok := objectFields(args)
	if !ok || len(fields) != 1 || fields[0].key != "code" {
		return false
	}
	for _, l := range strings.Split(strings.TrimSpace(fields[0].val), "\n") {
		switch strings.TrimSpace(l) {
		case "FYI()", "help()", "store_summary()", "library_summary()":
		default:
			return false
		}
	}
	return true
}

// startupSize is the size shown on the start-up line: its result's lines,
// or that it is running.
func (r *rendering) startupSize() string {
	if r.res == nil {
		return "running"
	}
	n := r.res.textLines()
	unit := "lines"
	if n == 1 {
		unit = "line"
	}
	return fmt.Sprintf("%d %s · click or %s to expand", n, unit, foldKey)
}

// click acts on a click on the transcript at p: a fold marker or the
// start-up call's line folds or unfolds, a finished rlm call opens its
// subagent.
func (a *App) click(p point) {
	d := a.main.tr.doc()
	if p.p.b >= d.n() {
		return
	}
	b, w := d.at(p.p.b), a.main.tr.w
	switch {
	case b.reviewable():
		a.openReview(b)
	case b.foldable() && (b.kind == kCall || b.isMarker(w, p.p.l) || b.kind == kReasoning && b.labelRow(p.p.l)):
		a.toggleHeld(p.p.b)
	}
}

// foldLast folds or unfolds the lowest foldable block on screen.
func (a *App) foldLast() {
	d, rows := a.main.tr.doc(), a.main.tr.rows
	for i := len(rows) - 1; i >= 0; i-- {
		if bi := rows[i].b; bi < d.n() && d.at(bi).foldable() {
			a.toggleHeld(bi)
			return
		}
	}
}

// toggleHeld folds or unfolds block bi keeping what is above it where it
// is on screen, so that an expanded block reads down from where it was
// clicked (at the bottom, the view would rather have pushed its start
// off the top); a block that starts above the screen is brought to the
// top. The view follows again when what is below no longer fills it.
func (a *App) toggleHeld(bi int) {
	d, rows := a.main.tr.doc(), a.main.tr.rows
	d.at(bi).toggle()
	if len(rows) == 0 {
		return
	}
	top := rows[0]
	if top.b == bi && top.l > 0 {
		top = pos{bi, 0}
	}
	*a.main.tr.scroll() = scroll{top: top}
}
