// The pre-pass emitter: parsed expressions back to text, rewriting the
// habits and copying everything else as written.

package rewrite

import (
	"fmt"
	"strconv"
	"strings"
)

// emitter writes expressions parsed from toks, a token list of src.
type emitter struct {
	src   string
	toks  []token
	err   *Error
	loads map[int]bool // see renameLoads
}

func (e *emitter) fail(pos int, format string, args ...any) {
	if e.err == nil {
		e.err = &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}
	}
}

func (e *emitter) span(n *node) (int, int) { return e.toks[n.a].start, e.toks[n.b-1].end }

// emit writes n, rewritten where it holds a habit.
func (e *emitter) emit(n *node, f *frag) {
	if !n.dirty {
		a, b := e.span(n)
		f.copy(e.src, a, b)
		return
	}
	switch n.kind {
	case nStrings:
		e.strings(n, f)
	case nNumber:
		a, _ := e.span(n)
		f.add(strings.ReplaceAll(e.toks[n.a].text, "_", ""), a)
	case nEllipsis:
		a, _ := e.span(n)
		f.add("Ellipsis", a)
	case nPower:
		e.power(n, f)
	case nCompare:
		e.compare(n, f)
	case nParen, nCall:
		switch {
		case n.genexp:
			e.genexp(n, f)
		case n.kind == nParen && hasStar(n):
			e.starDisplay(n, "tuple", f)
		default:
			e.generic(n, f)
		}
	case nDict:
		if n.dstar {
			e.dictMerge(n, f)
		} else {
			e.generic(n, f)
		}
	case nSet:
		if hasStar(n) {
			e.starDisplay(n, "set", f)
		} else {
			e.setDisplay(n, f)
		}
	case nList, nTuple:
		if hasStar(n) {
			e.starDisplay(n, map[nodeKind]string{nList: "list", nTuple: "tuple"}[n.kind], f)
		} else {
			e.generic(n, f)
		}
	case nComp:
		e.comp(n, f)
	case nNamed:
		e.emitNamed(n, f)
	default:
		e.generic(n, f)
	}
}

// generic writes n's own tokens as they are and its parts rewritten.
func (e *emitter) generic(n *node, f *frag) {
	pos, end := e.span(n)
	for _, k := range n.kids {
		ka, kb := e.span(k)
		f.copy(e.src, pos, ka)
		e.emit(k, f)
		pos = kb
	}
	f.copy(e.src, pos, end)
}

// power writes x ** y as x [y], marked for the AST pass, which turns it
// into a call of the exponentiation builtin. A subscript binds to the
// primary before it as ** does, and the brackets delimit y.
func (e *emitter) power(n *node, f *frag) {
	x, y := n.kids[0], n.kids[1]
	e.emit(x, f)
	_, xb := e.span(x)
	op := e.toks[x.b] // "**"
	f.copy(e.src, xb, op.start)
	f.add(" ", op.start)
	f.mark("[", op.start, markPow)
	ya, yb := e.span(y)
	f.copy(e.src, op.end, ya)
	e.emit(y, f)
	f.add("]", yb)
}

// compare writes comparisons: "is" becomes "==" (marked; the AST pass
// makes it an identity test where needed) and a chain a < b < c becomes
// (a < b and b < c) when the middle operands are simple.
func (e *emitter) compare(n *node, f *frag) {
	chain := len(n.ops) > 1
	if chain {
		for _, k := range n.kids[1 : len(n.kids)-1] {
			if k.kind == nAttr || !e.simpleOperand(k) { // an attribute may be a property
				e.chainOnce(n, f)
				return
			}
		}
		a, _ := e.span(n)
		f.add("(", a)
	}
	for i := range n.ops {
		left, right := n.kids[i], n.kids[i+1]
		if i == 0 || chain {
			e.emit(left, f)
		}
		_, lb := e.span(left)
		op := e.toks[n.ops[i]]
		f.copy(e.src, lb, op.start)
		last := e.toks[n.ops[i]+n.opn[i]-1]
		switch {
		case op.kw("is") && n.opn[i] == 2:
			f.mark("!=", op.start, markIs)
		case op.kw("is"):
			f.mark("==", op.start, markIs)
		default:
			f.copy(e.src, op.start, last.end)
		}
		ra, rb := e.span(right)
		f.copy(e.src, last.end, ra)
		e.emit(right, f)
		if chain && i < len(n.ops)-1 {
			f.add(" and ", rb)
		}
	}
	if chain {
		_, b := e.span(n)
		f.add(")", b)
	}
}

