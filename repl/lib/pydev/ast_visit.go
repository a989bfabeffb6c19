// ast: NodeVisitor and NodeTransformer, base classes for a class
// statement: visit(node) calls self.visit_<Class>(node) or
// self.generic_visit(node), which visits the children.

package pydev

import (
	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

func (a *astInfo) baseClass(name string, base *pyrt.PyType) *pyrt.PyType {
	t := &pyrt.PyType{TypeName: name, Module: "ast", Base: base, User: &pyrt.UserClass{R: a.r, Dict: map[string]starlark.Value{}}}
	t.Call = func(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return t.Construct(thread, args, kw)
	}
	return t
}

func (a *astInfo) visitorClass() *pyrt.PyType {
	t := a.baseClass("NodeVisitor", a.r.Types["object"])
	t.User.Set("visit", &pyrt.GoMethod{MethodName: "visit", Fn: func(thread *starlark.Thread, self starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var node starlark.Value
		if err := starlark.UnpackPositionalArgs("visit", args, kw, 1, &node); err != nil {
			return nil, err
		}
		name := "visit_" + pyrt.PyTypeName(node)
		if o, ok := a.isAST(node); ok {
			name = "visit_" + o.Cls.TypeName
		}
		m, err := getMethod(self, name)
		if err != nil {
			return nil, err
		}
		if m == nil {
			if m, err = getMethod(self, "generic_visit"); err != nil || m == nil {
				return nil, err
			}
		}
		return starlark.Call(thread, m, starlark.Tuple{node}, nil)
	}})
	t.User.Set("generic_visit", &pyrt.GoMethod{MethodName: "generic_visit", Fn: func(thread *starlark.Thread, self starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var node starlark.Value
		if err := starlark.UnpackPositionalArgs("generic_visit", args, kw, 1, &node); err != nil {
			return nil, err
		}
		o, ok := a.isAST(node)
		if !ok {
			return starlark.None, nil
		}
		for _, name := range fieldsOf(o) {
			switch v := field(o, name).(type) {
			case *pyrt.PyObject:
				if _, ok := a.isAST(v); ok {
					if _, err := callVisit(thread, self, v); err != nil {
						return nil, err
					}
				}
			case *starlark.List:
				items := listItems(v)
				for _, x := range items {
					if _, ok := a.isAST(x); ok {
						if _, err := callVisit(thread, self, x); err != nil {
							return nil, err
						}
					}
				}
			}
		}
		return starlark.None, nil
	}})
	return t
}

func listItems(l *starlark.List) []starlark.Value {
	out := make([]starlark.Value, l.Len())
	for i := range out {
		out[i] = l.Index(i)
	}
	return out
}

func getMethod(self starlark.Value, name string) (starlark.Value, error) {
	h, ok := self.(starlark.HasAttrs)
	if !ok {
		return nil, pyrt.PyErrorf(pyrt.ExcAttribute, "'%s' object has no attribute '%s'", pyrt.PyTypeName(self), name)
	}
	return h.Attr(name)
}

func callVisit(thread *starlark.Thread, self, node starlark.Value) (starlark.Value, error) {
	m, err := getMethod(self, "visit")
	if err != nil {
		return nil, err
	}
	if m == nil {
		return nil, pyrt.PyErrorf(pyrt.ExcAttribute, "'%s' object has no attribute 'visit'", pyrt.PyTypeName(self))
	}
	return starlark.Call(thread, m, starlark.Tuple{node}, nil)
}

// transformerClass is NodeTransformer: generic_visit replaces each child
// with what visiting it returns (None removes it, a list splices it in).
func (a *astInfo) transformerClass(visitor *pyrt.PyType) *pyrt.PyType {
	t := a.baseClass("NodeTransformer", visitor)
	t.User.Set("generic_visit", &pyrt.GoMethod{MethodName: "generic_visit", Fn: func(thread *starlark.Thread, self starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var node starlark.Value
		if err := starlark.UnpackPositionalArgs("generic_visit", args, kw, 1, &node); err != nil {
			return nil, err
		}
		o, ok := a.isAST(node)
		if !ok {
			return node, nil
		}
		for _, name := range fieldsOf(o) {
			switch v := field(o, name).(type) {
			case *pyrt.PyObject:
				if _, ok := a.isAST(v); !ok {
					continue
				}
				nv, err := callVisit(thread, self, v)
				if err != nil {
					return nil, err
				}
				if nv == starlark.None {
					delAttr(o, name)
				} else {
					setAttr(o, name, nv)
				}
			case *starlark.List:
				var out []starlark.Value
				for _, x := range listItems(v) {
					if _, ok := a.isAST(x); ok {
						nv, err := callVisit(thread, self, x)
						if err != nil {
							return nil, err
						}
						if nv == starlark.None {
							continue
						}
						if _, isNode := a.isAST(nv); !isNode {
							if err := pyrt.Iterate(nv, func(y starlark.Value) (bool, error) {
								out = append(out, y)
								return true, nil
							}); err != nil {
								return nil, err
							}
							continue
						}
						x = nv
					}
					out = append(out, x)
				}
				if err := v.Clear(); err != nil {
					return nil, err
				}
				for _, x := range out {
					if err := v.Append(x); err != nil {
						return nil, err
					}
				}
			}
		}
		return node, nil
	}})
	return t
}
