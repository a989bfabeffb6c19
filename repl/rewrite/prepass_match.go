// The match statement, rewritten into an if/elif chain over __py_match.

package rewrite

import (
	"strconv"
	"strings"
)

// A match statement keeps its lines and indentation:
//
//	match SUBJECT:              __py_m3, __py_c3 = (SUBJECT), [None]
//	                            if True:
//	    case [x, *rest] if x:       if __py_match(__py_m3, ("s", (("c", "x"),), 1, "rest"), __py_c3, ("x", "rest")) and (lambda x, rest: (x))(*__py_c3[0]):
//	        body                        x, rest = __py_c3[0]
//	                                    body
//	    case Point(x=0) | None:     elif __py_match(__py_m3, ("o", (("k", Point, (), (("x", ("v", 0)),)), ("i", None))), __py_c3, ()):
//
// The pattern becomes data (repl/pymatch.go reads it), with its literals,
// dotted names and classes evaluated where the case stands. The captures
// are bound only when the case is taken, after its guard saw them.

// isMatchStmt reports whether a line starting with the name match is a
// match statement: match SUBJECT: (match is a soft keyword, also a name).
func isMatchStmt(l *pline) bool {
	n := len(l.toks)
	if n < 3 || !l.toks[n-1].op(":") || l.toks[n-1].depth != 0 {
		return false
	}
	t := l.toks[1]
	return !(t.kind == tOp && (t.text == ":" || t.text == "." || strings.HasSuffix(t.text, "=") && t.text != "==" || t.text == ","))
}

// caseColon returns the colon ending a case line's header, or -1 when
// the line is not one (case as a name: case = 1).
func caseColon(l *pline) int {
	if len(l.toks) < 3 {
		return -1
	}
	if t := l.toks[1]; t.kind == tOp && !(t.text == "(" || t.text == "[" || t.text == "{" || t.text == "-" || t.text == "*") {
		return -1
	}
	for i, t := range l.toks {
		if t.depth == 0 && t.op(":") {
			return i
		}
	}
	return -1
}

// matchStmt rewrites a match statement and its cases.
func (rw *rewriter) matchStmt(l *pline, sc scope) {
	line, _ := LineCol(rw.src, LineStarts(rw.src), l.start)
	m, c := "__py_m"+strconv.Itoa(line), "__py_c"+strconv.Itoa(line)
	toks := l.toks
	n := len(toks)
	lb := &lineBuilder{rw: rw, l: l, pos: l.start}
	lb.replace(toks[0].start, toks[0].end, m+", "+c+" = (")
	rw.exprs(lb, 1, n-1, true, sc)
	lb.replace(toks[n-1].start, toks[n-1].end, "), [None]\n"+rw.indentText(l)+"if True:")
	lb.finish()
	if len(l.kids) == 0 {
		rw.fail(toks[n-1].end, "SyntaxError: expected an indented block of case clauses after the match statement")
	}
	for i, k := range l.kids {
		if k.kw != "case" || k.colon < 0 {
			rw.fail(k.start, "SyntaxError: a match statement holds only case clauses (case PATTERN:)")
			return
		}
		rw.caseLine(k, i == 0, i == len(l.kids)-1, m, c, sc)
		rw.block(k.kids, sc)
	}
}

// indentText is the text before a line's first token on its line.
func (rw *rewriter) indentText(l *pline) string {
	return rw.src[strings.LastIndexByte(rw.src[:l.start], '\n')+1 : l.start]
}

