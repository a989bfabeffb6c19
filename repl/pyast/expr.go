package pyast

// Expressions, from the loosest binding to the tightest, as the 3.11
// grammar has them.

func load() *Node  { return leaf("Load") }
func store() *Node { return leaf("Store") }

// starExpressions is star_expressions: a bare tuple when there is a comma.
func (p *parser) starExpressions() *Node {
	start := p.tok()
	first := p.starExpression()
	if !p.isOp(",") {
		return first
	}
	elts := []*Node{first}
	for p.acceptOp(",") {
		if !p.startsExpr() {
			break
		}
		elts = append(elts, p.starExpression())
	}
	return mk("Tuple", p.posFrom(start), "elts", elts, "ctx", load())
}

// startsExpr reports whether the current token can begin an expression.
func (p *parser) startsExpr() bool {
	t := p.tok()
	switch t.kind {
	case tName:
		if keywords[t.val] {
			switch t.val {
			case "None", "True", "False", "not", "lambda", "await", "yield":
				return true
			}
			return false
		}
		return true
	case tNumber, tString:
		return true
	case tOp:
		switch t.val {
		case "(", "[", "{", "-", "+", "~", "*", "...", "**":
			return true
		}
	}
	return false
}

func (p *parser) starExpression() *Node {
	if p.isOp("*") {
		start := p.next()
		v := p.bitwiseOr()
		return mk("Starred", p.posFrom(start), "value", v, "ctx", load())
	}
	return p.expression()
}

// starNamedExpression is an element of a list, set or tuple display.
func (p *parser) starNamedExpression() *Node {
	if p.isOp("*") {
		start := p.next()
		v := p.bitwiseOr()
		return mk("Starred", p.posFrom(start), "value", v, "ctx", load())
	}
	return p.namedExpression()
}

func (p *parser) namedExpression() *Node {
	t := p.tok()
	if t.kind == tName && !keywords[t.val] && p.peekAt(1).kind == tOp && p.peekAt(1).val == ":=" {
		p.next()
		target := mk("Name", p.posFrom(t), "id", t.val, "ctx", store())
		p.next()
		v := p.expression()
		return mk("NamedExpr", p.posFrom(t), "target", target, "value", v)
	}
	e := p.expression()
	if p.isOp(":=") {
		p.failAt(t, false, "cannot use assignment expressions with "+describe(e))
	}
	return e
}

func (p *parser) expression() *Node {
	if p.isKw("lambda") {
		return p.lambdef()
	}
	start := p.tok()
	body := p.disjunction()
	if p.isKw("if") {
		p.next()
		test := p.disjunction()
		if !p.isKw("else") {
			p.failAt(p.end, true, "expected 'else' after 'if' expression")
		}
		p.next()
		orelse := p.expression()
		return mk("IfExp", p.posFrom(start), "test", test, "body", body, "orelse", orelse)
	}
	return body
}

func (p *parser) lambdef() *Node {
	start := p.next()
	args := p.parameters(":", false)
	p.expectOp(":")
	body := p.expression()
	return mk("Lambda", p.posFrom(start), "args", args, "body", body)
}

func (p *parser) boolOp(kw, op string, sub func() *Node) *Node {
	start := p.tok()
	first := sub()
	if !p.isKw(kw) {
		return first
	}
	vals := []*Node{first}
	for p.acceptKw(kw) {
		vals = append(vals, sub())
	}
	return mk("BoolOp", p.posFrom(start), "op", leaf(op), "values", vals)
}

func (p *parser) disjunction() *Node { return p.boolOp("or", "Or", p.conjunction) }
func (p *parser) conjunction() *Node { return p.boolOp("and", "And", p.inversion) }

func (p *parser) inversion() *Node {
	if p.isKw("not") {
		start := p.next()
		v := p.inversion()
		return mk("UnaryOp", p.posFrom(start), "op", leaf("Not"), "operand", v)
	}
	return p.comparison()
}

