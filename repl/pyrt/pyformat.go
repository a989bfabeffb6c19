// Python's format-spec mini-language: format(), f-string specs and
// str.format fields.

package pyrt

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.starlark.net/starlark"

	"harness/repl/pystr"
)

// fmtSpec is a parsed [[fill]align][sign][z][#][0][width][grouping][.precision][type].
type FmtSpec struct {
	Fill      rune
	Align     byte
	sign      byte
	Alt, Zero bool
	Width     int
	Grouping  byte
	Precision int
	Typ       byte
}

func ParseSpec(s string) (FmtSpec, error) {
	sp := FmtSpec{Fill: ' ', Width: -1, Precision: -1}
	bad := func() (FmtSpec, error) { return sp, PyErrorf(ExcValueError, "Invalid format specifier '%s'", s) }
	i := 0
	if r, w := utf8.DecodeRuneInString(s); w > 0 && w < len(s) && strings.IndexByte("<>=^", s[w]) >= 0 {
		sp.Fill, sp.Align, i = r, s[w], w+1
	} else if len(s) > 0 && strings.IndexByte("<>=^", s[0]) >= 0 {
		sp.Align, i = s[0], 1
	}
	if i < len(s) && strings.IndexByte("+- ", s[i]) >= 0 {
		sp.sign = s[i]
		i++
	}
	if i < len(s) && s[i] == 'z' {
		i++
	}
	if i < len(s) && s[i] == '#' {
		sp.Alt = true
		i++
	}
	if i < len(s) && s[i] == '0' {
		sp.Zero = true
		i++
	}
	j := i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j > i {
		sp.Width, _ = strconv.Atoi(s[i:j])
		i = j
	}
	if i < len(s) && (s[i] == ',' || s[i] == '_') {
		sp.Grouping = s[i]
		i++
	}
	if i < len(s) && s[i] == '.' {
		j = i + 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == i+1 {
			return pyFail(ExcValueError, "Format specifier missing precision")
		}
		sp.Precision, _ = strconv.Atoi(s[i+1 : j])
		i = j
	}
	if i < len(s) {
		if i != len(s)-1 || strings.IndexByte("bcdeEfFgGnosxX%", s[i]) < 0 {
			return bad()
		}
		sp.Typ = s[i]
	}
	return sp, nil
}

func pyFail(typ *ExcType, msg string) (FmtSpec, error) { return FmtSpec{}, PyErrorf(typ, "%s", msg) }

// pyFormatter is a value with its own __format__ (dates).
type PyFormatter interface {
	FormatPy(spec string) (string, error)
}

// formatValue is format(v, spec).
func formatValue(v starlark.Value, spec string) (string, error) {
	if f, ok := v.(PyFormatter); ok {
		return f.FormatPy(spec)
	}
	if spec == "" {
		return PyStr(v), nil
	}
	sp, err := ParseSpec(spec)
	if err != nil {
		return "", err
	}
	switch v := v.(type) {
	case starlark.String:
		return formatString(string(v), sp)
	case starlark.Bool:
		// a spec formats the int (format(True, ">5") is "    1"); only
		// an empty one gives "True"
		if sp.Typ == 's' {
			return "", PyErrorf(ExcValueError, "Unknown format code 's' for object of type 'bool'")
		}
		return formatInt(big.NewInt(int64(B2i(bool(v)))), sp)
	case starlark.Int:
		return formatInt(v.BigInt(), sp)
	case starlark.Float:
		return formatFloat(float64(v), sp)
	}
	return "", PyErrorf(ExcTypeError, "unsupported format string passed to %s.__format__", PyTypeName(v))
}

