// A bool is the int it equals where Python's dicts, sets and containers
// meet it: True == 1 and hash(True) == hash(1) in Python, so True and 1
// (and 1.0) are one dict key or set element, and 1 in [True]. Starlark's
// Bool and Int hash and compare apart, so the REPL keeps the rule itself:
// a dict or set the runtime builds or stores into never holds a bool and
// the number it equals side by side (the first key stays, as in Python,
// and takes the last value), and a lookup that misses tries the other.
// The AST pass routes through here only what a bool can reach: a key or
// a left operand of in that is a string literal, or a number literal
// other than 0 and 1, stays Starlark's.

package pyrt

import (
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// boolTwin is the key of the other kind that Python's dict treats as the
// same as k when one is a bool (True and 1 or 1.0, False and 0), or nil.
func boolTwin(k starlark.Value) starlark.Value {
	switch k := k.(type) {
	case starlark.Bool:
		return starlark.MakeInt(B2i(bool(k)))
	case starlark.Int:
		if n, ok := k.Int64(); ok && (n == 0 || n == 1) {
			return starlark.Bool(n == 1)
		}
	case starlark.Float:
		if k == 0 || k == 1 {
			return starlark.Bool(k == 1)
		}
	}
	return nil
}

// storedKey is the key under which d holds k: k, or its bool twin when d
// holds the twin and not k.
func storedKey(d starlark.Mapping, k starlark.Value) starlark.Value {
	t := boolTwin(k)
	if t == nil {
		return k
	}
	if _, found, _ := d.Get(k); found {
		return k
	}
	if _, found, _ := d.Get(t); found {
		return t
	}
	return k
}

// storedElem is storedKey for a set.
func storedElem(s *starlark.Set, k starlark.Value) starlark.Value {
	t := boolTwin(k)
	if t == nil {
		return k
	}
	if found, _ := s.Has(k); found {
		return k
	}
	if found, _ := s.Has(t); found {
		return t
	}
	return k
}

// bitOp is x op y for &, |, ^, << and >>: on two bools &, | and ^ give a
// bool; otherwise a bool is an int (True & 3 is 1), and sets and dicts
// keep their operators.
func bitOp(op syntax.Token) func(x, y starlark.Value) (starlark.Value, error) {
	return func(x, y starlark.Value) (starlark.Value, error) {
		if bx, ok := x.(starlark.Bool); ok && op != syntax.LTLT && op != syntax.GTGT {
			if by, ok := y.(starlark.Bool); ok {
				switch op {
				case syntax.AMP:
					return bx && by, nil
				case syntax.PIPE:
					return bx || by, nil
				default:
					return starlark.Bool(bx != by), nil
				}
			}
		}
		return Arith(op, x, y)
	}
}

// pyIn is x in y; when it is false and x has a bool twin, the twin's
// answer (1 in [True], True in {1}).
func pyIn(x, y starlark.Value) (starlark.Value, error) {
	v, err := starlark.Binary(syntax.IN, x, y)
	if err != nil || v == starlark.True {
		return v, err
	}
	return pyInTwin(x, y)
}

// twinKeys holds the keys that have a bool twin, for the AST pass's
// x in y or x in twinKeys and pyInTwin(x, y); a dict, so an unhashable x
// is only not found.
var twinKeys = func() *starlark.Dict {
	d := starlark.NewDict(4)
	for _, k := range []starlark.Value{starlark.MakeInt(0), starlark.MakeInt(1), starlark.False, starlark.True} {
		_ = d.SetKey(k, starlark.None)
	}
	d.Freeze()
	return d
}()

// pyInTwin is the twin's answer to x in y after x in y missed.
func pyInTwin(x, y starlark.Value) (starlark.Value, error) {
	t := boolTwin(x)
	if t == nil {
		return starlark.False, nil
	}
	switch y.(type) {
	case *PyObject: // its __contains__ said no
		return starlark.False, nil
	case starlark.Container, starlark.Mapping:
		return starlark.Binary(syntax.IN, t, y)
	}
	return starlark.False, nil
}

// pySetItem is x[k] = v (the AST pass passes v first, evaluated first):
// a dict stores a bool key under the number it equals when it holds that
// number, and the reverse; a list takes a bool index.
func PySetItem(v, x, k starlark.Value) error {
	switch x := x.(type) {
	case *starlark.Dict:
		return x.SetKey(storedKey(x, k), v)
	case starlark.HasSetKey:
		if m, ok := x.(starlark.Mapping); ok {
			k = storedKey(m, k)
		}
		return x.SetKey(k, v)
	case starlark.HasSetIndex:
		i, err := sequenceIndex(x, k, x.Len())
		if err != nil {
			if pe, ok := err.(*PyError); ok && pe.Exc.Typ == ExcIndexError {
				return PyErrorf(ExcIndexError, "%s assignment index out of range", PyTypeName(x))
			}
			return err
		}
		return x.SetIndex(i, v)
	}
	return PyErrorf(ExcTypeError, "'%s' object does not support item assignment", PyTypeName(x))
}

// mergeBoolKeys makes a dict or set just built (a display, a
// comprehension, dict(), set()) hold a bool and the number it equals as
// one key, as Python builds it: the first key, the last value. Others
// are returned as they are, after one pass over the keys.
func mergeBoolKeys(v starlark.Value) (starlark.Value, error) {
	switch c := v.(type) {
	case *starlark.Dict:
		if c.Len() < 2 || !mixesBools(func(yield func(starlark.Value) bool) {
			for k := range c.Entries() {
				if !yield(k) {
					return
				}
			}
		}) {
			return c, nil
		}
		items := c.Items()
		if err := c.Clear(); err != nil {
			return nil, err
		}
		for _, kv := range items {
			if err := c.SetKey(storedKey(c, kv[0]), kv[1]); err != nil {
				return nil, err
			}
		}
	case *starlark.Set:
		if c.Len() < 2 || !mixesBools(c.Elements()) {
			return c, nil
		}
		var elems []starlark.Value
		for k := range c.Elements() {
			elems = append(elems, k)
		}
		if err := c.Clear(); err != nil {
			return nil, err
		}
		for _, k := range elems {
			if err := c.Insert(storedElem(c, k)); err != nil {
				return nil, err
			}
		}
	}
	return v, nil
}

// dictDisplay is {k1: v1, k2: v2, ...} from its keys and values, built
// as Python builds it: a key met again (or a bool after the number it
// equals) keeps its place and takes the later value.
func dictDisplay(kv starlark.Tuple) (starlark.Value, error) {
	d := starlark.NewDict(len(kv) / 2)
	for i := 0; i+1 < len(kv); i += 2 {
		k := kv[i]
		if _, err := k.Hash(); err != nil {
			if _, raised := err.(*PyError); raised {
				return nil, err // a __hash__'s own error
			}
			return nil, PyErrorf(ExcTypeError, "unhashable type: '%s'", PyTypeName(k))
		}
		if err := d.SetKey(storedKey(d, k), kv[i+1]); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// mixesBools reports whether keys hold both a bool and a number a bool
// can equal.
func mixesBools(keys func(func(starlark.Value) bool)) bool {
	var bools, nums bool
	for k := range keys {
		switch k.(type) {
		case starlark.Bool:
			bools = true
		case starlark.Int, starlark.Float:
			nums = nums || boolTwin(k) != nil
		}
		if bools && nums {
			return true
		}
	}
	return false
}

// The dict and set methods that take a key, with the bool twin's key.
func dictGet(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var k starlark.Value
	var def starlark.Value = starlark.None
	if err := starlark.UnpackPositionalArgs("get", args, kw, 1, &k, &def); err != nil {
		return nil, err
	}
	d := recv.(*starlark.Dict)
	v, found, err := d.Get(storedKey(d, k))
	if err != nil {
		return nil, PyErrorf(ExcTypeError, "unhashable type: '%s'", PyTypeName(k))
	}
	if !found {
		return def, nil
	}
	return v, nil
}

func dictSetdefault(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var k starlark.Value
	var def starlark.Value = starlark.None
	if err := starlark.UnpackPositionalArgs("setdefault", args, kw, 1, &k, &def); err != nil {
		return nil, err
	}
	d := recv.(*starlark.Dict)
	k = storedKey(d, k)
	v, found, err := d.Get(k)
	if err != nil {
		return nil, PyErrorf(ExcTypeError, "unhashable type: '%s'", PyTypeName(k))
	}
	if found {
		return v, nil
	}
	return def, d.SetKey(k, def)
}

func setAdd(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var k starlark.Value
	if err := starlark.UnpackPositionalArgs("add", args, kw, 1, &k); err != nil {
		return nil, err
	}
	s := recv.(*starlark.Set)
	if err := s.Insert(storedElem(s, k)); err != nil {
		if _, herr := k.Hash(); herr != nil {
			return nil, PyErrorf(ExcTypeError, "unhashable type: '%s'", PyTypeName(k))
		}
		return nil, err
	}
	return starlark.None, nil
}

// setRemove is set.remove (a missing element is a KeyError) or
// set.discard.
func setRemove(name string) methodFunc {
	return func(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var k starlark.Value
		if err := starlark.UnpackPositionalArgs(name, args, kw, 1, &k); err != nil {
			return nil, err
		}
		s := recv.(*starlark.Set)
		found, err := s.Delete(storedElem(s, k))
		if err != nil {
			if _, herr := k.Hash(); herr != nil {
				return nil, PyErrorf(ExcTypeError, "unhashable type: '%s'", PyTypeName(k))
			}
			return nil, err
		}
		if !found && name == "remove" {
			return nil, KeyError(k)
		}
		return starlark.None, nil
	}
}

// mergingKeys is a dict or set constructor whose result holds a bool and
// the number it equals as one key (set([1, True]) is {1}).
// stringPairs lets dict() take a string as a pair of its characters, as
// Python does (dict(["ab"]) is {'a': 'b'}): the strings of a list or tuple
// argument become tuples of their characters, and Starlark's dict checks
// their length.
func stringPairs(f func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error)) func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return func(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if len(args) == 1 {
			if seq, ok := args[0].(starlark.Indexable); ok {
				if _, isStr := seq.(starlark.String); !isStr {
					args = starlark.Tuple{charPairs(seq)}
				}
			}
		}
		return f(thread, args, kw)
	}
}

// charPairs returns seq, or a copy with its strings as character tuples.
func charPairs(seq starlark.Indexable) starlark.Value {
	var out starlark.Tuple
	for i := 0; i < seq.Len(); i++ {
		e := seq.Index(i)
		if s, ok := e.(starlark.String); ok {
			if out == nil {
				out = make(starlark.Tuple, i, seq.Len())
				for j := 0; j < i; j++ {
					out[j] = seq.Index(j)
				}
			}
			out = append(out, starlark.Tuple(chars(string(s))))
			continue
		}
		if out != nil {
			out = append(out, e)
		}
	}
	if out == nil {
		return seq
	}
	return out
}

func mergingKeys(f func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error)) func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return func(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		v, err := f(thread, args, kw)
		if err != nil {
			return nil, err
		}
		return mergeBoolKeys(v)
	}
}

