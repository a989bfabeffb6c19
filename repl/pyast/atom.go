package pyast

import (
	"math/big"
	"strconv"
	"strings"
)

func (p *parser) atom() *Node {
	t := p.tok()
	switch t.kind {
	case tName:
		switch t.val {
		case "None":
			p.next()
			return mk("Constant", p.posFrom(t), "value", Const{Kind: CNone}, "kind", nil)
		case "True", "False":
			p.next()
			return mk("Constant", p.posFrom(t), "value", Const{Kind: CBool, Bool: t.val == "True"}, "kind", nil)
		}
		if keywords[t.val] {
			p.fail("invalid syntax")
		}
		p.next()
		return mk("Name", p.posFrom(t), "id", t.val, "ctx", load())
	case tNumber:
		p.next()
		return mk("Constant", p.posFrom(t), "value", p.number(t), "kind", nil)
	case tString:
		return p.strings()
	case tOp:
		switch t.val {
		case "(":
			return p.parenAtom()
		case "[":
			return p.listAtom()
		case "{":
			return p.dictAtom()
		case "...":
			p.next()
			return mk("Constant", p.posFrom(t), "value", Const{Kind: CEllipsis}, "kind", nil)
		}
	}
	if t.kind == tEOF || t.kind == tNewline {
		p.fail("invalid syntax")
	}
	p.fail("invalid syntax")
	return nil
}

func (p *parser) number(t token) Const {
	s := strings.ReplaceAll(t.val, "_", "")
	low := strings.ToLower(s)
	if strings.HasSuffix(low, "j") {
		f, _ := strconv.ParseFloat(s[:len(s)-1], 64)
		return Const{Kind: CComplex, Float: f}
	}
	if len(low) > 1 && low[0] == '0' && strings.ContainsAny(low[1:2], "xob") {
		base := map[byte]int{'x': 16, 'o': 8, 'b': 2}[low[1]]
		n, ok := new(big.Int).SetString(low[2:], base)
		if !ok {
			p.failAt(t, false, "invalid "+map[int]string{16: "hexadecimal", 8: "octal", 2: "binary"}[base]+" literal")
		}
		return Const{Kind: CInt, Int: n}
	}
	if strings.ContainsAny(low, ".e") {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil && !strings.Contains(err.Error(), "range") {
			p.failAt(t, false, "invalid decimal literal")
		}
		return Const{Kind: CFloat, Float: f}
	}
	if len(s) > 1 && s[0] == '0' && strings.Trim(s, "0") != "" {
		p.failAt(t, false, "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers")
	}
	n, ok := new(big.Int).SetString(s, 10)
	if !ok {
		p.failAt(t, false, "invalid decimal literal")
	}
	return Const{Kind: CInt, Int: n}
}

func (p *parser) parenAtom() *Node {
	open := p.next()
	if p.isOp(")") {
		p.next()
		return mk("Tuple", p.posFrom(open), "elts", []*Node{}, "ctx", load())
	}
	if p.isKw("yield") {
		e := p.yieldExpr()
		p.expectOp(")")
		p.paren[e] = true
		return e
	}
	first := p.starNamedExpression()
	if p.isKw("for") || p.isKw("async") {
		gens := p.comprehensions()
		p.closeParen(open)
		return mk("GeneratorExp", p.posFrom(open), "elt", first, "generators", gens)
	}
	if p.isOp(")") {
		p.next()
		if first.Type == "Starred" {
			p.failAt(open, false, "cannot use starred expression here")
		}
		p.paren[first] = true
		return first
	}
	elts := []*Node{first}
	for p.acceptOp(",") {
		if p.isOp(")") {
			break
		}
		elts = append(elts, p.starNamedExpression())
	}
	p.closeParen(open)
	return mk("Tuple", p.posFrom(open), "elts", elts, "ctx", load())
}

func (p *parser) closeParen(open token) {
	if !p.isOp(")") {
		if p.tok().kind == tEOF {
			p.failAt(open, false, "'(' was never closed")
		}
		p.fail("invalid syntax. Perhaps you forgot a comma?")
	}
	p.next()
}

func (p *parser) listAtom() *Node {
	open := p.next()
	var elts []*Node
	for !p.isOp("]") {
		e := p.starNamedExpression()
		if len(elts) == 0 && (p.isKw("for") || p.isKw("async")) {
			gens := p.comprehensions()
			p.expectOp("]")
			return mk("ListComp", p.posFrom(open), "elt", e, "generators", gens)
		}
		elts = append(elts, e)
		if !p.acceptOp(",") {
			break
		}
	}
	if !p.isOp("]") {
		p.fail("invalid syntax. Perhaps you forgot a comma?")
	}
	p.next()
	return mk("List", p.posFrom(open), "elts", nonNil(elts), "ctx", load())
}