func B2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func formatString(s string, sp FmtSpec) (string, error) {
	if sp.Typ != 0 && sp.Typ != 's' {
		return "", PyErrorf(ExcValueError, "Unknown format code '%c' for object of type 'str'", sp.Typ)
	}
	if sp.sign != 0 {
		return "", PyErrorf(ExcValueError, "Sign not allowed in string format specifier")
	}
	if sp.Align == '=' {
		return "", PyErrorf(ExcValueError, "'=' alignment not allowed in string format specifier")
	}
	if sp.Precision >= 0 && utf8.RuneCountInString(s) > sp.Precision {
		s = string([]rune(s)[:sp.Precision])
	}
	return pad("", s, sp, '<'), nil
}

// pad aligns prefix+body in sp.width, padding between them for '='.
func pad(prefix, body string, sp FmtSpec, def byte) string {
	n := utf8.RuneCountInString(prefix) + utf8.RuneCountInString(body)
	if sp.Width <= n {
		return prefix + body
	}
	fill := strings.Repeat(string(sp.Fill), sp.Width-n)
	align := sp.Align
	if align == 0 {
		align = def
	}
	switch align {
	case '<':
		return prefix + body + fill
	case '>':
		return fill + prefix + body
	case '=':
		return prefix + fill + body
	}
	left := (sp.Width - n) / 2
	return strings.Repeat(string(sp.Fill), left) + prefix + body + strings.Repeat(string(sp.Fill), sp.Width-n-left)
}

// numberPad applies the '0' flag: zeros after the sign, as '=' alignment.
func numberPad(sign, prefix, digits string, sp FmtSpec) string {
	if sp.Zero && sp.Align == 0 {
		sp.Fill, sp.Align = '0', '='
	}
	return pad(sign+prefix, digits, sp, '>')
}

func SignOf(neg bool, sp FmtSpec) string {
	switch {
	case neg:
		return "-"
	case sp.sign == '+':
		return "+"
	case sp.sign == ' ':
		return " "
	}
	return ""
}

// group inserts sep every n digits from the right of an integer part.
func group(digits string, sep byte, n int) string {
	if sep == 0 || len(digits) <= n {
		return digits
	}
	var sb strings.Builder
	first := len(digits) % n
	if first > 0 {
		sb.WriteString(digits[:first])
	}
	for i := first; i < len(digits); i += n {
		if sb.Len() > 0 {
			sb.WriteByte(sep)
		}
		sb.WriteString(digits[i : i+n])
	}
	return sb.String()
}

func formatInt(x *big.Int, sp FmtSpec) (string, error) {
	switch sp.Typ {
	case 'e', 'E', 'f', 'F', 'g', 'G', '%':
		f, _ := new(big.Float).SetInt(x).Float64()
		return formatFloat(f, sp)
	}
	if sp.Precision >= 0 {
		return "", PyErrorf(ExcValueError, "Precision not allowed in integer format specifier")
	}
	neg := x.Sign() < 0
	abs := new(big.Int).Abs(x)
	var digits, prefix string
	every := 3
	switch sp.Typ {
	case 0, 'd', 'n':
		digits = abs.String()
	case 'b':
		digits, prefix, every = abs.Text(2), "0b", 4
	case 'o':
		digits, prefix, every = abs.Text(8), "0o", 4
	case 'x':
		digits, prefix, every = abs.Text(16), "0x", 4
	case 'X':
		digits, prefix, every = strings.ToUpper(abs.Text(16)), "0X", 4
	case 'c':
		if !x.IsInt64() || x.Int64() < 0 || x.Int64() > 0x10ffff {
			return "", PyErrorf(ExcOverflow, "%%c arg not in range(0x110000)")
		}
		return pad("", string(rune(x.Int64())), sp, '<'), nil
	default:
		return "", PyErrorf(ExcValueError, "Unknown format code '%c' for object of type 'int'", sp.Typ)
	}
	if !sp.Alt {
		prefix = ""
	}
	return numberPad(SignOf(neg, sp), prefix, group(digits, sp.Grouping, every), sp), nil
}

