// Python's builtins on the REPL's values, and the hidden builtins the
// pre-pass and the AST pass call.

package pyrt

import (
	"errors"
	"math"
	"math/big"
	"reflect"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// pyBuiltins adds the type objects, the Python builtins and the hidden
// builtins to g (after sizedBuiltins, whose wrappers they call).
func (r *Interp) PyBuiltins(g starlark.StringDict) {
	r.Types = map[string]*PyType{}
	native := func(name string) *starlark.Builtin {
		if b, ok := g[name].(*starlark.Builtin); ok {
			return b
		}
		return starlark.Universe[name].(*starlark.Builtin)
	}
	call := func(b *starlark.Builtin, strArgs bool) func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
		return func(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if strArgs {
				args = charArgs(args)
				var err error
				if args, err = objectArgs(args); err != nil {
					return nil, err
				}
			}
			v, err := starlark.Call(thread, b, args, kw)
			var pe *PyError
			if errors.As(err, &pe) {
				return nil, pe // an iterated value's own exception
			}
			if err != nil {
				typ, msg := classifyMessage(ErrorMessage(err))
				if typ == ExcException || typ == nil {
					typ = ExcTypeError
				}
				return nil, &PyError{&PyException{Typ: typ, Args: starlark.Tuple{starlark.String(msg)}}}
			}
			return v, nil
		}
	}
	object := r.defType("object", nil, nil, false)
	object.Call = func(_ *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if len(args) > 0 || len(kw) > 0 {
			return nil, PyErrorf(ExcTypeError, "object() takes no arguments")
		}
		return &plainObject{cls: object}, nil
	}
	intT := r.defType("int", object, r.IntCall, true)
	r.defType("bool", intT, call(native("bool"), false), true)
	r.defType("float", object, r.FloatCall, true)
	str := r.defType("str", object, r.strCall, true)
	str.proto = starlark.String("")
	str.Attrs = starlark.StringDict{"maketrans": starlark.NewBuiltin("str.maketrans", strMaketrans)}
	bytesT := r.defType("bytes", object, r.bytesCall, true)
	bytesT.proto = starlark.Bytes("")
	bytesT.Attrs = starlark.StringDict{"fromhex": starlark.NewBuiltin("bytes.fromhex", bytesFromhex)}
	r.defType("list", object, call(native("list"), true), true).proto = starlark.NewList(nil)
	r.defType("tuple", object, call(native("tuple"), true), true).proto = starlark.Tuple(nil)
	dict := r.defType("dict", object, mergingKeys(stringPairs(call(native("dict"), false))), true)
	dict.proto = starlark.NewDict(0)
	dict.Attrs = starlark.StringDict{"fromkeys": starlark.NewBuiltin("dict.fromkeys", DictFromkeys)}
	set := r.defType("set", object, mergingKeys(call(native("set"), true)), true)
	set.proto = starlark.NewSet(0)
	r.defType("frozenset", object, r.frozensetCall, false)
	r.defType("range", object, call(native("range"), false), false)
	r.defType("NoneType", object, nil, false)
	r.defType("type", object, func(_ *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if len(args) != 1 || len(kw) > 0 {
			return nil, PyErrorf(ExcTypeError, "type() takes 1 argument here (classes cannot be created in this REPL)")
		}
		return r.TypeOf(args[0]), nil
	}, false)
	path := &PyType{TypeName: "Path", Module: "pathlib", Base: object, Call: func(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return r.PathCtor(thread, nil, args, kw)
	}, methods: true}
	path.Attrs = starlark.StringDict{
		"cwd": starlark.NewBuiltin("Path.cwd", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return r.NewPath(r.Cwd), nil
		}),
		"home": starlark.NewBuiltin("Path.home", r.noHome),
	}
	r.Types["Path"] = path
	r.Types["PosixPath"] = &PyType{TypeName: "PosixPath", Module: "pathlib", Base: path, Call: path.Call, Attrs: path.Attrs, methods: true}

	for _, name := range []string{"int", "bool", "float", "str", "bytes", "list", "tuple", "dict", "set", "frozenset", "range", "type", "object"} {
		g[name] = r.Types[name]
	}
	g["Path"] = path
	for name, f := range r.builtinFuncs(native) {
		g[name] = starlark.NewBuiltin(name, f)
	}
	for _, e := range builtinExceptions {
		g[e.TypeName] = e
	}
	for name, e := range exceptionAliases {
		g[name] = e
	}
	g["__name__"] = starlark.String("__main__")
	g["Ellipsis"] = Ellipsis{}
	r.hiddenBuiltins(g)
}

