// collections: Counter, defaultdict, OrderedDict, namedtuple, deque.

package pyrt

import (
	"sort"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

func (r *Interp) collectionsModule() starlark.Value {
	dict := r.types["dict"]
	counter := &PyType{name: "Counter", module: "collections", base: dict}
	counter.call = func(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		c := &dictLike{d: starlark.NewDict(0), cls: counter, kind: kindCounter}
		if len(args) > 1 {
			return nil, pyErrorf(excTypeError, "Counter expected at most 1 argument, got %d", len(args))
		}
		return c, c.count(args, kw, 1)
	}
	defaultdict := &PyType{name: "defaultdict", module: "collections", base: dict}
	defaultdict.call = func(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		d := &dictLike{d: starlark.NewDict(0), cls: defaultdict, kind: kindDefault, factory: starlark.None, thread: thread}
		if len(args) > 0 {
			if _, ok := args[0].(starlark.Callable); !ok && args[0] != starlark.None {
				return nil, pyErrorf(excTypeError, "first argument must be callable or None")
			}
			d.factory, args = args[0], args[1:]
		}
		return d, d.update(args, kw)
	}
	ordered := &PyType{name: "OrderedDict", module: "collections", base: dict}
	ordered.call = func(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		d := &dictLike{d: starlark.NewDict(0), cls: ordered, kind: kindOrdered}
		return d, d.update(args, kw)
	}
	fromkeys := func(t *PyType, kind int) *starlark.Builtin {
		return builtin(t.name+".fromkeys", func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			d, err := dictFromkeys(thread, b, args, kw)
			if err != nil {
				return nil, err
			}
			return &dictLike{d: d.(*starlark.Dict), cls: t, kind: kind, factory: starlark.None, thread: thread}, nil
		})
	}
	ordered.attrs = starlark.StringDict{"fromkeys": fromkeys(ordered, kindOrdered)}
	defaultdict.attrs = starlark.StringDict{"fromkeys": fromkeys(defaultdict, kindDefault)}
	for _, t := range []*PyType{counter, defaultdict, ordered} {
		r.types[t.name] = t
	}
	return newModule("collections", starlark.StringDict{
		"Counter": counter, "defaultdict": defaultdict, "OrderedDict": ordered,
		"namedtuple": builtin("collections.namedtuple", r.namedtuple),
		"deque":      r.dequeType(),
		"ChainMap":   r.chainMapType(),
	})
}

const (
	kindCounter = iota + 1
	kindDefault
	kindOrdered
)

// dictLike is a Counter, defaultdict or OrderedDict: a dict with its own
// reading of missing keys, methods and repr.
type dictLike struct {
	d       *starlark.Dict
	cls     *PyType
	kind    int
	factory starlark.Value // defaultdict
	thread  *starlark.Thread
}

var (
	_ starlark.IterableMapping = (*dictLike)(nil)
	_ starlark.HasSetKey       = (*dictLike)(nil)
	_ starlark.Container       = (*dictLike)(nil)
	_ starlark.HasBinary       = (*dictLike)(nil)
	_ starlark.HasUnary        = (*dictLike)(nil)
	_ starlark.Comparable      = (*dictLike)(nil)
)

