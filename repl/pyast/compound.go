package pyast

// compound parses def, class, if, while, for, with, try and their async forms.
func (p *parser) compound(decos []*Node) *Node {
	start := p.tok()
	async := false
	if p.isKw("async") {
		async = true
		p.next()
		if !p.isKw("def") && !p.isKw("for") && !p.isKw("with") {
			p.fail("invalid syntax")
		}
	}
	kw := p.next()
	switch kw.val {
	case "def":
		return p.funcDef(start, decos, async)
	case "class":
		return p.classDef(start, decos)
	case "if":
		return p.ifStmt(start, "'if' statement")
	case "while":
		test := p.namedExpression()
		p.colon()
		body := p.block("'while' statement", start.line)
		orelse := p.elseBlock()
		return mk("While", p.posFrom(start), "test", test, "body", body, "orelse", orelse)
	case "for":
		target := p.targetList("in")
		p.expectKw("in")
		iter := p.starExpressions()
		p.colon()
		body := p.block("'for' statement", start.line)
		orelse := p.elseBlock()
		typ := "For"
		if async {
			typ = "AsyncFor"
		}
		return mk(typ, p.posFrom(start), "target", target, "iter", iter, "body", body, "orelse", orelse, "type_comment", nil)
	case "with":
		return p.withStmt(start, async)
	case "try":
		return p.tryStmt(start)
	}
	p.fail("invalid syntax")
	return nil
}

func (p *parser) elseBlock() []*Node {
	if p.isKw("else") {
		t := p.next()
		p.colon()
		return p.block("'else' statement", t.line)
	}
	return []*Node{}
}

func (p *parser) ifStmt(start token, what string) *Node {
	test := p.namedExpression()
	p.colon()
	body := p.block(what, start.line)
	var orelse []*Node
	if p.isKw("elif") {
		t := p.next()
		orelse = []*Node{p.ifStmt(t, "'elif' statement")}
	} else {
		orelse = p.elseBlock()
	}
	return mk("If", p.posFrom(start), "test", test, "body", body, "orelse", orelse)
}

func (p *parser) funcDef(start token, decos []*Node, async bool) *Node {
	def := start
	if async {
		def = start
	}
	name := p.name()
	p.expectOp("(")
	args := p.parameters(")", true)
	p.expectOp(")")
	var returns *Node
	if p.acceptOp("->") {
		returns = p.expression()
	}
	p.colon()
	body := p.block("function definition", def.line)
	typ := "FunctionDef"
	if async {
		typ = "AsyncFunctionDef"
	}
	return mk(typ, p.posFrom(def), "name", name, "args", args, "body", body, "decorator_list", nonNil(decos), "returns", returns, "type_comment", nil)
}

func (p *parser) classDef(start token, decos []*Node) *Node {
	name := p.name()
	bases, kws := []*Node{}, []*Node{}
	if p.isOp("(") {
		c := p.call(start, nil)
		bases = c.Get("args").([]*Node)
		kws = c.Get("keywords").([]*Node)
	}
	p.colon()
	body := p.block("class definition", start.line)
	return mk("ClassDef", p.posFrom(start), "name", name, "bases", bases, "keywords", kws, "body", body, "decorator_list", nonNil(decos))
}