// chainOnce writes a chain a < f() < c whose middle operand is not a
// plain name or literal as __py_chain(a, "<", lambda: f(), "<", lambda: c):
// the runtime evaluates each operand once, in order, and stops at the
// first false comparison without evaluating the operands after it, as
// Python does.
func (e *emitter) chainOnce(n *node, f *frag) {
	a, _ := e.span(n)
	f.add("__py_chain(", a)
	e.emit(n.kids[0], f)
	for i := range n.ops {
		var op []string
		for _, t := range e.toks[n.ops[i] : n.ops[i]+n.opn[i]] {
			op = append(op, t.text)
		}
		right := n.kids[i+1]
		ra, rb := e.span(right)
		f.add(", "+strconv.Quote(strings.Join(op, " "))+", lambda: ", ra)
		e.emit(right, f)
		if i == len(n.ops)-1 {
			f.add(")", rb)
		}
	}
}

// genexp writes (x for ...) and f(x for ...) with brackets inside the
// parentheses, marked: the AST pass wraps the comprehension into a
// one-pass iterator, as a generator is.
func (e *emitter) genexp(n *node, f *frag) {
	kids := n.kids
	a, b := e.span(n)
	pos := a
	if n.kind == nCall {
		e.emit(kids[0], f)
		_, pos = e.span(kids[0])
		kids = kids[1:]
	}
	open := e.toks[kids[0].a-1] // "("
	f.copy(e.src, pos, open.end)
	f.mark("[", open.end, markGen)
	pos = open.end
	for _, k := range kids {
		ka, kb := e.span(k)
		f.copy(e.src, pos, ka)
		e.emit(k, f)
		pos = kb
	}
	f.add("]", pos)
	f.copy(e.src, pos, b)
}

// starDisplay writes [a, *b, c] (and the tuple and set forms) as
// __py_display("list", [a], b, [c]): lists of items alternate with the
// iterables unpacked between them, evaluated left to right.
func (e *emitter) starDisplay(n *node, kind string, f *frag) {
	a, b := e.span(n)
	f.add(`__py_display("`+kind+`", [`, a)
	open, empty := true, true // inside a [ chunk; nothing in it yet
	for _, k := range n.kids {
		ka, _ := e.span(k)
		if k.refuse != "" {
			e.fail(ka, "%s", k.refuse)
			return
		}
		switch {
		case k.kind == nStar && open:
			f.add("], ", ka)
		case k.kind == nStar:
			f.add(", [], ", ka)
		case !open:
			f.add(", [", ka)
			open, empty = true, true
		case !empty:
			f.add(", ", ka)
		}
		if k.kind == nStar {
			e.emit(k.kids[0], f)
			open = false
			continue
		}
		e.emit(k, f)
		empty = false
	}
	if open {
		f.add("]", b)
	}
	f.add(")", b)
}

// setDisplay writes {a, b} and {x for ...} as set([a, b]) and
// set([x for ...]).
func (e *emitter) setDisplay(n *node, f *frag) {
	a, b := e.span(n)
	f.add("set([", a)
	pos := a + 1
	for _, k := range n.kids {
		ka, kb := e.span(k)
		f.copy(e.src, pos, ka)
		e.emit(k, f)
		pos = kb
	}
	f.copy(e.src, pos, b-1)
	f.add("])", b-1)
}

// dictMerge writes {**a, "k": v, **b} as __py_dict(a, {"k": v}, b).
func (e *emitter) dictMerge(n *node, f *frag) {
	a, b := e.span(n)
	f.add("__py_dict(", a)
	open := false
	for i, k := range n.kids {
		ka, _ := e.span(k)
		star := len(k.kids) == 1
		switch {
		case star && open:
			f.add("}, ", ka)
			open = false
		case i > 0 && star:
			f.add(", ", ka)
		case i > 0 && open:
			f.add(", ", ka)
		case i > 0:
			f.add(", {", ka)
			open = true
		case !star:
			f.add("{", ka)
			open = true
		}
		if star {
			e.emit(k.kids[0], f)
		} else {
			e.emit(k, f)
		}
	}
	if open {
		f.add("}", b)
	}
	f.add(")", b)
}