func (d *dictLike) pyClass() *PyType { return d.cls }
func (d *dictLike) String() string   { return d.reprPy() }
func (d *dictLike) reprPy() string {
	var sb strings.Builder
	switch d.kind {
	case kindCounter:
		if d.d.Len() == 0 {
			return "Counter()"
		}
		sb.WriteString("Counter(")
		writeDictItems(&sb, d.mostCommon(-1), nil)
	case kindDefault:
		sb.WriteString("defaultdict(" + PyRepr(d.factory) + ", ")
		writeDictItems(&sb, d.d.Items(), nil)
	default:
		if d.d.Len() == 0 {
			return "OrderedDict()"
		}
		sb.WriteString("OrderedDict([") // 3.11's repr: a list of pairs
		for i, kv := range d.d.Items() {
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
func (d *dictLike) Type() string         { return d.cls.name }
func (d *dictLike) Freeze()              { d.d.Freeze() }
func (d *dictLike) Truth() starlark.Bool { return d.d.Len() > 0 }
func (d *dictLike) Hash() (uint32, error) {
	return 0, pyErrorf(excTypeError, "unhashable type: '%s'", d.cls.name)
}
func (d *dictLike) Len() int                   { return d.d.Len() }
func (d *dictLike) Iterate() starlark.Iterator { return d.d.Iterate() }
func (d *dictLike) Items() []starlark.Tuple    { return d.d.Items() }
func (d *dictLike) Has(k starlark.Value) (bool, error) {
	_, found, err := d.d.Get(k)
	return found, err
}
func (d *dictLike) SetKey(k, v starlark.Value) error { return d.d.SetKey(storedKey(d.d, k), v) }
func (d *dictLike) Delete(k starlark.Value) (starlark.Value, bool, error) {
	return d.d.Delete(k)
}

// Get reads d[k]: a missing key counts 0 in a Counter and is made by the
// factory in a defaultdict.
func (d *dictLike) Get(k starlark.Value) (starlark.Value, bool, error) {
	v, found, err := d.d.Get(k)
	if found || err != nil {
		return v, found, err
	}
	if t := boolTwin(k); t != nil {
		if v, found, _ := d.d.Get(t); found {
			return v, true, nil // d[True] when d holds 1
		}
	}
	switch d.kind {
	case kindCounter:
		return starlark.MakeInt(0), true, nil
	case kindDefault:
		if d.factory == starlark.None {
			return nil, false, nil
		}
		v, err := starlark.Call(d.thread, d.factory, nil, nil)
		if err != nil {
			return nil, false, err
		}
		return v, true, d.d.SetKey(storedKey(d.d, k), v)
	}
	return nil, false, nil
}

func (d *dictLike) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	o := y.(*dictLike)
	if d.kind == kindCounter && o.kind == kindCounter {
		return counterCompare(op, d, o)
	}
	if d.kind == kindOrdered && o.kind == kindOrdered && (op == syntax.EQL || op == syntax.NEQ) {
		eq, err := orderedEqual(d, o, depth)
		return eq == (op == syntax.EQL), err
	}
	return starlark.CompareDepth(op, d.d, o.d, depth)
}

// orderedEqual is OrderedDict == OrderedDict: the same items in the same
// order (against a plain dict the order does not count).
func orderedEqual(a, b *dictLike, depth int) (bool, error) {
	x, y := a.d.Items(), b.d.Items()
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

// counterCompare compares Counters as multisets, a missing element
// counting zero: == equal counts, <= a subset, < a proper one.
func counterCompare(op syntax.Token, a, b *dictLike) (bool, error) {
	zero := starlark.MakeInt(0)
	count := func(c *dictLike, k starlark.Value) starlark.Value {
		if v, found, _ := c.d.Get(k); found {
			return v
		}
		return zero
	}
	le := func(x, y *dictLike) (bool, error) { // every count of x <= y's
		for _, k := range append(x.d.Keys(), y.d.Keys()...) {
			ok, err := pyCompare(syntax.LE, count(x, k), count(y, k))
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

// update adds a mapping or pairs and keyword arguments, as dict.update.
func (d *dictLike) update(args starlark.Tuple, kw []starlark.Tuple) error {
	if len(args) > 1 {
		return pyErrorf(excTypeError, "expected at most 1 argument, got %d", len(args))
	}
	if len(args) == 1 {
		if m, ok := args[0].(starlark.IterableMapping); ok {
			for _, kv := range m.Items() {
				if err := d.d.SetKey(storedKey(d.d, kv[0]), kv[1]); err != nil {
					return err
				}
			}
		} else if err := iterate(args[0], func(v starlark.Value) (bool, error) {
			pair, err := unpackN(v, 2)
			if err != nil {
				return false, err
			}
			return true, d.d.SetKey(storedKey(d.d, pair[0]), pair[1])
		}); err != nil {
			return err
		}
	}
	for _, kv := range kw {
		if err := d.d.SetKey(storedKey(d.d, kv[0]), kv[1]); err != nil {
			return err
		}
	}
	return nil
}

// count adds sign × the counts of an iterable or mapping (Counter.update
// and subtract).
func (d *dictLike) count(args starlark.Tuple, kw []starlark.Tuple, sign int64) error {
	add := func(k, n starlark.Value) error {
		k = storedKey(d.d, k)
		cur, found, err := d.d.Get(k)
		if err != nil {
			return err
		}
		if !found {
			cur = starlark.MakeInt(0)
		}
		if sign < 0 {
			n, err = starlark.Binary(syntax.MINUS, starlark.MakeInt(0), n)
			if err != nil {
				return err
			}
		}
		sum, err := pyAdd(cur, n)
		if err != nil {
			return err
		}
		return d.d.SetKey(k, sum)
	}
	if len(args) == 1 && args[0] != starlark.None {
		if m, ok := args[0].(starlark.IterableMapping); ok {
			for _, kv := range m.Items() {
				if err := add(kv[0], kv[1]); err != nil {
					return err
				}
			}
		} else if err := iterate(args[0], func(v starlark.Value) (bool, error) {
			return true, add(v, starlark.MakeInt(1))
		}); err != nil {
			return err
		}
	}
	for _, kv := range kw {
		if err := add(kv[0], kv[1]); err != nil {
			return err
		}
	}
	return nil
}

// mostCommon returns the items by count, largest first, ties in insertion
// order (as Python's most_common).
func (d *dictLike) mostCommon(n int) []starlark.Tuple {
	items := d.d.Items()
	sort.SliceStable(items, func(i, j int) bool {
		gt, _ := starlark.Compare(syntax.GT, items[i][1], items[j][1])
		return gt
	})
	if n >= 0 && n < len(items) {
		items = items[:n]
	}
	return items
}

func (d *dictLike) AttrNames() []string {
	names := []string{"clear", "copy", "get", "items", "keys", "pop", "popitem", "setdefault", "update", "values"}
	switch d.kind {
	case kindCounter:
		names = append(names, "elements", "most_common", "subtract", "total")
	case kindDefault:
		names = append(names, "default_factory")
	case kindOrdered:
		names = append(names, "move_to_end")
	}
	return names
}

func (d *dictLike) Attr(name string) (starlark.Value, error) {
	if name == "default_factory" && d.kind == kindDefault {
		return d.factory, nil
	}
	m := d.method(name)
	if m == nil {
		return nil, nil
	}
	return builtin(d.cls.name+"."+name, m), nil
}

func (d *dictLike) method(name string) BuiltinFunc {
	switch name {
	case "keys", "values", "items":
		view := viewMethod(d, name)
		return func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return view(thread, d, args, kw)
		}
	case "update":
		return func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if d.kind == kindCounter {
				return starlark.None, d.count(args, kw, 1)
			}
			return starlark.None, d.update(args, kw)
		}
	case "copy":
		return func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			out := &dictLike{d: starlark.NewDict(d.d.Len()), cls: d.cls, kind: d.kind, factory: d.factory, thread: d.thread}
			for _, kv := range d.d.Items() {
				_ = out.d.SetKey(storedKey(out.d, kv[0]), kv[1])
			}
			return out, nil
		}
	case "popitem":
		return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			last := true
			if err := starlark.UnpackArgs(b.Name(), args, kw, "last?", &last); err != nil {
				return nil, err
			}
			items := d.d.Items()
			if len(items) == 0 {
				return nil, pyErrorf(excKeyError, "popitem(): dictionary is empty")
			}
			kv := items[len(items)-1]
			if !last {
				kv = items[0]
			}
			_, _, err := d.d.Delete(kv[0])
			return kv, err
		}
	case "pop":
		return func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return dictPop(thread, d.d, args, kw)
		}
	}
	switch d.kind {
	case kindCounter:
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
				for _, kv := range d.d.Items() {
					n, _ := starlark.AsInt32(kv[1])
					for i := 0; i < n; i++ {
						out = append(out, kv[0])
					}
				}
				return newListIter("itertools.chain", out), nil
			}
		case "subtract":
			return func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
				return starlark.None, d.count(args, kw, -1)
			}
		case "total":
			return func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
				var total starlark.Value = starlark.MakeInt(0)
				for _, kv := range d.d.Items() {
					v, err := pyAdd(total, kv[1])
					if err != nil {
						return nil, err
					}
					total = v
				}
				return total, nil
			}
		}
	case kindOrdered:
		if name == "move_to_end" {
			return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
				var k starlark.Value
				last := true
				if err := starlark.UnpackArgs(b.Name(), args, kw, "key", &k, "last?", &last); err != nil {
					return nil, err
				}
				v, found, err := d.d.Delete(k)
				if err != nil || !found {
					return nil, keyError(k)
				}
				if last {
					return starlark.None, d.d.SetKey(storedKey(d.d, k), v)
				}
				rest := d.d.Items()
				d.d.Clear()
				_ = d.d.SetKey(storedKey(d.d, k), v)
				for _, kv := range rest {
					_ = d.d.SetKey(storedKey(d.d, kv[0]), kv[1])
				}
				return starlark.None, nil
			}
		}
	}
	attr, err := d.d.Attr(name)
	if err != nil || attr == nil {
		return nil
	}
	return func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return starlark.Call(thread, attr, args, kw)
	}
}

