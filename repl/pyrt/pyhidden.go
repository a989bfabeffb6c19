// The hidden builtins behind the pre-pass's rewrites and the AST pass's
// calls, and live global lookups.

package pyrt

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"harness/repl/modslots"
	"harness/repl/rewrite"
)

// hiddenBuiltins adds the builtins the rewritten code calls.
func (r *Interp) hiddenBuiltins(g starlark.StringDict) {
	add := func(name, shown string, f BuiltinFunc) { g[name] = starlark.NewBuiltin(shown, f) }
	two := func(f func(x, y starlark.Value) (starlark.Value, error)) BuiltinFunc {
		return func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			return f(args[0], args[1])
		}
	}
	add(rewrite.HidPow, "**", two(r.PyPow))
	add(rewrite.HidIs, "is", two(func(x, y starlark.Value) (starlark.Value, error) { return starlark.Bool(Identical(x, y)), nil }))
	add(rewrite.HidMod, "%", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		return PercentOp(thread, args[0], args[1])
	})
	add(rewrite.HidIndex, "[]", two(PyIndex))
	for name, op := range map[string]syntax.Token{rewrite.HidAnd: syntax.AMP, rewrite.HidOr: syntax.PIPE, rewrite.HidXor: syntax.CIRCUMFLEX, rewrite.HidShl: syntax.LTLT, rewrite.HidShr: syntax.GTGT} {
		add(name, name, two(bitOp(op)))
	}
	add(rewrite.HidIn, "in", two(pyIn))
	add(rewrite.HidInTwin, "in", two(pyInTwin))
	g[rewrite.HidTwins] = twinKeys
	add(rewrite.HidSetItem, "[]=", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		return starlark.None, PySetItem(args[0], args[1], args[2])
	})
	add(rewrite.HidDict, "{:}", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		return dictDisplay(args)
	})
	add(rewrite.HidKeys, "{}", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		return mergeBoolKeys(args[0])
	})
	add(rewrite.HidGen, "genexpr", genexpr)
	for name, op := range map[string]syntax.Token{rewrite.HidSub: syntax.MINUS, rewrite.HidDiv: syntax.SLASH, rewrite.HidFloorDiv: syntax.SLASHSLASH} {
		add(name, name, two(func(x, y starlark.Value) (starlark.Value, error) { return Arith(op, x, y) }))
	}
	for name, op := range map[string]syntax.Token{rewrite.HidLT: syntax.LT, rewrite.HidLE: syntax.LE, rewrite.HidGT: syntax.GT, rewrite.HidGE: syntax.GE, rewrite.HidEq: syntax.EQL} {
		add(name, name, two(func(x, y starlark.Value) (starlark.Value, error) {
			ok, err := PyCompare(op, x, y)
			return starlark.Bool(ok), err
		}))
	}
	for name, op := range map[string]syntax.Token{rewrite.HidNeg: syntax.MINUS, rewrite.HidPos: syntax.PLUS, rewrite.HidInvert: syntax.TILDE} {
		add(name, name[1:], func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			x := args[0]
			if b, ok := x.(starlark.Bool); ok {
				x = starlark.MakeInt(B2i(bool(b)))
			}
			return starlark.Unary(op, x)
		})
	}
	augApply := func(thread *starlark.Thread, op string, old, y starlark.Value) (starlark.Value, error) {
		return starlark.Call(thread, g[op], starlark.Tuple{old, y}, nil)
	}
	add(rewrite.HidAugItem, "[]op=", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		x, k := args[0], args[1]
		old, err := PyIndex(x, k)
		if err != nil {
			return nil, err
		}
		v, err := augApply(thread, string(args[2].(starlark.String)), old, args[3])
		if err != nil {
			return nil, err
		}
		return starlark.None, PySetItem(v, x, k)
	})
	add(rewrite.HidAugAttr, ".op=", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		x, name := args[0], string(args[1].(starlark.String))
		old, found := r.funcDictAttr(x, name)
		if !found {
			h, ok := x.(starlark.HasAttrs)
			if !ok {
				return nil, PyErrorf(ExcAttribute, "'%s' object has no attribute '%s'", PyTypeName(x), name)
			}
			var err error
			if old, err = h.Attr(name); err != nil {
				return nil, err
			}
			if old == nil {
				return nil, PyErrorf(ExcAttribute, "'%s' object has no attribute '%s'", PyTypeName(x), name)
			}
			if _, ok := x.(starlark.HasSetField); !ok {
				return nil, PyErrorf(ExcAttribute, "'%s' object attribute '%s' is read-only", PyTypeName(x), name)
			}
		}
		v, err := augApply(thread, string(args[2].(starlark.String)), old, args[3])
		if err != nil {
			return nil, err
		}
		return starlark.None, r.SetAttr(x, name, v)
	})
	add(rewrite.HidIAdd, "+=", two(func(x, y starlark.Value) (starlark.Value, error) {
		if l, ok := x.(*starlark.List); ok {
			vals, err := ListOf(y)
			if err != nil {
				return nil, PyErrorf(ExcTypeError, "'%s' object is not iterable", PyTypeName(y))
			}
			for _, v := range vals {
				if err := l.Append(v); err != nil {
					return nil, err
				}
			}
			return l, nil
		}
		v, err := Arith(syntax.PLUS, x, y)
		if err != nil && strings.Contains(ErrorMessage(err), "unknown binary op") {
			if _, msg := classifyMessage(ErrorMessage(err)); strings.HasPrefix(msg, "unsupported operand type(s) for +:") {
				// CPython names the augmented operator: for +=: 'int' and 'str'
				return nil, PyErrorf(ExcTypeError, "unsupported operand type(s) for +=: '%s' and '%s'", PyTypeName(x), PyTypeName(y))
			}
		}
		return v, err
	}))
	add(rewrite.HidSlice, "[:]", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		return pySlice(args[0], args[1], args[2], args[3])
	})
	add(rewrite.HidShape, "<shape>", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		return shapeTarget(args[0], args[1])
	})
	add(rewrite.HidSetSlice, "[:]=", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		return starlark.None, PySetSlice(args[0], args[1], args[2], args[3], args[4])
	})
	add(rewrite.HidIter, "for", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		return r.forIterable(thread, args)
	})
	add(rewrite.HidMethod, "method", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return CallMethod(thread, args[0], string(args[1].(starlark.String)), args[2:], kw)
	})
	add(rewrite.HidArgs, "*args", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		var out starlark.Tuple
		for _, a := range args {
			vals, err := ListOf(a)
			if err != nil {
				return nil, PyErrorf(ExcTypeError, "argument after * must be an iterable, not %s", PyTypeName(a))
			}
			out = append(out, vals...)
		}
		return out, nil
	})
	add(rewrite.HidKwargs, "**kwargs", pyDictMerge)
	add(rewrite.HidDunder, "attr", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		return r.DunderAttr(args[0], string(args[1].(starlark.String)))
	})
	add(rewrite.HidGlobal, "global", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		return r.liveGlobal(thread, string(args[0].(starlark.String)))
	})
	add(rewrite.HidWalrus, "walrus", r.pyWalrus)
	r.tryBuiltins(g)
	r.classBuiltins(g)
	g["getattr"], g["hasattr"] = Builtin("getattr", r.pyGetattr), Builtin("hasattr", r.pyHasattr)
	g["setattr"] = Builtin("setattr", r.pySetattr)
	g["compile"] = Builtin("compile", r.pyCompile)
	add(rewrite.HidSetAttr, ".=", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		return starlark.None, r.SetAttr(args[1], string(args[2].(starlark.String)), args[0])
	})
	for name, f := range map[string]BuiltinFunc{
		"__py_import": r.pyImport, "__py_from": r.pyFrom, "__py_import_star": r.pyImportStar,
		"__py_assert": pyAssert, "__py_raise": r.pyRaise, "__py_with": r.pyWith,
		"__py_delitem": PyDelitem, "__py_delslice": pyDelsliceBuiltin, "__py_delattr": pyDelattr,
		"__py_delname": r.pyDelname, "__py_dict": pyDictMerge, "__py_display": r.pyDisplay, "__py_match": r.pyMatch, "__py_generator": r.pyGenerator, "__py_yield": pyYield, "__py_yield_from": pyYieldFrom, "__py_unpack": pyUnpack, "__py_unpack_to": pyUnpackTo, "__py_unpack_each": r.pyUnpackEach, "__py_dup": pyDup, "__py_chain": pyChain,
		"__py_setglobal": r.pySetGlobal, "__py_annotate": r.pyAnnotate,
		"__py_try": tryOutside, "__py_except": tryOutside, "__py_else": tryOutside, "__py_finally": tryOutside,
	} {
		add(name, strings.TrimPrefix(name, "__py_"), f)
	}
}

