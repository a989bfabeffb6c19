package pyrt

import (
	"sort"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// dictLike is a Counter, defaultdict or OrderedDict: a dict with its own
// reading of missing keys, methods and repr.
type DictLike struct {
	D       *starlark.Dict
	Cls     *PyType
	Kind    int
	Factory starlark.Value // defaultdict
	Thread  *starlark.Thread
}

func (d *DictLike) PyClass() *PyType { return d.Cls }

func (d *DictLike) String() string { return d.ReprPy() }

func (d *DictLike) ReprPy() string {
	var sb strings.Builder
	switch d.Kind {
	case KindCounter:
		if d.D.Len() == 0 {
			return "Counter()"
		}
		sb.WriteString("Counter(")
		writeDictItems(&sb, d.mostCommon(-1), nil)
	case KindDefault:
		sb.WriteString("defaultdict(" + PyRepr(d.Factory) + ", ")
		writeDictItems(&sb, d.D.Items(), nil)
	default:
		if d.D.Len() == 0 {
			return "OrderedDict()"
		}
		sb.WriteString("OrderedDict([") // 3.11's repr: a list of pairs
		for i, kv := range d.D.Items() {
			if i > 0 {
				sb.WriteString(", ")
			}
			sb.WriteString(PyRepr(kv))
		}
		sb.WriteByte(']')
	}
	sb.WriteByte(')')
	return sb.String()
}

func (d *DictLike) Type() string { return d.Cls.TypeName }

func (d *DictLike) Freeze() { d.D.Freeze() }

func (d *DictLike) Truth() starlark.Bool { return d.D.Len() > 0 }

func (d *DictLike) Hash() (uint32, error) {
	return 0, PyErrorf(ExcTypeError, "unhashable type: '%s'", d.Cls.TypeName)
}

func (d *DictLike) Len() int { return d.D.Len() }

func (d *DictLike) Iterate() starlark.Iterator { return d.D.Iterate() }

func (d *DictLike) Items() []starlark.Tuple { return d.D.Items() }

func (d *DictLike) Has(k starlark.Value) (bool, error) {
	_, found, err := d.D.Get(k)
	return found, err
}

func (d *DictLike) SetKey(k, v starlark.Value) error { return d.D.SetKey(storedKey(d.D, k), v) }

func (d *DictLike) Delete(k starlark.Value) (starlark.Value, bool, error) {
	return d.D.Delete(k)
}

// Get reads d[k]: a missing key counts 0 in a Counter and is made by the
// factory in a defaultdict.
func (d *DictLike) Get(k starlark.Value) (starlark.Value, bool, error) {
	v, found, err := d.D.Get(k)
	if found || err != nil {
		return v, found, err
	}
	if t := boolTwin(k); t != nil {
		if v, found, _ := d.D.Get(t); found {
			return v, true, nil // d[True] when d holds 1
		}
	}
	switch d.Kind {
	case KindCounter:
		return starlark.MakeInt(0), true, nil
	case KindDefault:
		if d.Factory == starlark.None {
			return nil, false, nil
		}
		v, err := starlark.Call(d.Thread, d.Factory, nil, nil)
		if err != nil {
			return nil, false, err
		}
		return v, true, d.D.SetKey(storedKey(d.D, k), v)
	}
	return nil, false, nil
}

func (d *DictLike) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	o := y.(*DictLike)
	if d.Kind == KindCounter && o.Kind == KindCounter {
		return counterCompare(op, d, o)
	}
	if d.Kind == KindOrdered && o.Kind == KindOrdered && (op == syntax.EQL || op == syntax.NEQ) {
		eq, err := orderedEqual(d, o, depth)
		return eq == (op == syntax.EQL), err
	}
	return starlark.CompareDepth(op, d.D, o.D, depth)
}