func (p *parser) compareOp() string {
	t := p.tok()
	if t.kind == tOp {
		switch t.val {
		case "==":
			return "Eq"
		case "!=":
			return "NotEq"
		case "<":
			return "Lt"
		case "<=":
			return "LtE"
		case ">":
			return "Gt"
		case ">=":
			return "GtE"
		}
		return ""
	}
	if t.kind == tName {
		switch t.val {
		case "in":
			return "In"
		case "is":
			if n := p.peekAt(1); n.kind == tName && n.val == "not" {
				return "IsNot"
			}
			return "Is"
		case "not":
			if n := p.peekAt(1); n.kind == tName && n.val == "in" {
				return "NotIn"
			}
		}
	}
	return ""
}

func (p *parser) comparison() *Node {
	start := p.tok()
	left := p.bitwiseOr()
	var ops, comps []*Node
	for {
		op := p.compareOp()
		if op == "" {
			break
		}
		p.next()
		if op == "IsNot" || op == "NotIn" {
			p.next()
		}
		ops = append(ops, leaf(op))
		comps = append(comps, p.bitwiseOr())
	}
	if ops == nil {
		return left
	}
	return mk("Compare", p.posFrom(start), "left", left, "ops", ops, "comparators", comps)
}

// binary parses a left-associative level of binary operators.
func (p *parser) binary(ops map[string]string, sub func() *Node) *Node {
	start := p.tok()
	left := sub()
	for {
		t := p.tok()
		name, ok := ops[t.val]
		if t.kind != tOp || !ok {
			return left
		}
		p.next()
		right := sub()
		left = mk("BinOp", p.posFrom(start), "left", left, "op", leaf(name), "right", right)
	}
}

var (
	orOps    = map[string]string{"|": "BitOr"}
	xorOps   = map[string]string{"^": "BitXor"}
	andOps   = map[string]string{"&": "BitAnd"}
	shiftOps = map[string]string{"<<": "LShift", ">>": "RShift"}
	sumOps   = map[string]string{"+": "Add", "-": "Sub"}
	termOps  = map[string]string{"*": "Mult", "/": "Div", "//": "FloorDiv", "%": "Mod", "@": "MatMult"}
)

func (p *parser) bitwiseOr() *Node  { return p.binary(orOps, p.bitwiseXor) }
func (p *parser) bitwiseXor() *Node { return p.binary(xorOps, p.bitwiseAnd) }
func (p *parser) bitwiseAnd() *Node { return p.binary(andOps, p.shiftExpr) }
func (p *parser) shiftExpr() *Node  { return p.binary(shiftOps, p.sum) }
func (p *parser) sum() *Node        { return p.binary(sumOps, p.term) }
func (p *parser) term() *Node       { return p.binary(termOps, p.factor) }

func (p *parser) factor() *Node {
	t := p.tok()
	if t.kind == tOp {
		op := map[string]string{"+": "UAdd", "-": "USub", "~": "Invert"}[t.val]
		if op != "" {
			p.next()
			v := p.factor()
			return mk("UnaryOp", p.posFrom(t), "op", leaf(op), "operand", v)
		}
	}
	return p.power()
}

func (p *parser) power() *Node {
	start := p.tok()
	var base *Node
	if p.isKw("await") {
		p.next()
		v := p.primary()
		base = mk("Await", p.posFrom(start), "value", v)
	} else {
		base = p.primary()
	}
	if p.acceptOp("**") {
		exp := p.factor()
		return mk("BinOp", p.posFrom(start), "left", base, "op", leaf("Pow"), "right", exp)
	}
	return base
}

func (p *parser) primary() *Node {
	start := p.tok()
	e := p.atom()
	for {
		switch {
		case p.isOp("."):
			p.next()
			attr := p.name()
			e = mk("Attribute", p.posFrom(start), "value", e, "attr", attr, "ctx", load())
		case p.isOp("("):
			e = p.call(start, e)
		case p.isOp("["):
			p.next()
			s := p.slices()
			p.expectOp("]")
			e = mk("Subscript", p.posFrom(start), "value", e, "slice", s, "ctx", load())
		default:
			return e
		}
	}
}