// caseLine rewrites case PATTERN [if GUARD]: as if or elif.
func (rw *rewriter) caseLine(k *pline, first, last bool, m, c string, sc scope) {
	toks, colon := k.toks, k.colon
	end, guard := colon, -1
	for i := 1; i < colon; i++ {
		if toks[i].depth == 0 && toks[i].kw("if") {
			end, guard = i, i
			break
		}
	}
	pp := &patParser{toks: toks, i: 1, end: end, seen: map[string]bool{}}
	p := pp.top()
	if pp.err == "" && pp.i != end {
		pp.fail(pp.i, "invalid pattern")
	}
	if pp.err == "" && guard < 0 && !last && p.irrefutable() {
		pp.fail(1, "irrefutable pattern is allowed only for the last case statement")
	}
	if pp.err != "" {
		rw.fail(toks[min(pp.errAt, end)].start, "SyntaxError: "+pp.err)
		return
	}
	kw := "elif "
	if first {
		kw = "if "
	}
	lb := &lineBuilder{rw: rw, l: k, pos: k.start}
	w := &patWriter{rw: rw, lb: lb, l: k}
	w.text(kw + "__py_match(" + m + ", ")
	w.pattern(p)
	quoted := make([]string, len(pp.names))
	for i, n := range pp.names {
		quoted[i] = strconv.Quote(n)
	}
	w.text(", " + c + ", (" + strings.Join(quoted, ", ") + trailingComma(len(quoted)) + "))")
	names := strings.Join(pp.names, ", ")
	if guard >= 0 {
		if len(pp.names) > 0 {
			w.text(" and (lambda " + names + ": (")
		} else {
			w.text(" and ((")
		}
		lb.replace(lb.pos, toks[guard+1].start, w.pending)
		w.pending = ""
		rw.exprs(lb, guard+1, colon, false, sc)
		lb.copyTo(toks[colon-1].end)
		if len(pp.names) > 0 {
			w.text("))(*" + c + "[0])")
		} else {
			w.text("))")
		}
	}
	bind := ""
	switch len(pp.names) {
	case 0:
	case 1:
		bind = names + " = " + c + "[0][0]"
	default:
		bind = names + " = " + c + "[0]"
	}
	switch {
	case colon < len(toks)-1 && bind != "":
		w.text(": " + bind + ";")
	default:
		w.text(":")
	}
	lb.replace(lb.pos, toks[colon].end, w.pending)
	if colon < len(toks)-1 {
		rw.simpleStmts(lb, colon+1, len(toks), sc)
	} else if bind != "" && len(k.kids) > 0 {
		body := k.kids[0]
		at := strings.LastIndexByte(rw.src[:body.start], '\n') + 1
		var f frag
		f.add(rw.src[at:body.start]+bind+"\n", body.start)
		rw.edits = append(rw.edits, edit{start: at, end: at, f: f})
	}
	lb.finish()
}

func trailingComma(n int) string {
	if n == 1 {
		return ","
	}
	return ""
}

// pat is a parsed pattern (see repl/pymatch.go for the kinds).
type pat struct {
	kind  string
	kids  []*pat
	keys  [][2]int // "m": each key's tokens
	name  string   // "c", "a", the star of "s", the rest of "m"
	a, b  int      // "v", "i": the value's tokens; "k": the class's
	star  int      // "s": index of the starred item, or -1
	nargs int      // "k": positional sub-patterns (the first kids)
	attrs []string // "k": names of the keyword sub-patterns (the other kids)
}

func (p *pat) irrefutable() bool {
	switch p.kind {
	case "w", "c":
		return true
	case "a":
		return p.kids[0].irrefutable()
	case "o":
		for _, k := range p.kids {
			if k.irrefutable() {
				return true
			}
		}
	}
	return false
}

// patParser parses a case's pattern from a line's tokens [i, end).
type patParser struct {
	toks   []token
	i, end int
	names  []string // captures in order
	seen   map[string]bool
	err    string
	errAt  int
}

func (pp *patParser) fail(at int, msg string) {
	if pp.err == "" {
		pp.err, pp.errAt = msg, at
	}
}

func (pp *patParser) tok() token {
	if pp.i >= pp.end {
		return token{kind: tEOF}
	}
	return pp.toks[pp.i]
}

func (pp *patParser) peek() token {
	if pp.i+1 >= pp.end {
		return token{kind: tEOF}
	}
	return pp.toks[pp.i+1]
}

func (pp *patParser) capture(at int, name string) {
	if pp.seen[name] {
		pp.fail(at, "multiple assignments to name '"+name+"' in pattern")
		return
	}
	pp.seen[name] = true
	pp.names = append(pp.names, name)
}

// top is the pattern of a case: an open sequence (case a, b:) or one.
func (pp *patParser) top() *pat {
	first := pp.item()
	if !pp.tok().op(",") {
		if first.kind == "*" {
			pp.fail(pp.i, "star pattern outside a sequence")
		}
		return first
	}
	return pp.sequence(first, "")
}

// item is a pattern or, in a sequence, *name.
func (pp *patParser) item() *pat {
	if pp.tok().op("*") {
		pp.i++
		t := pp.tok()
		if t.kind != tName || pyKeywords[t.text] {
			pp.fail(pp.i, "expected a name after *")
			return &pat{kind: "w"}
		}
		pp.i++
		p := &pat{kind: "*"}
		if t.text != "_" {
			p.name = t.text
			pp.capture(pp.i-1, t.text)
		}
		return p
	}
	return pp.asPattern()
}