// twinSets returns x and y when both are sets and a bool in one may equal
// a number in the other, whose operators then follow Python's equality.
func twinSets(x, y starlark.Value) (*starlark.Set, *starlark.Set, bool) {
	xs, ok1 := x.(*starlark.Set)
	ys, ok2 := y.(*starlark.Set)
	if !ok1 || !ok2 || xs.Len() == 0 || ys.Len() == 0 {
		return nil, nil, false
	}
	all := func(yield func(starlark.Value) bool) {
		for e := range xs.Elements() {
			if !yield(e) {
				return
			}
		}
		for e := range ys.Elements() {
			if !yield(e) {
				return
			}
		}
	}
	return xs, ys, mixesBools(all)
}

// hasEq reports whether s holds e or the bool twin of e.
func hasEq(s *starlark.Set, e starlark.Value) bool {
	if found, _ := s.Has(e); found {
		return true
	}
	if t := boolTwin(e); t != nil {
		found, _ := s.Has(t)
		return found
	}
	return false
}

// twinSetOp is x op y for two sets holding a bool and a number it equals,
// with CPython's choice of which of two equal elements the result keeps.
func twinSetOp(op syntax.Token, x, y *starlark.Set) (starlark.Value, bool) {
	out := starlark.NewSet(x.Len())
	add := func(e starlark.Value) {
		if !hasEq(out, e) {
			_ = out.Insert(e)
		}
	}
	switch op {
	case syntax.PIPE: // x's elements, then y's not among them
		for e := range x.Elements() {
			add(e)
		}
		for e := range y.Elements() {
			add(e)
		}
	case syntax.MINUS:
		for e := range x.Elements() {
			if !hasEq(y, e) {
				add(e)
			}
		}
	case syntax.AMP: // the elements of the smaller set (y when as large)
		big, small := x, y
		if small.Len() > big.Len() {
			big, small = small, big
		}
		for e := range small.Elements() {
			if hasEq(big, e) {
				add(e)
			}
		}
	case syntax.CIRCUMFLEX: // y's not in x, then x's not in y
		for e := range y.Elements() {
			if !hasEq(x, e) {
				add(e)
			}
		}
		for e := range x.Elements() {
			if !hasEq(y, e) {
				add(e)
			}
		}
	default:
		return nil, false
	}
	return out, true
}