func (p *parser) call(start token, fn *Node) *Node {
	open := p.next()
	var args, kws []*Node
	for !p.isOp(")") {
		t := p.tok()
		switch {
		case p.isOp("**"):
			p.next()
			v := p.expression()
			kws = append(kws, mk("keyword", p.posFrom(t), "arg", nil, "value", v))
		case p.isOp("*"):
			p.next()
			v := p.expression()
			args = append(args, mk("Starred", p.posFrom(t), "value", v, "ctx", load()))
		case t.kind == tName && !keywords[t.val] && p.peekAt(1).kind == tOp && p.peekAt(1).val == "=":
			p.next()
			p.next()
			v := p.expression()
			kws = append(kws, mk("keyword", p.posFrom(t), "arg", t.val, "value", v))
		default:
			e := p.namedExpression()
			if p.isKw("for") || p.isKw("async") {
				gens := p.comprehensions()
				if len(args) > 0 || len(kws) > 0 || !p.isOp(")") {
					p.failAt(t, false, "Generator expression must be parenthesized")
				}
				p.next()
				g := mk("GeneratorExp", p.posFrom(open), "elt", e, "generators", gens)
				return mk("Call", p.posFrom(start), "func", fn, "args", []*Node{g}, "keywords", []*Node{})
			}
			if p.isOp("=") {
				p.fail(`expression cannot contain assignment, perhaps you meant "=="?`)
			}
			if len(kws) > 0 && e.Type != "Starred" {
				p.failAt(t, false, "positional argument follows keyword argument")
			}
			args = append(args, e)
		}
		if !p.acceptOp(",") {
			break
		}
	}
	if !p.isOp(")") {
		p.failAt(open, false, "'(' was never closed")
	}
	p.next()
	return mk("Call", p.posFrom(start), "func", fn, "args", nonNil(args), "keywords", nonNil(kws))
}

func (p *parser) slices() *Node {
	start := p.tok()
	first := p.slice()
	if !p.isOp(",") {
		if first.Type == "Starred" {
			return mk("Tuple", first.Pos, "elts", []*Node{first}, "ctx", load())
		}
		return first
	}
	elts := []*Node{first}
	for p.acceptOp(",") {
		if p.isOp("]") {
			break
		}
		elts = append(elts, p.slice())
	}
	return mk("Tuple", p.posFrom(start), "elts", elts, "ctx", load())
}

func (p *parser) slice() *Node {
	start := p.tok()
	var lower, upper, step *Node
	if !p.isOp(":") {
		if p.isOp("*") {
			return p.starNamedExpression()
		}
		lower = p.namedExpression()
		if !p.isOp(":") {
			return lower
		}
	}
	p.next()
	if !p.isOp(":") && !p.isOp("]") && !p.isOp(",") {
		upper = p.expression()
	}
	if p.acceptOp(":") {
		if !p.isOp("]") && !p.isOp(",") {
			step = p.expression()
		}
	}
	return mk("Slice", p.posFrom(start), "lower", lower, "upper", upper, "step", step)
}

// comprehensions is for_if_clauses.
func (p *parser) comprehensions() []*Node {
	var out []*Node
	for p.isKw("for") || p.isKw("async") && p.peekAt(1).val == "for" {
		async := 0
		if p.acceptKw("async") {
			async = 1
		}
		p.next()
		target := p.targetList("in")
		p.expectKw("in")
		iter := p.disjunction()
		var ifs []*Node
		for p.acceptKw("if") {
			ifs = append(ifs, p.disjunction())
		}
		out = append(out, &Node{Type: "comprehension", Fields: []Field{{"target", target}, {"iter", iter}, {"ifs", nonNil(ifs)}, {"is_async", async}}})
	}
	return out
}

// targetList is star_targets before "in" or "=": a bare tuple when there is a comma.
func (p *parser) targetList(stop string) *Node {
	start := p.tok()
	one := func() *Node {
		if p.isOp("*") {
			s := p.next()
			v := p.bitwiseOr()
			return mk("Starred", p.posFrom(s), "value", v, "ctx", load())
		}
		return p.bitwiseOr()
	}
	first := one()
	var t *Node = first
	if p.isOp(",") {
		elts := []*Node{first}
		for p.acceptOp(",") {
			if p.isKw(stop) || p.isOp(stop) {
				break
			}
			elts = append(elts, one())
		}
		t = mk("Tuple", p.posFrom(start), "elts", elts, "ctx", load())
	}
	p.setCtx(t, "Store", start)
	return t
}