// update adds a mapping or pairs and keyword arguments, as dict.update.
func (d *DictLike) Update(args starlark.Tuple, kw []starlark.Tuple) error {
	if len(args) > 1 {
		return PyErrorf(ExcTypeError, "expected at most 1 argument, got %d", len(args))
	}
	if len(args) == 1 {
		if m, ok := args[0].(starlark.IterableMapping); ok {
			for _, kv := range m.Items() {
				if err := d.D.SetKey(storedKey(d.D, kv[0]), kv[1]); err != nil {
					return err
				}
			}
		} else if err := Iterate(args[0], func(v starlark.Value) (bool, error) {
			pair, err := unpackN(v, 2)
			if err != nil {
				return false, err
			}
			return true, d.D.SetKey(storedKey(d.D, pair[0]), pair[1])
		}); err != nil {
			return err
		}
	}
	for _, kv := range kw {
		if err := d.D.SetKey(storedKey(d.D, kv[0]), kv[1]); err != nil {
			return err
		}
	}
	return nil
}

// count adds sign × the counts of an iterable or mapping (Counter.update
// and subtract).
func (d *DictLike) Count(args starlark.Tuple, kw []starlark.Tuple, sign int64) error {
	add := func(k, n starlark.Value) error {
		k = storedKey(d.D, k)
		cur, found, err := d.D.Get(k)
		if err != nil {
			return err
		}
		if !found {
			cur = starlark.MakeInt(0)
		}
		if sign < 0 {
			n, err = Arith(syntax.MINUS, starlark.MakeInt(0), n)
			if err != nil {
				return err
			}
		}
		sum, err := PyAdd(cur, n)
		if err != nil {
			return err
		}
		return d.D.SetKey(k, sum)
	}
	if len(args) == 1 && args[0] != starlark.None {
		if m, ok := args[0].(starlark.IterableMapping); ok {
			empty := sign > 0 && d.D.Len() == 0 // CPython's update copies a mapping into an empty Counter as it is: Counter({'a': True})
			for _, kv := range m.Items() {
				if empty {
					if err := d.D.SetKey(storedKey(d.D, kv[0]), kv[1]); err != nil {
						return err
					}
					continue
				}
				if err := add(kv[0], kv[1]); err != nil {
					return err
				}
			}
		} else if err := Iterate(args[0], func(v starlark.Value) (bool, error) {
			return true, add(v, starlark.MakeInt(1))
		}); err != nil {
			return err
		}
	}
	emptyKw := sign > 0 && d.D.Len() == 0 // update(**kw) is update(kw), copied as it is too
	for _, kv := range kw {
		if emptyKw {
			if err := d.D.SetKey(kv[0], kv[1]); err != nil {
				return err
			}
			continue
		}
		if err := add(kv[0], kv[1]); err != nil {
			return err
		}
	}
	return nil
}

// mostCommon returns the items by count, largest first, ties in insertion
// order (as Python's most_common).
func (d *DictLike) mostCommon(n int) []starlark.Tuple {
	items := d.D.Items()
	sort.SliceStable(items, func(i, j int) bool {
		gt, _ := starlark.Compare(syntax.GT, BoolToInt(items[i][1]), BoolToInt(items[j][1]))
		return gt
	})
	if n >= 0 && n < len(items) {
		items = items[:n]
	}
	return items
}

func (d *DictLike) AttrNames() []string {
	names := []string{"clear", "copy", "get", "items", "keys", "pop", "popitem", "setdefault", "update", "values"}
	switch d.Kind {
	case KindCounter:
		names = append(names, "elements", "most_common", "subtract", "total")
	case KindDefault:
		names = append(names, "default_factory")
	case KindOrdered:
		names = append(names, "move_to_end")
	}
	return names
}

func (d *DictLike) Attr(name string) (starlark.Value, error) {
	if name == "default_factory" && d.Kind == KindDefault {
		return d.Factory, nil
	}
	m := d.method(name)
	if m == nil {
		return nil, nil
	}
	return Builtin(d.Cls.TypeName+"."+name, m), nil
}

