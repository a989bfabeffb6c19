// Starred targets below the top of an assignment, in for statements and in
// comprehension clauses (rewrite/prepass_startarget.go): a value shaped to
// its target's pattern.

package pyrt

import (
	"sync"

	"go.starlark.net/starlark"
)

// unpackPattern is a parsed target pattern: a leaf ("_"), the starred
// target ("*"), or a sequence of targets.
type unpackPattern struct {
	star bool
	kids []*unpackPattern // nil for a leaf
}

// parseUnpackPattern parses s from i and returns the pattern and the
// offset after it.
func parseUnpackPattern(s string, i int) (*unpackPattern, int) {
	switch {
	case i >= len(s):
		return &unpackPattern{}, i
	case s[i] == '*':
		return &unpackPattern{star: true}, i + 1
	case s[i] != '(':
		return &unpackPattern{}, i + 1
	}
	p := &unpackPattern{kids: []*unpackPattern{}}
	i++
	for i < len(s) && s[i] != ')' {
		if s[i] == ',' {
			i++
			continue
		}
		var k *unpackPattern
		k, i = parseUnpackPattern(s, i)
		p.kids = append(p.kids, k)
	}
	return p, i + 1
}

// shape returns v shaped to p: a sequence's elements as a tuple, the
// starred target's share as a list, with CPython's errors.
func (p *unpackPattern) shape(v starlark.Value) (starlark.Value, error) {
	if p.kids == nil {
		return v, nil
	}
	vals, err := ListOf(v)
	if err != nil {
		return nil, PyErrorf(ExcTypeError, "cannot unpack non-iterable %s object", PyTypeName(v))
	}
	star := -1
	for i, k := range p.kids {
		if k.star {
			star = i
		}
	}
	n := len(p.kids)
	switch {
	case star < 0 && len(vals) > n:
		return nil, PyErrorf(ExcValueError, "too many values to unpack (expected %d)", n)
	case star < 0 && len(vals) < n:
		return nil, PyErrorf(ExcValueError, "not enough values to unpack (expected %d, got %d)", n, len(vals))
	case star >= 0 && len(vals) < n-1:
		return nil, PyErrorf(ExcValueError, "not enough values to unpack (expected at least %d, got %d)", n-1, len(vals))
	}
	out := make(starlark.Tuple, n)
	j := 0
	for i, k := range p.kids {
		if k.star {
			take := len(vals) - (n - 1)
			out[i] = starlark.NewList(append([]starlark.Value(nil), vals[j:j+take]...))
			j += take
			continue
		}
		if out[i], err = k.shape(vals[j]); err != nil {
			return nil, err
		}
		j++
	}
	return out, nil
}

// shapePatterns are the parsed patterns of the AST pass's HidShape, by
// text: a program has few, each run many times.
var shapePatterns sync.Map // string -> *unpackPattern

// shapeTarget is HidShape(v, pattern): a tuple or list of as many
// elements for a flat target is Starlark's to unpack as it is; anything
// else (a string, another iterable, a nested target) is shaped.
func shapeTarget(v, pat starlark.Value) (starlark.Value, error) {
	s, _ := starlark.AsString(pat)
	pv, ok := shapePatterns.Load(s)
	if !ok {
		pv, _ = shapePatterns.LoadOrStore(s, patternArg(pat))
	}
	p := pv.(*unpackPattern)
	if p.flat() {
		switch x := v.(type) {
		case starlark.Tuple:
			if len(x) == len(p.kids) {
				return v, nil
			}
		case *starlark.List:
			if x.Len() == len(p.kids) {
				return v, nil
			}
		}
	}
	return p.shape(v)
}

// flat reports whether p is a sequence of plain targets.
func (p *unpackPattern) flat() bool {
	for _, k := range p.kids {
		if k.kids != nil || k.star {
			return false
		}
	}
	return p.kids != nil
}

func patternArg(v starlark.Value) *unpackPattern {
	s, _ := starlark.AsString(v)
	p, _ := parseUnpackPattern(s, 0)
	return p
}

// pyUnpackTo is __py_unpack_to(value, pattern).
func pyUnpackTo(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	return patternArg(args[1]).shape(args[0])
}

// pyUnpackEach is __py_unpack_each(iterable, pattern): each element
// shaped, as lazily as the iterable is read.
func (r *Interp) pyUnpackEach(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	p := patternArg(args[1])
	src, err := r.iterable(args[0])
	if err != nil {
		return nil, err
	}
	iterable, ok := src.(starlark.Iterable)
	if !ok {
		return nil, PyErrorf(ExcTypeError, "'%s' object is not iterable", PyTypeName(args[0]))
	}
	it := iterable.Iterate()
	return NewLazyIter(thread, "unpack", func() (starlark.Value, bool, error) {
		var x starlark.Value
		if !it.Next(&x) {
			it.Done()
			return nil, false, nil
		}
		v, err := p.shape(x)
		return v, err == nil, err
	}), nil
}
