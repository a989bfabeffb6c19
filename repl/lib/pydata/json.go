// The json module: Python's loads/dumps/load/dump beside Starlark's
// encode/decode/indent.

package pydata

import (
	"math"
	"sort"
	"strings"
	"unicode/utf8"

	"go.starlark.net/lib/json"
	"go.starlark.net/starlark"

	"harness/repl/pyrt"
	"harness/repl/pystr"
)

func JsonModule(r *pyrt.Interp) starlark.Value {
	members := starlark.StringDict{}
	for k, v := range json.Module.Members {
		members[k] = v
	}
	members["loads"] = pyrt.Builtin("json.loads", jsonLoads)
	members["load"] = pyrt.Builtin("json.load", jsonLoad)
	members["dumps"] = pyrt.Builtin("json.dumps", jsonDumps)
	members["dump"] = pyrt.Builtin("json.dump", jsonDump)
	members["JSONDecodeError"] = pyrt.ExcJSONDecode
	members["JSONEncoder"] = jsonEncoderClass(r)
	return pyrt.NewModule("json", members)
}

func jsonLoads(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "loads() takes 1 positional argument but %d were given", len(args))
	}
	text, ok := pyrt.TextOf(args[0])
	if !ok {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "the JSON object must be str, bytes or bytearray, not %s", pyrt.PyTypeName(args[0]))
	}
	return pyJSONDecode(thread, text, kw)
}

// pyJSONDecode is json.loads of text with loads' keyword arguments kw: a
// JSONDecodeError on bad input.
func pyJSONDecode(thread *starlark.Thread, text string, kw []starlark.Tuple) (starlark.Value, error) {
	d, err := newJSONDecoder(thread, kw)
	if err != nil {
		return nil, err
	}
	return d.Decode(text)
}

func jsonLoad(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "load() takes 1 positional argument but %d were given", len(args))
	}
	v, err := pyrt.CallMethod(thread, args[0], "read", nil, nil)
	if err != nil {
		return nil, err
	}
	text, _ := pyrt.TextOf(v)
	return pyJSONDecode(thread, text, kw)
}

// jsonOptions are dumps' keyword arguments.
type jsonOptions struct {
	indent          string
	hasIndent       bool
	itemSep, keySep string
	sortKeys, ascii bool
	skipKeys        bool
	noNaN           bool // allow_nan=False: NaN and the infinities are a ValueError
	def             starlark.Value
	thread          *starlark.Thread
}

func parseJSONOptions(thread *starlark.Thread, kw []starlark.Tuple) (*jsonOptions, error) {
	o := &jsonOptions{itemSep: ", ", keySep: ": ", ascii: true, thread: thread}
	var seps starlark.Value
	for _, kv := range kw {
		k, v := string(kv[0].(starlark.String)), kv[1]
		switch k {
		case "indent":
			switch x := v.(type) {
			case starlark.NoneType:
			case starlark.Int:
				n, _ := starlark.AsInt32(x)
				o.indent, o.hasIndent = strings.Repeat(" ", max(n, 0)), true
			case starlark.String:
				o.indent, o.hasIndent = string(x), true
			default:
				return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "indent must be an int or a string")
			}
		case "sort_keys":
			o.sortKeys = v.Truth() == starlark.True
		case "ensure_ascii":
			o.ascii = v.Truth() == starlark.True
		case "skipkeys":
			o.skipKeys = v.Truth() == starlark.True
		case "separators":
			seps = v
		case "default":
			o.def = v
		case "allow_nan":
			o.noNaN = v.Truth() == starlark.False
		case "check_circular", "cls":
		default:
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "dumps() got an unexpected keyword argument '%s'", k)
		}
	}
	if o.hasIndent {
		o.itemSep = ","
	}
	if seps != nil && seps != starlark.None {
		t, ok := seps.(starlark.Tuple)
		if !ok || len(t) != 2 {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "separators must be a (item_separator, key_separator) tuple")
		}
		o.itemSep, o.keySep = pyrt.PyStr(t[0]), pyrt.PyStr(t[1])
	}
	return o, nil
}

func jsonDumps(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "json.dumps() takes one positional argument")
	}
	for _, p := range kw {
		if p[0] == starlark.String("cls") && p[1] != starlark.None {
			return jsonDumpsWith(thread, p[1], args[0], kw)
		}
	}
	o, err := parseJSONOptions(thread, kw)
	if err != nil {
		return nil, err
	}
	var sb strings.Builder
	if err := o.encode(&sb, args[0], 0, map[starlark.Value]bool{}); err != nil {
		return nil, err
	}
	return starlark.String(sb.String()), nil
}

func jsonDump(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 2 {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "json.dump() takes two positional arguments (the value and a file)")
	}
	s, err := jsonDumps(thread, b, args[:1], kw)
	if err != nil {
		return nil, err
	}
	_, err = pyrt.CallMethod(thread, args[1], "write", starlark.Tuple{s}, nil)
	return starlark.None, err
}

func (o *jsonOptions) newline(sb *strings.Builder, level int) {
	if o.hasIndent {
		sb.WriteByte('\n')
		sb.WriteString(strings.Repeat(o.indent, level))
	}
}