func (d *DictLike) method(name string) BuiltinFunc {
	switch name {
	case "keys", "values", "items":
		view := viewMethod(d, name)
		return func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return view(thread, d, args, kw)
		}
	case "update":
		return func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if d.Kind == KindCounter {
				return starlark.None, d.Count(args, kw, 1)
			}
			return starlark.None, d.Update(args, kw)
		}
	case "copy":
		return func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			out := &DictLike{D: starlark.NewDict(d.D.Len()), Cls: d.Cls, Kind: d.Kind, Factory: d.Factory, Thread: d.Thread}
			for _, kv := range d.D.Items() {
				_ = out.D.SetKey(storedKey(out.D, kv[0]), kv[1])
			}
			return out, nil
		}
	case "popitem":
		return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			last := true
			if err := UnpackArgs(b.Name(), args, kw, "last?", &last); err != nil {
				return nil, err
			}
			items := d.D.Items()
			if len(items) == 0 {
				return nil, PyErrorf(ExcKeyError, "popitem(): dictionary is empty")
			}
			kv := items[len(items)-1]
			if !last {
				kv = items[0]
			}
			_, _, err := d.D.Delete(kv[0])
			return kv, err
		}
	case "pop":
		return func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return dictPop(thread, d.D, args, kw)
		}
	}
	switch d.Kind {
	case KindCounter:
		switch name {
		case "most_common":
			return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
				var n starlark.Value = starlark.None
				if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 0, &n); err != nil {
					return nil, err
				}
				k := -1
				if n != starlark.None {
					i, err := starlark.AsInt32(n)
					if err != nil {
						return nil, err
					}
					k = max(i, 0)
				}
				items := d.mostCommon(k)
				out := make([]starlark.Value, len(items))
				for i, kv := range items {
					out[i] = kv
				}
				return starlark.NewList(out), nil
			}
		case "elements":
			return func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
				var out []starlark.Value
				for _, kv := range d.D.Items() {
					n, _ := starlark.AsInt32(BoolToInt(kv[1]))
					for i := 0; i < n; i++ {
						out = append(out, kv[0])
					}
				}
				return NewListIter("itertools.chain", out), nil
			}
		case "subtract":
			return func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
				return starlark.None, d.Count(args, kw, -1)
			}
		case "total":
			return func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
				var total starlark.Value = starlark.MakeInt(0)
				for _, kv := range d.D.Items() {
					v, err := PyAdd(total, kv[1])
					if err != nil {
						return nil, err
					}
					total = v
				}
				return total, nil
			}
		}
	case KindOrdered:
		if name == "move_to_end" {
			return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
				var k starlark.Value
				last := true
				if err := UnpackArgs(b.Name(), args, kw, "key", &k, "last?", &last); err != nil {
					return nil, err
				}
				v, found, err := d.D.Delete(k)
				if err != nil || !found {
					return nil, KeyError(k)
				}
				if last {
					return starlark.None, d.D.SetKey(storedKey(d.D, k), v)
				}
				rest := d.D.Items()
				d.D.Clear()
				_ = d.D.SetKey(storedKey(d.D, k), v)
				for _, kv := range rest {
					_ = d.D.SetKey(storedKey(d.D, kv[0]), kv[1])
				}
				return starlark.None, nil
			}
		}
	}
	attr, err := d.D.Attr(name)
	if err != nil || attr == nil {
		return nil
	}
	return func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return starlark.Call(thread, attr, args, kw)
	}
}