// dunderAttr is x.__name__, x.__qualname__, x.__doc__, x.__module__ or
// x.__class__: the value's own attribute when it has one, else what
// Python gives functions and every object.
func (r *Interp) DunderAttr(x starlark.Value, name string) (starlark.Value, error) {
	if v, ok := r.ClassIntrospect(x, name); ok {
		return v, nil
	}
	if v, ok := numberAttr(x, name); ok {
		return v, nil
	}
	if v, ok, err := r.funcAttr(x, name); ok || err != nil {
		return v, err
	}
	if v, ok := r.funcDictAttr(x, name); ok {
		return v, nil
	}
	if h, ok := x.(starlark.HasAttrs); ok {
		v, err := h.Attr(name)
		if err != nil || v != nil {
			return v, err
		}
	}
	switch f := x.(type) {
	case *starlark.Function, *starlark.Builtin, *BoundMethod, *GoMethod:
		n := f.(interface{ Name() string }).Name()
		if _, isFn := f.(*starlark.Function); isFn && n == "lambda" {
			n = "<lambda>"
		}
		switch name {
		case "__qualname__":
			if q, ok := r.qualnames[x]; ok {
				return starlark.String(q), nil
			}
			if bm, ok := x.(*BoundMethod); ok {
				if q, ok := r.qualnames[bm.Fn]; ok {
					return starlark.String(q), nil
				}
			}
			return starlark.String(n[strings.LastIndexByte(n, '.')+1:]), nil
		case "__name__":
			return starlark.String(n[strings.LastIndexByte(n, '.')+1:]), nil
		case "__doc__":
			if fn, ok := f.(*starlark.Function); ok && fn.Doc() != "" {
				return starlark.String(fn.Doc()), nil
			}
			return starlark.None, nil
		case "__module__":
			return starlark.String("__main__"), nil
		}
	}
	switch name {
	case "__class__":
		return r.TypeOf(x), nil
	case "__doc__":
		return starlark.None, nil
	}
	return nil, PyErrorf(ExcAttribute, "'%s' object has no attribute '%s'", PyTypeName(x), name)
}

