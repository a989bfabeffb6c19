// Strings as sequences of characters: len, indexing, slicing and
// iteration count code points, as in Python, not UTF-8 bytes.

package pyrt

import (
	"errors"

	"go.starlark.net/starlark"

	"harness/repl/pystr"
)

// sliceIndices adjusts Python slice bounds for a sequence of length n.
func sliceIndices(lo, hi, step starlark.Value, n int) (int, int, int, error) {
	st := 1
	if step != starlark.None {
		s, err := IndexInt(step)
		if err != nil {
			return 0, 0, 0, err
		}
		if s == 0 {
			return 0, 0, 0, PyErrorf(ExcValueError, "slice step cannot be zero")
		}
		st = s
	}
	bound := func(v starlark.Value, def int) (int, error) {
		if v == starlark.None {
			return def, nil
		}
		i, err := IndexInt(v)
		if err != nil {
			return 0, err
		}
		if i < 0 {
			i += n
			if i < 0 {
				if st > 0 {
					return 0, nil
				}
				return -1, nil
			}
		} else if i >= n {
			if st > 0 {
				return n, nil
			}
			return n - 1, nil
		}
		return i, nil
	}
	defStart, defEnd := 0, n
	if st < 0 {
		defStart, defEnd = n-1, -1
	}
	a, err := bound(lo, defStart)
	if err != nil {
		return 0, 0, 0, err
	}
	b, err := bound(hi, defEnd)
	return a, b, st, err
}

func IndexInt(v starlark.Value) (int, error) {
	switch v := v.(type) {
	case starlark.Int:
		if i, ok := v.Int64(); ok && i == int64(int(i)) {
			return int(i), nil
		}
		if v.Sign() < 0 {
			return -1 << 62, nil
		}
		return 1 << 62, nil
	case starlark.Bool:
		return B2i(bool(v)), nil
	}
	return 0, PyErrorf(ExcTypeError, "slice indices must be integers or None or have an __index__ method")
}

// pyIndex is x[i] with Python's meaning and errors.
func PyIndex(x, i starlark.Value) (starlark.Value, error) {
	if e := EnumClassOf(x); e != nil {
		return e.getItem(i)
	}
	switch x := x.(type) {
	case *PyObject:
		return x.getItem(i)
	case starlark.String:
		n, ok := i.(starlark.Int)
		if !ok {
			if b, isBool := i.(starlark.Bool); isBool {
				n = starlark.MakeInt(B2i(bool(b)))
			} else {
				return nil, PyErrorf(ExcTypeError, "string indices must be integers, not '%s'", PyTypeName(i))
			}
		}
		t := pystr.Cache.Table(string(x))
		size := t.N
		k, ok := n.Int64()
		if k < 0 {
			k += int64(size)
		}
		if !ok || k < 0 || k >= int64(size) {
			return nil, PyErrorf(ExcIndexError, "string index out of range")
		}
		return starlark.String(t.CharAt(int(k))), nil
	case starlark.Bytes:
		k, err := sequenceIndex(x, i, len(x))
		if err != nil {
			return nil, err
		}
		return starlark.MakeInt(int(x[k])), nil
	case starlark.Mapping:
		v, found, err := x.Get(i)
		if err != nil {
			var pe *PyError
			if errors.As(err, &pe) {
				return nil, err
			}
			return nil, PyErrorf(ExcTypeError, "unhashable type: '%s'", PyTypeName(i))
		}
		if alt := keyAlias(i); !found && alt != nil {
			v, found, _ = x.Get(alt)
		}
		if !found {
			return nil, KeyError(i)
		}
		return v, nil
	case starlark.Indexable:
		k, err := sequenceIndex(x, i, x.Len())
		if err != nil {
			return nil, err
		}
		return x.Index(k), nil
	}
	return nil, PyErrorf(ExcTypeError, "'%s' object is not subscriptable", PyTypeName(x))
}

// keyAlias is the key of another type that Python's dict treats as the
// same key as k (True and 1, an IntEnum member and its int, a namedtuple
// and its tuple), or nil.
func keyAlias(k starlark.Value) starlark.Value {
	if t := boolTwin(k); t != nil {
		return t
	}
	switch k := k.(type) {
	case *Record:
		return k.Vals
	case *EnumMember:
		if v := enumMixinValue(k); v != k {
			return v
		}
	}
	return nil
}

