// ast.unparse: expressions, patterns and the other nodes (see
// ast_unparse.go).

package pydev

import (
	"strings"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

var (
	unparseUnop      = map[string]string{"Invert": "~", "Not": "not", "UAdd": "+", "USub": "-"}
	unparseCmp       = map[string]string{"Eq": "==", "NotEq": "!=", "Lt": "<", "LtE": "<=", "Gt": ">", "GtE": ">=", "Is": "is", "IsNot": "is not", "In": "in", "NotIn": "not in"}
	unparseBinopPrec = map[string]int{"+": precArith, "-": precArith, "*": precTerm, "@": precTerm, "/": precTerm, "%": precTerm,
		"<<": precShift, ">>": precShift, "|": precBOr, "^": precBXor, "&": precBAnd, "//": precTerm, "**": precPower}
)

// expr writes an expression node of class name; it reports whether name is one.
func (u *unparser) expr(name string, o *pyrt.PyObject) bool {
	switch name {
	case "NamedExpr":
		u.requireParens(precNamedExpr, o, func() {
			u.setPrec(precAtom, f(o, "target"), f(o, "value"))
			u.traverse(f(o, "target"))
			u.Write(" := ")
			u.traverse(f(o, "value"))
		})
	case "Await", "Yield":
		p := map[string]int{"Await": precAwait, "Yield": precYield}[name]
		u.requireParens(p, o, func() {
			u.Write(strings.ToLower(name))
			if v := f(o, "value"); present(v) {
				u.Write(" ")
				u.setPrec(precAtom, v)
				u.traverse(v)
			}
		})
	case "YieldFrom":
		u.requireParens(precYield, o, func() {
			u.Write("yield from ")
			u.setPrec(precAtom, f(o, "value"))
			u.traverse(f(o, "value"))
		})
	case "JoinedStr":
		u.joinedStr(o)
	case "FormattedValue":
		u.formattedValue(o)
	case "Name":
		u.Write(pyrt.PyStr(f(o, "id")))
	case "Constant":
		u.constant(o)
	case "List":
		u.delimit("[", "]", func() { u.interleave(", ", nodes(f(o, "elts")), u.traverse) })
	case "ListComp", "GeneratorExp", "SetComp":
		d := map[string]string{"ListComp": "[]", "GeneratorExp": "()", "SetComp": "{}"}[name]
		u.delimit(d[:1], d[1:], func() {
			u.traverse(f(o, "elt"))
			u.traverse(f(o, "generators"))
		})
	case "DictComp":
		u.delimit("{", "}", func() {
			u.traverse(f(o, "key"))
			u.Write(": ")
			u.traverse(f(o, "value"))
			u.traverse(f(o, "generators"))
		})
	case "IfExp":
		u.requireParens(precTest, o, func() {
			u.setPrec(precTest+1, f(o, "body"), f(o, "test"))
			u.traverse(f(o, "body"))
			u.Write(" if ")
			u.traverse(f(o, "test"))
			u.Write(" else ")
			u.setPrec(precTest, f(o, "orelse"))
			u.traverse(f(o, "orelse"))
		})
	case "Set":
		if elts := nodes(f(o, "elts")); len(elts) > 0 {
			u.delimit("{", "}", func() { u.interleave(", ", elts, u.traverse) })
		} else {
			u.Write("{*()}")
		}
	case "Dict":
		u.dict(o)
	case "Tuple":
		elts := nodes(f(o, "elts"))
		u.delimitIf("(", ")", len(elts) == 0 || u.precOf(o) > precTuple, func() { u.itemsView(elts, u.traverse) })
	case "UnaryOp":
		op := unparseUnop[u.className(f(o, "op"))]
		p := precFactor
		if op == "not" {
			p = precNot
		}
		u.requireParens(p, o, func() {
			u.Write(op)
			if p != precFactor {
				u.Write(" ")
			}
			u.setPrec(p, f(o, "operand"))
			u.traverse(f(o, "operand"))
		})
	case "BinOp":
		u.binOp(o)
	case "Compare":
		u.requireParens(precCmp, o, func() {
			comps := nodes(f(o, "comparators"))
			u.setPrec(precCmp+1, f(o, "left"))
			u.setPrec(precCmp+1, comps...)
			u.traverse(f(o, "left"))
			for i, op := range nodes(f(o, "ops")) {
				if i < len(comps) {
					u.Write(" " + unparseCmp[u.className(op)] + " ")
					u.traverse(comps[i])
				}
			}
		})
	case "BoolOp":
		op := map[string]string{"And": "and", "Or": "or"}[u.className(f(o, "op"))]
		p := map[string]int{"and": precAnd, "or": precOr}[op]
		u.requireParens(p, o, func() {
			u.interleave(" "+op+" ", nodes(f(o, "values")), func(v starlark.Value) {
				p++
				u.setPrec(p, v)
				u.traverse(v)
			})
		})
	case "Attribute":
		v := f(o, "value")
		u.setPrec(precAtom, v)
		u.traverse(v)
		if c, ok := v.(*pyrt.PyObject); ok && c.Cls.TypeName == "Constant" {
			if _, isInt := f(c, "value").(starlark.Int); isInt {
				u.Write(" ")
			}
		}
		u.Write("." + pyrt.PyStr(f(o, "attr")))
	case "Call":
		u.setPrec(precAtom, f(o, "func"))
		u.traverse(f(o, "func"))
		args := append(append([]starlark.Value(nil), nodes(f(o, "args"))...), nodes(f(o, "keywords"))...)
		u.delimit("(", ")", func() { u.interleave(", ", args, u.traverse) })
	case "Subscript":
		u.setPrec(precAtom, f(o, "value"))
		u.traverse(f(o, "value"))
		u.delimit("[", "]", func() {
			sl := f(o, "slice")
			if t, ok := sl.(*pyrt.PyObject); ok && t.Cls.TypeName == "Tuple" && len(nodes(f(t, "elts"))) > 0 {
				u.itemsView(nodes(f(t, "elts")), u.traverse)
			} else {
				u.traverse(sl)
			}
		})
	case "Starred":
		u.Write("*")
		u.setPrec(precExpr, f(o, "value"))
		u.traverse(f(o, "value"))
	case "Slice":
		if present(f(o, "lower")) {
			u.traverse(f(o, "lower"))
		}
		u.Write(":")
		if present(f(o, "upper")) {
			u.traverse(f(o, "upper"))
		}
		if present(f(o, "step")) {
			u.Write(":")
			u.traverse(f(o, "step"))
		}
	case "Lambda":
		u.requireParens(precTest, o, func() {
			u.Write("lambda")
			buf := u.buffered(func() { u.traverse(f(o, "args")) })
			if len(buf) > 0 {
				u.Write(" ")
				u.Write(buf...)
			}
			u.Write(": ")
			u.setPrec(precTest, f(o, "body"))
			u.traverse(f(o, "body"))
		})
	default:
		return false
	}
	return true
}

// itemsView writes items separated by commas, with a trailing comma after
// a single one.
func (u *unparser) itemsView(items []starlark.Value, each func(starlark.Value)) {
	if len(items) == 1 {
		each(items[0])
		u.Write(",")
		return
	}
	u.interleave(", ", items, each)
}

func (u *unparser) binOp(o *pyrt.PyObject) {
	op := unparseBinop[u.className(f(o, "op"))]
	p := unparseBinopPrec[op]
	u.requireParens(p, o, func() {
		left, right := p, p+1
		if op == "**" {
			left, right = p+1, p
		}
		u.setPrec(left, f(o, "left"))
		u.traverse(f(o, "left"))
		u.Write(" " + op + " ")
		u.setPrec(right, f(o, "right"))
		u.traverse(f(o, "right"))
	})
}

func (u *unparser) dict(o *pyrt.PyObject) {
	keys, vals := nodes(f(o, "keys")), nodes(f(o, "values"))
	u.delimit("{", "}", func() {
		for i := 0; i < len(keys) && i < len(vals); i++ {
			if i > 0 {
				u.Write(", ")
			}
			if keys[i] == starlark.None {
				u.Write("**")
				u.setPrec(precExpr, vals[i])
				u.traverse(vals[i])
				continue
			}
			u.traverse(keys[i])
			u.Write(": ")
			u.traverse(vals[i])
		}
	})
}

// misc writes the nodes that are neither statements nor expressions.
func (u *unparser) misc(name string, o *pyrt.PyObject) bool {
	switch name {
	case "comprehension":
		if present(f(o, "is_async")) {
			u.Write(" async for ")
		} else {
			u.Write(" for ")
		}
		u.setPrec(precTuple, f(o, "target"))
		u.traverse(f(o, "target"))
		u.Write(" in ")
		ifs := nodes(f(o, "ifs"))
		u.setPrec(precTest+1, f(o, "iter"))
		u.setPrec(precTest+1, ifs...)
		u.traverse(f(o, "iter"))
		for _, c := range ifs {
			u.Write(" if ")
			u.traverse(c)
		}
	case "arguments":
		u.arguments(o)
	case "arg":
		u.starArg(o)
	case "keyword":
		if a, ok := f(o, "arg").(starlark.String); ok {
			u.Write(string(a) + "=")
		} else {
			u.Write("**")
		}
		u.traverse(f(o, "value"))
	case "alias":
		u.Write(pyrt.PyStr(f(o, "name")))
		if a, ok := f(o, "asname").(starlark.String); ok && a != "" {
			u.Write(" as " + string(a))
		}
	case "withitem":
		u.traverse(f(o, "context_expr"))
		if present(f(o, "optional_vars")) {
			u.Write(" as ")
			u.traverse(f(o, "optional_vars"))
		}
	default:
		return u.pattern(name, o)
	}
	return true
}

func (u *unparser) pattern(name string, o *pyrt.PyObject) bool {
	switch name {
	case "MatchValue":
		u.traverse(f(o, "value"))
	case "MatchSingleton":
		u.writeConstant(f(o, "value"))
	case "MatchSequence":
		u.delimit("[", "]", func() { u.interleave(", ", nodes(f(o, "patterns")), u.traverse) })
	case "MatchStar":
		n := "_"
		if s, ok := f(o, "name").(starlark.String); ok {
			n = string(s)
		}
		u.Write("*" + n)
	case "MatchMapping":
		keys, pats := nodes(f(o, "keys")), nodes(f(o, "patterns"))
		u.delimit("{", "}", func() {
			for i := 0; i < len(keys) && i < len(pats); i++ {
				if i > 0 {
					u.Write(", ")
				}
				u.traverse(keys[i])
				u.Write(": ")
				u.traverse(pats[i])
			}
			if rest, ok := f(o, "rest").(starlark.String); ok {
				if len(keys) > 0 {
					u.Write(", ")
				}
				u.Write("**" + string(rest))
			}
		})
	case "MatchClass":
		u.setPrec(precAtom, f(o, "cls"))
		u.traverse(f(o, "cls"))
		u.delimit("(", ")", func() {
			pats := nodes(f(o, "patterns"))
			u.interleave(", ", pats, u.traverse)
			attrs, kp := nodes(f(o, "kwd_attrs")), nodes(f(o, "kwd_patterns"))
			for i := 0; i < len(attrs) && i < len(kp); i++ {
				if i > 0 || len(pats) > 0 {
					u.Write(", ")
				}
				u.Write(pyrt.PyStr(attrs[i]) + "=")
				u.traverse(kp[i])
			}
		})
	case "MatchAs":
		n, isName := f(o, "name").(starlark.String)
		switch {
		case !isName:
			u.Write("_")
		case !present(f(o, "pattern")):
			u.Write(string(n))
		default:
			u.requireParens(precTest, o, func() {
				u.setPrec(precBOr, f(o, "pattern"))
				u.traverse(f(o, "pattern"))
				u.Write(" as " + string(n))
			})
		}
	case "MatchOr":
		u.requireParens(precBOr, o, func() {
			pats := nodes(f(o, "patterns"))
			u.setPrec(precBOr+1, pats...)
			u.interleave(" | ", pats, u.traverse)
		})
	default:
		return false
	}
	return true
}
