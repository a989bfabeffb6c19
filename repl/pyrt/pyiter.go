// One-pass iterators: generator expressions, map, filter, iter() and the
// itertools that may be infinite.

package pyrt

import (
	"go.starlark.net/starlark"

	"harness/repl/pystr"
)

// pyIter is a one-pass iterator, as Python's generators and map objects
// are: iterating it twice yields its elements once. Its elements are
// precomputed (items) or produced on demand (next). Starlark iterators
// cannot fail, so an error while producing an element stops the thread
// with the error's text (see fail).
type PyIter struct {
	name   string
	items  []starlark.Value
	pos    int
	next   func() (starlark.Value, bool, error)
	done   bool
	Thread *starlark.Thread
	Gen    *PyGen              // a generator's: send, throw and close (pygen_methods.go)
	Extra  starlark.StringDict // attributes of its own (csv.DictReader's fieldnames)
}

var (
	_ starlark.Iterable  = (*PyIter)(nil)
	_ starlark.Container = (*PyIter)(nil)
)

// oneShot reports whether v is consumed by iterating it (an iterator or a
// file), so that map, filter and enumerate over it must be lazy: what is
// not taken is left for the next reader.
func oneShot(v starlark.Value) bool {
	switch v.(type) {
	case *PyIter, *PyFile:
		return true
	}
	return false
}

func NewListIter(name string, items []starlark.Value) *PyIter {
	return &PyIter{name: name, items: items}
}

func NewLazyIter(thread *starlark.Thread, name string, next func() (starlark.Value, bool, error)) *PyIter {
	return &PyIter{name: name, next: next, Thread: thread}
}

// stepIter is the iterator map, filter and enumerate return, named name:
// over next as it is taken when lazy (an argument is a one-pass iterator,
// which may be endless); otherwise next is run to its end now, so that an
// error is the call's.
func stepIter(thread *starlark.Thread, name string, lazy bool, next func() (starlark.Value, bool, error)) (starlark.Value, error) {
	if lazy {
		return NewLazyIter(thread, name, next), nil
	}
	out, err := Drain(next)
	if err != nil {
		return nil, err
	}
	return NewListIter(name, out), nil
}

// drain calls next until it ends and returns what it gave.
func Drain(next func() (starlark.Value, bool, error)) ([]starlark.Value, error) {
	var out []starlark.Value
	for {
		v, ok, err := next()
		if err != nil {
			return nil, err
		}
		if !ok {
			return out, nil
		}
		out = append(out, v)
	}
}

func (it *PyIter) String() string       { return "<" + it.name + " object>" }
func (it *PyIter) ReprPy() string       { return "<" + it.name + " object>" }
func (it *PyIter) Type() string         { return it.name }
func (it *PyIter) Freeze()              {}
func (it *PyIter) Truth() starlark.Bool { return true }
func (it *PyIter) Hash() (uint32, error) {
	return 0, PyErrorf(ExcTypeError, "unhashable type: '%s'", it.name)
}
func (it *PyIter) Iterate() starlark.Iterator {
	return &pyIterator{it}
}

// Has is x in it: Python takes elements up to the first equal to x and
// leaves the rest for the next reader.
func (it *PyIter) Has(x starlark.Value) (bool, error) {
	for {
		v, ok, err := it.Step()
		if err != nil || !ok {
			return false, err
		}
		if Identical(v, x) {
			return true, nil
		}
		if eq, err := starlark.Equal(v, x); err != nil || eq {
			return eq, err
		}
	}
}

// step returns the next element.
func (it *PyIter) Step() (starlark.Value, bool, error) {
	if it.done {
		return nil, false, nil
	}
	if it.next == nil {
		if it.pos >= len(it.items) {
			it.done, it.items = true, nil
			return nil, false, nil
		}
		v := it.items[it.pos]
		it.items[it.pos] = nil
		it.pos++
		return v, true, nil
	}
	v, ok, err := it.next()
	if err != nil || !ok {
		it.done = true
	}
	return v, ok, err
}

type pyIterator struct{ it *PyIter }

func (p *pyIterator) Next(out *starlark.Value) bool {
	v, ok, err := p.it.Step()
	if err != nil {
		p.it.Fail(err)
		return false
	}
	if ok {
		*out = v
	}
	return ok
}

func (p *pyIterator) Done() {}

// fail stops the thread: a Starlark loop cannot see an iterator's error.
// The interpreter keeps the error, which try and the result then see in
// place of the stop (iterfail.go).
func (it *PyIter) Fail(err error) { failThread(it.Thread, err) }

