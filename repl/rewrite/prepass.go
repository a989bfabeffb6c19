// The pre-pass: Python habits Starlark cannot parse, rewritten into
// Starlark that has their Python meaning, before the code is parsed.

package rewrite

import (
	"regexp"
	"sort"
	"strings"
)

// The pre-pass reads a REPL call as Python (prepass_scan.go tokenizes it,
// prepass_expr.go parses expressions, prepass_emit.go writes them back)
// and rewrites only the forms Starlark's parser refuses:
//
//	f"{x:>5} {y!r} {z=}"        "{:>5} {!r} z={!r}".format(x, y, z)
//	"a" "b"                     ("a" + "b")
//	"\d", "\xe9", u"x", 1_000   "\\d", "\u00e9", "x", 1000
//	x ** y                      x [y]            (marked: the AST pass makes it a call)
//	x is None, x is not y       x == None, x != y  (marked: identity where it matters)
//	0 < x < 10                  (0 < x and x < 10)  (middle operands must be simple)
//	f(x for x in xs)            f([x for x in xs])  (marked: a one-pass iterator)
//	{**a, "k": v}               __py_dict(a, {"k": v})
//	import a.b as c             c = __py_import("a.b", True)
//	from a import b as c        [c] = __py_from("a", "b")
//	assert t, m                 __py_assert(t, lambda: (m))
//	raise E from c              __py_raise(E, c)
//	del d[k], xs[1:], x         __py_delitem(d, k); __py_delslice(xs, 1, None, None); __py_delname("x")
//	try: / except E as e: / else: / finally:   (top level only)
//	                            if __py_try(): / elif __py_except(E, "e"): / elif __py_else(): / elif __py_finally():
//	with A as a, B:             for (a, __py_w) in __py_with(A, B):  (top level; in a def, prepass_withdef.go)
//	@d                          the decorator line emptied, and d applied after the def: f = d(f)
//	def f(x: int = 1) -> str:   def f(x = 1):
//	x: int = 1                  x = 1
//	a, *b = xs                  a, b = __py_unpack(xs, 1, 0)
//	if (m := f(x)) is None:     m = f(x) on a line before; if (m) is None:
//	[a, *b], (*a, 1), {*a}      __py_display("list", [a], b), ...
//	nonlocal x                  __py_nonlocal("x")  (the AST pass keeps x in the enclosing function's locals dict)
//	match s: / case P if g:     an if/elif chain over __py_match (prepass_match.go)
//	yield x, yield from xs      __py_yield((x)), __py_yield_from((xs)); the def then f = __py_generator(f)
//
// The driver (repl/driver.go) runs the try and with markers. Text outside the
// rewritten statements is copied byte for byte, so code without these
// habits reaches Starlark unchanged; the position map sends error
// positions in rewritten code back to the user's line and column. A form
// whose Python meaning cannot be kept (a chained comparison over a call,
// a del of a function's local) is refused with a prepassError at the
// user's position. Code the pre-pass cannot read is left for Starlark to
// report.

// Prepassed is the rewritten code.
type Prepassed struct {
	Text  string
	PM    *PosMap                      // nil when text is the input
	Marks map[markKind]map[[2]int]bool // positions (line, col) in text of marked tokens
	Loads bool                         // the name load was renamed (loadName)
}

// pline is one logical line.
type pline struct {
	toks       []token
	indent     int
	start, end int
	kw         string // the first token when it is a name
	colon      int    // index in toks of a compound statement's colon, or -1
	header     bool   // a compound statement whose suite is on the following lines
	kids       []*pline
	parent     *pline
	prev       *pline // the previous line at the same level
	deco       []*pline
}

// lastLine returns the last logical line of l's block.
func (l *pline) lastLine() *pline {
	for len(l.kids) > 0 {
		l = l.kids[len(l.kids)-1]
	}
	return l
}

type edit struct {
	start, end int
	f          frag
}

// rewriter collects the edits of one call's code.
type rewriter struct {
	src    string
	toks   []token
	edits  []edit
	err    *Error
	loads  map[int]bool   // offsets of the name "load", a keyword in Starlark
	breaks map[int]string // break statements of loops with an else clause: their flag
	elses  map[*pline]string
	tries  map[*pline]*defTry // the clause lines of tries inside functions
	annots map[*pline]frag    // the annotations of a def: ("name", (expr)), ... for __py_annotate
	// lazyAnnots: the code has from __future__ import annotations, so a
	// def's annotations are kept as their text (PEP 563), not evaluated.
	lazyAnnots bool
}