func (r *Interp) defType(name string, base *PyType, call func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error), methods bool) *PyType {
	t := &PyType{TypeName: name, Base: base, Call: call, methods: methods}
	r.Types[name] = t
	return t
}

// charArgs turns string arguments into tuples of their characters, for
// builtins that iterate their arguments (list("abc")).
func charArgs(args starlark.Tuple) starlark.Tuple {
	for i, a := range args {
		var elems starlark.Tuple
		switch s := a.(type) {
		case starlark.String:
			if i > 0 && args[0].Type() == "string" {
				continue
			}
			elems = chars(string(s))
		case starlark.Bytes:
			elems = byteInts(string(s))
		default:
			continue
		}
		out := append(starlark.Tuple(nil), args...)
		out[i] = elems
		args = out
	}
	return args
}

// objectArgs turns instances with __iter__ among args into tuples of
// their elements, for builtins that iterate their arguments (list(obj)).
func objectArgs(args starlark.Tuple) (starlark.Tuple, error) {
	for i, a := range args {
		if t := enumIterable(a); t != nil {
			args = append(starlark.Tuple(nil), args...)
			args[i] = t
			continue
		}
		if _, ok := a.(*PyObject); !ok {
			continue
		}
		vals, err := ListOf(a)
		if err != nil {
			return nil, err
		}
		out := append(starlark.Tuple(nil), args...)
		out[i] = starlark.Tuple(vals)
		args = out
	}
	return args, nil
}

// byteInts are the elements of bytes: ints, as Python iterates them.
func byteInts(s string) starlark.Tuple {
	out := make(starlark.Tuple, len(s))
	for i := 0; i < len(s); i++ {
		out[i] = starlark.MakeInt(int(s[i]))
	}
	return out
}

type Ellipsis struct{}

func (Ellipsis) String() string        { return "Ellipsis" }
func (Ellipsis) Type() string          { return "ellipsis" }
func (Ellipsis) Freeze()               {}
func (Ellipsis) Truth() starlark.Bool  { return true }
func (Ellipsis) Hash() (uint32, error) { return 0, nil }

func (r *Interp) noHome(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return nil, PyErrorf(ExcRuntime, "there is no home directory in this REPL; files live under %s", r.Host.MountNames())
}

// builtinFuncs returns the Python builtins implemented as functions.
func (r *Interp) builtinFuncs(native func(string) *starlark.Builtin) map[string]BuiltinFunc {
	iterWrap := func(name string) BuiltinFunc {
		b := native(name)
		return func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return starlark.Call(thread, b, charArgs(args), kw)
		}
	}
	return map[string]BuiltinFunc{
		"print": r.pyPrint, "repr": Unary(func(v starlark.Value) (starlark.Value, error) {
			s, err := r.TextWithMethods(func() string { return PyRepr(v) })
			return starlark.String(s), err
		}),
		"ascii": Unary(func(v starlark.Value) (starlark.Value, error) { return starlark.String(asciiRepr(PyRepr(v))), nil }),
		"len": Unary(func(v starlark.Value) (starlark.Value, error) {
			n, err := pyLen(v)
			return starlark.MakeInt(n), err
		}),
		"isinstance": r.pyIsinstance, "issubclass": pyIssubclass, "callable": Unary(func(v starlark.Value) (starlark.Value, error) {
			_, ok := v.(starlark.Callable)
			if o, isObj := v.(*PyObject); isObj {
				ok = o.DunderOf("__call__") != nil
			}
			return starlark.Bool(ok), nil
		}),
		"sum": pySum, "map": r.pyMap, "filter": r.pyFilter, "min": r.pyMinMax(true), "max": r.pyMinMax(false),
		"sorted": r.pySorted, "reversed": r.pyReversed, "enumerate": r.pyEnumerate, "zip": r.pyZip,
		"any": iterWrap("any"), "all": iterWrap("all"),
		"abs": r.PyAbs, "hash": pyHash, "round": pyRound, "pow": r.pyPowBuiltin, "divmod": PyDivmod,
		"hex": intText("hex", 16, "0x"), "oct": intText("oct", 8, "0o"), "bin": intText("bin", 2, "0b"),
		"next": pyNext, "iter": Unary(pyIterOf), "format": pyFormatBuiltin, "id": pyID,
		"open": r.PyOpen, "input": func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return nil, PyErrorf(ExcEOF, "EOF when reading a line (the REPL has no input)")
		},
		"exit": PyExit, "quit": PyExit, "__import__": r.pyDunderImport,
	}
}

