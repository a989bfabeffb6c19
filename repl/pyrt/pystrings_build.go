// str.join and str.replace with Python's errors, refused before they
// build more text than the memory budget holds.

package pyrt

import (
	"strings"

	"go.starlark.net/starlark"

	"harness/repl/pystr"
)

func strJoin(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var it starlark.Value
	if err := starlark.UnpackPositionalArgs("join", args, kw, 1, &it); err != nil {
		return nil, err
	}
	if _, ok := it.(starlark.String); ok {
		it = starlark.Tuple(chars(string(it.(starlark.String))))
	}
	items, err := ListOf(it)
	if err != nil {
		return nil, PyErrorf(ExcTypeError, "can only join an iterable")
	}
	sep := string(recv.(starlark.String))
	total := int64(len(sep)) * int64(max(len(items)-1, 0))
	for i, x := range items {
		s, ok := x.(starlark.String)
		if !ok {
			return nil, PyErrorf(ExcTypeError, "sequence item %d: expected str instance, %s found", i, PyTypeName(x))
		}
		total += int64(len(s))
	}
	if err := checkGrowth(thread, "str.join", total); err != nil {
		return nil, err
	}
	var sb strings.Builder
	sb.Grow(int(total))
	for i, x := range items {
		if i > 0 {
			sb.WriteString(sep)
		}
		sb.WriteString(string(x.(starlark.String)))
	}
	return starlark.String(sb.String()), nil
}

func strReplace(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var old, new string
	count := -1
	if err := UnpackArgs("replace", args, kw, "old", &old, "new", &new, "count?", &count); err != nil {
		return nil, err
	}
	s := string(recv.(starlark.String))
	if len(new) > len(old) {
		n := int64(strings.Count(s, old))
		if count >= 0 {
			n = min(n, int64(count))
		}
		if err := checkGrowth(thread, "str.replace", int64(len(s))+n*int64(len(new)-len(old))); err != nil {
			return nil, err
		}
	}
	return starlark.String(strings.Replace(s, old, new, count)), nil
}

// strStrip is str.strip, lstrip and rstrip with Python's chars: omitted
// or None strips Python's whitespace (str.isspace's, \x1c-\x1f and \x85
// among them), "" strips nothing, any other string the characters in it.
func strStrip(name string, left, right bool) methodFunc {
	return func(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var chars starlark.Value = starlark.None
		if err := starlark.UnpackPositionalArgs(name, args, kw, 0, &chars); err != nil {
			return nil, err
		}
		strip := pystr.IsSpace
		if chars != starlark.None {
			cs, ok := chars.(starlark.String)
			if !ok {
				return nil, PyErrorf(ExcTypeError, "%s arg must be None or str", name)
			}
			set := string(cs)
			strip = func(r rune) bool { return strings.ContainsRune(set, r) }
		}
		s := string(recv.(starlark.String))
		if left {
			s = strings.TrimLeftFunc(s, strip)
		}
		if right {
			s = strings.TrimRightFunc(s, strip)
		}
		return starlark.String(s), nil
	}
}