// dictUpdate is dict.update: Starlark's reading of the arguments (a
// mapping, pairs, keywords) into a new dict, whose entries are then
// stored under the keys their bool twins already have.
func dictUpdate(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	d := recv.(*starlark.Dict)
	tmp := starlark.NewDict(0)
	m, err := tmp.Attr("update")
	if err != nil {
		return nil, err
	}
	if _, err := starlark.Call(thread, m, args, kw); err != nil {
		return nil, err
	}
	for k, v := range tmp.Entries() {
		if err := d.SetKey(storedKey(d, k), v); err != nil {
			return nil, err
		}
	}
	return starlark.None, nil
}

// setUpdate is set.update(*iterables), each element stored as the bool
// twin the set already holds.
func setUpdate(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if len(kw) > 0 {
		return nil, PyErrorf(ExcTypeError, "set.update() takes no keyword arguments")
	}
	s := recv.(*starlark.Set)
	for _, it := range args {
		err := Iterate(it, func(e starlark.Value) (bool, error) {
			if err := s.Insert(storedElem(s, e)); err != nil {
				if _, herr := e.Hash(); herr != nil {
					return false, PyErrorf(ExcTypeError, "unhashable type: '%s'", PyTypeName(e))
				}
				return false, err
			}
			return true, nil
		})
		if err != nil {
			return nil, err
		}
	}
	return starlark.None, nil
}