func formatFloat(f float64, sp FmtSpec) (string, error) {
	neg := math.Signbit(f) && !math.IsNaN(f)
	a := math.Abs(f)
	var body string
	switch sp.Typ {
	case 'd', 'b', 'o', 'x', 'X', 'c':
		return "", PyErrorf(ExcValueError, "Unknown format code '%c' for object of type 'float'", sp.Typ)
	}
	if math.IsInf(a, 0) || math.IsNaN(a) {
		body = "inf"
		if math.IsNaN(a) {
			body = "nan"
		}
		if sp.Typ == 'E' || sp.Typ == 'F' || sp.Typ == 'G' {
			body = strings.ToUpper(body)
		}
		if sp.Typ == '%' {
			body += "%"
		}
		sp.Zero = false
		return numberPad(SignOf(neg, sp), "", body, sp), nil
	}
	p := sp.Precision
	switch sp.Typ {
	case 'f', 'F':
		if p < 0 {
			p = 6
		}
		body = strconv.FormatFloat(a, 'f', p, 64)
	case '%':
		if p < 0 {
			p = 6
		}
		body = strconv.FormatFloat(a*100, 'f', p, 64) + "%"
	case 'e', 'E':
		if p < 0 {
			p = 6
		}
		body = strconv.FormatFloat(a, 'e', p, 64)
	case 'g', 'G', 'n':
		if p < 0 {
			p = 6
		}
		body = generalFormat(a, p, sp.Alt, false)
	case 0:
		if p < 0 {
			body = pystr.FloatRepr(a)
		} else {
			body = generalFormat(a, p, sp.Alt, true)
		}
	}
	if sp.Typ == 'E' || sp.Typ == 'G' || sp.Typ == 'F' {
		body = strings.ToUpper(body)
	}
	if sp.Alt && !strings.ContainsAny(body, ".e") && (sp.Typ == 'f' || sp.Typ == 'F' || sp.Typ == 'e' || sp.Typ == 'E') {
		body += "."
	}
	if sp.Grouping != 0 {
		intPart, rest := body, ""
		if i := strings.IndexAny(body, ".e%"); i >= 0 {
			intPart, rest = body[:i], body[i:]
		}
		body = group(intPart, sp.Grouping, 3) + rest
	}
	return numberPad(SignOf(neg, sp), "", body, sp), nil
}

// generalFormat is the 'g' presentation with precision p; repr-like adds
// ".0" to whole numbers and switches to exponents at p-1, as Python's
// format with a precision and no type does.
func generalFormat(a float64, p int, alt, reprLike bool) string {
	if p == 0 {
		p = 1
	}
	e := strconv.FormatFloat(a, 'e', p-1, 64)
	_, expText, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expText)
	limit := p
	if reprLike {
		limit = p - 1
		if limit < 1 {
			limit = 1
		}
	}
	var s string
	if exp >= -4 && exp < limit {
		s = strconv.FormatFloat(a, 'f', p-1-exp, 64)
		if !alt && strings.Contains(s, ".") {
			s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
		}
		if reprLike && !strings.Contains(s, ".") {
			s += ".0"
		}
		return s
	}
	mant, x, _ := strings.Cut(e, "e")
	if !alt && strings.Contains(mant, ".") {
		mant = strings.TrimRight(strings.TrimRight(mant, "0"), ".")
	}
	return mant + "e" + x
}

// formatTemplate is Python's str.format: {}, {0}, {name}, {x.attr},
// {x[key]}, conversions !r !s !a and format specs with nested fields.
func formatTemplate(thread *starlark.Thread, tmpl string, args starlark.Tuple, kwargs []starlark.Tuple) (string, error) {
	ft := &formatter{thread: thread, args: args, auto: -1}
	if len(kwargs) > 0 {
		ft.kw = map[string]starlark.Value{}
		for _, kv := range kwargs {
			ft.kw[string(kv[0].(starlark.String))] = kv[1]
		}
	}
	return ft.format(tmpl, 0)
}

