// difflib: unified_diff, context_diff, ndiff, Differ, SequenceMatcher,
// get_close_matches and restore, with CPython 3.11's output (the
// algorithms are in difflib_core.go and difflib_differ.go).

package pytext

import (
	"sort"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"harness/repl/pyrt"
)

var (
	difflibMatch = &pyrt.PyType{TypeName: "Match", Module: "difflib"}
	difflibSM    = &pyrt.PyType{TypeName: "SequenceMatcher", Module: "difflib"}
	difflibDiff  = &pyrt.PyType{TypeName: "Differ", Module: "difflib"}
	isCharJunkFn = pyrt.Builtin("IS_CHARACTER_JUNK", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var ch string
		var ws starlark.Value = starlark.None
		if err := pyrt.UnpackArgs(b.Name(), args, kw, "ch", &ch, "ws?", &ws); err != nil {
			return nil, err
		}
		if s, ok := ws.(starlark.String); ok {
			return starlark.Bool(strings.Contains(string(s), ch)), nil
		}
		return starlark.Bool(isCharacterJunk(ch)), nil
	})
	isLineJunkFn = pyrt.Builtin("IS_LINE_JUNK", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var line string
		if err := pyrt.UnpackArgs(b.Name(), args, kw, "line", &line, "pat?", new(starlark.Value)); err != nil {
			return nil, err
		}
		return starlark.Bool(isLineJunk(line)), nil
	})
)

func difflibModule(r *pyrt.Interp) starlark.Value {
	difflibSM.Call = newSequenceMatcher
	difflibDiff.Call = newDiffer
	return pyrt.NewModule("difflib", starlark.StringDict{
		"unified_diff":      pyrt.Builtin("unified_diff", diffFormat(unifiedDiff)),
		"context_diff":      pyrt.Builtin("context_diff", diffFormat(contextDiff)),
		"ndiff":             pyrt.Builtin("ndiff", ndiff),
		"Differ":            difflibDiff,
		"SequenceMatcher":   difflibSM,
		"Match":             difflibMatch,
		"get_close_matches": pyrt.Builtin("get_close_matches", getCloseMatches),
		"restore":           pyrt.Builtin("restore", diffRestore),
		"IS_CHARACTER_JUNK": isCharJunkFn,
		"IS_LINE_JUNK":      isLineJunkFn,
	})
}

// diffLines returns the lines of a diff argument, which must be strings
// (a string is its characters), with CPython's TypeError otherwise.
func diffLines(v starlark.Value) ([]string, error) {
	vals, err := pyrt.ListOf(v)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(vals))
	for i, x := range vals {
		s, ok := x.(starlark.String)
		if !ok {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "lines to compare must be str, not %s (%s)", pyrt.PyTypeName(x), pyrt.PyRepr(x))
		}
		out[i] = string(s)
	}
	return out, nil
}

func generatorOf(lines []string) starlark.Value {
	items := make([]starlark.Value, len(lines))
	for i, l := range lines {
		items[i] = starlark.String(l)
	}
	return pyrt.NewListIter("generator", items)
}

func diffFormat(f func(a, b []string, h diffHeader) []string) pyrt.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var av, bv starlark.Value
		h := diffHeader{n: 3, lineterm: "\n"}
		if err := pyrt.UnpackArgs(b.Name(), args, kw, "a", &av, "b", &bv, "fromfile?", &h.fromfile, "tofile?", &h.tofile,
			"fromfiledate?", &h.fromdate, "tofiledate?", &h.todate, "n?", &h.n, "lineterm?", &h.lineterm); err != nil {
			return nil, err
		}
		a, err := diffLines(av)
		if err != nil {
			return nil, err
		}
		bl, err := diffLines(bv)
		if err != nil {
			return nil, err
		}
		return generatorOf(f(a, bl, h)), nil
	}
}

// junkFunc turns a junk argument into a Go predicate: nil for None.
func junkFunc(thread *starlark.Thread, v starlark.Value) func(string) (bool, error) {
	switch v {
	case nil, starlark.None:
		return nil
	case isCharJunkFn:
		return func(s string) (bool, error) { return isCharacterJunk(s), nil }
	case isLineJunkFn:
		return func(s string) (bool, error) { return isLineJunk(s), nil }
	}
	return func(s string) (bool, error) {
		res, err := starlark.Call(thread, v, starlark.Tuple{starlark.String(s)}, nil)
		if err != nil {
			return false, err
		}
		return bool(res.Truth()), nil
	}
}