// sequence parses the items after first up to close ("" for an open
// sequence).
func (pp *patParser) sequence(first *pat, close string) *pat {
	s := &pat{kind: "s", star: -1}
	add := func(p *pat) {
		if p.kind == "*" {
			if s.star >= 0 {
				pp.fail(pp.i, "multiple starred names in sequence pattern")
			}
			s.star, s.name = len(s.kids), p.name
		}
		s.kids = append(s.kids, p)
	}
	if first != nil {
		add(first)
	}
	for pp.err == "" {
		if close != "" && pp.tok().op(close) {
			break
		}
		if first != nil || len(s.kids) > 0 {
			if !pp.tok().op(",") {
				break
			}
			pp.i++
			if pp.tok().kind == tEOF || close != "" && pp.tok().op(close) {
				break
			}
		}
		add(pp.item())
	}
	return s
}

func (pp *patParser) asPattern() *pat {
	p := pp.orPattern()
	if pp.tok().kw("as") {
		pp.i++
		t := pp.tok()
		if t.kind != tName || pyKeywords[t.text] || t.text == "_" {
			pp.fail(pp.i, "invalid pattern target")
			return p
		}
		pp.i++
		pp.capture(pp.i-1, t.text)
		return &pat{kind: "a", kids: []*pat{p}, name: t.text}
	}
	return p
}

func (pp *patParser) orPattern() *pat {
	at, before := pp.i, len(pp.names)
	p := pp.closed()
	if !pp.tok().op("|") {
		return p
	}
	or := &pat{kind: "o", kids: []*pat{p}}
	bound := append([]string(nil), pp.names[before:]...)
	for pp.tok().op("|") && pp.err == "" {
		pp.i++
		pp.forget(before) // each alternative binds the same names
		or.kids = append(or.kids, pp.closed())
		if !sameNames(bound, pp.names[before:]) {
			pp.fail(at, "alternative patterns bind different names")
		}
		pp.forget(before)
		for _, n := range bound {
			pp.capture(at, n)
		}
	}
	return or
}

// forget drops the captures from the n-th on.
func (pp *patParser) forget(n int) {
	for _, name := range pp.names[n:] {
		delete(pp.seen, name)
	}
	pp.names = pp.names[:n]
}

func sameNames(want, got []string) bool {
	if len(want) != len(got) {
		return false
	}
	set := map[string]bool{}
	for _, n := range want {
		set[n] = true
	}
	for _, n := range got {
		if !set[n] {
			return false
		}
	}
	return true
}

// closed is one pattern without | or as.
func (pp *patParser) closed() *pat {
	t := pp.tok()
	start := pp.i
	switch {
	case t.kind == tName && (t.text == "None" || t.text == "True" || t.text == "False"):
		pp.i++
		return &pat{kind: "i", a: start, b: pp.i}
	case t.kind == tName && !pyKeywords[t.text]:
		pp.i++
		for pp.tok().op(".") && pp.peek().kind == tName {
			pp.i += 2
		}
		switch {
		case pp.tok().op("("):
			return pp.class(start, pp.i)
		case pp.i > start+1:
			return &pat{kind: "v", a: start, b: pp.i}
		case t.text == "_":
			return &pat{kind: "w"}
		}
		pp.capture(start, t.text)
		return &pat{kind: "c", name: t.text}
	case t.kind == tNumber || t.op("-") && pp.peek().kind == tNumber:
		if t.op("-") {
			pp.i++
		}
		pp.i++
		return &pat{kind: "v", a: start, b: pp.i}
	case t.kind == tString:
		for pp.tok().kind == tString {
			pp.i++
		}
		return &pat{kind: "v", a: start, b: pp.i}
	case t.op("("):
		pp.i++
		if pp.tok().op(")") {
			pp.i++
			return &pat{kind: "s", star: -1}
		}
		first := pp.item()
		if !pp.tok().op(",") {
			pp.expect(")")
			if first.kind == "*" {
				pp.fail(start, "star pattern outside a sequence")
			}
			return first // a group
		}
		s := pp.sequence(first, ")")
		pp.expect(")")
		return s
	case t.op("["):
		pp.i++
		s := pp.sequence(nil, "]")
		pp.expect("]")
		return s
	case t.op("{"):
		return pp.mapping()
	}
	pp.fail(pp.i, "invalid pattern")
	return &pat{kind: "w"}
}