var futureAnnotations = regexp.MustCompile(`(?m)^from[ \t]+__future__[ \t]+import[^\n#]*\bannotations\b`)

type scope struct {
	top      bool            // not inside a def or a class
	def      bool            // inside a def
	loop     bool            // inside a loop of the current function (or of the top level)
	loopFlag string          // the else flag of that loop, when it has an else clause
	globals  map[string]bool // names the current def declares global
	clause   *defTry         // inside a clause function of this try (prepass_trydef.go)
}

// Prepass rewrites src; see the comment above. The error, when not nil,
// is a *prepassError.
func Prepass(src string) (*Prepassed, error) {
	if i := strings.IndexByte(src, 0); i >= 0 {
		return nil, &Error{Pos: i, Msg: "source code cannot contain null bytes"} // Starlark would stop reading there
	}
	toks, err := tokenize(src, 0, len(src), 0)
	if se, ok := err.(*scanError); ok && strings.HasPrefix(se.msg, "f-string") {
		return nil, &Error{Pos: se.pos, Msg: se.msg} // Starlark would not know it is one
	}
	if err != nil || !mayHaveHabits(toks) {
		return &Prepassed{Text: src}, nil // Starlark reports what it cannot read
	}
	rw := &rewriter{src: src, toks: toks, loads: map[int]bool{}, breaks: map[int]string{}, elses: map[*pline]string{}, tries: map[*pline]*defTry{}, annots: map[*pline]frag{}}
	rw.lazyAnnots = futureAnnotations.MatchString(src)
	for _, t := range toks {
		if t.kw("load") {
			rw.loads[t.start] = true
		}
	}
	root := &pline{colon: -1}
	root.kids = rw.nest(rw.lines())
	rw.block(root.kids, scope{top: true})
	if rw.err != nil {
		return nil, rw.err
	}
	if len(rw.edits) == 0 && len(rw.loads) == 0 {
		return &Prepassed{Text: src}, nil
	}
	sort.SliceStable(rw.edits, func(i, j int) bool { return rw.edits[i].start < rw.edits[j].start })
	var f frag
	pos := 0
	for _, e := range rw.edits {
		if e.start < pos {
			continue // overlapping edits cannot happen; keep the first
		}
		f.copy(src, pos, e.start)
		f.addFrag(e.f)
		pos = e.end
	}
	f.copy(src, pos, len(src))
	f = renameLoads(f, rw.loads)
	pm := newPosMap(src, f)
	out := &Prepassed{Text: pm.out, PM: pm, Marks: map[markKind]map[[2]int]bool{}, Loads: len(rw.loads) > 0}
	off := 0
	for _, p := range f {
		if p.mark != markNone {
			line, col := pm.outPosition(off)
			if out.Marks[p.mark] == nil {
				out.Marks[p.mark] = map[[2]int]bool{}
			}
			out.Marks[p.mark][[2]int{line, col}] = true
		}
		off += len(p.text)
	}
	return out, nil
}

// mayHaveHabits is a quick look for tokens that start a habit, so that
// most code skips the statement parse.
func mayHaveHabits(toks []token) bool {
	var prev token
	assigns := 0 // "=" at depth 0 on the current line: two are a chained assignment
	for _, t := range toks {
		if prev.op(",") && (t.op("=") || t.kind == tNewline || t.kind == tEOF) {
			return true // x, = v and v = 1, (a tuple with a trailing comma)
		}
		switch t.kind {
		case tNewline:
			assigns = 0
		case tName:
			switch t.text {
			case "import", "from", "try", "except", "finally", "with", "assert", "raise", "del", "global", "is", "for", "def", "load", "else", "class",
				"nonlocal", "match", "yield":
				return true
			}
		case tString:
			if prev.kind == tString || stringNeedsFix(t.text) {
				return true
			}
		case tNumber:
			if numberNeedsFix(t.text) {
				return true
			}
		case tOp:
			switch t.text {
			case "**", "**=", "@", ":=", "...", "<", ">", "<=", ">=", "==", "!=", ":", "*", "{":
				return true
			case "=":
				if t.depth == 0 {
					if assigns++; assigns > 1 {
						return true
					}
				}
			}
		}
		prev = t
	}
	return false
}

// lines splits the tokens into logical lines.
func (rw *rewriter) lines() []*pline {
	var out []*pline
	start := 0
	for i, t := range rw.toks {
		if t.kind != tNewline && t.kind != tEOF {
			continue
		}
		if i > start {
			toks := rw.toks[start:i]
			l := &pline{toks: toks, start: toks[0].start, end: toks[len(toks)-1].end, colon: -1}
			l.indent = indentOf(rw.src, l.start)
			if toks[0].kind == tName {
				l.kw = toks[0].text
			} else if toks[0].op("@") {
				l.kw = "@"
			}
			l.colon = headerColon(l)
			if l.kw == "match" && isMatchStmt(l) {
				l.colon = len(toks) - 1
			}
			l.header = l.colon >= 0 && l.colon == len(toks)-1
			out = append(out, l)
		}
		start = i + 1
	}
	return out
}

