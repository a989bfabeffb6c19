// Methods Python's str, list, dict, bytes, tuple and set have and
// Starlark's lack or count differently.

package pyrt

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"harness/repl/pystr"
)

type methodFunc func(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error)

var (
	strMethods = map[string]methodFunc{
		"format": strFormat, "format_map": strFormatMap, "zfill": strZfill, "ljust": strJust('<'), "rjust": strJust('>'), "center": strJust('^'),
		"find": strFind(false, false), "rfind": strFind(true, false), "index": strFind(false, true), "rindex": strFind(true, true),
		"strip": strStrip("strip", true, true), "lstrip": strStrip("lstrip", true, false), "rstrip": strStrip("rstrip", false, true),
		"count": strCount, "casefold": strMap(casefold), "swapcase": strMap(swapcase), "expandtabs": strExpandTabs,
		"isdecimal":   strIs(func(r rune) bool { return unicode.Is(unicode.Nd, r) }, false),
		"isnumeric":   strIs(pystr.IsNumeric, false),
		"isdigit":     strIs(pystr.IsDigit, false),
		"isalnum":     strIs(func(r rune) bool { return unicode.IsLetter(r) || pystr.IsNumeric(r) }, false),
		"isspace":     strIs(pystr.IsSpace, false),
		"isprintable": strIs(func(r rune) bool { return r == ' ' || unicode.IsPrint(r) }, true),
		"isascii":     strIs(func(r rune) bool { return r < utf8.RuneSelf }, true),
		"isidentifier": func(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			s := string(recv.(starlark.String))
			ok := s != ""
			for i, r := range s {
				ok = ok && (r == '_' || unicode.IsLetter(r) || i > 0 && unicode.IsDigit(r))
			}
			return starlark.Bool(ok), nil
		},
		"encode": strEncode, "join": strJoin, "replace": strReplace, "split": strSplit("split"), "rsplit": strSplit("rsplit"),
		"translate": strTranslate, "upper": strCase(pyUpper), "lower": strCase(pyLower), "istitle": strIstitle,
		"splitlines": func(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var keep bool
			if err := UnpackArgs("splitlines", args, kw, "keepends?", &keep); err != nil {
				return nil, err
			}
			lines := splitLines(string(recv.(starlark.String)), keep, true)
			out := make([]starlark.Value, len(lines))
			for i, l := range lines {
				out[i] = starlark.String(l)
			}
			return starlark.NewList(out), nil
		},
	}
	listMethods = map[string]methodFunc{
		"sort": listSort, "copy": seqCopy, "count": seqCount, "reverse": listReverse, "index": seqIndex, "extend": listExtend,
	}
	TupleMethods = map[string]methodFunc{"count": seqCount, "index": seqIndex}
	dictMethods  = map[string]methodFunc{"copy": dictCopy, "pop": dictPop, "popitem": dictPopitem, "get": dictGet, "setdefault": dictSetdefault, "update": dictUpdate,
		"keys": dictViewMethod("keys"), "values": dictViewMethod("values"), "items": dictViewMethod("items")}
	setMethods = map[string]methodFunc{"copy": setCopy, "isdisjoint": setIsDisjoint, "add": setAdd, "update": setUpdate,
		"union": setOpMethod("union", syntax.PIPE), "intersection": setOpMethod("intersection", syntax.AMP),
		"difference": setOpMethod("difference", syntax.MINUS), "symmetric_difference": setOpMethod("symmetric_difference", syntax.CIRCUMFLEX), "discard": setRemove("discard"), "remove": setRemove("remove")}
	// pyMethods are the method names whose calls the AST pass routes
	// through the dispatcher.
	PyMethods = map[string]bool{}
)

func init() {
	for _, t := range []map[string]methodFunc{strMethods, listMethods, TupleMethods, dictMethods, setMethods, bytesMethods} {
		for name := range t {
			PyMethods[name] = true
		}
	}
}

// callMethod is x.name(*args): the Python method where Starlark's differs
// or is missing, the value's own otherwise.
func CallMethod(thread *starlark.Thread, recv starlark.Value, name string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if f, ok := methodTable(recv)[name]; ok {
		return f(thread, recv, args, kw)
	}
	if t, ok := recv.(*PyType); ok && t.User == nil && t.TypeName == "int" && name == "from_bytes" {
		return intFromBytes(args, kw)
	}
	attr, err := GetAttr(recv, name)
	if err != nil {
		return nil, err
	}
	return starlark.Call(thread, attr, args, kw)
}

