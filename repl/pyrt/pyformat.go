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
type fmtSpec struct {
	fill      rune
	align     byte
	sign      byte
	alt, zero bool
	width     int
	grouping  byte
	precision int
	typ       byte
}

func parseSpec(s string) (fmtSpec, error) {
	sp := fmtSpec{fill: ' ', width: -1, precision: -1}
	bad := func() (fmtSpec, error) { return sp, pyErrorf(excValueError, "Invalid format specifier '%s'", s) }
	i := 0
	if r, w := utf8.DecodeRuneInString(s); w > 0 && w < len(s) && strings.IndexByte("<>=^", s[w]) >= 0 {
		sp.fill, sp.align, i = r, s[w], w+1
	} else if len(s) > 0 && strings.IndexByte("<>=^", s[0]) >= 0 {
		sp.align, i = s[0], 1
	}
	if i < len(s) && strings.IndexByte("+- ", s[i]) >= 0 {
		sp.sign = s[i]
		i++
	}
	if i < len(s) && s[i] == 'z' {
		i++
	}
	if i < len(s) && s[i] == '#' {
		sp.alt = true
		i++
	}
	if i < len(s) && s[i] == '0' {
		sp.zero = true
		i++
	}
	j := i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j > i {
		sp.width, _ = strconv.Atoi(s[i:j])
		i = j
	}
	if i < len(s) && (s[i] == ',' || s[i] == '_') {
		sp.grouping = s[i]
		i++
	}
	if i < len(s) && s[i] == '.' {
		j = i + 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == i+1 {
			return pyFail(excValueError, "Format specifier missing precision")
		}
		sp.precision, _ = strconv.Atoi(s[i+1 : j])
		i = j
	}
	if i < len(s) {
		if i != len(s)-1 || strings.IndexByte("bcdeEfFgGnosxX%", s[i]) < 0 {
			return bad()
		}
		sp.typ = s[i]
	}
	return sp, nil
}

func pyFail(typ *excType, msg string) (fmtSpec, error) { return fmtSpec{}, pyErrorf(typ, "%s", msg) }

// pyFormatter is a value with its own __format__ (dates).
type pyFormatter interface {
	formatPy(spec string) (string, error)
}