func (pp *patParser) expect(op string) {
	if !pp.tok().op(op) {
		pp.fail(pp.i, "expected '"+op+"'")
		return
	}
	pp.i++
}

// mapping is {KEY: pattern, ..., **rest}.
func (pp *patParser) mapping() *pat {
	pp.i++ // {
	m := &pat{kind: "m"}
	for pp.err == "" && !pp.tok().op("}") {
		if pp.tok().op("**") {
			pp.i++
			t := pp.tok()
			if t.kind != tName || pyKeywords[t.text] || t.text == "_" {
				pp.fail(pp.i, "invalid **rest in a mapping pattern")
				break
			}
			pp.i++
			m.name = t.text
			pp.capture(pp.i-1, t.text)
		} else {
			key := pp.closed()
			if key.kind != "v" && key.kind != "i" {
				pp.fail(pp.i, "mapping pattern keys may only match literals and attribute lookups")
				break
			}
			pp.expect(":")
			m.keys = append(m.keys, [2]int{key.a, key.b})
			m.kids = append(m.kids, pp.asPattern())
		}
		if !pp.tok().op(",") {
			break
		}
		pp.i++
	}
	pp.expect("}")
	return m
}

// class is Cls(p, ..., attr=p, ...), the class's tokens [a, b).
func (pp *patParser) class(a, b int) *pat {
	pp.i++ // (
	k := &pat{kind: "k", a: a, b: b}
	for pp.err == "" && !pp.tok().op(")") {
		if t := pp.tok(); t.kind == tName && pp.peek().op("=") {
			pp.i += 2
			k.attrs = append(k.attrs, t.text)
			k.kids = append(k.kids, pp.asPattern())
		} else {
			if len(k.attrs) > 0 {
				pp.fail(pp.i, "positional patterns follow keyword patterns")
				break
			}
			k.kids = append(k.kids, pp.asPattern())
			k.nargs++
		}
		if !pp.tok().op(",") {
			break
		}
		pp.i++
	}
	pp.expect(")")
	return k
}

// patWriter writes a pattern as the data repl/pymatch.go reads, its values as
// the user's expressions (rewritten where they need it).
type patWriter struct {
	rw      *rewriter
	lb      *lineBuilder
	l       *pline
	pending string
}

func (w *patWriter) text(s string) { w.pending += s }

// value writes the expression in the line's tokens [a, b).
func (w *patWriter) value(a, b int) {
	lb, toks := w.lb, w.l.toks
	lb.replace(lb.pos, toks[a].start, w.pending)
	w.pending = ""
	p := w.rw.parser(w.l, a, b)
	if n := p.test(); p.err == nil && p.i == p.end {
		lb.node(w.rw.emitter(), n)
	}
	lb.copyTo(toks[b-1].end)
}

func (w *patWriter) pattern(p *pat) {
	switch p.kind {
	case "w":
		w.text(`("w",)`)
	case "c":
		w.text(`("c", ` + strconv.Quote(p.name) + `)`)
	case "v", "i":
		w.text(`("` + p.kind + `", `)
		w.value(p.a, p.b)
		w.text(")")
	case "a":
		w.text(`("a", `)
		w.pattern(p.kids[0])
		w.text(", " + strconv.Quote(p.name) + ")")
	case "o":
		w.text(`("o", (`)
		w.list(p.kids)
		w.text("))")
	case "s":
		w.text(`("s", (`)
		var subs []*pat
		for _, k := range p.kids {
			if k.kind == "*" {
				k = &pat{kind: "w"} // its place; pymatch.go skips it
			}
			subs = append(subs, k)
		}
		w.list(subs)
		w.text("), " + strconv.Itoa(p.star) + ", " + strconv.Quote(p.name) + ")")
	case "m":
		w.text(`("m", (`)
		for i, k := range p.kids {
			w.text("(")
			w.value(p.keys[i][0], p.keys[i][1])
			w.text(", ")
			w.pattern(k)
			w.text("), ")
		}
		w.text("), " + strconv.Quote(p.name) + ")")
	case "k":
		w.text(`("k", `)
		w.value(p.a, p.b)
		w.text(", (")
		w.list(p.kids[:p.nargs])
		w.text("), (")
		for i, k := range p.kids[p.nargs:] {
			w.text("(" + strconv.Quote(p.attrs[i]) + ", ")
			w.pattern(k)
			w.text("), ")
		}
		w.text("))")
	}
}

func (w *patWriter) list(ps []*pat) {
	for _, p := range ps {
		w.pattern(p)
		w.text(", ")
	}
}