// strFormatMap is str.format_map(mapping): the named fields are
// mapping[name], so a dict subclass's __missing__ answers for a missing one.
func strFormatMap(thread *starlark.Thread, recv starlark.Value, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 || len(kw) > 0 {
		return nil, PyErrorf(ExcTypeError, "format_map() takes exactly one argument (%d given)", len(args)+len(kw))
	}
	ft := &formatter{thread: thread, mapping: args[0], auto: -1}
	s, err := ft.format(string(recv.(starlark.String)), 0)
	return starlark.String(s), err
}

type formatter struct {
	thread  *starlark.Thread
	args    starlark.Tuple
	kw      map[string]starlark.Value
	mapping starlark.Value // format_map's argument, or nil
	auto    int            // next automatic field number; -1 before the first field, -2 once numbered manually
}

func (ft *formatter) format(tmpl string, depth int) (string, error) {
	var sb strings.Builder
	growth := textGrowth{thread: ft.thread, what: "str.format"}
	for i := 0; i < len(tmpl); {
		c := tmpl[i]
		switch {
		case c == '{' && i+1 < len(tmpl) && tmpl[i+1] == '{':
			sb.WriteByte('{')
			i += 2
		case c == '}' && i+1 < len(tmpl) && tmpl[i+1] == '}':
			sb.WriteByte('}')
			i += 2
		case c == '}':
			return "", PyErrorf(ExcValueError, "Single '}' encountered in format string")
		case c == '{':
			end, err := fieldEnd(tmpl, i)
			if err != nil {
				return "", err
			}
			s, err := ft.field(tmpl[i+1:end], depth)
			if err != nil {
				return "", err
			}
			if err := growth.Check(sb.Len() + len(s)); err != nil {
				return "", err
			}
			sb.WriteString(s)
			i = end + 1
		default:
			sb.WriteByte(c)
			i++
		}
	}
	return sb.String(), nil
}

// fieldEnd returns the index of the '}' closing the field opened at i.
func fieldEnd(tmpl string, i int) (int, error) {
	depth := 0
	for j := i + 1; j < len(tmpl); j++ {
		switch tmpl[j] {
		case '{':
			depth++
		case '}':
			if depth == 0 {
				return j, nil
			}
			depth--
		}
	}
	return 0, PyErrorf(ExcValueError, "expected '}' before end of string")
}

func (ft *formatter) field(body string, depth int) (string, error) {
	name, spec, conv := body, "", byte(0)
	if i := strings.IndexAny(name, "!:"); i >= 0 {
		name, spec = body[:i], body[i:]
		if spec[0] == '!' {
			if len(spec) < 2 {
				return "", PyErrorf(ExcValueError, "end of string while looking for conversion specifier")
			}
			conv = spec[1]
			spec = spec[2:]
			if spec != "" && spec[0] != ':' {
				return "", PyErrorf(ExcValueError, "expected ':' after conversion specifier")
			}
		}
		spec = strings.TrimPrefix(spec, ":")
	}
	v, err := ft.lookup(name)
	if err != nil {
		return "", err
	}
	switch conv {
	case 0:
	case 'r':
		v = starlark.String(PyRepr(v))
	case 's':
		v = starlark.String(PyStr(v))
	case 'a':
		v = starlark.String(asciiRepr(PyRepr(v)))
	default:
		return "", PyErrorf(ExcValueError, "Unknown conversion specifier %c", conv)
	}
	if strings.Contains(spec, "{") {
		if depth > 0 {
			return "", PyErrorf(ExcValueError, "Max string recursion exceeded")
		}
		if spec, err = ft.format(spec, depth+1); err != nil {
			return "", err
		}
	}
	if err := checkSpecWidth(ft.thread, spec); err != nil {
		return "", err
	}
	return formatValue(v, spec)
}

// checkSpecWidth refuses a format spec whose width or precision the
// memory budget cannot hold ("{:>1000000000}").
func checkSpecWidth(thread *starlark.Thread, spec string) error {
	if len(spec) < 7 { // widths under a million pass unparsed
		return nil
	}
	sp, err := ParseSpec(spec)
	if err != nil {
		return nil // formatValue reports it
	}
	return checkGrowth(thread, "a format width", 4*int64(max(sp.Width, sp.Precision)))
}