// pyDunderImport is __import__(name, globals=None, locals=None,
// fromlist=(), level=0): the top package of a dotted name, the named
// module itself with a fromlist, as import binds them.
func (r *Interp) pyDunderImport(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var name string
	var globals, locals, fromlist starlark.Value = starlark.None, starlark.None, starlark.None
	level := 0
	if err := UnpackArgs("__import__", args, kw, "name", &name, "globals?", &globals, "locals?", &locals, "fromlist?", &fromlist, "level?", &level); err != nil {
		return nil, err
	}
	if level != 0 {
		return nil, PyErrorf(excImport, "relative imports (level %d) have no package to import from in the REPL", level)
	}
	m, err := r.Module(name)
	if err != nil {
		return nil, err
	}
	if i := strings.IndexByte(name, '.'); i >= 0 && (fromlist == starlark.None || !bool(fromlist.Truth())) {
		return r.Module(name[:i])
	}
	return m, nil
}

func Unary(f func(starlark.Value) (starlark.Value, error)) BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var x starlark.Value
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &x); err != nil {
			return nil, err
		}
		return f(x)
	}
}

// pyPrint is print(*args, sep=" ", end="\n", file=None, flush=False).
func (r *Interp) pyPrint(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	sep, end := " ", "\n"
	var file starlark.Value = starlark.None
	for _, kv := range kw {
		k, v := string(kv[0].(starlark.String)), kv[1]
		switch k {
		case "sep", "end":
			s := ""
			if v != starlark.None {
				str, ok := v.(starlark.String)
				if !ok {
					return nil, PyErrorf(ExcTypeError, "%s must be None or a string, not %s", k, PyTypeName(v))
				}
				s = string(str)
			} else if k == "sep" {
				s = " "
			} else {
				s = "\n"
			}
			if k == "sep" {
				sep = s
			} else {
				end = s
			}
		case "file":
			file = v
		case "flush":
		default:
			return nil, PyErrorf(ExcTypeError, "'%s' is an invalid keyword argument for print()", k)
		}
	}
	var sb strings.Builder
	for i, a := range args {
		if i > 0 {
			sb.WriteString(sep)
		}
		sb.WriteString(PyStr(a))
	}
	if err := r.TakeReprErr(); err != nil {
		return nil, err // raised by a __str__ or __repr__
	}
	sb.WriteString(end)
	if file != starlark.None {
		if _, err := CallMethod(thread, file, "write", starlark.Tuple{starlark.String(sb.String())}, nil); err != nil {
			return nil, err
		}
		return starlark.None, nil
	}
	return starlark.None, r.WriteStd(0, sb.String())
}

// pyEnumerate is enumerate(iterable, start=0).
func (r *Interp) pyEnumerate(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var it starlark.Value
	var start starlark.Value = starlark.MakeInt(0)
	if err := UnpackArgs("enumerate", args, kw, "iterable", &it, "start?", &start); err != nil {
		return nil, err
	}
	n, ok := start.(starlark.Int)
	if !ok {
		return nil, PyErrorf(ExcTypeError, "'%s' object cannot be interpreted as an integer", PyTypeName(start))
	}
	if need := int64(starlark.Len(it)) * perElement["enumerate"]; need > BigAlloc && r.Host.MaxMemoryMB() > 0 {
		if err := r.checkAlloc("enumerate", need); err != nil {
			return nil, err
		}
	}
	step, err := Stepper(it)
	if err != nil {
		return nil, err
	}
	next := func() (starlark.Value, bool, error) {
		v, ok, err := step()
		if err != nil || !ok {
			return nil, false, err
		}
		t := starlark.Tuple{n, v}
		n = n.Add(starlark.MakeInt(1))
		return t, true, nil
	}
	return stepIter(thread, "enumerate", oneShot(it), next)
}

func (r *Interp) pyIsinstance(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var x, c starlark.Value
	if err := starlark.UnpackPositionalArgs("isinstance", args, kw, 2, &x, &c); err != nil {
		return nil, err
	}
	ok, err := r.IsInstance(x, c)
	return starlark.Bool(ok), err
}

func pyIssubclass(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var x, c starlark.Value
	if err := starlark.UnpackPositionalArgs("issubclass", args, kw, 2, &x, &c); err != nil {
		return nil, err
	}
	classes := []starlark.Value{c}
	if t, ok := c.(starlark.Tuple); ok {
		classes = t
	}
	for _, c := range classes {
		switch x := x.(type) {
		case *ExcType:
			if ce, ok := c.(*ExcType); ok && x.IsSubclass(ce) {
				return starlark.True, nil
			}
		case *PyType:
			if x.SubclassOf(c) {
				return starlark.True, nil
			}
		default:
			return nil, PyErrorf(ExcTypeError, "issubclass() arg 1 must be a class")
		}
	}
	return starlark.False, nil
}