// setOpMethod is set.union, intersection, difference or
// symmetric_difference: Starlark's method, unless the sets mix a bool and
// the number it equals, when they are computed as the operators are.
func setOpMethod(name string, op syntax.Token) methodFunc {
	return func(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		s := recv.(*starlark.Set)
		native := func() (starlark.Value, error) { // Starlark's takes one iterable: folded over them
			if len(kw) > 0 {
				return nil, PyErrorf(ExcTypeError, "set.%s() takes no keyword arguments", name)
			}
			var res starlark.Value = CopySet(s)
			for _, a := range args {
				m, err := res.(*starlark.Set).Attr(name)
				if err != nil {
					return nil, err
				}
				if res, err = starlark.Call(thread, m, starlark.Tuple{a}, nil); err != nil {
					return nil, err
				}
			}
			return res, nil
		}
		if len(kw) > 0 || len(args) == 0 {
			return native()
		}
		others := make([]*starlark.Set, len(args))
		isSet := make([]bool, len(args))
		mixed := false
		for i, a := range args {
			o, ok := a.(*starlark.Set)
			if isSet[i] = ok; !ok {
				o = starlark.NewSet(0)
				err := Iterate(a, func(e starlark.Value) (bool, error) {
					if err := o.Insert(storedElem(o, e)); err != nil {
						return false, PyErrorf(ExcTypeError, "unhashable type: '%s'", PyTypeName(e))
					}
					return true, nil
				})
				if err != nil {
					return nil, err
				}
			}
			others[i] = o
			if _, _, m := twinSets(s, o); m {
				mixed = true
			}
		}
		var res starlark.Value = s
		if !mixed {
			for _, o := range others {
				v, err := starlark.Binary(op, res, o)
				if err != nil {
					return nil, err
				}
				res = v
			}
			return res, nil
		}
		for i, o := range others {
			if op == syntax.AMP && !isSet[i] {
				// an iterable's elements that the set holds, as CPython keeps them
				out := starlark.NewSet(0)
				for e := range o.Elements() {
					if hasEq(res.(*starlark.Set), e) {
						_ = out.Insert(e)
					}
				}
				res = out
				continue
			}
			if _, _, m := twinSets(res.(*starlark.Set), o); !m {
				v, err := starlark.Binary(op, res, o)
				if err != nil {
					return nil, err
				}
				res = v
				continue
			}
			res, _ = twinSetOp(op, res.(*starlark.Set), o)
		}
		if res == recv {
			return CopySet(s), nil
		}
		return res, nil
	}
}