// strings writes adjacent literals joined with + inside parentheses (Python
// joins them when compiling), each literal fixed for Starlark.
func (e *emitter) strings(n *node, f *frag) {
	if n.b-n.a == 1 {
		e.stringTok(e.toks[n.a], f)
		return
	}
	a, b := e.span(n)
	f.add("(", a)
	for k := n.a; k < n.b; k++ {
		if k > n.a {
			prev := e.toks[k-1]
			f.add(" +", prev.end)
			f.copy(e.src, prev.end, e.toks[k].start)
		}
		e.stringTok(e.toks[k], f)
	}
	f.add(")", b)
}

// stringParts splits a string token into its prefix (lower case), quote
// and body range.
func stringParts(src string, t token) (prefix, quote string, body, bodyEnd int) {
	q := t.start
	for src[q] != '"' && src[q] != '\'' {
		q++
	}
	prefix = strings.ToLower(src[t.start:q])
	quote = src[q : q+1]
	if q+2 < t.end && src[q+1] == src[q] && src[q+2] == src[q] && t.end-q >= 6 {
		quote = src[q : q+3]
	}
	return prefix, quote, q + len(quote), t.end - len(quote)
}

// stringNeedsFix reports whether a literal needs a rewrite for Starlark.
func stringNeedsFix(text string) bool {
	q := strings.IndexAny(text, `"'`)
	prefix := text[:q]
	if prefix != strings.ToLower(prefix) || strings.ContainsAny(prefix, "uf") {
		return true
	}
	if strings.Contains(prefix, "r") {
		return false
	}
	return escapesNeedFix(text[q:], strings.Contains(prefix, "b"))
}

// escapesNeedFix reports whether a non-raw literal body has an escape
// Starlark reads differently from Python.
func escapesNeedFix(body string, bytes bool) bool {
	for i := 0; i+1 < len(body); i++ {
		if body[i] == '\\' {
			if fixEscape(body[i:], bytes) != "" {
				return true
			}
			i++
		}
	}
	return false
}