// strSplit is str.split and str.rsplit with Python's keywords (sep=,
// maxsplit=), which Starlark's take only by position.
func strSplit(name string) methodFunc {
	return func(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var sep starlark.Value = starlark.None
		var maxsplit starlark.Value = starlark.MakeInt(-1)
		if err := UnpackArgs(name, args, kw, "sep?", &sep, "maxsplit?", &maxsplit); err != nil {
			return nil, err
		}
		if s, ok := sep.(starlark.String); ok && s == "" {
			return nil, PyErrorf(ExcValueError, "empty separator")
		}
		m, err := GetAttr(recv, name)
		if err != nil {
			return nil, err
		}
		return starlark.Call(thread, m, starlark.Tuple{sep, maxsplit}, nil)
	}
}

// methodTable returns the Python methods of recv's type that the REPL
// supplies, or nil.
func methodTable(recv starlark.Value) map[string]methodFunc {
	switch recv.(type) {
	case starlark.String:
		return strMethods
	case *starlark.List:
		return listMethods
	case starlark.Tuple:
		return TupleMethods
	case *starlark.Dict:
		return dictMethods
	case *starlark.Set:
		return setMethods
	case starlark.Bytes:
		return bytesMethods
	case starlark.Int, starlark.Bool:
		return intMethods // pymethods_num.go
	case starlark.Float:
		return floatMethods
	}
	return nil
}

// hasMethod reports whether values like proto have the method name.
func hasMethod(proto starlark.Value, name string) bool {
	if _, ok := methodTable(proto)[name]; ok {
		return true
	}
	if h, ok := proto.(starlark.HasAttrs); ok {
		v, err := h.Attr(name)
		return err == nil && v != nil
	}
	return false
}

func strFormat(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	s, err := formatTemplate(thread, string(recv.(starlark.String)), args, kw)
	return starlark.String(s), err
}

func strZfill(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var width int
	if err := starlark.UnpackPositionalArgs("zfill", args, kw, 1, &width); err != nil {
		return nil, err
	}
	s := string(recv.(starlark.String))
	n := pystr.CharLen(s)
	if n >= width {
		return recv, nil
	}
	sign := ""
	if s != "" && (s[0] == '-' || s[0] == '+') {
		sign, s = s[:1], s[1:]
	}
	return starlark.String(sign + strings.Repeat("0", width-n) + s), nil
}

func strJust(align byte) methodFunc {
	names := map[byte]string{'<': "ljust", '>': "rjust", '^': "center"}
	return func(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var width int
		fill := " "
		if err := starlark.UnpackPositionalArgs(names[align], args, kw, 1, &width, &fill); err != nil {
			return nil, err
		}
		if err := checkGrowth(thread, "str."+names[align], int64(width)*int64(len(fill))); err != nil {
			return nil, err
		}
		if utf8.RuneCountInString(fill) != 1 {
			return nil, PyErrorf(ExcTypeError, "The fill character must be exactly one character long")
		}
		s := string(recv.(starlark.String))
		marg := width - pystr.CharLen(s)
		if marg <= 0 {
			return recv, nil
		}
		left := 0
		switch align {
		case '>':
			left = marg
		case '^':
			left = marg/2 + (marg & width & 1)
		}
		return starlark.String(strings.Repeat(fill, left) + s + strings.Repeat(fill, marg-left)), nil
	}
}

// strRange unpacks (sub, start=None, end=None) and returns the byte range
// of s the character bounds select, and the character offset of its start.
func strRange(name string, s string, args starlark.Tuple, kw []starlark.Tuple) (string, int, int, int, error) {
	var sub string
	var start, end starlark.Value = starlark.None, starlark.None
	if err := starlark.UnpackPositionalArgs(name, args, kw, 1, &sub, &start, &end); err != nil {
		return "", 0, 0, 0, err
	}
	n := pystr.CharLen(s)
	a, b, _, err := sliceIndices(start, end, starlark.None, n)
	if err != nil {
		return "", 0, 0, 0, err
	}
	if b < a {
		b = a
	}
	return sub, pystr.CharToByte(s, a), pystr.CharToByte(s, b), a, nil
}

func strFind(last, raise bool) methodFunc {
	name := map[[2]bool]string{{false, false}: "find", {true, false}: "rfind", {false, true}: "index", {true, true}: "rindex"}[[2]bool{last, raise}]
	return func(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		s := string(recv.(starlark.String))
		sub, ba, bb, a, err := strRange(name, s, args, kw)
		if err != nil {
			return nil, err
		}
		if a > pystr.CharLen(s) {
			return notFound(raise)
		}
		var i int
		if last {
			i = strings.LastIndex(s[ba:bb], sub)
		} else {
			i = strings.Index(s[ba:bb], sub)
		}
		if i < 0 {
			return notFound(raise)
		}
		return starlark.MakeInt(pystr.ByteToChar(s, ba+i)), nil
	}
}