// identical is Python's "is": the same object for mutable values, equal
// for the immutable ones (whose identity Python leaves unspecified).
func Identical(x, y starlark.Value) bool {
	if reflect.TypeOf(x) != reflect.TypeOf(y) {
		return false
	}
	if rv := reflect.ValueOf(x); rv.Kind() == reflect.Pointer {
		return rv.Pointer() == reflect.ValueOf(y).Pointer()
	}
	switch x := x.(type) {
	case starlark.String, starlark.Int, starlark.Float, starlark.Bool, starlark.NoneType, starlark.Bytes:
		eq, err := starlark.Equal(x, y)
		return err == nil && eq
	case starlark.Tuple: // the same tuple: t is t, deepcopy(t) is t
		return SameTuple(x, y.(starlark.Tuple))
	}
	return false
}

// iterable is the iterable of a for loop: a string's characters, or the
// value itself.
func (r *Interp) iterable(v starlark.Value) (starlark.Value, error) {
	switch v := v.(type) {
	case starlark.String:
		if need := int64(len(v)) * 24; need > BigAlloc && r.Host.MaxMemoryMB() > 0 {
			if err := r.checkAlloc("iterating a string", need); err != nil {
				return nil, err
			}
		}
		return starlark.Tuple(chars(string(v))), nil
	case starlark.Bytes:
		return byteInts(string(v)), nil
	case *PyObject:
		return v.iter()
	case *PyType, *EnumMember:
		if t := enumIterable(v); t != nil {
			return t, nil
		}
	case starlark.Iterable:
		return v, nil
	}
	return nil, PyErrorf(ExcTypeError, "'%s' object is not iterable", PyTypeName(v))
}