// fixEscape returns the Starlark form of the escape at the start of s
// when it differs from Python's, or "": an unknown escape keeps its
// backslash, and \xHH or an octal escape above 0x7f in a str literal is a
// character (\u00HH), not a byte.
func fixEscape(s string, bytes bool) string {
	if len(s) < 2 {
		return ""
	}
	c := s[1]
	switch {
	case strings.IndexByte("\n\r\\'\"abfnrtv", c) >= 0:
		return ""
	case c == 'x':
		if !bytes && len(s) >= 4 && isHex(s[2]) && isHex(s[3]) && s[2] >= '8' {
			return `\u00` + s[2:4]
		}
		return ""
	case c >= '0' && c <= '7':
		j := 1
		v := 0
		for j < len(s) && j <= 3 && s[j] >= '0' && s[j] <= '7' {
			v = v*8 + int(s[j]-'0')
			j++
		}
		if !bytes && v > 0x7f {
			return fmt.Sprintf(`\u%04x`, v)
		}
		return ""
	case c == 'u' || c == 'U' || c == 'N':
		if bytes {
			return `\\` + string(c)
		}
		return ""
	}
	return `\\` + string(c)
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// escLen is the length of the escape at the start of s that fixEscape
// replaced.
func escLen(s string) int {
	switch c := s[1]; {
	case c == 'x':
		return 4
	case c >= '0' && c <= '7':
		j := 1
		for j < len(s) && j <= 3 && s[j] >= '0' && s[j] <= '7' {
			j++
		}
		return j
	}
	return 2
}

// body writes the source range [a, b) of a literal's body, fixing escapes
// unless raw; undouble turns {{ and }} into single braces (an f-string
// without fields becomes a plain literal).
func (e *emitter) body(a, b int, raw, bytes, undouble bool, f *frag) {
	pos := a
	for i := a; i < b; i++ {
		c := e.src[i]
		switch {
		case c == '\\' && !raw && i+1 < b:
			if fix := fixEscape(e.src[i:b], bytes); fix != "" {
				f.copy(e.src, pos, i)
				f.add(fix, i)
				i += escLen(e.src[i:b]) - 1
				pos = i + 1
			} else {
				i++
			}
		case c == '\\' && raw:
			i++
		case undouble && (c == '{' || c == '}') && i+1 < b && e.src[i+1] == c:
			f.copy(e.src, pos, i+1)
			i++
			pos = i + 1
		}
	}
	f.copy(e.src, pos, b)
}

// stringTok writes one literal.
func (e *emitter) stringTok(t token, f *frag) {
	prefix, quote, body, bodyEnd := stringParts(e.src, t)
	raw, bytes := strings.Contains(prefix, "r"), strings.Contains(prefix, "b")
	if strings.Contains(prefix, "f") {
		e.fstring(t, prefix, quote, body, f)
		return
	}
	newPrefix := strings.ReplaceAll(prefix, "u", "")
	f.add(newPrefix, t.start)
	f.copy(e.src, body-len(quote), body)
	e.body(body, bodyEnd, raw, bytes, false, f)
	f.copy(e.src, bodyEnd, t.end)
}

// fstring writes f"..." as "...".format(args): the literal keeps its text,
// each field becomes {!conv:spec}, and the expressions are the arguments.
func (e *emitter) fstring(t token, prefix, quote string, body int, f *frag) {
	raw := strings.Contains(prefix, "r")
	fs, err := parseFString(e.src, body, t.end, quote, raw)
	if err != nil {
		se := err.(*scanError)
		e.fail(se.pos, "%s", se.msg)
		return
	}
	fields := fieldsOf(fs.parts)
	f.add(strings.ReplaceAll(strings.ReplaceAll(prefix, "f", ""), "u", ""), t.start)
	f.copy(e.src, body-len(quote), body)
	e.fparts(fs.parts, raw, quote, len(fields) > 0, f)
	f.copy(e.src, fs.end-len(quote), fs.end)
	if len(fields) == 0 {
		return
	}
	f.add(".format(", t.end)
	for i, fld := range fields {
		if i > 0 {
			f.add(", ", fld.exprStart)
		}
		e.fieldArg(fld, f)
	}
	f.add(")", t.end)
}

func (e *emitter) fparts(parts []fpart, raw bool, quote string, hasFields bool, f *frag) {
	for _, p := range parts {
		fld := p.field
		if fld == nil {
			e.body(p.start, p.end, raw, false, !hasFields, f)
			continue
		}
		if fld.debugEnd > 0 {
			text := e.src[fld.exprStart:fld.debugEnd]
			if strings.ContainsAny(text, "\\\n\r"+quote[:1]) {
				e.fail(fld.exprStart, "f-string: this {expr=} field holds a quote, backslash or newline; format it without '='")
				return
			}
			text = strings.ReplaceAll(strings.ReplaceAll(text, "{", "{{"), "}", "}}")
			f.add(text, fld.exprStart)
		}
		f.add("{", fld.open)
		switch {
		case fld.conv != 0:
			f.add("!"+string(fld.conv), fld.exprEnd)
		case fld.debugEnd > 0 && !fld.hasSpec:
			f.add("!r", fld.exprEnd)
		}
		if fld.hasSpec {
			f.add(":", fld.exprEnd)
			e.fparts(fld.spec, raw, quote, true, f)
		}
		f.add("}", fld.close)
	}
}

// fieldArg writes a field's expression, rewritten, as a format argument.
func (e *emitter) fieldArg(fld *ffield, f *frag) {
	toks, err := tokenize(e.src, fld.exprStart, fld.exprEnd, 1)
	if err != nil {
		se := err.(*scanError)
		e.fail(se.pos, "f-string expression: %s", se.msg)
		return
	}
	p := &exprParser{src: e.src, toks: toks, end: len(toks) - 1}
	n := p.testList(true)
	if p.err == nil && p.i < p.end {
		p.fail("unexpected %q in an f-string expression", p.tok().text)
	}
	if p.err != nil {
		e.fail(p.err.Pos, "f-string expression: %s", p.err.Msg)
		return
	}
	for _, t := range toks {
		if t.kw("load") && e.loads != nil {
			e.loads[t.start] = true
		}
	}
	sub := &emitter{src: e.src, toks: toks, loads: e.loads}
	wrap := n.kind == nTuple || n.kind == nLambda || n.kind == nYield
	if wrap {
		f.add("(", fld.exprStart)
	}
	sub.emit(n, f)
	if wrap {
		f.add(")", fld.exprEnd)
	}
	if sub.err != nil {
		e.fail(sub.err.Pos, "%s", sub.err.Msg)
	}
}
