// tomllib: TOML documents read into Python's values, over BurntSushi/toml.

package pydata

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

var excTOMLDecode = &pyrt.ExcType{TypeName: "TOMLDecodeError", Module: "tomllib", Base: pyrt.ExcValueError}

// tomllibModule is Python's tomllib: loads(s) and load(binary_file) give
// dicts in the document's key order, lists, str, int, float, bool and the
// datetime module's datetime (aware or naive), date and time values.
func tomllibModule(r *pyrt.Interp) starlark.Value {
	return pyrt.NewModule("tomllib", starlark.StringDict{
		"loads": pyrt.Builtin("tomllib.loads", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var s starlark.Value
			if err := pyrt.UnpackArgs("loads", args, kw, "s", &s); err != nil {
				return nil, err
			}
			text, ok := s.(starlark.String)
			if !ok {
				return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "Expected str object, not '%s'", pyrt.PyTypeName(s))
			}
			return tomlDecode(r, string(text))
		}),
		"load": pyrt.Builtin("tomllib.load", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var fp starlark.Value
			if err := pyrt.UnpackArgs("load", args, kw, "fp", &fp); err != nil {
				return nil, err
			}
			f, ok := fp.(*pyrt.PyFile)
			if !ok || !f.Binary {
				return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "File must be opened in binary mode, e.g. use `open('foo.toml', 'rb')`")
			}
			data, err := pyrt.FileMethods["read"](f, "read", nil, nil)
			if err != nil {
				return nil, err
			}
			text := string(data.(starlark.Bytes))
			return tomlDecode(r, text)
		}),
		"TOMLDecodeError": excTOMLDecode,
	})
}

func tomlDecode(r *pyrt.Interp, text string) (starlark.Value, error) {
	var doc map[string]any
	md, err := toml.Decode(text, &doc)
	if err != nil {
		msg := err.Error()
		if pe, ok := err.(toml.ParseError); ok {
			msg = fmt.Sprintf("%s (at line %d, column %d)", pe.Message, pe.Position.Line, pe.Position.Col)
		}
		return nil, &pyrt.PyError{Exc: &pyrt.PyException{Typ: excTOMLDecode, Args: starlark.Tuple{starlark.String(msg)}}}
	}
	order := map[string]int{} // a key's path (arrays' indexes left out) to its place in the document, from 1
	for i, k := range md.Keys() {
		if p := strings.Join(k, "\x00"); order[p] == 0 {
			order[p] = i + 1
		}
	}
	return tomlValue(r, doc, "", order), nil
}

// tomlValue converts a decoded value; path is its dotted key, for order.
func tomlValue(r *pyrt.Interp, v any, path string, order map[string]int) starlark.Value {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		pos := func(k string) int {
			if i := order[joinKey(path, k)]; i > 0 {
				return i
			}
			return math.MaxInt
		}
		sort.Slice(keys, func(i, j int) bool {
			a, b := pos(keys[i]), pos(keys[j])
			return a < b || a == b && keys[i] < keys[j]
		})
		d := starlark.NewDict(len(keys))
		for _, k := range keys {
			_ = d.SetKey(starlark.String(k), tomlValue(r, x[k], joinKey(path, k), order))
		}
		return d
	case []map[string]any:
		out := make([]starlark.Value, len(x))
		for i, e := range x {
			out[i] = tomlValue(r, e, path, order)
		}
		return starlark.NewList(out)
	case []any:
		out := make([]starlark.Value, len(x))
		for i, e := range x {
			out[i] = tomlValue(r, e, path, order)
		}
		return starlark.NewList(out)
	case string:
		return starlark.String(x)
	case int64:
		return starlark.MakeInt64(x)
	case float64:
		return starlark.Float(x)
	case bool:
		return starlark.Bool(x)
	case time.Time:
		return tomlTime(r, x)
	}
	return starlark.String(fmt.Sprint(v))
}

// tomlTime is a TOML date-time: an offset one is an aware datetime, a
// local one a naive datetime, date or time.
func tomlTime(r *pyrt.Interp, t time.Time) starlark.Value {
	c := r.DtClasses()
	switch t.Location().String() {
	case "date-local":
		return &pyrt.PyDate{T: time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC), DateOnly: true, Cls: c}
	case "time-local":
		return &pyrt.PyTimeOfDay{H: t.Hour(), M: t.Minute(), S: t.Second(), Us: t.Nanosecond() / 1000, Cls: c}
	case "datetime-local":
		return &pyrt.PyDate{T: time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond()/1000*1000, time.UTC), Cls: c}
	}
	_, off := t.Zone()
	z := c.Zone(time.Duration(off) * time.Second)
	return &pyrt.PyDate{T: t.Truncate(time.Microsecond), Tz: z, Cls: c}
}

func joinKey(path, k string) string {
	if path == "" {
		return k
	}
	return path + "\x00" + k
}
