// Instances of REPL classes under Python's operators and builtins: the
// special methods (__repr__, __eq__, __lt__, __add__, __len__, ...).

package pyrt

import (
	"reflect"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// Special methods run REPL code from places Starlark gives no thread or
// error to (String, Truth, Hash); they run on the interpreter's thread,
// inside the call that needs them. An error in __repr__ or __str__ while
// text is being built is kept (noteReprErr) and returned by the builtin
// that asked for the text (print, str, repr, format, an f-string, the
// call's trailing value) once the text is done, so it is not lost.

// noteReprErr keeps the first error of a special method building text.
func (r *Interp) noteReprErr(err error) {
	if r.ReprErr == nil {
		r.ReprErr = err
	}
}

// takeReprErr returns and clears the kept error.
func (r *Interp) TakeReprErr() error {
	err := r.ReprErr
	r.ReprErr = nil
	return err
}

// textMethod calls a special method that must return a str.
func (o *PyObject) textMethod(name string) (string, bool) {
	v, ok, err := o.CallDunder(name)
	if !ok {
		return "", false
	}
	if err == nil {
		if s, isStr := v.(starlark.String); isStr {
			return string(s), true
		}
		err = PyErrorf(ExcTypeError, "%s returned non-string (type %s)", name, PyTypeName(v))
	}
	o.Interp().noteReprErr(err)
	return "", true
}

func (o *PyObject) ReprPy() string {
	if s, ok := o.textMethod("__repr__"); ok {
		return s
	}
	return defaultRepr(o, o.Cls.TypeName)
}

func (o *PyObject) StrPy() string {
	if s, ok := o.textMethod("__str__"); ok {
		return s
	}
	return o.ReprPy()
}

func (o *PyObject) FormatPy(spec string) (string, error) {
	if v, ok, err := o.CallDunder("__format__", starlark.String(spec)); ok {
		if err != nil {
			return "", err
		}
		s, isStr := v.(starlark.String)
		if !isStr {
			return "", PyErrorf(ExcTypeError, "__format__ must return a str, not %s", PyTypeName(v))
		}
		return string(s), nil
	}
	if spec != "" {
		return "", PyErrorf(ExcTypeError, "unsupported format string passed to %s.__format__", o.Cls.TypeName)
	}
	s := o.StrPy()
	return s, o.Interp().TakeReprErr()
}

func (o *PyObject) Truth() starlark.Bool {
	for _, name := range []string{"__bool__", "__len__"} {
		if v, ok, err := o.CallDunder(name); ok {
			if err != nil {
				o.Interp().noteReprErr(err)
				return true
			}
			return v.Truth()
		}
	}
	return true
}

func (o *PyObject) Hash() (uint32, error) {
	if v, ok, err := o.CallDunder("__hash__"); ok {
		if err != nil {
			return 0, err
		}
		if n, isInt := v.(starlark.Int); isInt {
			return n.Hash()
		}
		return 0, PyErrorf(ExcTypeError, "__hash__ method should return an integer")
	}
	if h := o.DunderOf("__hash__"); h == starlark.None || h == nil && o.DunderOf("__eq__") != nil {
		return 0, PyErrorf(ExcTypeError, "unhashable type: '%s'", o.Cls.TypeName)
	}
	return uint32(reflect.ValueOf(o).Pointer() >> 4), nil
}

// len is len(o), through __len__.
func (o *PyObject) len() (int, error) {
	v, ok, err := o.CallDunder("__len__")
	if !ok {
		return 0, PyErrorf(ExcTypeError, "object of type '%s' has no len()", o.Cls.TypeName)
	}
	if err != nil {
		return 0, err
	}
	n, isInt := v.(starlark.Int)
	k, fits := n.Int64()
	if !isInt || !fits || k < 0 {
		return 0, PyErrorf(ExcValueError, "__len__() should return >= 0")
	}
	return int(k), nil
}

// iter is iter(o), through __iter__: what it returns, to iterate.
func (o *PyObject) iter() (starlark.Value, error) {
	v, ok, err := o.CallDunder("__iter__")
	if !ok {
		return nil, PyErrorf(ExcTypeError, "'%s' object is not iterable", o.Cls.TypeName)
	}
	if err != nil {
		return nil, err
	}
	if it, ok := v.(*PyObject); ok && it.DunderOf("__next__") != nil {
		return it.nextIter(), nil
	}
	if _, iterable := v.(starlark.Iterable); !iterable {
		return nil, PyErrorf(ExcTypeError, "iter() returned non-iterator of type '%s'", PyTypeName(v))
	}
	return v, nil
}

// nextIter is an iterator over what o's __next__ gives until it raises
// StopIteration: o is an iterator of a class statement.
func (o *PyObject) nextIter() *PyIter {
	return NewLazyIter(o.thread(), o.Cls.TypeName, func() (starlark.Value, bool, error) {
		return o.next()
	})
}

// next is next(o) through __next__; StopIteration ends it without error.
func (o *PyObject) next() (starlark.Value, bool, error) {
	v, _, err := o.CallDunder("__next__")
	if err != nil {
		if o.Interp().ExceptionOf(err).Typ.IsSubclass(excStopIteration) {
			return nil, false, nil
		}
		return nil, false, err
	}
	return v, true, nil
}

// getItem is o[k], through __getitem__.
func (o *PyObject) getItem(k starlark.Value) (starlark.Value, error) {
	v, ok, err := o.CallDunder("__getitem__", k)
	if !ok {
		return nil, PyErrorf(ExcTypeError, "'%s' object is not subscriptable", o.Cls.TypeName)
	}
	return v, err
}

// Has is x in o: __contains__, else a search of what __iter__ gives.
func (o *PyObject) Has(x starlark.Value) (bool, error) {
	if v, ok, err := o.CallDunder("__contains__", x); ok {
		return err == nil && bool(v.Truth()), err
	}
	it, err := o.iter()
	if err != nil {
		return false, PyErrorf(ExcTypeError, "argument of type '%s' is not iterable", o.Cls.TypeName)
	}
	found := false
	err = Iterate(it, func(e starlark.Value) (bool, error) {
		eq, err := starlark.Equal(e, x)
		found = eq
		return !eq && err == nil, err
	})
	return found, err
}

// Get is o[k] (Starlark's own indexing, for o["key"]), through __getitem__.
func (o *PyObject) Get(k starlark.Value) (starlark.Value, bool, error) {
	v, err := o.getItem(k)
	return v, err == nil, err
}

// SetKey is o[k] = v, through __setitem__.
func (o *PyObject) SetKey(k, v starlark.Value) error {
	_, ok, err := o.CallDunder("__setitem__", k, v)
	if !ok {
		return PyErrorf(ExcTypeError, "'%s' object does not support item assignment", o.Cls.TypeName)
	}
	return err
}

var compareNames = map[syntax.Token][2]string{
	syntax.LT: {"__lt__", "__gt__"}, syntax.LE: {"__le__", "__ge__"},
	syntax.GT: {"__gt__", "__lt__"}, syntax.GE: {"__ge__", "__le__"},
	syntax.EQL: {"__eq__", "__eq__"}, syntax.NEQ: {"__ne__", "__ne__"},
}

var opSymbols = map[syntax.Token]string{syntax.LT: "<", syntax.LE: "<=", syntax.GT: ">", syntax.GE: ">="}

// CompareSameType compares two instances through __eq__, __lt__ and the
// others, trying the reflected method of y when o's is missing or returns
// NotImplemented, as Python does. Without __eq__, == is identity.
func (o *PyObject) CompareSameType(op syntax.Token, yv starlark.Value, depth int) (bool, error) {
	y := yv.(*PyObject)
	names := compareNames[op]
	if v, ok, err := o.CallDunder(names[0], y); ok && (err != nil || v != NotImplemented) {
		return err == nil && bool(v.Truth()), err
	}
	if v, ok, err := y.CallDunder(names[1], o); ok && (err != nil || v != NotImplemented) {
		return err == nil && bool(v.Truth()), err
	}
	switch op {
	case syntax.EQL:
		return o == y, nil
	case syntax.NEQ:
		if v, ok, err := o.CallDunder("__eq__", y); ok && (err != nil || v != NotImplemented) {
			return err == nil && !bool(v.Truth()), err
		}
		return o != y, nil
	}
	return false, PyErrorf(ExcTypeError, "'%s' not supported between instances of '%s' and '%s'", opSymbols[op], o.Cls.TypeName, y.Cls.TypeName)
}

var binaryNames = map[syntax.Token]string{
	syntax.PLUS: "add", syntax.MINUS: "sub", syntax.STAR: "mul", syntax.SLASH: "truediv", syntax.SLASHSLASH: "floordiv",
	syntax.PERCENT: "mod", syntax.AMP: "and", syntax.PIPE: "or", syntax.CIRCUMFLEX: "xor", syntax.LTLT: "lshift", syntax.GTGT: "rshift",
}

// Binary is o op y (side Left) or y op o (Right) through __add__,
// __radd__ and the others.
func (o *PyObject) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	name, ok := binaryNames[op]
	if !ok {
		return nil, nil
	}
	method := "__" + name + "__"
	if side == starlark.Right {
		method = "__r" + name + "__"
	}
	v, found, err := o.CallDunder(method, y)
	if !found || err != nil {
		return nil, err
	}
	if v == NotImplemented {
		return nil, nil
	}
	return v, nil
}

