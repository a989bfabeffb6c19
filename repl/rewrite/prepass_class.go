// Pre-pass: a class statement, rewritten into a function that runs the
// class body and makes the class.

package rewrite

import (
	"strconv"
	"strings"
)

// A top-level class statement becomes a function named after the class,
// whose body is the class body as written, called at once:
//
//	class Point(Base):            def __py_class_Point():
//	    z = 0                         z = 0
//	    def norm(self): ...           def norm(self): ...
//	                                  __py_cls = __py_class("Point", (Base,), [("z", z), ("norm", norm)], ())
//	                                  return __py_cls
//	                              Point = __py_class_Point()
//
// __py_class (repl/pyclass.go) makes the class from the names the body bound
// and the annotated names (a dataclass's fields, in order). The methods
// are functions nested in the body's function; the AST pass makes a
// method's reads of the body's names global reads, as Python scopes them
// (astpass_locals.go), and gives super() its class (__py_cls) and
// instance. Decorators apply after: @dataclass is Point = dataclass(Point).
// The body may hold methods, assignments, annotations, a docstring and
// expressions; a compound statement or a nested class there is refused,
// and so is a class inside a function.

// classStmt rewrites the class statement l and its body.
func (rw *rewriter) classStmt(l *pline, sc scope) {
	first := l.toks[0]
	if !sc.top {
		rw.fail(first.start, "a class statement works only at the top level of a REPL call here; define the class outside the function")
		return
	}
	if l.colon < 0 || len(l.toks) < 3 || l.toks[1].kind != tName {
		return // left to Starlark's error
	}
	name := l.toks[1].text
	bases, kws, ok := rw.classBases(l)
	if !ok {
		return
	}
	body := scope{def: true}
	lb := &lineBuilder{rw: rw, l: l, pos: l.start}
	lb.replace(first.start, l.toks[l.colon].start, "def __py_class_"+name+"()")
	rw.inline(lb, body)
	lb.finish()
	var names, fields []string
	seen := map[string]bool{}
	bind := func(n string) {
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	if l.colon < len(l.toks)-1 {
		rw.classNames(l, l, l.colon+1, bind, &fields)
	}
	for _, k := range l.kids {
		switch {
		case k.kw == "def":
			if len(k.toks) > 1 && k.toks[1].kind == tName {
				bind(k.toks[1].text)
			}
		case k.kw == "@":
		case k.kw == "class":
			rw.fail(k.toks[0].start, "a class inside a class body is not supported here; define it at the top level")
			return
		case k.colon >= 0:
			rw.fail(k.toks[0].start, "a class body here may hold methods, class attributes, annotations and a docstring, not `"+k.kw+"`; compute the value before the class")
			return
		default:
			rw.classNames(l, k, 0, bind, &fields)
		}
	}
	rw.block(l.kids, body)
	if rw.err != nil {
		return
	}
	var f frag
	at := first.start
	indent := rw.src[strings.LastIndexByte(rw.src[:l.start], '\n')+1 : l.start]
	inner := "; "
	if len(l.kids) > 0 {
		k := l.kids[0]
		inner = "\n" + rw.src[strings.LastIndexByte(rw.src[:k.start], '\n')+1:k.start]
	}
	f.add(inner+classCell+" = __py_class("+strconv.Quote(name)+", (", at)
	f.addFrag(bases)
	f.add("), [", at)
	for _, n := range names {
		f.add("("+strconv.Quote(n)+", "+n+"), ", at)
	}
	f.add("], (", at)
	for _, n := range fields {
		f.add(strconv.Quote(n)+", ", at)
	}
	f.add("), (", at)
	f.addFrag(kws)
	f.add("))"+inner+"return "+classCell+"\n"+indent+name+" = __py_class_"+name+"()", at)
	if annots := rw.annots[l]; len(annots) > 0 {
		f.add("\n"+indent+"__py_annotate("+name+", lambda: [", at) // Name.__annotations__
		f.addFrag(annots)
		f.add("])", at)
	}
	end := l.lastLine().end
	rw.edits = append(rw.edits, edit{start: end, end: end, f: f})
}

// classBases returns the base classes of a class header, written for a
// tuple (each followed by a comma), and its keyword arguments, written as
// ("name", value) pairs for the base's __init_subclass__; metaclass= and
// starred bases are refused.
func (rw *rewriter) classBases(l *pline) (bases, kws frag, ok bool) {
	if l.colon == 2 {
		return nil, nil, true // class Name:
	}
	if !l.toks[2].op("(") || !l.toks[l.colon-1].op(")") {
		return nil, nil, false
	}
	p := rw.parser(l, 3, l.colon-1)
	e := rw.emitter()
	for p.i < p.end {
		t := p.tok()
		kw := t.kind == tName && p.i+1 < p.end && p.toks[p.i+1].op("=")
		if t.op("*") || t.op("**") || kw && t.text == "metaclass" {
			rw.fail(t.start, "metaclass= and starred bases of a class are not supported here")
			return nil, nil, false
		}
		if kw {
			p.i += 2
		}
		n := p.test()
		if p.err != nil {
			return nil, nil, false
		}
		if kw {
			kws.add("("+strconv.Quote(t.text)+", ", t.start)
			e.emit(n, &kws)
			kws.add("), ", e.toks[n.b-1].end)
		} else {
			e.emit(n, &bases)
			bases.add(", ", e.toks[n.b-1].end)
		}
		if !p.tok().op(",") {
			break
		}
		p.i++
	}
	if p.i != p.end || e.err != nil {
		if e.err != nil {
			rw.fail(e.err.Pos, e.err.Msg)
		}
		return nil, nil, false
	}
	return bases, kws, true
}

// classNames records the names a class body's simple statements (the
// line's tokens from a on) bind, and the annotated ones as fields.
func (rw *rewriter) classNames(cls, l *pline, a int, bind func(string), fields *[]string) {
	toks := l.toks
	start := a
	for i := a; i <= len(toks); i++ {
		if i < len(toks) && !(toks[i].op(";") && toks[i].depth == 0) {
			continue
		}
		stmt := toks[start:i]
		if len(stmt) >= 3 && stmt[0].kind == tName && stmt[1].op(":") {
			end := i // the annotation, up to = or the statement's end
			for j := start + 2; j < i; j++ {
				if toks[j].depth == 0 && toks[j].op("=") {
					end = j
					break
				}
			}
			rw.keepAnnotationOf(cls, l, rw.emitter(), stmt[0].text, start+2, end)
		}
		start = i + 1
		if len(stmt) < 2 {
			continue
		}
		if stmt[0].kind == tName && stmt[1].op(":") {
			switch {
			case annotatedAs(stmt[2:], "ClassVar"): // a class attribute, not a field
			case annotatedAs(stmt[2:], "InitVar"): // an __init__ parameter for __post_init__
				*fields = append(*fields, "!"+stmt[0].text)
			default:
				*fields = append(*fields, stmt[0].text) // x: int [= v]
			}
			if hasDepth0(stmt, "=") {
				bind(stmt[0].text)
			}
			continue
		}
		last := -1
		for j, t := range stmt {
			if t.depth == 0 && t.kind == tOp && (t.text == "=" || strings.HasSuffix(t.text, "=") && t.text != "==" && t.text != "!=" && t.text != "<=" && t.text != ">=") {
				last = j
			}
		}
		for j := 0; j < last; j++ {
			if t := stmt[j]; t.kind == tName && t.depth == 0 && (j == 0 || stmt[j-1].op(",") || stmt[j-1].op("=") || stmt[j-1].op("(") || stmt[j-1].op("[")) &&
				(stmt[j+1].op(",") || stmt[j+1].op("=") || stmt[j+1].kind == tOp && strings.HasSuffix(stmt[j+1].text, "=")) {
				bind(t.text)
			}
		}
	}
}

// annotatedAs reports whether an annotation is name[...] or
// module.name[...]: ClassVar (a dataclass's class attribute, not one of
// its fields) or InitVar (an __init__ parameter __post_init__ receives);
// the names list marks an InitVar "!name".
func annotatedAs(ann []token, name string) bool {
	if len(ann) >= 3 && ann[0].kind == tName && (ann[0].text == "typing" || ann[0].text == "dataclasses") && ann[1].op(".") {
		ann = ann[2:]
	}
	return len(ann) > 0 && ann[0].kind == tName && ann[0].text == name
}

func hasDepth0(toks []token, op string) bool {
	for _, t := range toks {
		if t.depth == 0 && t.op(op) {
			return true
		}
	}
	return false
}