// Binary is Counter arithmetic: + and - keep positive counts, & the
// minimum, | the maximum; dicts of other kinds support | (merge).
func (d *dictLike) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	o, ok := y.(*dictLike)
	if !ok || d.kind != kindCounter || o.kind != kindCounter {
		return nil, nil
	}
	a, b := d, o
	if side == starlark.Right {
		a, b = o, d
	}
	out := &dictLike{d: starlark.NewDict(0), cls: d.cls, kind: kindCounter}
	get := func(c *dictLike, k starlark.Value) starlark.Value {
		v, found, _ := c.d.Get(k)
		if !found {
			return starlark.MakeInt(0)
		}
		return v
	}
	keys := append(a.d.Keys(), b.d.Keys()...)
	for _, k := range keys {
		if found, _ := out.Has(k); found {
			continue
		}
		x, z := get(a, k), get(b, k)
		var v starlark.Value
		var err error
		switch op {
		case syntax.PLUS:
			v, err = starlark.Binary(syntax.PLUS, x, z)
		case syntax.MINUS:
			v, err = starlark.Binary(syntax.MINUS, x, z)
		case syntax.AMP:
			if lt, _ := starlark.Compare(syntax.LT, x, z); lt {
				v = x
			} else {
				v = z
			}
		case syntax.PIPE:
			if gt, _ := starlark.Compare(syntax.GT, x, z); gt {
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
		if pos, _ := starlark.Compare(syntax.GT, v, starlark.MakeInt(0)); pos {
			_ = out.d.SetKey(storedKey(out.d, k), v)
		}
	}
	return out, nil
}

// Unary is +counter (the positive counts) and -counter (the negative
// counts, negated), as CPython's.
func (d *dictLike) Unary(op syntax.Token) (starlark.Value, error) {
	if d.kind != kindCounter || op != syntax.PLUS && op != syntax.MINUS {
		return nil, nil
	}
	out := &dictLike{d: starlark.NewDict(0), cls: d.cls, kind: kindCounter}
	zero := starlark.MakeInt(0)
	for _, kv := range d.d.Items() {
		v := kv[1]
		if op == syntax.MINUS {
			var err error
			if v, err = starlark.Binary(syntax.MINUS, zero, v); err != nil {
				return nil, err
			}
		}
		if pos, _ := pyCompare(syntax.GT, v, zero); pos {
			_ = out.d.SetKey(storedKey(out.d, kv[0]), v)
		}
	}
	return out, nil
}