// Binary is Counter arithmetic: + and - keep positive counts, & the
// minimum, | the maximum; dicts of other kinds support | (merge).
func (d *DictLike) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	o, ok := y.(*DictLike)
	if !ok || d.Kind != KindCounter || o.Kind != KindCounter {
		return nil, nil
	}
	a, b := d, o
	if side == starlark.Right {
		a, b = o, d
	}
	out := &DictLike{D: starlark.NewDict(0), Cls: d.Cls, Kind: KindCounter}
	get := func(c *DictLike, k starlark.Value) starlark.Value {
		v, found, _ := c.D.Get(k)
		if !found {
			return starlark.MakeInt(0)
		}
		return v
	}
	keys := append(a.D.Keys(), b.D.Keys()...)
	for _, k := range keys {
		if found, _ := out.Has(k); found {
			continue
		}
		x, z := get(a, k), get(b, k)
		var v starlark.Value
		var err error
		switch op {
		case syntax.PLUS:
			v, err = Arith(syntax.PLUS, x, z)
		case syntax.MINUS:
			v, err = Arith(syntax.MINUS, x, z)
		case syntax.AMP:
			if lt, _ := starlark.Compare(syntax.LT, BoolToInt(x), BoolToInt(z)); lt {
				v = x
			} else {
				v = z
			}
		case syntax.PIPE:
			if gt, _ := starlark.Compare(syntax.GT, BoolToInt(x), BoolToInt(z)); gt {
				v = x
			} else {
				v = z
			}
		default:
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		if pos, _ := starlark.Compare(syntax.GT, BoolToInt(v), starlark.MakeInt(0)); pos {
			_ = out.D.SetKey(storedKey(out.D, k), v)
		}
	}
	return out, nil
}

// Unary is +counter (the positive counts) and -counter (the negative
// counts, negated), as CPython's.
func (d *DictLike) Unary(op syntax.Token) (starlark.Value, error) {
	if d.Kind != KindCounter || op != syntax.PLUS && op != syntax.MINUS {
		return nil, nil
	}
	out := &DictLike{D: starlark.NewDict(0), Cls: d.Cls, Kind: KindCounter}
	zero := starlark.MakeInt(0)
	for _, kv := range d.D.Items() {
		v := kv[1]
		if op == syntax.MINUS {
			var err error
			if v, err = Arith(syntax.MINUS, zero, v); err != nil {
				return nil, err
			}
		}
		if pos, _ := PyCompare(syntax.GT, v, zero); pos {
			_ = out.D.SetKey(storedKey(out.D, kv[0]), v)
		}
	}
	return out, nil
}

const (
	KindCounter = iota + 1
	KindDefault
	KindOrdered
)

// counterCompare compares Counters as multisets, a missing element
// counting zero: == equal counts, <= a subset, < a proper one.
func counterCompare(op syntax.Token, a, b *DictLike) (bool, error) {
	zero := starlark.MakeInt(0)
	count := func(c *DictLike, k starlark.Value) starlark.Value {
		if v, found, _ := c.D.Get(k); found {
			return v
		}
		return zero
	}
	le := func(x, y *DictLike) (bool, error) { // every count of x <= y's
		for _, k := range append(x.D.Keys(), y.D.Keys()...) {
			ok, err := PyCompare(syntax.LE, count(x, k), count(y, k))
			if err != nil || !ok {
				return false, err
			}
		}
		return true, nil
	}
	ab, err := le(a, b)
	if err != nil {
		return false, err
	}
	ba, err := le(b, a)
	if err != nil {
		return false, err
	}
	switch op {
	case syntax.EQL:
		return ab && ba, nil
	case syntax.NEQ:
		return !(ab && ba), nil
	case syntax.LE:
		return ab, nil
	case syntax.LT:
		return ab && !ba, nil
	case syntax.GE:
		return ba, nil
	case syntax.GT:
		return ba && !ab, nil
	}
	return false, nil
}

// orderedEqual is OrderedDict == OrderedDict: the same items in the same
// order (against a plain dict the order does not count).
func orderedEqual(a, b *DictLike, depth int) (bool, error) {
	x, y := a.D.Items(), b.D.Items()
	if len(x) != len(y) {
		return false, nil
	}
	for i := range x {
		eq, err := starlark.EqualDepth(x[i], y[i], depth-1)
		if err != nil || !eq {
			return false, err
		}
	}
	return true, nil
}
