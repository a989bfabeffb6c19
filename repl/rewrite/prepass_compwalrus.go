// The walrus in a comprehension's if clause: a clause binding the name
// goes before the test, as Python evaluates it.
//
//	[m[1] for l in ls if (m := p.match(l))]   [m[1] for l in ls for m in [p.match(l)] if m]
//
// Python also binds the name in the enclosing scope; when the name is used
// outside the comprehension, the walrus stays refused.

package rewrite

// compWalrus marks the if clauses of a comprehension (element at token
// elem, clauses kids) whose walrus can be written as a for clause, and
// takes those walruses off the parser's list of refused ones.
func (p *exprParser) compWalrus(elem int, kids []*node) {
	if len(kids) == 0 || len(p.named) == 0 {
		return
	}
	end := kids[len(kids)-1].b
	for _, c := range kids {
		if len(c.kids) != 1 {
			continue
		}
		var mine []*node
		for _, n := range p.named {
			if n.a >= c.a && n.b <= c.b {
				mine = append(mine, n)
			}
		}
		if len(mine) == 0 {
			continue
		}
		ok := true
		for _, n := range mine {
			ok = ok && unconditional(c.kids[0], n) && !p.usedOutside(p.toks[n.a].text, elem, end)
		}
		if !ok {
			continue
		}
		c.walrus, c.dirty = mine, true
		keep := p.named[:0]
		for _, n := range p.named {
			if !containsNode(mine, n) {
				keep = append(keep, n)
			}
		}
		p.named = keep
	}
}

func containsNode(list []*node, n *node) bool {
	for _, x := range list {
		if x == n {
			return true
		}
	}
	return false
}

// usedOutside reports whether name appears as a name token of the source
// outside tokens [a, b).
func (p *exprParser) usedOutside(name string, a, b int) bool {
	for i, t := range p.toks {
		if (i < a || i >= b) && t.kind == tName && t.text == name {
			return true
		}
	}
	return false
}

// compIf writes an if clause whose walruses become for clauses.
func (e *emitter) compIf(n *node, f *frag) {
	a, _ := e.span(n)
	for _, w := range n.walrus {
		name := e.toks[w.a]
		f.add("for ", a)
		f.copy(e.src, name.start, name.end)
		f.add(" in [", a)
		e.emit(w.kids[1], f)
		f.add("] ", a)
	}
	cond := replaceNamed(n.kids[0])
	ca, _ := e.span(cond)
	f.copy(e.src, a, ca)
	e.emit(cond, f)
}
