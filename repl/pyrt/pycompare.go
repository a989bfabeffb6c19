// Comparisons with Python's meaning where Starlark's differs: a bool is
// the int it is in Python (True == 1, False < 2, sorted([True, 0, 2])).

package pyrt

import (
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// pyCompare is x op y, a bool against a number read as 0 or 1, and tuples
// and lists compared element by element the same way.
func PyCompare(op syntax.Token, x, y starlark.Value) (bool, error) {
	x, y = plainOperands(x, y)
	x, y = boolsAsInts(x, y)
	if isNaN(x) && isNumber(y) || isNaN(y) && isNumber(x) {
		return op == syntax.NEQ, nil // NaN is unordered and unequal to all, itself included (Starlark's NaN equals itself)
	}
	if v, handled, err := compareNumberObjects(op, x, y); handled || err != nil {
		return v, err // a Fraction or a Decimal against an int or a float
	}
	if xt, ok := x.(starlark.Tuple); ok {
		if yt, ok := y.(starlark.Tuple); ok && (hasBool(xt) || hasBool(yt)) {
			return compareSeq(op, xt, yt)
		}
	}
	if xs, ys, ok := numberObjectSeqs(x, y); ok {
		return compareSeq(op, xs, ys) // [Fraction(1, 2)] == [0.5]
	}
	return starlark.Compare(op, x, y)
}

// plainOperands reads an IntEnum or StrEnum member compared with a value
// of another type as its plain value, a namedtuple compared with a
// tuple as its tuple, and a Counter, defaultdict or OrderedDict compared
// with a dict as its dict, as Python does.
func plainOperands(x, y starlark.Value) (starlark.Value, starlark.Value) {
	if x.Type() == y.Type() {
		return x, y
	}
	x, y = enumMixinValue(x), enumMixinValue(y)
	if d, ok := x.(*DictLike); ok {
		if _, ok := y.(*starlark.Dict); ok {
			x = d.D // Counter, defaultdict, OrderedDict == dict: as dicts
		}
	}
	if d, ok := y.(*DictLike); ok {
		if _, ok := x.(*starlark.Dict); ok {
			y = d.D
		}
	}
	if r, ok := x.(*Record); ok {
		if _, ok := y.(starlark.Tuple); ok {
			x = r.Vals
		}
	}
	if r, ok := y.(*Record); ok {
		if _, ok := x.(starlark.Tuple); ok {
			y = r.Vals
		}
	}
	return x, y
}

// boolsAsInts turns the bool of a bool-number pair into an int.
func boolsAsInts(x, y starlark.Value) (starlark.Value, starlark.Value) {
	xb, xBool := x.(starlark.Bool)
	yb, yBool := y.(starlark.Bool)
	switch {
	case xBool && !yBool && isNumber(y):
		x = starlark.MakeInt(B2i(bool(xb)))
	case yBool && !xBool && isNumber(x):
		y = starlark.MakeInt(B2i(bool(yb)))
	}
	return x, y
}

func isNumber(v starlark.Value) bool {
	switch v.(type) {
	case starlark.Int, starlark.Float, NumberObject:
		return true
	}
	return false
}

func hasBool(t starlark.Tuple) bool {
	for _, v := range t {
		if _, ok := v.(starlark.Bool); ok {
			return true
		}
	}
	return false
}

// compareSeq compares tuples as Python does, with pyCompare for elements.
func compareSeq(op syntax.Token, x, y starlark.Tuple) (bool, error) {
	for i := 0; i < len(x) && i < len(y); i++ {
		eq, err := PyCompare(syntax.EQL, x[i], y[i])
		if err != nil {
			return false, err
		}
		if !eq {
			if op == syntax.EQL || op == syntax.NEQ {
				return op == syntax.NEQ, nil
			}
			return PyCompare(op, x[i], y[i])
		}
	}
	return starlark.Compare(op, starlark.MakeInt(len(x)), starlark.MakeInt(len(y)))
}

// numberObjectSeqs returns two tuples or two lists as tuples when one
// holds a numberObject (a Fraction, a Decimal), whose comparison with an int or a
// float Starlark's element by element comparison would not make.
func numberObjectSeqs(x, y starlark.Value) (starlark.Tuple, starlark.Tuple, bool) {
	if x.Type() != y.Type() || x.Type() != "tuple" && x.Type() != "list" {
		return nil, nil, false
	}
	xs, ok1 := x.(starlark.Indexable)
	ys, ok2 := y.(starlark.Indexable)
	if !ok1 || !ok2 || !holdsNumberObject(xs, 8) && !holdsNumberObject(ys, 8) {
		return nil, nil, false
	}
	return indexableTuple(xs), indexableTuple(ys), true
}

// holdsNumberObject reports whether a numberObject is among the elements
// of s or of the tuples and lists in it, depth levels down.
func holdsNumberObject(s starlark.Indexable, depth int) bool {
	for i := 0; i < s.Len(); i++ {
		switch v := s.Index(i).(type) {
		case NumberObject:
			return true
		case starlark.Tuple, *starlark.List:
			if depth > 0 && holdsNumberObject(v.(starlark.Indexable), depth-1) {
				return true
			}
		}
	}
	return false
}

func indexableTuple(s starlark.Indexable) starlark.Tuple {
	if t, ok := s.(starlark.Tuple); ok {
		return t
	}
	t := make(starlark.Tuple, s.Len())
	for i := range t {
		t[i] = s.Index(i)
	}
	return t
}

func isNaN(v starlark.Value) bool {
	f, ok := v.(starlark.Float)
	return ok && f != f
}
