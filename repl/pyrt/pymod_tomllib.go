// tomllib: TOML documents read into Python's values, over BurntSushi/toml.

package pyrt

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
	"go.starlark.net/starlark"
)

var excTOMLDecode = &excType{name: "TOMLDecodeError", module: "tomllib", base: excValueError}

// tomllibModule is Python's tomllib: loads(s) and load(binary_file) give
// dicts in the document's key order, lists, str, int, float, bool and the
// datetime module's datetime (aware or naive), date and time values.
func (r *Interp) tomllibModule() starlark.Value {
	return newModule("tomllib", starlark.StringDict{
		"loads": builtin("tomllib.loads", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var s starlark.Value
			if err := starlark.UnpackArgs("loads", args, kw, "s", &s); err != nil {
				return nil, err
			}
			text, ok := s.(starlark.String)
			if !ok {
				return nil, pyErrorf(excTypeError, "Expected str object, not '%s'", pyTypeName(s))
			}
			return r.tomlDecode(string(text))
		}),
		"load": builtin("tomllib.load", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var fp starlark.Value
			if err := starlark.UnpackArgs("load", args, kw, "fp", &fp); err != nil {
				return nil, err
			}
			f, ok := fp.(*PyFile)
			if !ok || !f.binary {
				return nil, pyErrorf(excTypeError, "File must be opened in binary mode, e.g. use `open('foo.toml', 'rb')`")
			}
			data, err := fileMethods["read"](f, "read", nil, nil)
			if err != nil {
				return nil, err
			}
			text := string(data.(starlark.Bytes))
			return r.tomlDecode(text)
		}),
		"TOMLDecodeError": excTOMLDecode,
	})
}

func (r *Interp) tomlDecode(text string) (starlark.Value, error) {
	var doc map[string]any
	md, err := toml.Decode(text, &doc)
	if err != nil {
		msg := err.Error()
		if pe, ok := err.(toml.ParseError); ok {
			msg = fmt.Sprintf("%s (at line %d, column %d)", pe.Message, pe.Position.Line, pe.Position.Col)
		}
		return nil, &pyError{&PyException{Typ: excTOMLDecode, args: starlark.Tuple{starlark.String(msg)}}}
	}
	order := map[string]int{} // a key's path (arrays' indexes left out) to its place in the document, from 1
	for i, k := range md.Keys() {
		if p := strings.Join(k, "\x00"); order[p] == 0 {
			order[p] = i + 1
		}
	}
	return r.tomlValue(doc, "", order), nil
}

// tomlValue converts a decoded value; path is its dotted key, for order.
func (r *Interp) tomlValue(v any, path string, order map[string]int) starlark.Value {
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
			_ = d.SetKey(starlark.String(k), r.tomlValue(x[k], joinKey(path, k), order))
		}
		return d
	case []map[string]any:
		out := make([]starlark.Value, len(x))
		for i, e := range x {
			out[i] = r.tomlValue(e, path, order)
		}
		return starlark.NewList(out)
	case []any:
		out := make([]starlark.Value, len(x))
		for i, e := range x {
			out[i] = r.tomlValue(e, path, order)
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
		return r.tomlTime(x)
	}
	return starlark.String(fmt.Sprint(v))
}

// tomlTime is a TOML date-time: an offset one is an aware datetime, a
// local one a naive datetime, date or time.
func (r *Interp) tomlTime(t time.Time) starlark.Value {
	c := r.dtClasses()
	switch t.Location().String() {
	case "date-local":
		return &pyDate{t: time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC), dateOnly: true, cls: c}
	case "time-local":
		return &pyTimeOfDay{h: t.Hour(), m: t.Minute(), s: t.Second(), us: t.Nanosecond() / 1000, cls: c}
	case "datetime-local":
		return &pyDate{t: time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond()/1000*1000, time.UTC), cls: c}
	}
	_, off := t.Zone()
	z := c.zone(time.Duration(off) * time.Second)
	return &pyDate{t: t.Truncate(time.Microsecond), tz: z, cls: c}
}

func joinKey(path, k string) string {
	if path == "" {
		return k
	}
	return path + "\x00" + k
}