// failThread stops thread, whose loop an iterator's error ends (PyIter.Fail).
func failThread(thread *starlark.Thread, err error) {
	if thread == nil {
		return
	}
	if r, _ := thread.Local(ThreadInterp).(*Interp); r != nil && r.IterErr == nil {
		r.IterErr, r.IterThread = err, thread
		thread.Cancel(iterCancel)
		return
	}
	thread.Cancel(ErrorMessage(err))
}

// iterate calls f for each element of an iterable value (strings yield
// their characters); f returns false to stop.
func Iterate(v starlark.Value, f func(starlark.Value) (bool, error)) error {
	if b, ok := v.(starlark.Bytes); ok {
		v = byteInts(string(b))
	}
	if s, ok := v.(starlark.String); ok {
		for _, c := range chars(string(s)) {
			if more, err := f(c); err != nil || !more {
				return err
			}
		}
		return nil
	}
	if t := enumIterable(v); t != nil {
		v = t
	}
	if o, ok := v.(*PyObject); ok {
		it, err := o.iter()
		if err != nil {
			return err
		}
		v = it
	}
	if it, ok := v.(*PyIter); ok {
		for {
			x, ok, err := it.Step()
			if err != nil || !ok {
				return err
			}
			if more, err := f(x); err != nil || !more {
				return err
			}
		}
	}
	itv, ok := v.(starlark.Iterable)
	if !ok {
		return PyErrorf(ExcTypeError, "'%s' object is not iterable", PyTypeName(v))
	}
	iter := itv.Iterate()
	defer iter.Done()
	var x starlark.Value
	for iter.Next(&x) {
		if more, err := f(x); err != nil || !more {
			return err
		}
	}
	return nil
}

// listOf returns the elements of an iterable value.
func ListOf(v starlark.Value) ([]starlark.Value, error) {
	var out []starlark.Value
	if n := starlark.Len(v); n > 0 {
		out = make([]starlark.Value, 0, n)
	}
	err := Iterate(v, func(x starlark.Value) (bool, error) {
		out = append(out, x)
		return true, nil
	})
	return out, err
}

// chars splits a string into its characters (invalid bytes one by one).
func chars(s string) []starlark.Value {
	out := make([]starlark.Value, 0, len(s))
	for i := 0; i < len(s); {
		_, w := pystr.DecodeRune(s[i:])
		out = append(out, starlark.String(s[i:i+w]))
		i += w
	}
	return out
}

// stepper returns a function producing the elements of v one at a time:
// a one-pass iterator's own, or those of a copy of v (so that no
// Starlark iteration stays open, which would freeze a list against
// appends).
func Stepper(v starlark.Value) (func() (starlark.Value, bool, error), error) {
	switch it := v.(type) {
	case *PyIter:
		return it.Step, nil
	case *PyFile:
		return it.nextLine, nil
	}
	vals, err := ListOf(v)
	if err != nil {
		return nil, err
	}
	i := 0
	return func() (starlark.Value, bool, error) {
		if i >= len(vals) {
			return nil, false, nil
		}
		i++
		return vals[i-1], true, nil
	}, nil
}

// genexpr is the hidden builtin of a generator expression (see
// rewrite.lazyGenexp): args are its first iterable and the function that
// runs the rest of its clauses on one element, returning the list of the
// values that element gives. Elements are taken one at a time, when the
// consumer asks for a value the pending ones cannot give.
func genexpr(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	step, err := Stepper(args[0])
	if err != nil {
		return nil, err
	}
	fn := args[1]
	var pending []starlark.Value
	it := NewLazyIter(thread, "generator", func() (starlark.Value, bool, error) {
		for len(pending) == 0 {
			v, ok, err := step()
			if err != nil || !ok {
				return nil, false, err
			}
			res, err := starlark.Call(thread, fn, starlark.Tuple{v}, nil)
			if err != nil {
				return nil, false, err
			}
			pending = Elems(res)
		}
		v := pending[0]
		pending = pending[1:]
		return v, true, nil
	})
	it.Extra = genexprMethods(it)
	return it, nil
}

// genexprMethods are a generator expression's throw and close: it has no
// handler, so a thrown exception ends it and comes back out, as in
// (_ for _ in ()).throw(exc), the idiom of raising in a lambda.
func genexprMethods(it *PyIter) map[string]starlark.Value {
	return map[string]starlark.Value{
		"throw": Builtin("throw", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if len(args) == 0 || len(args) > 3 || len(kw) > 0 {
				return nil, PyErrorf(ExcTypeError, "throw expected at least 1 argument, got 0")
			}
			exc, err := thrownException(thread, args)
			if err != nil {
				return nil, err
			}
			it.done = true
			return nil, exc
		}),
		"close": Builtin("close", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			it.done = true
			return starlark.None, nil
		}),
	}
}
