package pyast

import "fmt"

// statement parses one statement; simple statements on one line come
// back together.
func (p *parser) statement() []*Node {
	t := p.tok()
	if t.kind == tIndent {
		e := &SyntaxError{Msg: "unexpected indent", Lineno: t.line, Offset: t.ecol + 1, Indent: true}
		if t.line <= len(p.lines) {
			e.Text = p.lines[t.line-1]
		}
		panic(e)
	}
	if t.kind == tName {
		switch t.val {
		case "def", "if", "class", "with", "for", "try", "while", "async":
			return []*Node{p.compound(nil)}
		case "match":
			if s := p.tryMatch(); s != nil {
				return []*Node{s}
			}
		}
	}
	if p.isOp("@") {
		var decos []*Node
		for p.acceptOp("@") {
			decos = append(decos, p.namedExpression())
			p.newline()
		}
		if !p.isKw("def") && !p.isKw("class") && !p.isKw("async") {
			p.fail("invalid syntax")
		}
		return []*Node{p.compound(decos)}
	}
	return p.simpleStmts()
}

func (p *parser) newline() {
	if p.tok().kind != tNewline {
		p.fail("invalid syntax")
	}
	p.next()
}

func (p *parser) simpleStmts() []*Node {
	var out []*Node
	for {
		out = append(out, p.simpleStmt())
		if !p.acceptOp(";") {
			break
		}
		if p.tok().kind == tNewline {
			break
		}
	}
	if p.tok().kind != tNewline {
		if p.tok().kind == tEOF {
			return out
		}
		p.fail("invalid syntax")
	}
	p.next()
	return out
}

func (p *parser) simpleStmt() *Node {
	t := p.tok()
	if t.kind == tName {
		switch t.val {
		case "pass", "break", "continue":
			p.next()
			return mk(map[string]string{"pass": "Pass", "break": "Break", "continue": "Continue"}[t.val], p.posFrom(t))
		case "return":
			p.next()
			var v *Node
			if p.startsExpr() {
				v = p.starExpressions()
			}
			return mk("Return", p.posFrom(t), "value", v)
		case "import":
			return p.importStmt()
		case "from":
			return p.fromImport()
		case "raise":
			p.next()
			var exc, cause *Node
			if p.startsExpr() {
				exc = p.expression()
				if p.acceptKw("from") {
					cause = p.expression()
				}
			}
			return mk("Raise", p.posFrom(t), "exc", exc, "cause", cause)
		case "global", "nonlocal":
			p.next()
			names := []string{p.name()}
			for p.acceptOp(",") {
				names = append(names, p.name())
			}
			return mk(map[string]string{"global": "Global", "nonlocal": "Nonlocal"}[t.val], p.posFrom(t), "names", names)
		case "del":
			p.next()
			tt := p.tok()
			targets := []*Node{p.bitwiseOr()}
			for p.acceptOp(",") {
				if !p.startsExpr() {
					break
				}
				targets = append(targets, p.bitwiseOr())
			}
			for _, x := range targets {
				p.setCtx(x, "Del", tt)
			}
			return mk("Delete", p.posFrom(t), "targets", targets)
		case "assert":
			p.next()
			test := p.expression()
			var msg *Node
			if p.acceptOp(",") {
				msg = p.expression()
			}
			return mk("Assert", p.posFrom(t), "test", test, "msg", msg)
		}
	}
	return p.exprStmt()
}

var augOps = map[string]string{"+=": "Add", "-=": "Sub", "*=": "Mult", "/=": "Div", "//=": "FloorDiv", "%=": "Mod",
	"@=": "MatMult", "&=": "BitAnd", "|=": "BitOr", "^=": "BitXor", "<<=": "LShift", ">>=": "RShift", "**=": "Pow"}

func (p *parser) exprOrYield() *Node {
	if p.isKw("yield") {
		return p.yieldExpr()
	}
	return p.starExpressions()
}