// lookup resolves a field name: an argument, then .attr and [key] parts.
func (ft *formatter) lookup(name string) (starlark.Value, error) {
	first := name
	if i := strings.IndexAny(name, ".["); i >= 0 {
		first = name[:i]
	}
	rest := name[len(first):]
	var v starlark.Value
	switch {
	case ft.mapping != nil && (first == "" || first[0] >= '0' && first[0] <= '9'):
		return nil, PyErrorf(ExcValueError, "Format string contains positional fields")
	case first == "":
		if ft.auto == -2 {
			return nil, PyErrorf(ExcValueError, "cannot switch from manual field specification to automatic field numbering")
		}
		if ft.auto < 0 {
			ft.auto = 0
		}
		if ft.auto >= len(ft.args) {
			return nil, PyErrorf(ExcIndexError, "Replacement index %d out of range for positional args tuple", ft.auto)
		}
		v = ft.args[ft.auto]
		ft.auto++
	case first[0] >= '0' && first[0] <= '9':
		if ft.auto >= 0 {
			return nil, PyErrorf(ExcValueError, "cannot switch from automatic field numbering to manual field specification")
		}
		ft.auto = -2
		n, err := strconv.Atoi(first)
		if err != nil || n >= len(ft.args) {
			return nil, PyErrorf(ExcIndexError, "Replacement index %s out of range for positional args tuple", first)
		}
		v = ft.args[n]
	case ft.mapping != nil:
		x, err := PyIndex(ft.mapping, starlark.String(first))
		if err != nil {
			return nil, err
		}
		v = x
	default:
		x, ok := ft.kw[first]
		if !ok {
			return nil, KeyError(starlark.String(first))
		}
		v = x
	}
	for rest != "" {
		if rest[0] == '.' {
			j := strings.IndexAny(rest[1:], ".[")
			attr := rest[1:]
			if j >= 0 {
				attr = rest[1 : j+1]
			}
			rest = rest[1+len(attr):]
			x, err := GetAttr(v, attr)
			if err != nil {
				return nil, err
			}
			v = x
			continue
		}
		j := strings.IndexByte(rest, ']')
		if j < 0 {
			return nil, PyErrorf(ExcValueError, "Missing ']' in format string")
		}
		key := rest[1:j]
		rest = rest[j+1:]
		var k starlark.Value = starlark.String(key)
		if n, err := strconv.Atoi(key); err == nil {
			k = starlark.MakeInt(n)
		}
		x, err := PyIndex(v, k)
		if err != nil {
			return nil, err
		}
		v = x
	}
	return v, nil
}

func GetAttr(v starlark.Value, name string) (starlark.Value, error) {
	if x, ok := numberAttr(v, name); ok {
		return x, nil
	}
	if h, ok := v.(starlark.HasAttrs); ok {
		x, err := h.Attr(name)
		if err != nil {
			return nil, err
		}
		if x != nil {
			return x, nil
		}
	}
	return nil, PyErrorf(ExcAttribute, "'%s' object has no attribute '%s'", PyTypeName(v), name)
}

// asciiRepr escapes the non-ASCII characters of a repr, as ascii() does.
func asciiRepr(s string) string {
	var sb strings.Builder
	for _, r := range s {
		switch {
		case r < 0x80:
			sb.WriteRune(r)
		case r < 0x100:
			sb.WriteString(`\x` + Hex2(int(r), 2))
		case r < 0x10000:
			sb.WriteString(`\u` + Hex2(int(r), 4))
		default:
			sb.WriteString(`\U` + Hex2(int(r), 8))
		}
	}
	return sb.String()
}

func Hex2(n, width int) string {
	s := strconv.FormatInt(int64(n), 16)
	return strings.Repeat("0", max(width-len(s), 0)) + s
}