// sequenceIndex resolves index i of sequence x of length n as Python does.
func sequenceIndex(x, i starlark.Value, n int) (int, error) {
	var k int64
	switch i := i.(type) {
	case starlark.Int:
		var ok bool
		if k, ok = i.Int64(); !ok {
			k = 1 << 62
		}
	case starlark.Bool:
		k = int64(B2i(bool(i)))
	default:
		return 0, PyErrorf(ExcTypeError, "%s indices must be integers or slices, not %s", PyTypeName(x), PyTypeName(i))
	}
	if k < 0 {
		k += int64(n)
	}
	if k < 0 || k >= int64(n) {
		return 0, PyErrorf(ExcIndexError, "%s index out of range", PyTypeName(x))
	}
	return int(k), nil
}

// pySlice is x[lo:hi:step].
func pySlice(x, lo, hi, step starlark.Value) (starlark.Value, error) {
	switch x := x.(type) {
	case starlark.String:
		s := string(x)
		a, b, st, err := sliceIndices(lo, hi, step, pystr.CharLen(s))
		if err != nil {
			return nil, err
		}
		return starlark.String(pystr.CharSlice(s, a, b, st)), nil
	case starlark.Sliceable:
		a, b, st, err := sliceIndices(lo, hi, step, x.Len())
		if err != nil {
			return nil, err
		}
		return x.Slice(a, b, st), nil
	}
	return nil, PyErrorf(ExcTypeError, "'%s' object is not subscriptable", PyTypeName(x))
}

// pySetSlice is x[lo:hi:step] = v for lists.
func PySetSlice(x, lo, hi, step, v starlark.Value) error {
	l, ok := x.(*starlark.List)
	if !ok {
		return PyErrorf(ExcTypeError, "'%s' object does not support slice assignment", PyTypeName(x))
	}
	vals, err := ListOf(v)
	if err != nil {
		return PyErrorf(ExcTypeError, "can only assign an iterable")
	}
	a, b, st, err := sliceIndices(lo, hi, step, l.Len())
	if err != nil {
		return err
	}
	old := make([]starlark.Value, l.Len())
	for i := range old {
		old[i] = l.Index(i)
	}
	var out []starlark.Value
	if st == 1 {
		b = max(a, b)
		out = append(append(append(out, old[:a]...), vals...), old[b:]...)
	} else {
		var idx []int
		for i := a; (st > 0 && i < b) || (st < 0 && i > b); i += st {
			idx = append(idx, i)
		}
		if len(idx) != len(vals) {
			return PyErrorf(ExcValueError, "attempt to assign sequence of size %d to extended slice of size %d", len(vals), len(idx))
		}
		out = old
		for k, i := range idx {
			out[i] = vals[k]
		}
	}
	if err := l.Clear(); err != nil {
		return err
	}
	for _, v := range out {
		if err := l.Append(v); err != nil {
			return err
		}
	}
	return nil
}

// pyDelSlice is del x[lo:hi:step] for lists.
func PyDelSlice(x, lo, hi, step starlark.Value) error {
	l, ok := x.(*starlark.List)
	if !ok {
		return PyErrorf(ExcTypeError, "'%s' object does not support item deletion", PyTypeName(x))
	}
	a, b, st, err := sliceIndices(lo, hi, step, l.Len())
	if err != nil {
		return err
	}
	drop := map[int]bool{}
	for i := a; (st > 0 && i < b) || (st < 0 && i > b); i += st {
		drop[i] = true
	}
	var keep []starlark.Value
	for i := 0; i < l.Len(); i++ {
		if !drop[i] {
			keep = append(keep, l.Index(i))
		}
	}
	if err := l.Clear(); err != nil {
		return err
	}
	for _, v := range keep {
		if err := l.Append(v); err != nil {
			return err
		}
	}
	return nil
}

// pyLen is len(x).
func pyLen(x starlark.Value) (int, error) {
	switch v := x.(type) {
	case starlark.String:
		return pystr.CharLen(string(v)), nil
	case *PyObject:
		return v.len()
	case *PyType:
		if e := EnumClassOf(v); e != nil {
			return len(e.memberTuple()), nil
		}
	}
	if n := starlark.Len(x); n >= 0 {
		return n, nil
	}
	return 0, PyErrorf(ExcTypeError, "object of type '%s' has no len()", PyTypeName(x))
}