func (p *parser) exprStmt() *Node {
	start := p.tok()
	e := p.exprOrYield()
	switch {
	case p.isOp("="):
		targets := []*Node{e}
		var value *Node
		for p.acceptOp("=") {
			value = p.exprOrYield()
			if p.isOp("=") {
				targets = append(targets, value)
			}
		}
		p.assign = true
		for _, x := range targets {
			p.setCtx(x, "Store", start)
		}
		p.assign = false
		return mk("Assign", p.posFrom(start), "targets", targets, "value", value, "type_comment", nil)
	case p.isOp(":"):
		p.next()
		if e.Type != "Name" && e.Type != "Attribute" && e.Type != "Subscript" {
			if e.Type == "Tuple" {
				p.failErr(e, "only single target (not tuple) can be annotated")
			}
			p.failErr(e, "illegal target for annotation")
		}
		p.setCtx(e, "Store", start)
		ann := p.expression()
		var v *Node
		if p.acceptOp("=") {
			v = p.exprOrYield()
		}
		simple := 0
		if e.Type == "Name" && !p.paren[e] {
			simple = 1
		}
		return mk("AnnAssign", p.posFrom(start), "target", e, "annotation", ann, "value", v, "simple", simple)
	case p.tok().kind == tOp && augOps[p.tok().val] != "":
		op := augOps[p.next().val]
		if e.Type != "Name" && e.Type != "Attribute" && e.Type != "Subscript" {
			p.failErr(e, fmt.Sprintf("'%s' is an illegal expression for augmented assignment", describe(e)))
		}
		p.setCtx(e, "Store", start)
		v := p.exprOrYield()
		return mk("AugAssign", p.posFrom(start), "target", e, "op", leaf(op), "value", v)
	}
	if e.Type == "Name" && (e.Get("id") == "print" || e.Get("id") == "exec") && p.startsExpr() {
		p.failErr(e, fmt.Sprintf("Missing parentheses in call to '%s'. Did you mean %s(...)?", e.Get("id"), e.Get("id")))
	}
	return mk("Expr", p.posFrom(start), "value", e)
}

func (p *parser) dottedName() string {
	n := p.name()
	for p.acceptOp(".") {
		n += "." + p.name()
	}
	return n
}

func (p *parser) importStmt() *Node {
	start := p.next()
	var names []*Node
	for {
		t := p.tok()
		name := p.dottedName()
		var as any
		if p.acceptKw("as") {
			as = p.name()
		}
		names = append(names, mk("alias", p.posFrom(t), "name", name, "asname", as))
		if !p.acceptOp(",") {
			break
		}
	}
	return mk("Import", p.posFrom(start), "names", names)
}

func (p *parser) fromImport() *Node {
	start := p.next()
	level := 0
	for p.isOp(".") || p.isOp("...") {
		level += len(p.next().val)
	}
	var module any
	if !p.isKw("import") {
		module = p.dottedName()
	}
	p.expectKw("import")
	var names []*Node
	if p.isOp("*") {
		t := p.next()
		names = append(names, mk("alias", p.posFrom(t), "name", "*", "asname", nil))
	} else {
		paren := p.acceptOp("(")
		for {
			t := p.tok()
			name := p.name()
			var as any
			if p.acceptKw("as") {
				as = p.name()
			}
			names = append(names, mk("alias", p.posFrom(t), "name", name, "asname", as))
			if !p.acceptOp(",") {
				break
			}
			if paren && p.isOp(")") {
				break
			}
			if !paren && p.tok().kind == tNewline {
				p.fail("trailing comma not allowed without surrounding parentheses")
			}
		}
		if paren {
			p.expectOp(")")
		}
	}
	return mk("ImportFrom", p.posFrom(start), "module", module, "names", names, "level", level)
}

// block is a compound statement's body after its colon.
func (p *parser) block(what string, line int) []*Node {
	if p.tok().kind != tNewline {
		return p.simpleStmts()
	}
	p.next()
	if p.tok().kind != tIndent {
		t := p.tok()
		e := &SyntaxError{Msg: fmt.Sprintf("expected an indented block after %s on line %d", what, line), Lineno: t.line, Offset: t.col + 1, Indent: true}
		if t.line <= len(p.lines) {
			e.Text = p.lines[t.line-1]
		}
		if t.kind == tEOF {
			e.Lineno, e.Offset, e.Text = len(p.lines)+0, 0, ""
		}
		panic(e)
	}
	p.next()
	var body []*Node
	for p.tok().kind != tDedent && p.tok().kind != tEOF {
		body = append(body, p.statement()...)
	}
	p.next()
	return body
}

func (p *parser) colon() {
	if !p.isOp(":") {
		p.failAt(p.end, true, "expected ':'")
	}
	p.next()
}