func ndiff(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var av, bv, lj starlark.Value
	var cj starlark.Value = isCharJunkFn
	if err := pyrt.UnpackArgs(b.Name(), args, kw, "a", &av, "b", &bv, "linejunk?", &lj, "charjunk?", &cj); err != nil {
		return nil, err
	}
	return (&differObj{d: differ{junkFunc(thread, lj), junkFunc(thread, cj)}}).compareValues(av, bv)
}

type differObj struct{ d differ }

func newDiffer(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var lj, cj starlark.Value
	if err := pyrt.UnpackArgs("Differ", args, kw, "linejunk?", &lj, "charjunk?", &cj); err != nil {
		return nil, err
	}
	return &differObj{d: differ{junkFunc(thread, lj), junkFunc(thread, cj)}}, nil
}

func (d *differObj) compareValues(av, bv starlark.Value) (starlark.Value, error) {
	a, err := diffLines(av)
	if err != nil {
		return nil, err
	}
	b, err := diffLines(bv)
	if err != nil {
		return nil, err
	}
	out, err := d.d.compare(a, b)
	if err != nil {
		return nil, err
	}
	return generatorOf(out), nil
}

func (d *differObj) String() string        { return "<difflib.Differ object>" }
func (d *differObj) Type() string          { return "Differ" }
func (d *differObj) PyClass() *pyrt.PyType { return difflibDiff }
func (d *differObj) Freeze()               {}
func (d *differObj) Truth() starlark.Bool  { return true }
func (d *differObj) Hash() (uint32, error) { return 0, nil }
func (d *differObj) AttrNames() []string   { return []string{"compare"} }
func (d *differObj) Attr(name string) (starlark.Value, error) {
	if name != "compare" {
		return nil, nil
	}
	return pyrt.Builtin("compare", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var av, bv starlark.Value
		if err := pyrt.UnpackArgs(b.Name(), args, kw, "a", &av, "b", &bv); err != nil {
			return nil, err
		}
		return d.compareValues(av, bv)
	}), nil
}

func getCloseMatches(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var word, poss starlark.Value
	var nv starlark.Value = starlark.MakeInt(3)
	var cv starlark.Value = starlark.Float(0.6)
	if err := pyrt.UnpackArgs(b.Name(), args, kw, "word", &word, "possibilities", &poss, "n?", &nv, "cutoff?", &cv); err != nil {
		return nil, err
	}
	n, err := starlark.AsInt32(nv)
	if err != nil || n <= 0 {
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "n must be > 0: %s", pyrt.PyRepr(nv))
	}
	cutoff, ok := starlark.AsFloat(cv)
	if !ok || cutoff < 0 || cutoff > 1 {
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "cutoff must be in [0.0, 1.0]: %s", pyrt.PyRepr(cv))
	}
	sm := &smObj{m: seqMatch{autojunk: true}, in: newInterner()}
	if err := sm.setSeq(thread, 2, word); err != nil {
		return nil, err
	}
	type scored struct {
		score float64
		x     starlark.Value
	}
	var res []scored
	err = pyrt.Iterate(poss, func(x starlark.Value) (bool, error) {
		if err := sm.setSeq(thread, 1, x); err != nil {
			return false, err
		}
		m := &sm.m
		if m.realQuickRatio() >= cutoff && m.quickRatio() >= cutoff && m.ratio() >= cutoff {
			res = append(res, scored{m.ratio(), x})
		}
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	sort.SliceStable(res, func(i, j int) bool {
		if res[i].score != res[j].score {
			return res[i].score > res[j].score
		}
		lt, _ := starlark.Compare(syntax.GT, res[i].x, res[j].x)
		return lt
	})
	if len(res) > n {
		res = res[:n]
	}
	out := make([]starlark.Value, len(res))
	for i, s := range res {
		out[i] = s.x
	}
	return starlark.NewList(out), nil
}

// diffRestore is restore(delta, which): one side of an ndiff.
func diffRestore(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var delta starlark.Value
	var which int
	if err := pyrt.UnpackArgs(b.Name(), args, kw, "delta", &delta, "which", &which); err != nil {
		return nil, err
	}
	var tag string
	switch which {
	case 1:
		tag = "- "
	case 2:
		tag = "+ "
	default:
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "unknown delta choice (must be 1 or 2): %d", which)
	}
	lines, err := diffLines(delta)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, l := range lines {
		if len(l) >= 2 && (l[:2] == "  " || l[:2] == tag) {
			out = append(out, l[2:])
		}
	}
	return generatorOf(out), nil
}