// parameters parses a def's (annotated) or a lambda's parameter list up to end.
func (p *parser) parameters(end string, annotated bool) *Node {
	var posonly, args, kwonly, defaults, kwDefaults []*Node
	var vararg, kwarg *Node
	star := false
	param := func() *Node {
		t := p.tok()
		name := p.name()
		var ann *Node
		if annotated && p.acceptOp(":") {
			if star && p.isOp("*") {
				ann = p.starExpression()
			} else {
				ann = p.expression()
			}
		}
		return mk("arg", p.posFrom(t), "arg", name, "annotation", ann, "type_comment", nil)
	}
	for !p.isOp(end) {
		switch {
		case p.isOp("/"):
			if star || len(args) == 0 || posonly != nil {
				p.fail("invalid syntax")
			}
			p.next()
			posonly, args = args, nil
		case p.isOp("**"):
			p.next()
			kwarg = param()
		case p.isOp("*"):
			if star {
				p.fail("* argument may appear only once")
			}
			p.next()
			star = true
			if !p.isOp(",") {
				vararg = param()
			} else if p.peekAt(1).kind == tOp && p.peekAt(1).val == end {
				p.fail("named arguments must follow bare *")
			}
		default:
			a := param()
			var d *Node
			if p.acceptOp("=") {
				d = p.expression()
			}
			if star {
				kwonly = append(kwonly, a)
				kwDefaults = append(kwDefaults, d)
			} else {
				if d == nil && len(defaults) > 0 {
					p.failAt(p.end, false, "non-default argument follows default argument")
				}
				args = append(args, a)
				if d != nil {
					defaults = append(defaults, d)
				}
			}
		}
		if kwarg != nil && !p.isOp(end) && !(p.isOp(",") && p.peekAt(1).val == end) {
			p.fail("arguments cannot follow var-keyword argument")
		}
		if !p.acceptOp(",") {
			break
		}
	}
	return &Node{Type: "arguments", Fields: []Field{{"posonlyargs", nonNil(posonly)}, {"args", nonNil(args)}, {"vararg", vararg},
		{"kwonlyargs", nonNil(kwonly)}, {"kw_defaults", nonNil(kwDefaults)}, {"kwarg", kwarg}, {"defaults", nonNil(defaults)}}}
}

func (p *parser) withStmt(start token, async bool) *Node {
	var items []*Node
	item := func() *Node {
		e := p.expression()
		var vars *Node
		if p.acceptKw("as") {
			t := p.tok()
			vars = p.targetOne()
			p.setCtx(vars, "Store", t)
		}
		return &Node{Type: "withitem", Fields: []Field{{"context_expr", e}, {"optional_vars", vars}}}
	}
	parsed := false
	if p.isOp("(") {
		parsed = p.try(func() {
			p.next()
			items = nil
			for !p.isOp(")") {
				items = append(items, item())
				if !p.acceptOp(",") {
					break
				}
			}
			p.expectOp(")")
			if !p.isOp(":") {
				p.fail("invalid syntax")
			}
		})
	}
	if !parsed {
		items = []*Node{item()}
		for p.acceptOp(",") {
			items = append(items, item())
		}
	}
	p.colon()
	body := p.block("'with' statement", start.line)
	typ := "With"
	if async {
		typ = "AsyncWith"
	}
	return mk(typ, p.posFrom(start), "items", items, "body", body, "type_comment", nil)
}

// targetOne is a single with/as target (a name, attribute, subscript or parenthesized tuple).
func (p *parser) targetOne() *Node {
	if p.isOp("*") {
		t := p.next()
		v := p.bitwiseOr()
		return mk("Starred", p.posFrom(t), "value", v, "ctx", load())
	}
	return p.bitwiseOr()
}

func (p *parser) tryStmt(start token) *Node {
	p.colon()
	body := p.block("'try' statement", start.line)
	var handlers []*Node
	star := false
	for p.isKw("except") {
		t := p.next()
		if p.acceptOp("*") {
			star = true
		}
		var typ *Node
		var name any
		if !p.isOp(":") {
			typ = p.expression()
			if p.isOp(",") {
				tt := p.tok()
				elts := []*Node{typ}
				for p.acceptOp(",") {
					if p.isOp(":") || p.isKw("as") {
						break
					}
					elts = append(elts, p.expression())
				}
				_ = tt
				p.failErr(typ, "multiple exception types must be parenthesized")
			}
			if p.acceptKw("as") {
				name = p.name()
			}
		}
		p.colon()
		what := "'except' statement"
		if star {
			what = "'except*' statement"
		}
		hb := p.block(what, t.line)
		handlers = append(handlers, mk("ExceptHandler", p.posFrom(t), "type", typ, "name", name, "body", hb))
	}
	orelse := []*Node{}
	if len(handlers) > 0 {
		orelse = p.elseBlock()
	}
	final := []*Node{}
	if p.isKw("finally") {
		t := p.next()
		p.colon()
		final = p.block("'finally' statement", t.line)
	}
	if len(handlers) == 0 && len(final) == 0 {
		p.failAt(p.end, true, "expected 'except' or 'finally' block")
	}
	typ := "Try"
	if star {
		typ = "TryStar"
	}
	return mk(typ, p.posFrom(start), "body", body, "handlers", nonNil(handlers), "orelse", orelse, "finalbody", final)
}
