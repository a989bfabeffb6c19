// The match statement at run time: a pattern, as the pre-pass wrote it
// (rewrite/prepass_match.go), tried against the subject.

package pyrt

import (
	"go.starlark.net/starlark"
)

// A pattern is a tuple whose first element names its kind:
//
//	("w",)                        _
//	("c", "x")                    x, a capture
//	("v", value)                  a literal or a dotted name: ==
//	("i", value)                  None, True, False: identity
//	("s", (p, ...), star, "rest") [p, *rest, q] and (p, q): star is the index of *rest or -1
//	("m", ((key, p), ...), "rest") {"k": p, **rest}; rest "" when absent
//	("k", cls, (p, ...), (("attr", p), ...))  Cls(p, attr=p)
//	("o", (p, ...))               p | q
//	("a", p, "x")                 p as x
//
// A capture named "" (the star of *_) binds nothing.

// pyMatch is __py_match(subject, pattern, cell, names): on a match it sets
// cell[0] to the tuple of the captured values in the order of names, and
// returns True.
func (r *Interp) pyMatch(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	caps := map[string]starlark.Value{}
	ok, err := r.matchPattern(thread, args[0], args[1].(starlark.Tuple), caps)
	if err != nil || !ok {
		return starlark.False, err
	}
	names := args[3].(starlark.Tuple)
	vals := make(starlark.Tuple, len(names))
	for i, n := range names {
		vals[i] = caps[string(n.(starlark.String))]
		if vals[i] == nil {
			vals[i] = starlark.None // an alternative of | that did not bind it: refused by the pre-pass
		}
	}
	if err := args[2].(*starlark.List).SetIndex(0, vals); err != nil {
		return nil, err
	}
	return starlark.True, nil
}

func (r *Interp) matchPattern(thread *starlark.Thread, x starlark.Value, p starlark.Tuple, caps map[string]starlark.Value) (bool, error) {
	switch kind := string(p[0].(starlark.String)); kind {
	case "w":
		return true, nil
	case "c":
		caps[string(p[1].(starlark.String))] = x
		return true, nil
	case "v":
		return starlark.Equal(x, p[1])
	case "i":
		return Identical(x, p[1]), nil
	case "a":
		ok, err := r.matchPattern(thread, x, p[1].(starlark.Tuple), caps)
		if ok {
			caps[string(p[2].(starlark.String))] = x
		}
		return ok, err
	case "o":
		for _, alt := range p[1].(starlark.Tuple) {
			try := map[string]starlark.Value{}
			ok, err := r.matchPattern(thread, x, alt.(starlark.Tuple), try)
			if err != nil {
				return false, err
			}
			if ok {
				for k, v := range try {
					caps[k] = v
				}
				return true, nil
			}
		}
		return false, nil
	case "s":
		return r.matchSequence(thread, x, p, caps)
	case "m":
		return r.matchMapping(thread, x, p, caps)
	case "k":
		return r.matchClass(thread, x, p, caps)
	}
	return false, PyErrorf(ExcRuntime, "unknown pattern %s", PyRepr(p))
}

// matchSequence matches lists, tuples and ranges, never strings, bytes
// or mappings (as Python's collections.abc.Sequence test).
func (r *Interp) matchSequence(thread *starlark.Thread, x starlark.Value, p starlark.Tuple, caps map[string]starlark.Value) (bool, error) {
	var items []starlark.Value
	switch s := x.(type) {
	case *starlark.List, starlark.Tuple:
		items = Elems(s)
	default:
		if x.Type() != "range" {
			return false, nil
		}
		items = ElemsOf(x)
	}
	subs := p[1].(starlark.Tuple)
	star, _ := starlark.AsInt32(p[2])
	if star < 0 && len(items) != len(subs) || star >= 0 && len(items) < len(subs)-1 {
		return false, nil
	}
	after := len(subs) - star - 1 // patterns after the star
	for i, sub := range subs {
		if i == star {
			continue
		}
		j := i
		if star >= 0 && i > star {
			j = len(items) - (len(subs) - i)
		}
		if ok, err := r.matchPattern(thread, items[j], sub.(starlark.Tuple), caps); !ok || err != nil {
			return false, err
		}
	}
	if star >= 0 {
		if name := string(p[3].(starlark.String)); name != "" {
			caps[name] = starlark.NewList(append([]starlark.Value(nil), items[star:len(items)-after]...))
		}
	}
	return true, nil
}