func notFound(raise bool) (starlark.Value, error) {
	if raise {
		return nil, PyErrorf(ExcValueError, "substring not found")
	}
	return starlark.MakeInt(-1), nil
}

func strCount(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	s := string(recv.(starlark.String))
	sub, ba, bb, _, err := strRange("count", s, args, kw)
	if err != nil {
		return nil, err
	}
	if sub == "" {
		return starlark.MakeInt(pystr.CharLen(s[ba:bb]) + 1), nil
	}
	return starlark.MakeInt(strings.Count(s[ba:bb], sub)), nil
}

func strMap(f func(string) string) methodFunc {
	return func(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if err := starlark.UnpackPositionalArgs("str method", args, kw, 0); err != nil {
			return nil, err
		}
		return starlark.String(f(string(recv.(starlark.String)))), nil
	}
}

func casefold(s string) string { return strings.ReplaceAll(strings.ToLower(s), "ß", "ss") }

func swapcase(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case unicode.IsUpper(r):
			return unicode.ToLower(r)
		case unicode.IsLower(r):
			return unicode.ToUpper(r)
		}
		return r
	}, s)
}

func strExpandTabs(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	size := 8
	if err := UnpackArgs("expandtabs", args, kw, "tabsize?", &size); err != nil {
		return nil, err
	}
	return starlark.String(pystr.ExpandTabs(string(recv.(starlark.String)), size)), nil
}

func strIs(f func(rune) bool, emptyTrue bool) methodFunc {
	return func(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		s := string(recv.(starlark.String))
		if s == "" {
			return starlark.Bool(emptyTrue), nil
		}
		for _, r := range s {
			if !f(r) {
				return starlark.False, nil
			}
		}
		return starlark.True, nil
	}
}

func strEncode(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	encoding, errs := "utf-8", "strict"
	if err := UnpackArgs("encode", args, kw, "encoding?", &encoding, "errors?", &errs); err != nil {
		return nil, err
	}
	s := string(recv.(starlark.String))
	limit := 0
	switch normEncoding(encoding) {
	case "utf-8":
		return starlark.Bytes(s), nil
	case "ascii":
		limit = 0x80
	case "latin-1":
		limit = 0x100
	default:
		return nil, PyErrorf(excLookup, "unknown encoding: %s", encoding)
	}
	var out []byte
	pos := 0
	for _, r := range s {
		switch {
		case r < rune(limit):
			out = append(out, byte(r))
		case errs == "ignore":
		case errs == "replace":
			out = append(out, '?')
		default:
			return nil, &PyError{&PyException{Typ: excUnicodeEncode, Text: "'" + normEncoding(encoding) + "' codec can't encode character " + pystr.Quote(string(r)) + " in position " + Itoa(pos) + ": ordinal not in range(" + Itoa(limit) + ")"}}
		}
		pos++
	}
	return starlark.Bytes(out), nil
}

func normEncoding(e string) string {
	switch strings.ReplaceAll(strings.ToLower(e), "_", "-") {
	case "utf-8", "utf8", "u8":
		return "utf-8"
	case "ascii", "us-ascii":
		return "ascii"
	case "latin-1", "latin1", "iso-8859-1", "iso8859-1", "l1", "cp819":
		return "latin-1"
	}
	return e
}

// listSort is list.sort(key=None, reverse=False), in place and stable.
func listSort(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var key starlark.Value = starlark.None
	var reverse bool
	if err := UnpackArgs("sort", args, kw, "key?", &key, "reverse?", &reverse); err != nil {
		return nil, err
	}
	l := recv.(*starlark.List)
	vals := make([]starlark.Value, l.Len())
	for i := range vals {
		vals[i] = l.Index(i)
	}
	sorted, err := SortValues(thread, vals, key, reverse)
	if err != nil {
		return nil, err
	}
	for i, v := range sorted {
		if err := l.SetIndex(i, v); err != nil {
			return nil, err
		}
	}
	return starlark.None, nil
}

// sortValues sorts stably by key (called once per element), as Python does.
func SortValues(thread *starlark.Thread, vals []starlark.Value, key starlark.Value, reverse bool) ([]starlark.Value, error) {
	keys := vals
	if key != starlark.None {
		keys = make([]starlark.Value, len(vals))
		for i, v := range vals {
			k, err := starlark.Call(thread, key, starlark.Tuple{v}, nil)
			if err != nil {
				return nil, err
			}
			keys[i] = k
		}
	}
	idx := make([]int, len(vals))
	for i := range idx {
		idx[i] = i
	}
	// reverse=True: CPython reverses, sorts stably and reverses again, so
	// that equal elements keep their order.
	if reverse {
		reverseInts(idx)
	}
	if err := timsort(idx, sortLess(keys)); err != nil {
		return nil, err
	}
	if reverse {
		reverseInts(idx)
	}
	out := make([]starlark.Value, len(vals))
	for i, k := range idx {
		out[i] = vals[k]
	}
	return out, nil
}

