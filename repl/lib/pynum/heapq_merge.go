// heapq.merge: the sorted inputs merged lazily into one sorted iterator.

package pynum

import (
	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

// heapMerge is heapq.merge(*iterables, key=None, reverse=False). Like
// CPython's it reads each input's first element when the first element
// is asked for and then one element at a time, so endless inputs work; of
// equal elements the one of the earlier input comes first.
func heapMerge(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var key starlark.Value = starlark.None
	reverse := false
	if err := pyrt.UnpackArgs(b.Name(), nil, kw, "key?", &key, "reverse?", &reverse); err != nil {
		return nil, err
	}
	type head struct {
		next     func() (starlark.Value, bool, error)
		val, key starlark.Value
		live     bool
	}
	heads := make([]*head, len(args))
	for i, it := range args {
		next, err := pyrt.Stepper(it)
		if err != nil {
			return nil, err
		}
		heads[i] = &head{next: next}
	}
	advance := func(h *head) error {
		v, ok, err := h.next()
		if err != nil || !ok {
			h.live = false
			return err
		}
		h.val, h.key, h.live = v, v, true
		if key != starlark.None {
			h.key, err = starlark.Call(thread, key, starlark.Tuple{v}, nil)
		}
		return err
	}
	started := false
	var taken *head // the input whose element was returned last: it moves on at the next step, as in CPython
	return pyrt.NewLazyIter(thread, "generator", func() (starlark.Value, bool, error) {
		if !started {
			started = true
			for _, h := range heads {
				if err := advance(h); err != nil {
					return nil, false, err
				}
			}
		} else if taken != nil {
			if err := advance(taken); err != nil {
				return nil, false, err
			}
		}
		var best *head
		for _, h := range heads {
			if !h.live {
				continue
			}
			if best == nil {
				best = h
				continue
			}
			a, c := h.key, best.key
			if reverse {
				a, c = c, a
			}
			lt, err := less(a, c)
			if err != nil {
				return nil, false, err
			}
			if lt {
				best = h
			}
		}
		if best == nil {
			return nil, false, nil
		}
		taken = best
		return best.val, true, nil
	}), nil
}
