// The pre-pass parser's atoms: literals, displays, comprehension clauses and for targets.

package rewrite

// compClauses parses for/if clauses of a comprehension.
func (p *exprParser) compClauses() []*node {
	var kids []*node
	for p.err == nil {
		a := p.i
		switch {
		case p.tok().kw("async"):
			p.fail("async comprehensions are not supported")
			return kids
		case p.tok().kw("for"):
			p.i++
			target := p.targetList()
			if !p.tok().kw("in") {
				p.fail("expected 'in' in a comprehension")
				return kids
			}
			p.i++
			c := p.mk(nComp, a, target, p.orTest())
			c.dirty = c.dirty || starDeep(target)
			kids = append(kids, c)
		case p.tok().kw("if"):
			p.i++
			kids = append(kids, p.mk(nComp, a, p.orTest()))
		default:
			return kids
		}
	}
	return kids
}

// targetList parses the targets of a for clause or statement.
func (p *exprParser) targetList() *node {
	a := p.i
	first := p.testOrStarTarget()
	if !p.tok().op(",") {
		return first
	}
	kids := []*node{first}
	for p.tok().op(",") {
		p.i++
		if p.tok().kw("in") || p.tok().op("=") || p.atEnd() {
			break
		}
		kids = append(kids, p.testOrStarTarget())
	}
	return p.mk(nTuple, a, kids...)
}

func (p *exprParser) testOrStarTarget() *node {
	if p.tok().op("*") {
		a := p.i
		p.i++
		return p.mk(nStar, a, p.binary(0))
	}
	return p.binary(0)
}

func (p *exprParser) atom() *node {
	a := p.i
	t := p.tok()
	switch {
	case t.kind == tName:
		if pyKeywords[t.text] && t.text != "None" && t.text != "True" && t.text != "False" && t.text != "assert" {
			p.fail("unexpected %q", t.text)
			return p.mk(nName, a)
		}
		p.i++
		return p.mk(nName, a)
	case t.kind == tNumber:
		p.i++
		n := p.mk(nNumber, a)
		n.dirty = numberNeedsFix(t.text)
		return n
	case t.kind == tString:
		for p.tok().kind == tString {
			p.i++
		}
		n := p.mk(nStrings, a)
		n.dirty = p.i-a > 1
		for k := a; k < p.i && !n.dirty; k++ {
			n.dirty = stringNeedsFix(p.toks[k].text)
		}
		return n
	case t.op("..."):
		p.i++
		n := p.mk(nEllipsis, a)
		n.dirty = true
		return n
	case t.op("("):
		p.i++
		if p.tok().op(")") {
			p.i++
			return p.mk(nParen, a)
		}
		if p.tok().kw("yield") {
			y := p.yieldExpr()
			p.expect(")")
			return p.mk(nParen, a, y)
		}
		x := p.testOrStar(true)
		if p.tok().kw("for") || p.tok().kw("async") {
			kids := append([]*node{x}, p.compClauses()...)
			p.expect(")")
			n := p.mk(nParen, a, kids...)
			n.genexp, n.dirty = true, true
			return n
		}
		kids := []*node{x}
		if x.kind == nStar && !p.tok().op(",") {
			x.refuse, x.dirty = "SyntaxError: cannot use starred expression here", true
		}
		for p.tok().op(",") && p.err == nil {
			p.i++
			if p.tok().op(")") {
				break
			}
			kids = append(kids, p.testOrStar(true))
		}
		p.expect(")")
		return p.starred(p.mk(nParen, a, kids...))
	case t.op("["):
		p.i++
		kids := p.displayItems("]", false)
		p.expect("]")
		return p.starred(p.mk(nList, a, kids...))
	case t.op("{"):
		p.i++
		kids := p.displayItems("}", true)
		p.expect("}")
		kind := nSet
		dstar := false
		for _, k := range kids {
			if k.kind == nDictItem {
				kind = nDict
				if len(k.kids) == 1 {
					dstar = true
				}
			}
		}
		if len(kids) == 0 {
			kind = nDict
		}
		n := p.mk(kind, a, kids...)
		if dstar {
			n.dstar, n.dirty = true, true
		}
		if kind == nSet {
			n.dirty = true // Starlark has no set displays: set([...])
			return p.starred(n)
		}
		return n
	}
	p.fail("unexpected %q", t.text)
	return p.mk(nName, a)
}

// starred marks a list, tuple or set display holding *x for the rewrite
// (starDisplay), refusing it in a comprehension as Python does.
func (p *exprParser) starred(n *node) *node {
	if !hasStar(n) {
		return n
	}
	n.dirty = true
	for _, k := range n.kids {
		if k.kind == nComp {
			n.kids[0].refuse = "SyntaxError: iterable unpacking cannot be used in comprehension"
		}
	}
	return n
}

func hasStar(n *node) bool {
	for _, k := range n.kids {
		if k.kind == nStar {
			return true
		}
	}
	return false
}

// displayItems parses the inside of [...] or {...}: items, or one item
// followed by comprehension clauses.
func (p *exprParser) displayItems(close string, braces bool) []*node {
	var kids []*node
	for !p.tok().op(close) && p.err == nil {
		a := p.i
		var item *node
		switch {
		case braces && p.tok().op("**"):
			p.i++
			item = p.mk(nDictItem, a, p.binary(0))
		default:
			x := p.testOrStar(true)
			if braces && p.tok().op(":") {
				p.i++
				item = p.mk(nDictItem, a, x, p.test())
			} else {
				item = x
			}
		}
		kids = append(kids, item)
		if p.tok().kw("for") || p.tok().kw("async") {
			kids = append(kids, p.compClauses()...)
			return kids
		}
		if !p.tok().op(",") {
			break
		}
		p.i++
	}
	return kids
}

func (p *exprParser) yieldExpr() *node {
	a := p.i
	p.i++ // yield
	if p.tok().kw("from") {
		p.i++
	}
	if p.atEnd() {
		return p.mk(nYield, a)
	}
	return p.mk(nYield, a, p.testList(true))
}
