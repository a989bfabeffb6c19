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
	p := cachedPattern(pat)
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

// cachedPattern is the parsed pattern pat, parsed once.
func cachedPattern(pat starlark.Value) *unpackPattern {
	s, _ := starlark.AsString(pat)
	pv, ok := shapePatterns.Load(s)
	if !ok {
		pv, _ = shapePatterns.LoadOrStore(s, patternArg(pat))
	}
	return pv.(*unpackPattern)
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

// fits reports whether v is already of p's shape for Starlark to unpack:
// a tuple or list of as many elements, each nested one fitting too.
func (p *unpackPattern) fits(v starlark.Value) bool {
	if p.kids == nil {
		return true
	}
	var seq starlark.Indexable
	switch x := v.(type) {
	case starlark.Tuple:
		seq = x
	case *starlark.List:
		seq = x
	default:
		return false
	}
	if seq.Len() != len(p.kids) {
		return false
	}
	for i, k := range p.kids {
		if k.star || k.kids != nil && !k.fits(seq.Index(i)) {
			return false
		}
	}
	return true
}

// shapedIterable is the iterable of a for loop or clause whose target is
// a tuple or list (the AST pass's HidIter(xs, pattern)): each element is
// shaped to the target, so that a string unpacks into its characters and
// a wrong count is Python's ValueError, which stops the loop's thread as
// an element's error does (iterfail.go). An element that already fits
// goes through as it is.
type shapedIterable struct {
	thread *starlark.Thread
	src    starlark.Iterable
	p      *unpackPattern
}

func (s *shapedIterable) String() string        { return "<for>" }
func (s *shapedIterable) Type() string          { return "iterator" }
func (s *shapedIterable) Freeze()               {}
func (s *shapedIterable) Truth() starlark.Bool  { return true }
func (s *shapedIterable) Hash() (uint32, error) { return 0, nil }
func (s *shapedIterable) Iterate() starlark.Iterator {
	return &shapedIterator{thread: s.thread, it: s.src.Iterate(), p: s.p}
}

type shapedIterator struct {
	thread *starlark.Thread
	it     starlark.Iterator
	p      *unpackPattern
}

func (it *shapedIterator) Next(p *starlark.Value) bool {
	if !it.it.Next(p) {
		return false
	}
	if it.p.fits(*p) {
		return true
	}
	v, err := it.p.shape(*p)
	if err != nil {
		failThread(it.thread, err)
		return false
	}
	*p = v
	return true
}

func (it *shapedIterator) Done() { it.it.Done() }

// forIterable is HidIter(xs[, pattern]): xs as Python iterates it (a
// string's characters), its elements shaped to the loop's target when the
// AST pass gives the target's pattern.
func (r *Interp) forIterable(thread *starlark.Thread, args starlark.Tuple) (starlark.Value, error) {
	v, err := r.iterable(args[0])
	if err != nil || len(args) < 2 {
		return v, err
	}
	src, ok := v.(starlark.Iterable)
	if !ok {
		return v, nil
	}
	return &shapedIterable{thread: thread, src: src, p: cachedPattern(args[1])}, nil
}