func tryOutside(_ *starlark.Thread, b *starlark.Builtin, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	return nil, PyErrorf(ExcRuntime, "a try at the top level of a helper file cannot run; put it inside a function (a try in a def works everywhere)")
}

// pyAssert is assert cond, msg: msg is a function called only on failure.
func pyAssert(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	if args[0].Truth() {
		return starlark.None, nil
	}
	e := &PyException{Typ: ExcAssertion}
	if len(args) > 1 {
		msg, err := starlark.Call(thread, args[1], nil, nil)
		if err != nil {
			return nil, err
		}
		e.Args = starlark.Tuple{msg}
	}
	return nil, &PyError{e}
}

// pyRaise is raise, raise E, raise E(...) and raise E from cause.
func (r *Interp) pyRaise(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 0 {
		if n := len(r.Handling); n > 0 {
			return nil, &PyError{r.Handling[n-1]}
		}
		return nil, PyErrorf(ExcRuntime, "No active exception to reraise")
	}
	var exc *PyException
	switch x := args[0].(type) {
	case *PyException:
		exc = x
	case *ExcType:
		v, err := x.CallInternal(thread, nil, nil)
		if err != nil {
			return nil, err
		}
		exc = v.(*PyException)
	default:
		return nil, PyErrorf(ExcTypeError, "exceptions must derive from BaseException")
	}
	if exc.Typ.user != nil && exc.Text == "" {
		// The message of a class with its own __str__, taken now: the
		// traceback is written after the call, when REPL code cannot run.
		if s, ok := exc.textMethod("__str__"); ok {
			if err := r.TakeReprErr(); err != nil {
				return nil, err
			}
			exc.Text = s
		}
	}
	if len(args) > 1 {
		exc.Cause, exc.Suppress = args[1], true
	}
	if n := len(r.Handling); n > 0 && r.Handling[n-1] != exc && exc.Context == nil {
		exc.Context = r.Handling[n-1]
	}
	return nil, &PyError{exc}
}

func PyDelitem(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	x, k := args[0], args[1]
	switch c := x.(type) {
	case *PyObject:
		if _, ok, err := c.CallDunder("__delitem__", k); ok {
			return starlark.None, err
		}
	case *starlark.List:
		i, err := IndexInt(k)
		if err != nil {
			return nil, PyErrorf(ExcTypeError, "list indices must be integers or slices, not %s", PyTypeName(k))
		}
		n := c.Len()
		if i < 0 {
			i += n
		}
		if i < 0 || i >= n {
			return nil, PyErrorf(ExcIndexError, "list assignment index out of range")
		}
		return starlark.None, PyDelSlice(c, starlark.MakeInt(i), starlark.MakeInt(i+1), starlark.None)
	case interface {
		Delete(starlark.Value) (starlark.Value, bool, error)
	}:
		_, found, err := c.Delete(k)
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, KeyError(k)
		}
		return starlark.None, nil
	}
	return nil, PyErrorf(ExcTypeError, "'%s' object doesn't support item deletion", PyTypeName(x))
}

func pyDelsliceBuiltin(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	return starlark.None, PyDelSlice(args[0], args[1], args[2], args[3])
}

