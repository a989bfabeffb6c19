// difflib.SequenceMatcher as a Python object over any sequences of
// hashable elements (a string is its characters).

package pytext

import (
	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

// interner gives equal elements equal ids: strings by their text, other
// values through a dict (Python's hash and equality).
type interner struct {
	strs  map[string]int
	other *starlark.Dict
	vals  []starlark.Value
}

func newInterner() *interner {
	return &interner{strs: map[string]int{}, other: starlark.NewDict(0)}
}

func (in *interner) id(v starlark.Value) (int, error) {
	if s, ok := v.(starlark.String); ok {
		if id, ok := in.strs[string(s)]; ok {
			return id, nil
		}
		in.strs[string(s)] = len(in.vals)
		in.vals = append(in.vals, v)
		return len(in.vals) - 1, nil
	}
	got, found, err := in.other.Get(v)
	if err != nil {
		return 0, err
	}
	if found {
		n, _ := starlark.AsInt32(got)
		return n, nil
	}
	if err := in.other.SetKey(v, starlark.MakeInt(len(in.vals))); err != nil {
		return 0, err
	}
	in.vals = append(in.vals, v)
	return len(in.vals) - 1, nil
}

func (in *interner) ids(seq starlark.Value) ([]int, error) {
	var out []int
	err := pyrt.Iterate(seq, func(x starlark.Value) (bool, error) {
		id, err := in.id(x)
		out = append(out, id)
		return err == nil, err
	})
	return out, err
}

type smObj struct {
	m      seqMatch
	in     *interner
	a, b   starlark.Value
	isjunk starlark.Value
}

func newSequenceMatcher(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var isjunk starlark.Value = starlark.None
	var a, b starlark.Value = starlark.String(""), starlark.String("")
	autojunk := true
	if err := pyrt.UnpackArgs("SequenceMatcher", args, kw, "isjunk?", &isjunk, "a?", &a, "b?", &b, "autojunk?", &autojunk); err != nil {
		return nil, err
	}
	sm := &smObj{m: seqMatch{autojunk: autojunk}, in: newInterner(), isjunk: isjunk}
	if err := sm.setSeq(thread, 1, a); err != nil {
		return nil, err
	}
	return sm, sm.setSeq(thread, 2, b)
}

func (sm *smObj) setSeq(thread *starlark.Thread, which int, v starlark.Value) error {
	ids, err := sm.in.ids(v)
	if err != nil {
		return err
	}
	if which == 1 {
		sm.a = v
		sm.m.setA(ids)
		return nil
	}
	sm.b = v
	sm.m.junk = nil
	if sm.isjunk != nil && sm.isjunk != starlark.None {
		sm.m.junk = func(id int) (bool, error) {
			res, err := starlark.Call(thread, sm.isjunk, starlark.Tuple{sm.in.vals[id]}, nil)
			if err != nil {
				return false, err
			}
			return bool(res.Truth()), nil
		}
	}
	return sm.m.setB(ids)
}

func (sm *smObj) String() string        { return "<difflib.SequenceMatcher object>" }
func (sm *smObj) Type() string          { return "SequenceMatcher" }
func (sm *smObj) PyClass() *pyrt.PyType { return difflibSM }
func (sm *smObj) Freeze()               {}
func (sm *smObj) Truth() starlark.Bool  { return true }
func (sm *smObj) Hash() (uint32, error) { return 0, nil }
func (sm *smObj) AttrNames() []string {
	return []string{"a", "b", "bjunk", "bpopular", "find_longest_match", "get_grouped_opcodes", "get_matching_blocks",
		"get_opcodes", "isjunk", "quick_ratio", "ratio", "real_quick_ratio", "set_seq1", "set_seq2", "set_seqs"}
}

func matchRecord(i, j, k int) starlark.Value {
	return &pyrt.Record{Cls: difflibMatch, Fields: []string{"a", "b", "size"},
		Vals: starlark.Tuple{starlark.MakeInt(i), starlark.MakeInt(j), starlark.MakeInt(k)}}
}

func opcodeTuple(c opcode) starlark.Value {
	return starlark.Tuple{starlark.String(c.tag), starlark.MakeInt(c.i1), starlark.MakeInt(c.i2), starlark.MakeInt(c.j1), starlark.MakeInt(c.j2)}
}

func (sm *smObj) idSet(set map[int]bool) starlark.Value {
	s := starlark.NewSet(len(set))
	for id, v := range sm.in.vals {
		if set[id] {
			s.Insert(v)
		}
	}
	return s
}

func (sm *smObj) Attr(name string) (starlark.Value, error) {
	m := &sm.m
	noArgs := func(f func() starlark.Value) (starlark.Value, error) {
		return pyrt.Builtin(name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 0); err != nil {
				return nil, err
			}
			return f(), nil
		}), nil
	}
	switch name {
	case "a":
		return sm.a, nil
	case "b":
		return sm.b, nil
	case "isjunk":
		return sm.isjunk, nil
	case "bjunk":
		return sm.idSet(m.bjunk), nil
	case "bpopular":
		return sm.idSet(m.bpopular), nil
	case "ratio":
		return noArgs(func() starlark.Value { return starlark.Float(m.ratio()) })
	case "quick_ratio":
		return noArgs(func() starlark.Value { return starlark.Float(m.quickRatio()) })
	case "real_quick_ratio":
		return noArgs(func() starlark.Value { return starlark.Float(m.realQuickRatio()) })
	case "get_matching_blocks":
		return noArgs(func() starlark.Value {
			var out []starlark.Value
			for _, b := range m.matchingBlocks() {
				out = append(out, matchRecord(b[0], b[1], b[2]))
			}
			return starlark.NewList(out)
		})
	case "get_opcodes":
		return noArgs(func() starlark.Value {
			var out []starlark.Value
			for _, c := range m.opcodes() {
				out = append(out, opcodeTuple(c))
			}
			return starlark.NewList(out)
		})
	case "get_grouped_opcodes":
		return pyrt.Builtin(name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			n := 3
			if err := pyrt.UnpackArgs(b.Name(), args, kw, "n?", &n); err != nil {
				return nil, err
			}
			var groups []starlark.Value
			for _, g := range m.groupedOpcodes(n) {
				var out []starlark.Value
				for _, c := range g {
					out = append(out, opcodeTuple(c))
				}
				groups = append(groups, starlark.NewList(out))
			}
			return pyrt.NewListIter("generator", groups), nil
		}), nil
	case "find_longest_match":
		return pyrt.Builtin(name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			alo, blo := 0, 0
			var ahiV, bhiV starlark.Value = starlark.None, starlark.None
			if err := pyrt.UnpackArgs(b.Name(), args, kw, "alo?", &alo, "ahi?", &ahiV, "blo?", &blo, "bhi?", &bhiV); err != nil {
				return nil, err
			}
			ahi, bhi := len(m.a), len(m.b)
			if ahiV != starlark.None {
				v, err := starlark.AsInt32(ahiV)
				if err != nil {
					return nil, err
				}
				ahi = v
			}
			if bhiV != starlark.None {
				v, err := starlark.AsInt32(bhiV)
				if err != nil {
					return nil, err
				}
				bhi = v
			}
			if err := sm.checkBounds(alo, ahi, blo, bhi); err != nil {
				return nil, err
			}
			i, j, k := m.longest(alo, ahi, blo, bhi)
			if k < 0 {
				return nil, sm.outOfRange(sm.b) // CPython's loop reached b[len(b)]
			}
			return matchRecord(i, j, k), nil
		}), nil
	case "set_seqs", "set_seq1", "set_seq2":
		return pyrt.Builtin(name, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			want := map[string]int{"set_seqs": 2, "set_seq1": 1, "set_seq2": 1}[name]
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, want, new(starlark.Value), new(starlark.Value)); err != nil {
				return nil, err
			}
			switch name {
			case "set_seqs":
				if err := sm.setSeq(thread, 1, args[0]); err != nil {
					return nil, err
				}
				return starlark.None, sm.setSeq(thread, 2, args[1])
			case "set_seq1":
				return starlark.None, sm.setSeq(thread, 1, args[0])
			}
			return starlark.None, sm.setSeq(thread, 2, args[0])
		}), nil
	}
	return nil, nil
}

// checkBounds refuses what CPython's find_longest_match cannot run either:
// an ahi past a's end (its first loop reads a[len(a)]); negative bounds,
// which CPython reads from the end, are refused plainly.
func (sm *smObj) checkBounds(alo, ahi, blo, bhi int) error {
	if alo < 0 || blo < 0 || ahi < 0 || bhi < 0 {
		return pyrt.PyErrorf(pyrt.ExcValueError, "find_longest_match: negative bounds are not supported here")
	}
	if alo < ahi && ahi > len(sm.m.a) {
		return sm.outOfRange(sm.a)
	}
	return nil
}

// outOfRange is the IndexError of indexing seq past its end.
func (sm *smObj) outOfRange(seq starlark.Value) error {
	kind := "list"
	switch seq.(type) {
	case starlark.String:
		kind = "string"
	case starlark.Tuple:
		kind = "tuple"
	}
	return pyrt.PyErrorf(pyrt.ExcIndexError, "%s index out of range", kind)
}