// pySum is sum(iterable, start=0).
func pySum(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var it starlark.Value
	var total starlark.Value = starlark.MakeInt(0)
	if err := UnpackArgs("sum", args, kw, "iterable", &it, "start?", &total); err != nil {
		return nil, err
	}
	if _, ok := total.(starlark.String); ok {
		return nil, PyErrorf(ExcTypeError, "sum() can't sum strings [use ''.join(seq) instead]")
	}
	err := Iterate(it, func(x starlark.Value) (bool, error) {
		v, err := PyAdd(total, x)
		if err != nil {
			return false, err
		}
		total = v
		return true, nil
	})
	return total, err
}

func PyAdd(x, y starlark.Value) (starlark.Value, error) {
	x, y = BoolToInt(x), BoolToInt(y)
	v, err := starlark.Binary(syntax.PLUS, x, y)
	if err != nil {
		return nil, PyErrorf(ExcTypeError, "unsupported operand type(s) for +: '%s' and '%s'", PyTypeName(x), PyTypeName(y))
	}
	return v, nil
}

// boolToInt reads a bool as the int it is in Python's arithmetic.
func BoolToInt(v starlark.Value) starlark.Value {
	if b, ok := v.(starlark.Bool); ok {
		return starlark.MakeInt(B2i(bool(b)))
	}
	return v
}

func pyNext(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var it, def starlark.Value
	if err := starlark.UnpackPositionalArgs("next", args, kw, 1, &it, &def); err != nil {
		return nil, err
	}
	var step func() (starlark.Value, bool, error)
	switch p := it.(type) {
	case *PyIter:
		step = p.Step
	case *PyFile: // a file is its own iterator over its lines
		step = p.nextLine
	case *PyObject:
		if p.DunderOf("__next__") == nil {
			return nil, PyErrorf(ExcTypeError, "'%s' object is not an iterator", PyTypeName(it))
		}
		if def == nil { // StopIteration as __next__ raised it
			v, _, err := p.CallDunder("__next__")
			return v, err
		}
		step = p.next
	default:
		return nil, PyErrorf(ExcTypeError, "'%s' object is not an iterator", PyTypeName(it))
	}
	v, ok, err := step()
	if err != nil {
		return nil, err
	}
	if !ok {
		if def != nil {
			return def, nil
		}
		if p, isIter := it.(*PyIter); isIter {
			return p.stepOrStop(nil, false, nil)
		}
		return nil, &PyError{&PyException{Typ: excStopIteration}}
	}
	return v, nil
}

// pyIterOf is iter(x): a one-pass iterator over x.
func pyIterOf(x starlark.Value) (starlark.Value, error) {
	switch it := x.(type) {
	case *PyIter:
		return it, nil
	case *PyFile:
		if it.Closed {
			return nil, PyErrorf(ExcValueError, "I/O operation on closed file.")
		}
		return it, nil // iter(f) is f: reading through either moves both
	case *PyObject:
		v, err := it.iter()
		if err != nil {
			return nil, err
		}
		if p, ok := v.(*PyIter); ok {
			return p, nil
		}
		x = v
	}
	vals, err := ListOf(x)
	if err != nil {
		return nil, err
	}
	return NewListIter(PyTypeName(x)+"_iterator", vals), nil
}

func pyFormatBuiltin(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	spec := ""
	if err := starlark.UnpackPositionalArgs("format", args, kw, 1, &v, &spec); err != nil {
		return nil, err
	}
	if err := checkSpecWidth(thread, spec); err != nil {
		return nil, err
	}
	s, err := formatValue(v, spec)
	return starlark.String(s), err
}

// pyID is id(x): the address of a reference value, a hash otherwise.
func pyID(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	if err := starlark.UnpackPositionalArgs("id", args, kw, 1, &v); err != nil {
		return nil, err
	}
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer {
		return starlark.MakeUint64(uint64(rv.Pointer())), nil
	}
	h, _ := v.Hash()
	return starlark.MakeUint64(uint64(h)), nil
}