func (o *jsonOptions) encode(sb *strings.Builder, v starlark.Value, level int, seen map[starlark.Value]bool) error {
	switch x := v.(type) {
	case starlark.NoneType:
		sb.WriteString("null")
	case starlark.Bool:
		if x {
			sb.WriteString("true")
		} else {
			sb.WriteString("false")
		}
	case starlark.Int:
		sb.WriteString(x.String())
	case starlark.Float:
		f := float64(x)
		switch {
		case o.noNaN && (math.IsNaN(f) || math.IsInf(f, 0)):
			return pyrt.PyErrorf(pyrt.ExcValueError, "Out of range float values are not JSON compliant")
		case math.IsNaN(f):
			sb.WriteString("NaN")
		case math.IsInf(f, 1):
			sb.WriteString("Infinity")
		case math.IsInf(f, -1):
			sb.WriteString("-Infinity")
		default:
			sb.WriteString(pystr.FloatRepr(f))
		}
	case starlark.String:
		o.quote(sb, string(x))
	case starlark.Tuple, *starlark.List:
		if l, ok := v.(*starlark.List); ok { // a tuple is no map key, and cannot hold itself
			if seen[l] {
				return pyrt.PyErrorf(pyrt.ExcValueError, "Circular reference detected")
			}
			seen[l] = true
			defer delete(seen, l)
		}
		items := pyrt.Elems(v)
		return o.container(sb, "[]", len(items), level, func(i int) error {
			return o.encode(sb, items[i], level+1, seen)
		})
	case starlark.IterableMapping:
		if seen[v] {
			return pyrt.PyErrorf(pyrt.ExcValueError, "Circular reference detected")
		}
		seen[v] = true
		defer delete(seen, v)
		return o.object(sb, x.Items(), level, seen)
	default:
		if o.def != nil && o.def != starlark.None {
			d, err := starlark.Call(o.thread, o.def, starlark.Tuple{v}, nil)
			if err != nil {
				return err
			}
			return o.encode(sb, d, level, seen)
		}
		name := pyrt.PyTypeName(v)
		name = name[strings.LastIndexByte(name, '.')+1:] // o.__class__.__name__: datetime, Decimal
		return pyrt.PyErrorf(pyrt.ExcTypeError, "Object of type %s is not JSON serializable", name)
	}
	return nil
}

func (o *jsonOptions) object(sb *strings.Builder, items []starlark.Tuple, level int, seen map[starlark.Value]bool) error {
	type entry struct {
		key string
		v   starlark.Value
	}
	var entries []entry
	for _, kv := range items {
		var key string
		switch k := kv[0].(type) {
		case starlark.String:
			key = string(k)
		case starlark.Int:
			key = k.String()
		case starlark.Float:
			key = pystr.FloatRepr(float64(k))
		case starlark.Bool:
			key = map[bool]string{true: "true", false: "false"}[bool(k)]
		case starlark.NoneType:
			key = "null"
		default:
			if o.skipKeys {
				continue
			}
			return pyrt.PyErrorf(pyrt.ExcTypeError, "keys must be str, int, float, bool or None, not %s", pyrt.PyTypeName(kv[0]))
		}
		entries = append(entries, entry{key, kv[1]})
	}
	if o.sortKeys {
		sort.SliceStable(entries, func(i, j int) bool { return entries[i].key < entries[j].key })
	}
	return o.container(sb, "{}", len(entries), level, func(i int) error {
		o.quote(sb, entries[i].key)
		sb.WriteString(o.keySep)
		return o.encode(sb, entries[i].v, level+1, seen)
	})
}

// container writes an array or object of n members at level between the
// brackets of pair ("[]" or "{}"): members apart by the item separator,
// each on a line of its own when indenting; item writes member i.
func (o *jsonOptions) container(sb *strings.Builder, pair string, n, level int, item func(i int) error) error {
	if n == 0 {
		sb.WriteString(pair)
		return nil
	}
	sb.WriteByte(pair[0])
	for i := 0; i < n; i++ {
		if i > 0 {
			sb.WriteString(o.itemSep)
		}
		o.newline(sb, level+1)
		if err := item(i); err != nil {
			return err
		}
	}
	o.newline(sb, level)
	sb.WriteByte(pair[1])
	return nil
}

// quote writes s as a JSON string the way Python's json does.
func (o *jsonOptions) quote(sb *strings.Builder, s string) {
	sb.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			sb.WriteString(`\"`)
		case r == '\\':
			sb.WriteString(`\\`)
		case r == '\n':
			sb.WriteString(`\n`)
		case r == '\r':
			sb.WriteString(`\r`)
		case r == '\t':
			sb.WriteString(`\t`)
		case r == '\b':
			sb.WriteString(`\b`)
		case r == '\f':
			sb.WriteString(`\f`)
		case r < 0x20 || (o.ascii && r >= 0x80):
			if r > 0xffff {
				r -= 0x10000
				sb.WriteString(`\u` + pyrt.Hex2(int(0xd800+(r>>10)), 4) + `\u` + pyrt.Hex2(int(0xdc00+(r&0x3ff)), 4))
			} else {
				sb.WriteString(`\u` + pyrt.Hex2(int(r), 4))
			}
		case r == utf8.RuneError:
			sb.WriteString(`\ufffd`)
		default:
			sb.WriteRune(r)
		}
	}
	sb.WriteByte('"')
}
