// ast.unparse: statements (see ast_unparse.go).

package pydev

import (
	"strings"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

var unparseBinop = map[string]string{"Add": "+", "Sub": "-", "Mult": "*", "MatMult": "@", "Div": "/", "Mod": "%",
	"LShift": "<<", "RShift": ">>", "BitOr": "|", "BitXor": "^", "BitAnd": "&", "FloorDiv": "//", "Pow": "**"}

// stmt writes a statement node of class name; it reports whether name is one.
func (u *unparser) stmt(name string, o *pyrt.PyObject) bool {
	switch name {
	case "Module", "Interactive":
		u.docAndBody(o)
	case "Expression":
		u.traverse(f(o, "body"))
	case "Expr":
		u.fill("")
		u.setPrec(precYield, f(o, "value"))
		u.traverse(f(o, "value"))
	case "Import":
		u.fill("import ")
		u.interleave(", ", nodes(f(o, "names")), u.traverse)
	case "ImportFrom":
		u.fill("from ")
		if lv, ok := f(o, "level").(starlark.Int); ok {
			n, _ := lv.Int64()
			u.Write(strings.Repeat(".", int(n)))
		}
		if m, ok := f(o, "module").(starlark.String); ok && m != "" {
			u.Write(string(m))
		}
		u.Write(" import ")
		u.interleave(", ", nodes(f(o, "names")), u.traverse)
	case "Assign":
		u.fill("")
		for _, t := range nodes(f(o, "targets")) {
			u.setPrec(precTuple, t)
			u.traverse(t)
			u.Write(" = ")
		}
		u.traverse(f(o, "value"))
		u.typeComment(o)
	case "AugAssign":
		u.fill("")
		u.traverse(f(o, "target"))
		u.Write(" " + unparseBinop[u.className(f(o, "op"))] + "= ")
		u.traverse(f(o, "value"))
	case "AnnAssign":
		u.fill("")
		u.delimitIf("(", ")", !present(f(o, "simple")) && u.className(f(o, "target")) == "Name", func() { u.traverse(f(o, "target")) })
		u.Write(": ")
		u.traverse(f(o, "annotation"))
		if present(f(o, "value")) {
			u.Write(" = ")
			u.traverse(f(o, "value"))
		}
	case "Return":
		u.fill("return")
		if present(f(o, "value")) {
			u.Write(" ")
			u.traverse(f(o, "value"))
		}
	case "Pass", "Break", "Continue":
		u.fill(strings.ToLower(name))
	case "Delete":
		u.fill("del ")
		u.interleave(", ", nodes(f(o, "targets")), u.traverse)
	case "Assert":
		u.fill("assert ")
		u.traverse(f(o, "test"))
		if present(f(o, "msg")) {
			u.Write(", ")
			u.traverse(f(o, "msg"))
		}
	case "Global", "Nonlocal":
		u.fill(strings.ToLower(name) + " ")
		u.interleave(", ", nodes(f(o, "names")), func(v starlark.Value) { u.Write(pyrt.PyStr(v)) })
	case "Raise":
		u.fill("raise")
		if !present(f(o, "exc")) {
			if present(f(o, "cause")) {
				u.Fail(pyrt.ExcValueError, "Node can't use cause without an exception.")
			}
			return true
		}
		u.Write(" ")
		u.traverse(f(o, "exc"))
		if present(f(o, "cause")) {
			u.Write(" from ")
			u.traverse(f(o, "cause"))
		}
	case "Try", "TryStar":
		saved := u.inTryStar
		u.inTryStar = name == "TryStar"
		u.fill("try")
		u.block(func() { u.traverse(f(o, "body")) })
		u.traverse(f(o, "handlers"))
		u.elseBlock(o, "orelse", "else")
		u.elseBlock(o, "finalbody", "finally")
		u.inTryStar = saved
	case "ExceptHandler":
		if u.inTryStar {
			u.fill("except*")
		} else {
			u.fill("except")
		}
		if present(f(o, "type")) {
			u.Write(" ")
			u.traverse(f(o, "type"))
		}
		if n, ok := f(o, "name").(starlark.String); ok && n != "" {
			u.Write(" as " + string(n))
		}
		u.block(func() { u.traverse(f(o, "body")) })
	case "ClassDef":
		u.classDef(o)
	case "FunctionDef", "AsyncFunctionDef":
		u.funcDef(o, map[string]string{"FunctionDef": "def", "AsyncFunctionDef": "async def"}[name])
	case "For", "AsyncFor":
		u.fill(map[string]string{"For": "for ", "AsyncFor": "async for "}[name])
		u.setPrec(precTuple, f(o, "target"))
		u.traverse(f(o, "target"))
		u.Write(" in ")
		u.traverse(f(o, "iter"))
		u.Write(":")
		u.typeComment(o)
		u.indent++
		u.traverse(f(o, "body"))
		u.indent--
		u.elseBlock(o, "orelse", "else")
	case "If":
		u.ifStmt(o)
	case "While":
		u.fill("while ")
		u.traverse(f(o, "test"))
		u.block(func() { u.traverse(f(o, "body")) })
		u.elseBlock(o, "orelse", "else")
	case "With", "AsyncWith":
		u.fill(map[string]string{"With": "with ", "AsyncWith": "async with "}[name])
		u.interleave(", ", nodes(f(o, "items")), u.traverse)
		u.Write(":")
		u.typeComment(o)
		u.indent++
		u.traverse(f(o, "body"))
		u.indent--
	case "Match":
		u.fill("match ")
		u.traverse(f(o, "subject"))
		u.block(func() { u.traverse(f(o, "cases")) })
	case "match_case":
		u.fill("case ")
		u.traverse(f(o, "pattern"))
		if present(f(o, "guard")) {
			u.Write(" if ")
			u.traverse(f(o, "guard"))
		}
		u.block(func() { u.traverse(f(o, "body")) })
	default:
		return false
	}
	return true
}

func (u *unparser) ifStmt(o *pyrt.PyObject) {
	u.fill("if ")
	u.traverse(f(o, "test"))
	u.block(func() { u.traverse(f(o, "body")) })
	for {
		orelse := nodes(f(o, "orelse"))
		if len(orelse) != 1 || u.className(orelse[0]) != "If" {
			break
		}
		o = orelse[0].(*pyrt.PyObject)
		u.fill("elif ")
		u.traverse(f(o, "test"))
		u.block(func() { u.traverse(f(o, "body")) })
	}
	u.elseBlock(o, "orelse", "else")
}

func (u *unparser) decorators(o *pyrt.PyObject) {
	u.maybeNewline()
	for _, d := range nodes(f(o, "decorator_list")) {
		u.fill("@")
		u.traverse(d)
	}
}

func (u *unparser) classDef(o *pyrt.PyObject) {
	u.decorators(o)
	u.fill("class " + pyrt.PyStr(f(o, "name")))
	bases, kws := nodes(f(o, "bases")), nodes(f(o, "keywords"))
	u.delimitIf("(", ")", len(bases)+len(kws) > 0, func() {
		u.interleave(", ", append(append([]starlark.Value(nil), bases...), kws...), u.traverse)
	})
	u.block(func() { u.docAndBody(o) })
}

func (u *unparser) funcDef(o *pyrt.PyObject, kw string) {
	u.decorators(o)
	u.fill(kw + " " + pyrt.PyStr(f(o, "name")))
	u.delimit("(", ")", func() { u.traverse(f(o, "args")) })
	if present(f(o, "returns")) {
		u.Write(" -> ")
		u.traverse(f(o, "returns"))
	}
	u.Write(":")
	u.typeComment(o)
	u.indent++
	u.docAndBody(o)
	u.indent--
}

// arguments writes a def's or lambda's parameters.
func (u *unparser) arguments(o *pyrt.PyObject) {
	first := true
	comma := func() {
		if !first {
			u.Write(", ")
		}
		first = false
	}
	posonly := nodes(f(o, "posonlyargs"))
	all := append(append([]starlark.Value(nil), posonly...), nodes(f(o, "args"))...)
	defaults := nodes(f(o, "defaults"))
	for i, a := range all {
		comma()
		u.traverse(a)
		if j := i - (len(all) - len(defaults)); j >= 0 && present(defaults[j]) {
			u.Write("=")
			u.traverse(defaults[j])
		}
		if i+1 == len(posonly) {
			u.Write(", /")
		}
	}
	vararg, kwonly := f(o, "vararg"), nodes(f(o, "kwonlyargs"))
	if present(vararg) || len(kwonly) > 0 {
		comma()
		u.Write("*")
		if va, ok := vararg.(*pyrt.PyObject); ok {
			u.starArg(va)
		}
	}
	kwDefaults := nodes(f(o, "kw_defaults"))
	for i, a := range kwonly {
		u.Write(", ")
		u.traverse(a)
		if i < len(kwDefaults) && present(kwDefaults[i]) {
			u.Write("=")
			u.traverse(kwDefaults[i])
		}
	}
	if ka, ok := f(o, "kwarg").(*pyrt.PyObject); ok {
		comma()
		u.Write("**")
		u.starArg(ka)
	}
}

func (u *unparser) starArg(a *pyrt.PyObject) {
	u.Write(pyrt.PyStr(f(a, "arg")))
	if present(f(a, "annotation")) {
		u.Write(": ")
		u.traverse(f(a, "annotation"))
	}
}