func (o *PyObject) Unary(op syntax.Token) (starlark.Value, error) {
	name := map[syntax.Token]string{syntax.MINUS: "__neg__", syntax.PLUS: "__pos__", syntax.TILDE: "__invert__"}[op]
	if name == "" {
		return nil, nil
	}
	v, ok, err := o.CallDunder(name)
	if !ok {
		return nil, nil
	}
	return v, err
}

// textWithMethods builds text with f (pyStr, pyRepr, ...) and returns
// the error a special method raised meanwhile.
func (r *Interp) TextWithMethods(f func() string) (string, error) {
	s := f()
	if err := r.TakeReprErr(); err != nil {
		return "", err
	}
	return s, nil
}

// dunder calls x.name() for an instance of a REPL class that has it.
func (r *Interp) dunder(x starlark.Value, name string) (starlark.Value, bool, error) {
	o, ok := x.(*PyObject)
	if !ok {
		return nil, false, nil
	}
	return o.CallDunder(name)
}

// objectManager is an instance of a REPL class with __enter__ and
// __exit__ in a with statement. At the top level the driver hands
// __exit__ the block's exception, which a true result swallows
// (exitExc); inside a function __exit__ is called with None, None, None
// however the block ends.
type objectManager struct{ o *PyObject }

func (m objectManager) Enter() (starlark.Value, error) {
	v, _, err := m.o.CallDunder("__enter__")
	return v, err
}

func (m objectManager) Exit() error {
	_, _, err := m.o.CallDunder("__exit__", starlark.None, starlark.None, starlark.None)
	return err
}

func (m objectManager) ExitExc(_ *Interp, exc *PyException, _ error) (bool, error) {
	v, _, err := m.o.CallDunder("__exit__", exc.Typ, exc, starlark.None)
	if err != nil {
		return false, err
	}
	return bool(v.Truth()), nil
}