// formatValue is format(v, spec).
func formatValue(v starlark.Value, spec string) (string, error) {
	if f, ok := v.(pyFormatter); ok {
		return f.formatPy(spec)
	}
	if spec == "" {
		return pyStr(v), nil
	}
	sp, err := parseSpec(spec)
	if err != nil {
		return "", err
	}
	switch v := v.(type) {
	case starlark.String:
		return formatString(string(v), sp)
	case starlark.Bool:
		// a spec formats the int (format(True, ">5") is "    1"); only
		// an empty one gives "True"
		if sp.typ == 's' {
			return "", pyErrorf(excValueError, "Unknown format code 's' for object of type 'bool'")
		}
		return formatInt(big.NewInt(int64(b2i(bool(v)))), sp)
	case starlark.Int:
		return formatInt(v.BigInt(), sp)
	case starlark.Float:
		return formatFloat(float64(v), sp)
	}
	return "", pyErrorf(excTypeError, "unsupported format string passed to %s.__format__", pyTypeName(v))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func formatString(s string, sp fmtSpec) (string, error) {
	if sp.typ != 0 && sp.typ != 's' {
		return "", pyErrorf(excValueError, "Unknown format code '%c' for object of type 'str'", sp.typ)
	}
	if sp.sign != 0 {
		return "", pyErrorf(excValueError, "Sign not allowed in string format specifier")
	}
	if sp.align == '=' {
		return "", pyErrorf(excValueError, "'=' alignment not allowed in string format specifier")
	}
	if sp.precision >= 0 && utf8.RuneCountInString(s) > sp.precision {
		s = string([]rune(s)[:sp.precision])
	}
	return pad("", s, sp, '<'), nil
}

// pad aligns prefix+body in sp.width, padding between them for '='.
func pad(prefix, body string, sp fmtSpec, def byte) string {
	n := utf8.RuneCountInString(prefix) + utf8.RuneCountInString(body)
	if sp.width <= n {
		return prefix + body
	}
	fill := strings.Repeat(string(sp.fill), sp.width-n)
	align := sp.align
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
	left := (sp.width - n) / 2
	return strings.Repeat(string(sp.fill), left) + prefix + body + strings.Repeat(string(sp.fill), sp.width-n-left)
}

// numberPad applies the '0' flag: zeros after the sign, as '=' alignment.
func numberPad(sign, prefix, digits string, sp fmtSpec) string {
	if sp.zero && sp.align == 0 {
		sp.fill, sp.align = '0', '='
	}
	return pad(sign+prefix, digits, sp, '>')
}

func signOf(neg bool, sp fmtSpec) string {
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

func formatInt(x *big.Int, sp fmtSpec) (string, error) {
	switch sp.typ {
	case 'e', 'E', 'f', 'F', 'g', 'G', '%':
		f, _ := new(big.Float).SetInt(x).Float64()
		return formatFloat(f, sp)
	}
	if sp.precision >= 0 {
		return "", pyErrorf(excValueError, "Precision not allowed in integer format specifier")
	}
	neg := x.Sign() < 0
	abs := new(big.Int).Abs(x)
	var digits, prefix string
	every := 3
	switch sp.typ {
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
			return "", pyErrorf(excOverflow, "%%c arg not in range(0x110000)")
		}
		return pad("", string(rune(x.Int64())), sp, '<'), nil
	default:
		return "", pyErrorf(excValueError, "Unknown format code '%c' for object of type 'int'", sp.typ)
	}
	if !sp.alt {
		prefix = ""
	}
	return numberPad(signOf(neg, sp), prefix, group(digits, sp.grouping, every), sp), nil
}

func formatFloat(f float64, sp fmtSpec) (string, error) {
	neg := math.Signbit(f) && !math.IsNaN(f)
	a := math.Abs(f)
	var body string
	switch sp.typ {
	case 'd', 'b', 'o', 'x', 'X', 'c':
		return "", pyErrorf(excValueError, "Unknown format code '%c' for object of type 'float'", sp.typ)
	}
	if math.IsInf(a, 0) || math.IsNaN(a) {
		body = "inf"
		if math.IsNaN(a) {
			body = "nan"
		}
		if sp.typ == 'E' || sp.typ == 'F' || sp.typ == 'G' {
			body = strings.ToUpper(body)
		}
		if sp.typ == '%' {
			body += "%"
		}
		sp.zero = false
		return numberPad(signOf(neg, sp), "", body, sp), nil
	}
	p := sp.precision
	switch sp.typ {
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
		body = generalFormat(a, p, sp.alt, false)
	case 0:
		if p < 0 {
			body = pystr.FloatRepr(a)
		} else {
			body = generalFormat(a, p, sp.alt, true)
		}
	}
	if sp.typ == 'E' || sp.typ == 'G' || sp.typ == 'F' {
		body = strings.ToUpper(body)
	}
	if sp.alt && !strings.ContainsAny(body, ".e") && (sp.typ == 'f' || sp.typ == 'F' || sp.typ == 'e' || sp.typ == 'E') {
		body += "."
	}
	if sp.grouping != 0 {
		intPart, rest := body, ""
		if i := strings.IndexAny(body, ".e%"); i >= 0 {
			intPart, rest = body[:i], body[i:]
		}
		body = group(intPart, sp.grouping, 3) + rest
	}
	return numberPad(signOf(neg, sp), "", body, sp), nil
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
		return nil, pyErrorf(excTypeError, "format_map() takes exactly one argument (%d given)", len(args)+len(kw))
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
			return "", pyErrorf(excValueError, "Single '}' encountered in format string")
		case c == '{':
			end, err := fieldEnd(tmpl, i)
			if err != nil {
				return "", err
			}
			s, err := ft.field(tmpl[i+1:end], depth)
			if err != nil {
				return "", err
			}
			if err := growth.check(sb.Len() + len(s)); err != nil {
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
	return 0, pyErrorf(excValueError, "expected '}' before end of string")
}

func (ft *formatter) field(body string, depth int) (string, error) {
	name, spec, conv := body, "", byte(0)
	if i := strings.IndexAny(name, "!:"); i >= 0 {
		name, spec = body[:i], body[i:]
		if spec[0] == '!' {
			if len(spec) < 2 {
				return "", pyErrorf(excValueError, "end of string while looking for conversion specifier")
			}
			conv = spec[1]
			spec = spec[2:]
			if spec != "" && spec[0] != ':' {
				return "", pyErrorf(excValueError, "expected ':' after conversion specifier")
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
		v = starlark.String(pyStr(v))
	case 'a':
		v = starlark.String(asciiRepr(PyRepr(v)))
	default:
		return "", pyErrorf(excValueError, "Unknown conversion specifier %c", conv)
	}
	if strings.Contains(spec, "{") {
		if depth > 0 {
			return "", pyErrorf(excValueError, "Max string recursion exceeded")
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
	sp, err := parseSpec(spec)
	if err != nil {
		return nil // formatValue reports it
	}
	return checkGrowth(thread, "a format width", 4*int64(max(sp.width, sp.precision)))
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
		return nil, pyErrorf(excValueError, "Format string contains positional fields")
	case first == "":
		if ft.auto == -2 {
			return nil, pyErrorf(excValueError, "cannot switch from manual field specification to automatic field numbering")
		}
		if ft.auto < 0 {
			ft.auto = 0
		}
		if ft.auto >= len(ft.args) {
			return nil, pyErrorf(excIndexError, "Replacement index %d out of range for positional args tuple", ft.auto)
		}
		v = ft.args[ft.auto]
		ft.auto++
	case first[0] >= '0' && first[0] <= '9':
		if ft.auto >= 0 {
			return nil, pyErrorf(excValueError, "cannot switch from automatic field numbering to manual field specification")
		}
		ft.auto = -2
		n, err := strconv.Atoi(first)
		if err != nil || n >= len(ft.args) {
			return nil, pyErrorf(excIndexError, "Replacement index %s out of range for positional args tuple", first)
		}
		v = ft.args[n]
	case ft.mapping != nil:
		x, err := pyIndex(ft.mapping, starlark.String(first))
		if err != nil {
			return nil, err
		}
		v = x
	default:
		x, ok := ft.kw[first]
		if !ok {
			return nil, keyError(starlark.String(first))
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
			x, err := getAttr(v, attr)
			if err != nil {
				return nil, err
			}
			v = x
			continue
		}
		j := strings.IndexByte(rest, ']')
		if j < 0 {
			return nil, pyErrorf(excValueError, "Missing ']' in format string")
		}
		key := rest[1:j]
		rest = rest[j+1:]
		var k starlark.Value = starlark.String(key)
		if n, err := strconv.Atoi(key); err == nil {
			k = starlark.MakeInt(n)
		}
		x, err := pyIndex(v, k)
		if err != nil {
			return nil, err
		}
		v = x
	}
	return v, nil
}

func getAttr(v starlark.Value, name string) (starlark.Value, error) {
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
	return nil, pyErrorf(ExcAttribute, "'%s' object has no attribute '%s'", pyTypeName(v), name)
}

// asciiRepr escapes the non-ASCII characters of a repr, as ascii() does.
func asciiRepr(s string) string {
	var sb strings.Builder
	for _, r := range s {
		switch {
		case r < 0x80:
			sb.WriteRune(r)
		case r < 0x100:
			sb.WriteString(`\x` + hex2(int(r), 2))
		case r < 0x10000:
			sb.WriteString(`\u` + hex2(int(r), 4))
		default:
			sb.WriteString(`\U` + hex2(int(r), 8))
		}
	}
	return sb.String()
}

func hex2(n, width int) string {
	s := strconv.FormatInt(int64(n), 16)
	return strings.Repeat("0", max(width-len(s), 0)) + s
}