func pyDelattr(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	if d, ok := args[0].(interface{ DelAttr(string) error }); ok {
		return starlark.None, d.DelAttr(PyStr(args[1])) // argparse.Namespace
	}
	return nil, PyErrorf(ExcAttribute, "'%s' object attribute '%s' cannot be deleted", PyTypeName(args[0]), PyStr(args[1]))
}

// pyDelname is a top-level del of names; the driver runs it between chunks.
func (r *Interp) pyDelname(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	for _, a := range args {
		name := string(a.(starlark.String))
		if _, ok := r.Globals[name]; !ok {
			return nil, PyErrorf(excNameError, "name '%s' is not defined", name)
		}
		delete(r.Globals, name)
	}
	return starlark.None, nil
}

// pyDictMerge is {**a, "k": v, **b}.
func pyDictMerge(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	out := starlark.NewDict(0)
	for _, a := range args {
		m, ok := a.(starlark.IterableMapping)
		if !ok {
			return nil, PyErrorf(ExcTypeError, "'%s' object is not a mapping", PyTypeName(a))
		}
		for _, kv := range m.Items() {
			if err := out.SetKey(storedKey(out, kv[0]), kv[1]); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// pyDisplay is [a, *b, c], (a, *b) and {*a, b}: args are the kind, then
// lists of items alternating with the iterables unpacked between them.
func (r *Interp) pyDisplay(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	kind := string(args[0].(starlark.String))
	var n int64
	for _, a := range args[1:] {
		n += int64(max(starlark.Len(a), 0))
	}
	if need := n * perElement["list"]; need > BigAlloc && r.Host.MaxMemoryMB() > 0 {
		if err := r.checkAlloc(fmt.Sprintf("a %s of %d elements", kind, n), need); err != nil {
			return nil, err
		}
	}
	var out []starlark.Value
	for i, a := range args[1:] {
		if i%2 == 0 {
			out = append(out, Elems(a)...)
			continue
		}
		err := Iterate(a, func(x starlark.Value) (bool, error) {
			out = append(out, x)
			return true, nil
		})
		if err != nil {
			var pe *PyError
			if errors.As(err, &pe) && pe.Exc.Typ == ExcTypeError && strings.Contains(pe.Exc.Str(), "is not iterable") {
				return nil, PyErrorf(ExcTypeError, "Value after * must be an iterable, not %s", PyTypeName(a))
			}
			return nil, err
		}
	}
	switch kind {
	case "tuple":
		return starlark.Tuple(out), nil
	case "set":
		s := starlark.NewSet(len(out))
		for _, x := range out {
			if err := s.Insert(x); err != nil {
				return nil, PyErrorf(ExcTypeError, "unhashable type: '%s'", PyTypeName(x))
			}
		}
		return s, nil
	}
	return starlark.NewList(out), nil
}

// pyUnpack is a starred assignment: before elements, the rest as a list,
// after elements.
func pyUnpack(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	vals, err := ListOf(args[0])
	if err != nil {
		return nil, PyErrorf(ExcTypeError, "cannot unpack non-iterable %s object", PyTypeName(args[0]))
	}
	before, _ := starlark.AsInt32(args[1])
	after, _ := starlark.AsInt32(args[2])
	if len(vals) < before+after {
		return nil, PyErrorf(ExcValueError, "not enough values to unpack (expected at least %d, got %d)", before+after, len(vals))
	}
	out := append(starlark.Tuple(nil), vals[:before]...)
	out = append(out, starlark.NewList(append([]starlark.Value(nil), vals[before:len(vals)-after]...)))
	return append(out, vals[len(vals)-after:]...), nil
}

// pySetGlobal is an assignment to a name a def declares global: the
// REPL's globals and the running chunk's own binding.
func (r *Interp) pySetGlobal(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	name := string(args[0].(starlark.String))
	r.Globals[name] = args[1]
	if d := thread.CallStackDepth(); d > 0 {
		if fn, ok := thread.DebugFrame(d - 1).Callable().(*starlark.Function); ok {
			r.slotsFor(fn.Module()).Set(name, args[1])
		}
	}
	return starlark.None, nil
}

// pyWalrus is NAME := value (rewrite/astpass_walrus.go): value stored in
// the function's locals dict, or, outside functions, bound as the global
// NAME (the REPL's globals and the running chunk's own binding); it is
// the walrus's value.
func (r *Interp) pyWalrus(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	name, v := string(args[1].(starlark.String)), args[2]
	if l, ok := args[0].(*pyLocals); ok {
		l.vars[name] = v
		return v, nil
	}
	r.Globals[name] = v
	if d := thread.CallStackDepth(); d > 0 {
		if fn, ok := thread.DebugFrame(d - 1).Callable().(*starlark.Function); ok {
			r.slotsFor(fn.Module()).Set(name, v)
		}
	}
	return v, nil
}

// pyDup is a chained assignment's value, once per target.
func pyDup(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	n, _ := starlark.AsInt32(args[1])
	out := make(starlark.Tuple, n)
	for i := range out {
		out[i] = args[0]
	}
	return out, nil
}

// contextManager is a value usable in a with statement.
type ContextManager interface {
	Enter() (starlark.Value, error)
	Exit() error
}

// withValue is the one-pass iterable of a with statement: created with
// the managers entered, it yields their values once and exits them when
// the loop ends, however it ends.
type WithValue struct {
	thread   *starlark.Thread
	Managers []ContextManager
	values   []starlark.Value
}

func (w *WithValue) String() string        { return "<with>" }
func (w *WithValue) Type() string          { return "with" }
func (w *WithValue) Freeze()               {}
func (w *WithValue) Truth() starlark.Bool  { return true }
func (w *WithValue) Hash() (uint32, error) { return 0, nil }
func (w *WithValue) Iterate() starlark.Iterator {
	return &withIterator{w: w}
}

type withIterator struct {
	w    *WithValue
	done bool
}

func (it *withIterator) Next(p *starlark.Value) bool {
	if it.done {
		return false
	}
	it.done = true
	if len(it.w.values) == 1 {
		*p = it.w.values[0]
	} else {
		*p = starlark.Tuple(it.w.values)
	}
	return true
}

// Done exits the managers; an error (a file that could not be written)
// stops the thread, as a with statement's exit error would surface.
func (it *withIterator) Done() {
	var first error
	for i := len(it.w.Managers) - 1; i >= 0; i-- {
		if err := it.w.Managers[i].Exit(); err != nil && first == nil {
			first = err
		}
	}
	it.w.Managers = nil
	if first != nil {
		it.w.thread.Cancel(ErrorMessage(first))
	}
}

// managerOf returns v as a context manager: one of the runtime's, or an
// object whose class has __enter__ and __exit__.
func ManagerOf(v starlark.Value) (ContextManager, error) {
	if o, isObj := v.(*PyObject); isObj && o.DunderOf("__enter__") != nil && o.DunderOf("__exit__") != nil {
		return objectManager{o}, nil
	}
	if cm, ok := v.(ContextManager); ok {
		return cm, nil
	}
	return nil, PyErrorf(ExcTypeError, "'%s' object does not support the context manager protocol", PyTypeName(v))
}

func (r *Interp) pyWith(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	w := &WithValue{thread: thread}
	for _, a := range args {
		cm, err := ManagerOf(a)
		if err != nil {
			for i := len(w.Managers) - 1; i >= 0; i-- {
				_ = w.Managers[i].Exit()
			}
			return nil, err
		}
		v, err := cm.Enter()
		if err != nil {
			return nil, err
		}
		w.Managers, w.values = append(w.Managers, cm), append(w.values, v)
	}
	return w, nil
}

// slotsFor returns a module's globals, read once per call.
func (r *Interp) slotsFor(m *starlark.Module) *modslots.Slots {
	ms, ok := r.Slots[m]
	if !ok {
		ms = modslots.Of(m)
		r.Slots[m] = ms
	}
	return ms
}

// liveGlobal returns the current value of a global read inside a
// function: the running chunk's own binding, else the REPL's globals.
func (r *Interp) liveGlobal(thread *starlark.Thread, name string) (starlark.Value, error) {
	if m := r.runningChunk(thread); m != nil {
		if v := r.slotsFor(m).Get(name); v != nil {
			return v, nil
		}
	}
	if v := r.Globals[name]; v != nil {
		return v, nil
	}
	if v, ok := starlark.Universe[name]; ok {
		return v, nil
	}
	return nil, PyErrorf(excNameError, "name '%s' is not defined", name)
}

// runningChunk returns the module of the REPL chunk running, whose
// bindings are not yet in the REPL's globals: the outermost frame of
// thread, or of the REPL's thread under a generator's, when it is a
// chunk's top level. A function the driver calls itself (a top-level
// with's __exit__) has no chunk under it, and reads the REPL's globals,
// not the bindings of the chunk that defined it as they were then.
func (r *Interp) runningChunk(thread *starlark.Thread) *starlark.Module {
	for _, th := range []*starlark.Thread{thread, r.Thread} {
		if d := th.CallStackDepth(); d > 0 {
			if fn, ok := th.DebugFrame(d - 1).Callable().(*starlark.Function); ok && fn.Name() == "<toplevel>" {
				return fn.Module()
			}
		}
	}
	return nil
}

// arith is x op y with Python's bool: an int in arithmetic (True + True
// is 2, "x" * flag), unless the other operand is an object of a class,
// whose method sees the bool.
func Arith(op syntax.Token, x, y starlark.Value) (starlark.Value, error) {
	if xs, ys, ok := twinSets(x, y); ok {
		if v, ok := twinSetOp(op, xs, ys); ok {
			return v, nil // {1, 2} - {True} is {2}
		}
	}
	bx, by := boolOperands(x, y)
	v, err := starlark.Binary(op, bx, by)
	if d, ok := v.(*starlark.Dict); ok && err == nil && op == syntax.PIPE {
		return mergeBoolKeys(d) // {1: "a"} | {True: "b"} is {1: "b"}
	}
	if err != nil && (isBool(x) || isBool(y)) && strings.HasPrefix(err.Error(), "unknown binary op") {
		_, err = starlark.Binary(op, x, y) // the type error names bool, as Python's does; 1 / False stays a ZeroDivisionError
	}
	return v, err
}

// boolOperands reads bools as ints unless an operand is an object of a
// class, whose method sees the bool.
func boolOperands(x, y starlark.Value) (starlark.Value, starlark.Value) {
	_, xo := x.(*PyObject)
	_, yo := y.(*PyObject)
	if xo || yo {
		return x, y
	}
	return BoolToInt(x), BoolToInt(y)
}

// chainOps are the comparison operators of a chain, by their text.
var chainOps = map[string]syntax.Token{"<": syntax.LT, "<=": syntax.LE, ">": syntax.GT, ">=": syntax.GE, "==": syntax.EQL, "!=": syntax.NEQ}

// pyChain is __py_chain(a, op, lambda: b, op, lambda: c, ...), a chained
// comparison whose middle operands are evaluated once (see the pre-pass's
// chainOnce): each operand is called for in turn, and the first false
// comparison ends the chain.
func pyChain(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	left := args[0]
	for i := 1; i+1 < len(args); i += 2 {
		right, err := starlark.Call(thread, args[i+1], nil, nil)
		if err != nil {
			return nil, err
		}
		var ok bool
		switch op := string(args[i].(starlark.String)); op {
		case "is", "is not":
			ok = Identical(left, right) == (op == "is")
		case "in", "not in":
			v, err := starlark.Binary(syntax.IN, left, right)
			if err != nil {
				return nil, err
			}
			ok = bool(v.Truth()) == (op == "in")
		default:
			if ok, err = PyCompare(chainOps[op], left, right); err != nil {
				return nil, err
			}
		}
		if !ok {
			return starlark.False, nil
		}
		left = right
	}
	return starlark.True, nil
}

func isBool(v starlark.Value) bool {
	_, ok := v.(starlark.Bool)
	return ok
}