// pyHash is hash(x): numbers hash as in CPython (equal ints, floats and
// Fractions alike), other hashable values their Starlark hash.
func pyHash(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	if err := starlark.UnpackPositionalArgs("hash", args, kw, 1, &x); err != nil {
		return nil, err
	}
	switch v := BoolToInt(enumMixinValue(x)).(type) {
	case NumberObject:
		return v.HashPy()
	case intValued:
		return PyHashNumber(new(big.Rat).SetInt(v.IntPy())), nil
	case starlark.Int:
		return PyHashNumber(new(big.Rat).SetInt(v.BigInt())), nil
	case starlark.Float:
		if f := float64(v); math.IsInf(f, 0) {
			return starlark.MakeInt(int(math.Copysign(314159, f))), nil // sys.hash_info.inf
		} else if !math.IsNaN(f) {
			return PyHashNumber(new(big.Rat).SetFloat64(f)), nil
		}
	}
	h, err := x.Hash()
	if err != nil {
		if _, isPy := err.(*PyError); isPy {
			return nil, err
		}
		return nil, PyErrorf(ExcTypeError, "unhashable type: '%s'", PyTypeName(x))
	}
	return starlark.MakeUint64(uint64(h)), nil
}

// pyAbs is abs(x): numbers (bools as ints), timedeltas and instances
// with __abs__.
func (r *Interp) PyAbs(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	if err := starlark.UnpackPositionalArgs("abs", args, kw, 1, &x); err != nil {
		return nil, err
	}
	switch v := BoolToInt(enumMixinValue(x)).(type) {
	case NumberObject:
		return v.AbsPy()
	case starlark.Int:
		if v.Sign() < 0 {
			return starlark.MakeInt(0).Sub(v), nil
		}
		return v, nil
	case starlark.Float:
		return starlark.Float(math.Abs(float64(v))), nil
	case *pyDelta:
		if v.us < 0 {
			return v.Unary(syntax.MINUS)
		}
		return v, nil
	}
	if v, ok, err := r.dunder(x, "__abs__"); ok || err != nil {
		return v, err
	}
	return nil, PyErrorf(ExcTypeError, "bad operand type for abs(): '%s'", PyTypeName(x))
}

// pyExit is sys.exit(code=None), exit() and quit(): SystemExit(code),
// or SystemExit() without one, whose code is None.
func PyExit(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if len(kw) > 0 {
		return nil, PyErrorf(ExcTypeError, "%s() takes no keyword arguments", b.Name())
	}
	if len(args) > 1 {
		return nil, PyErrorf(ExcTypeError, "exit expected at most 1 argument, got %d", len(args))
	}
	return nil, &PyError{&PyException{Typ: ExcSystemExit, Args: args}}
}

func DictFromkeys(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var keys starlark.Value
	var v starlark.Value = starlark.None
	if err := starlark.UnpackPositionalArgs("dict.fromkeys", args, kw, 1, &keys, &v); err != nil {
		return nil, err
	}
	d := starlark.NewDict(0)
	err := Iterate(keys, func(k starlark.Value) (bool, error) { return true, d.SetKey(storedKey(d, k), v) })
	return d, err
}

// strCall is str(x), str(b, encoding, errors).
func (r *Interp) strCall(_ *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value = starlark.String("")
	var encoding, errs starlark.Value = starlark.None, starlark.None
	if err := UnpackArgs("str", args, kw, "object?", &x, "encoding?", &encoding, "errors?", &errs); err != nil {
		return nil, err
	}
	if b, ok := x.(starlark.Bytes); ok && (encoding != starlark.None || errs != starlark.None) {
		enc, e := "utf-8", "strict"
		if s, ok := encoding.(starlark.String); ok {
			enc = string(s)
		}
		if s, ok := errs.(starlark.String); ok {
			e = string(s)
		}
		s, err := decodeBytes(string(b), enc, e)
		return starlark.String(s), err
	}
	s, err := r.TextWithMethods(func() string { return PyStr(x) })
	return starlark.String(s), err
}

// bytesCall is bytes(), bytes(n), bytes(iterable of ints), bytes(s, encoding).
func (r *Interp) bytesCall(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if len(args) >= 1 {
		if s, ok := args[0].(starlark.String); ok {
			if len(args) < 2 {
				return nil, PyErrorf(ExcTypeError, "string argument without an encoding")
			}
			return strEncode(thread, s, args[1:], kw)
		}
		if n, ok := args[0].(starlark.Int); ok && len(args) == 1 {
			k, ok := n.Int64()
			if !ok || k < 0 || k > 1<<30 {
				return nil, PyErrorf(ExcValueError, "negative count")
			}
			return starlark.Bytes(make([]byte, k)), nil
		}
	}
	return starlark.Call(thread, starlark.Universe["bytes"], args, kw)
}