// indentOf returns the column of offset i within its line (tabs to the
// next multiple of 8, as Python counts).
func indentOf(src string, i int) int {
	j := strings.LastIndexByte(src[:i], '\n') + 1
	col := 0
	for ; j < i; j++ {
		if src[j] == '\t' {
			col += 8 - col%8
		} else {
			col++
		}
	}
	return col
}

var compoundKeywords = map[string]bool{
	"if": true, "elif": true, "else": true, "while": true, "for": true, "try": true, "except": true,
	"finally": true, "with": true, "def": true, "class": true, "async": true,
}

// headerColon finds the colon ending a compound statement's header.
func headerColon(l *pline) int {
	if !compoundKeywords[l.kw] {
		return -1
	}
	lambdas := 0
	for i, t := range l.toks {
		if t.depth != 0 {
			continue
		}
		switch {
		case t.kw("lambda"):
			lambdas++
		case t.op(":") && lambdas > 0:
			lambdas--
		case t.op(":"):
			return i
		}
	}
	return -1
}

// nest builds the block structure from indentation.
func (rw *rewriter) nest(lines []*pline) []*pline {
	root := &pline{indent: -1}
	stack := []*pline{root}
	var decos []*pline
	for _, l := range lines {
		for len(stack) > 1 && stack[len(stack)-1].indent >= l.indent {
			stack = stack[:len(stack)-1]
		}
		parent := stack[len(stack)-1]
		if l.kw == "@" {
			decos = append(decos, l)
		} else if len(decos) > 0 {
			l.deco, decos = decos, nil
		}
		if l.kw == "case" && parent.kw == "match" && parent.header {
			l.colon = caseColon(l) // a case clause only inside a match statement
			l.header = l.colon >= 0 && l.colon == len(l.toks)-1
		}
		l.parent = parent
		if n := len(parent.kids); n > 0 {
			l.prev = parent.kids[n-1]
		}
		parent.kids = append(parent.kids, l)
		if l.header {
			stack = append(stack, l)
		}
	}
	return root.kids
}

func (rw *rewriter) fail(pos int, msg string) {
	if rw.err == nil {
		rw.err = &Error{Pos: pos, Msg: msg}
	}
}

// block rewrites a sequence of lines and their suites.
func (rw *rewriter) block(lines []*pline, sc scope) {
	for i, l := range lines {
		if rw.err != nil {
			return
		}
		inner := sc
		if l.kw == "match" && l.header {
			rw.matchStmt(l, sc) // prepass_match.go
			continue
		}
		switch l.kw {
		case "def":
			inner = scope{def: true, globals: declaredGlobals(l)}
		case "class":
			rw.classStmt(l, sc)
			if len(l.deco) > 0 {
				rw.decorate(l)
			}
			continue
		case "for", "while":
			inner.loop, inner.loopFlag = true, ""
			if i+1 < len(lines) && lines[i+1].kw == "else" {
				rw.loopElse(l, lines[i+1])
				inner.loopFlag = rw.elses[lines[i+1]]
			}
		case "try":
			if !sc.top {
				rw.setupTry(lines, i, sc)
			}
		case "with":
			if sc.def {
				rw.setupWith(l, sc) // prepass_withdef.go
			}
		}
		t := rw.tries[l]
		if t != nil {
			inner = t.clauseScope()
		}
		rw.line(l, sc)
		rw.block(l.kids, inner)
		if l.kw == "def" && rw.annots[l] != nil {
			rw.annotate(l) // on the function itself, before it becomes a generator or is decorated
		}
		if l.kw == "def" && yields(l) {
			rw.markGenerator(l) // before the decorators, which wrap the generator function
		}
		if l.kw == "def" && len(l.deco) > 0 {
			rw.decorate(l) // after the body, whose own trailers come first
		}
		if t != nil && t.last() == l {
			rw.tryTrailer(t)
		}
	}
}