// matchMapping matches dicts and the other mappings: every key present
// and its value matching; **rest takes the other items.
func (r *Interp) matchMapping(thread *starlark.Thread, x starlark.Value, p starlark.Tuple, caps map[string]starlark.Value) (bool, error) {
	m, ok := x.(starlark.IterableMapping)
	if !ok {
		return false, nil
	}
	used := starlark.NewDict(0)
	for _, kv := range p[1].(starlark.Tuple) {
		pair := kv.(starlark.Tuple)
		v, found, err := m.Get(pair[0])
		if err != nil || !found {
			return false, err
		}
		if ok, err := r.matchPattern(thread, v, pair[1].(starlark.Tuple), caps); !ok || err != nil {
			return false, err
		}
		if err := used.SetKey(pair[0], starlark.True); err != nil {
			return false, err
		}
	}
	if name := string(p[2].(starlark.String)); name != "" {
		rest := starlark.NewDict(0)
		for _, item := range m.Items() {
			if _, seen, _ := used.Get(item[0]); seen {
				continue
			}
			if err := rest.SetKey(item[0], item[1]); err != nil {
				return false, err
			}
		}
		caps[name] = rest
	}
	return true, nil
}

// selfMatching are the builtin types whose one positional sub-pattern
// matches the subject itself: int(n), str(s).
var selfMatching = map[string]bool{
	"bool": true, "bytes": true, "dict": true, "float": true, "frozenset": true, "int": true,
	"list": true, "set": true, "str": true, "tuple": true,
}

// matchClass matches Cls(p, attr=q): an instance of Cls whose attributes
// match, positional sub-patterns naming Cls.__match_args__ (a
// dataclass's init fields when it has none).
func (r *Interp) matchClass(thread *starlark.Thread, x starlark.Value, p starlark.Tuple, caps map[string]starlark.Value) (bool, error) {
	cls := p[1]
	if ok, err := r.IsInstance(x, cls); !ok || err != nil {
		return false, err
	}
	attrs := p[3].(starlark.Tuple)
	if pos := p[2].(starlark.Tuple); len(pos) > 0 {
		names, err := matchArgs(cls, len(pos))
		if err != nil {
			return false, err
		}
		if names == nil { // int(n): the subject itself
			if ok, err := r.matchPattern(thread, x, pos[0].(starlark.Tuple), caps); !ok || err != nil {
				return false, err
			}
		}
		for i, n := range names {
			attrs = append(starlark.Tuple{starlark.Tuple{starlark.String(n), pos[i]}}, attrs...)
		}
	}
	for _, a := range attrs {
		pair := a.(starlark.Tuple)
		v, err := GetAttr(x, string(pair[0].(starlark.String)))
		if err != nil {
			return false, nil // no such attribute: no match
		}
		if ok, err := r.matchPattern(thread, v, pair[1].(starlark.Tuple), caps); !ok || err != nil {
			return false, err
		}
	}
	return true, nil
}

// matchArgs returns the attribute names of n positional sub-patterns of
// cls, or nil for a builtin type matching its subject itself.
func matchArgs(cls starlark.Value, n int) ([]string, error) {
	t, _ := cls.(*PyType)
	name := PyTypeName(cls)
	if t != nil {
		name = t.TypeName
		if t.User == nil && selfMatching[t.TypeName] {
			if n > 1 {
				return nil, PyErrorf(ExcTypeError, "%s() accepts 1 positional sub-pattern (%d given)", t.TypeName, n)
			}
			return nil, nil
		}
	}
	var names []string
	if v, err := GetAttr(cls, "__match_args__"); err == nil {
		for _, x := range Elems(v) {
			s, ok := x.(starlark.String)
			if !ok {
				return nil, PyErrorf(ExcTypeError, "__match_args__ elements must be strings (got %s)", PyTypeName(x))
			}
			names = append(names, string(s))
		}
	} else if dc := DcOf(cls); dc != nil {
		for _, f := range dc.Fields {
			if f.Init && !f.KwOnly {
				names = append(names, f.Name)
			}
		}
	}
	if n > len(names) {
		return nil, PyErrorf(ExcTypeError, "%s() accepts %d positional sub-pattern%s (%d given)", name, len(names), Plural(len(names)), n)
	}
	return names[:n], nil
}

func ElemsOf(v starlark.Value) starlark.Tuple {
	vals, _ := ListOf(v)
	return vals
}