func (p *parser) dictAtom() *Node {
	open := p.next()
	if p.acceptOp("}") {
		return mk("Dict", p.posFrom(open), "keys", []*Node{}, "values", []*Node{})
	}
	var keys, vals, elts []*Node
	isDict := false
	for i := 0; !p.isOp("}"); i++ {
		if p.isOp("**") {
			if i > 0 && !isDict {
				p.fail("invalid syntax")
			}
			isDict = true
			p.next()
			keys = append(keys, nil)
			vals = append(vals, p.bitwiseOr())
		} else {
			e := p.starNamedExpression()
			if i == 0 && p.isOp(":") {
				isDict = true
			}
			if isDict {
				p.expectOp(":")
				v := p.expression()
				if i == 0 && (p.isKw("for") || p.isKw("async")) {
					gens := p.comprehensions()
					p.expectOp("}")
					return mk("DictComp", p.posFrom(open), "key", e, "value", v, "generators", gens)
				}
				keys = append(keys, e)
				vals = append(vals, v)
			} else {
				if i == 0 && (p.isKw("for") || p.isKw("async")) {
					gens := p.comprehensions()
					p.expectOp("}")
					return mk("SetComp", p.posFrom(open), "elt", e, "generators", gens)
				}
				elts = append(elts, e)
			}
		}
		if !p.acceptOp(",") {
			break
		}
	}
	if !p.isOp("}") {
		p.fail("invalid syntax. Perhaps you forgot a comma?")
	}
	p.next()
	if isDict {
		return mk("Dict", p.posFrom(open), "keys", keys, "values", vals)
	}
	return mk("Set", p.posFrom(open), "elts", elts)
}

func (p *parser) yieldExpr() *Node {
	start := p.next()
	if p.acceptKw("from") {
		v := p.expression()
		return mk("YieldFrom", p.posFrom(start), "value", v)
	}
	var v *Node
	if p.startsExpr() {
		v = p.starExpressions()
	}
	return mk("Yield", p.posFrom(start), "value", v)
}

// describe names an expression as CPython's "cannot assign to ..." does.
func describe(e *Node) string {
	switch e.Type {
	case "Call":
		return "function call"
	case "Constant":
		v := e.Get("value").(Const)
		switch v.Kind {
		case CNone:
			return "None"
		case CBool:
			if v.Bool {
				return "True"
			}
			return "False"
		case CEllipsis:
			return "ellipsis"
		}
		return "literal"
	case "Compare":
		return "comparison"
	case "Tuple":
		return "tuple"
	case "List":
		return "list"
	case "Starred":
		return "starred"
	case "Attribute":
		return "attribute"
	case "Subscript":
		return "subscript"
	case "Name":
		return "name"
	case "BinOp", "UnaryOp":
		return "expression"
	case "BoolOp":
		return "expression"
	case "Lambda":
		return "lambda"
	case "IfExp":
		return "conditional expression"
	case "NamedExpr":
		return "named expression"
	case "JoinedStr":
		return "f-string expression"
	case "ListComp":
		return "list comprehension"
	case "GeneratorExp":
		return "generator expression"
	case "Dict":
		return "dict literal"
	case "Set":
		return "set display"
	case "DictComp":
		return "dict comprehension"
	case "SetComp":
		return "set comprehension"
	case "Await":
		return "await expression"
	case "Yield", "YieldFrom":
		return "yield expression"
	}
	return "expression"
}

// setCtx makes e a target with ctx (Store or Del), or fails as CPython does.
func (p *parser) setCtx(e *Node, ctx string, at token) {
	switch e.Type {
	case "Name", "Attribute", "Subscript":
		e.set("ctx", leaf(ctx))
	case "Starred":
		if ctx == "Del" {
			p.failErr(e, "cannot delete starred")
		}
		e.set("ctx", leaf(ctx))
		p.setCtx(e.Get("value").(*Node), ctx, at)
	case "Tuple", "List":
		e.set("ctx", leaf(ctx))
		for _, x := range e.Get("elts").([]*Node) {
			p.setCtx(x, ctx, at)
		}
	default:
		verb := "assign to"
		if ctx == "Del" {
			verb = "delete"
		}
		msg := "cannot " + verb + " " + describe(e)
		if p.assign && (e.Type == "Compare" || e.Type == "Constant" || e.Type == "Call" || e.Type == "BinOp") {
			msg += " here. Maybe you meant '==' instead of '='?"
		}
		p.failErr(e, msg)
	}
}

func (p *parser) failErr(e *Node, msg string) {
	text := ""
	if e.Pos.Line >= 1 && e.Pos.Line <= len(p.lines) {
		text = p.lines[e.Pos.Line-1]
	}
	panic(&SyntaxError{Msg: msg, Lineno: e.Pos.Line, Offset: e.Pos.Col + 1, Text: text})
}