// line rewrites one logical line.
func (rw *rewriter) line(l *pline, sc scope) {
	lb := &lineBuilder{rw: rw, l: l, pos: l.start}
	switch l.kw {
	case "@":
		return // decorate rewrites decorator lines with their def
	case "try", "except", "finally":
		switch t := rw.tries[l]; {
		case t != nil:
			rw.defTryClause(lb, t)
		case sc.top:
			rw.tryClause(lb, sc)
		default:
			return // a clause without its try: Starlark's error
		}
	case "else":
		switch flag, loopElse := rw.elses[l]; {
		case rw.tries[l] != nil:
			rw.defTryClause(lb, rw.tries[l])
			lb.finish()
			return
		case loopElse:
			lb.replace(l.toks[0].start, l.toks[0].end, "if "+flag)
		case sc.top && l.prev != nil && l.prev.kw == "except":
			lb.replace(l.toks[0].start, l.toks[0].end, "elif __py_else()")
		}
		rw.inline(lb, sc)
	case "with":
		rw.withStmt(lb, sc)
	case "def":
		rw.defStmt(lb, sc)
	case "if", "elif", "while":
		rw.condHeader(lb, sc)
	case "for":
		rw.forHeader(lb, sc)
	default:
		if l.colon >= 0 {
			return // async and the like: left to Starlark
		}
		rw.simpleStmts(lb, 0, len(l.toks), sc)
	}
	lb.finish()
}

// lineBuilder assembles the rewritten text of one logical line.
type lineBuilder struct {
	rw      *rewriter
	l       *pline
	f       frag
	pos     int
	changed bool
}

func (lb *lineBuilder) copyTo(off int) {
	if off > lb.pos {
		lb.f.copy(lb.rw.src, lb.pos, off)
		lb.pos = off
	}
}

// replace writes text instead of the source range [a, b).
func (lb *lineBuilder) replace(a, b int, text string) {
	lb.copyTo(a)
	lb.f.add(text, a)
	lb.pos = b
	lb.changed = true
}

// node writes an expression parsed from the line, rewritten if needed.
func (lb *lineBuilder) node(e *emitter, n *node) {
	if n == nil || !n.dirty {
		return
	}
	a, b := e.span(n)
	lb.copyTo(a)
	e.emit(n, &lb.f)
	if e.err != nil {
		lb.rw.fail(e.err.Pos, e.err.Msg)
	}
	lb.pos = b
	lb.changed = true
}

func (lb *lineBuilder) finish() {
	if !lb.changed || lb.rw.err != nil {
		return
	}
	lb.copyTo(lb.l.end)
	lb.rw.edits = append(lb.rw.edits, edit{start: lb.l.start, end: lb.l.end, f: lb.f})
}

// parser returns an expression parser over the line's tokens [a, b).
func (rw *rewriter) parser(l *pline, a, b int) *exprParser {
	base := rw.index(l)
	return &exprParser{src: rw.src, toks: rw.toks, i: base + a, end: base + b}
}

// index returns the index in rw.toks of the line's first token.
func (rw *rewriter) index(l *pline) int {
	return sort.Search(len(rw.toks), func(i int) bool { return rw.toks[i].start >= l.start })
}

func (rw *rewriter) emitter() *emitter { return &emitter{src: rw.src, toks: rw.toks, loads: rw.loads} }

// loadName stands in the rewritten text for the name load (json.load, a
// variable load), which Starlark reserves; the AST pass renames it back.
const loadName = "__py_load"

// renameLoads replaces the name load in copied source with loadName.
func renameLoads(f frag, loads map[int]bool) frag {
	if len(loads) == 0 {
		return f
	}
	var out frag
	for _, p := range f {
		if !p.exact {
			out = append(out, p)
			continue
		}
		start := 0
		for i := 0; i+4 <= len(p.text); i++ {
			if loads[p.orig+i] && p.text[i:i+4] == "load" {
				out.copyText(p.text[start:i], p.orig+start)
				out.add(loadName, p.orig+i)
				start = i + 4
				i += 3
			}
		}
		out.copyText(p.text[start:], p.orig+start)
	}
	return out
}

// inline rewrites the simple statements after a compound header's colon.
func (rw *rewriter) inline(lb *lineBuilder, sc scope) {
	if l := lb.l; l.colon >= 0 && l.colon < len(l.toks)-1 {
		rw.simpleStmts(lb, l.colon+1, len(l.toks), sc)
	}
}

// simpleStmts rewrites the simple statements in the line's tokens [a, b),
// separated by semicolons.
func (rw *rewriter) simpleStmts(lb *lineBuilder, a, b int, sc scope) {
	toks := lb.l.toks
	start := a
	for i := a; i <= b; i++ {
		if i == b || (toks[i].op(";") && toks[i].depth == 0) {
			if i > start {
				rw.simpleStmt(lb, start, i, sc)
			}
			start = i + 1
		}
	}
}