func Elems(v starlark.Value) []starlark.Value {
	switch v := v.(type) {
	case starlark.Tuple:
		return v
	case *starlark.List:
		out := make([]starlark.Value, v.Len())
		for i := range out {
			out[i] = v.Index(i)
		}
		return out
	}
	return nil
}

func seqCopy(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if err := starlark.UnpackPositionalArgs("copy", args, kw, 0); err != nil {
		return nil, err
	}
	return starlark.NewList(Elems(recv)), nil
}

func seqCount(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	if err := starlark.UnpackPositionalArgs("count", args, kw, 1, &x); err != nil {
		return nil, err
	}
	n := 0
	for _, v := range Elems(recv) {
		if eq, err := starlark.Equal(v, x); err == nil && eq {
			n++
		}
	}
	return starlark.MakeInt(n), nil
}

func seqIndex(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	var start, end starlark.Value = starlark.None, starlark.None
	if err := starlark.UnpackPositionalArgs("index", args, kw, 1, &x, &start, &end); err != nil {
		return nil, err
	}
	vals := Elems(recv)
	a, b, _, err := sliceIndices(start, end, starlark.None, len(vals))
	if err != nil {
		return nil, err
	}
	for i := a; i < b; i++ {
		if eq, err := starlark.Equal(vals[i], x); err == nil && eq {
			return starlark.MakeInt(i), nil
		}
	}
	if _, ok := recv.(starlark.Tuple); ok {
		return nil, PyErrorf(ExcValueError, "tuple.index(x): x not in tuple")
	}
	return nil, PyErrorf(ExcValueError, "%s is not in list", PyRepr(x))
}

func listReverse(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if err := starlark.UnpackPositionalArgs("reverse", args, kw, 0); err != nil {
		return nil, err
	}
	l := recv.(*starlark.List)
	vals := Elems(l)
	for i, v := range vals {
		if err := l.SetIndex(len(vals)-1-i, v); err != nil {
			return nil, err
		}
	}
	return starlark.None, nil
}

func listExtend(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	if err := starlark.UnpackPositionalArgs("extend", args, kw, 1, &x); err != nil {
		return nil, err
	}
	vals, err := ListOf(x)
	if err != nil {
		return nil, err
	}
	l := recv.(*starlark.List)
	for _, v := range vals {
		if err := l.Append(v); err != nil {
			return nil, err
		}
	}
	return starlark.None, nil
}

func dictCopy(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if err := starlark.UnpackPositionalArgs("copy", args, kw, 0); err != nil {
		return nil, err
	}
	d := recv.(*starlark.Dict)
	out := starlark.NewDict(d.Len())
	for _, kv := range d.Items() {
		_ = out.SetKey(kv[0], kv[1])
	}
	return out, nil
}

func dictPop(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var k, def starlark.Value
	if err := starlark.UnpackPositionalArgs("pop", args, kw, 1, &k, &def); err != nil {
		return nil, err
	}
	d := recv.(*starlark.Dict)
	v, found, err := d.Delete(storedKey(d, k))
	if err != nil {
		return nil, err
	}
	if found {
		return v, nil
	}
	if def != nil {
		return def, nil
	}
	return nil, KeyError(k)
}

func dictPopitem(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if err := starlark.UnpackPositionalArgs("popitem", args, kw, 0); err != nil {
		return nil, err
	}
	d := recv.(*starlark.Dict)
	items := d.Items()
	if len(items) == 0 {
		return nil, PyErrorf(ExcKeyError, "popitem(): dictionary is empty")
	}
	last := items[len(items)-1]
	if _, _, err := d.Delete(last[0]); err != nil {
		return nil, err
	}
	return last, nil
}

func setCopy(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if err := starlark.UnpackPositionalArgs("copy", args, kw, 0); err != nil {
		return nil, err
	}
	return CopySet(recv.(*starlark.Set)), nil
}

func setIsDisjoint(_ *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var other starlark.Value
	if err := starlark.UnpackPositionalArgs("isdisjoint", args, kw, 1, &other); err != nil {
		return nil, err
	}
	s := recv.(*starlark.Set)
	disjoint := true
	err := Iterate(other, func(x starlark.Value) (bool, error) {
		if ok, _ := s.Has(x); ok {
			disjoint = false
			return false, nil
		}
		return true, nil
	})
	return starlark.Bool(disjoint), err
}
