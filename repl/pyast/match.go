package pyast

// tryMatch parses a match statement when the soft keyword starts one;
// otherwise it returns nil with the parser where it was.
func (p *parser) tryMatch() *Node {
	start := p.tok()
	var subject *Node
	ok := p.try(func() {
		p.next()
		subject = p.subject()
		if !p.isOp(":") || p.peekAt(1).kind != tNewline {
			p.fail("invalid syntax")
		}
	})
	if !ok {
		return nil
	}
	p.next()
	p.next()
	if p.tok().kind != tIndent {
		t := p.tok()
		panic(&SyntaxError{Msg: "expected an indented block after 'match' statement on line " + itoa(start.line), Lineno: t.line, Offset: t.col + 1, Indent: true})
	}
	p.next()
	var cases []*Node
	for p.isKw("case") {
		ct := p.next()
		pat := p.patterns()
		var guard *Node
		if p.acceptKw("if") {
			guard = p.namedExpression()
		}
		p.colon()
		body := p.block("'case' statement", ct.line)
		cases = append(cases, &Node{Type: "match_case", Fields: []Field{{"pattern", pat}, {"guard", guard}, {"body", body}}})
	}
	if len(cases) == 0 {
		p.fail("invalid syntax")
	}
	if p.tok().kind != tDedent && p.tok().kind != tEOF {
		p.fail("invalid syntax")
	}
	p.next()
	return mk("Match", p.posFrom(start), "subject", subject, "cases", cases)
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

func (p *parser) subject() *Node {
	start := p.tok()
	first := p.starNamedExpression()
	if !p.isOp(",") {
		return first
	}
	elts := []*Node{first}
	for p.acceptOp(",") {
		if p.isOp(":") {
			break
		}
		elts = append(elts, p.starNamedExpression())
	}
	return mk("Tuple", p.posFrom(start), "elts", elts, "ctx", load())
}

// patterns is a case's pattern: an open sequence when there is a comma.
func (p *parser) patterns() *Node {
	start := p.tok()
	first := p.maybeStarPattern()
	if !p.isOp(",") {
		if first.Type == "MatchStar" {
			return mk("MatchSequence", p.posFrom(start), "patterns", []*Node{first})
		}
		return first
	}
	pats := []*Node{first}
	for p.acceptOp(",") {
		if p.isOp(":") || p.isKw("if") {
			break
		}
		pats = append(pats, p.maybeStarPattern())
	}
	return mk("MatchSequence", p.posFrom(start), "patterns", pats)
}

func (p *parser) maybeStarPattern() *Node {
	if p.isOp("*") {
		t := p.next()
		name := p.name()
		var n any = name
		if name == "_" {
			n = nil
		}
		return mk("MatchStar", p.posFrom(t), "name", n)
	}
	return p.asPattern()
}

func (p *parser) asPattern() *Node {
	start := p.tok()
	pat := p.orPattern()
	if p.acceptKw("as") {
		name := p.name()
		if name == "_" {
			p.fail("cannot use '_' as a target")
		}
		return mk("MatchAs", p.posFrom(start), "pattern", pat, "name", name)
	}
	return pat
}

func (p *parser) orPattern() *Node {
	start := p.tok()
	first := p.closedPattern()
	if !p.isOp("|") {
		return first
	}
	pats := []*Node{first}
	for p.acceptOp("|") {
		pats = append(pats, p.closedPattern())
	}
	return mk("MatchOr", p.posFrom(start), "patterns", pats)
}

func (p *parser) closedPattern() *Node {
	t := p.tok()
	switch {
	case t.kind == tName && (t.val == "None" || t.val == "True" || t.val == "False"):
		c := p.atom()
		return mk("MatchSingleton", p.posFrom(t), "value", c.Get("value"))
	case t.kind == tNumber || t.kind == tString || p.isOp("-"):
		v := p.sum()
		return mk("MatchValue", p.posFrom(t), "value", v)
	case t.kind == tName && !keywords[t.val]:
		p.next()
		var e *Node = mk("Name", p.posFrom(t), "id", t.val, "ctx", load())
		dotted := false
		for p.acceptOp(".") {
			attr := p.name()
			e = mk("Attribute", p.posFrom(t), "value", e, "attr", attr, "ctx", load())
			dotted = true
		}
		if p.isOp("(") {
			return p.classPattern(t, e)
		}
		if dotted {
			return mk("MatchValue", p.posFrom(t), "value", e)
		}
		if t.val == "_" {
			return mk("MatchAs", p.posFrom(t), "pattern", nil, "name", nil)
		}
		return mk("MatchAs", p.posFrom(t), "pattern", nil, "name", t.val)
	case p.isOp("(") || p.isOp("["):
		closer := map[string]string{"(": ")", "[": "]"}[t.val]
		p.next()
		var pats []*Node
		comma := false
		for !p.isOp(closer) {
			pats = append(pats, p.maybeStarPattern())
			if !p.acceptOp(",") {
				break
			}
			comma = true
		}
		p.expectOp(closer)
		if closer == ")" && len(pats) == 1 && !comma && pats[0].Type != "MatchStar" {
			return pats[0]
		}
		return mk("MatchSequence", p.posFrom(t), "patterns", nonNil(pats))
	case p.isOp("{"):
		return p.mappingPattern()
	}
	p.fail("invalid syntax")
	return nil
}

func (p *parser) classPattern(start token, cls *Node) *Node {
	p.next()
	var pats, kwPats []*Node
	var kwAttrs []string
	for !p.isOp(")") {
		t := p.tok()
		if t.kind == tName && p.peekAt(1).kind == tOp && p.peekAt(1).val == "=" {
			p.next()
			p.next()
			kwAttrs = append(kwAttrs, t.val)
			kwPats = append(kwPats, p.asPattern())
		} else {
			if len(kwAttrs) > 0 {
				p.fail("positional patterns follow keyword patterns")
			}
			pats = append(pats, p.asPattern())
		}
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp(")")
	if kwAttrs == nil {
		kwAttrs = []string{}
	}
	return mk("MatchClass", p.posFrom(start), "cls", cls, "patterns", nonNil(pats), "kwd_attrs", kwAttrs, "kwd_patterns", nonNil(kwPats))
}

func (p *parser) mappingPattern() *Node {
	start := p.next()
	var keys, pats []*Node
	var rest any
	for !p.isOp("}") {
		if p.acceptOp("**") {
			rest = p.name()
		} else {
			t := p.tok()
			var k *Node
			if t.kind == tName && t.val != "None" && t.val != "True" && t.val != "False" {
				k = p.primary()
			} else {
				k = p.sum()
			}
			keys = append(keys, k)
			p.expectOp(":")
			pats = append(pats, p.asPattern())
		}
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp("}")
	return mk("MatchMapping", p.posFrom(start), "keys", nonNil(keys), "patterns", nonNil(pats), "rest", rest)
}
