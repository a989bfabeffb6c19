// ast.unparse: constants, string quoting and f-strings (see
// ast_unparse.go).

package pydev

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"unicode"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

var (
	multiQuotes = []string{`"""`, `'''`}
	allQuotes   = []string{`'`, `"`, `"""`, `'''`}
)

// infStr is CPython's _INFSTR: the literal an infinite float becomes.
const infStr = "1e309"

func (u *unparser) constant(o *pyrt.PyObject) {
	v := f(o, "value")
	switch v := v.(type) {
	case starlark.Tuple:
		u.delimit("(", ")", func() { u.itemsView(v, u.writeConstant) })
		return
	case pyrt.Ellipsis:
		u.Write("...")
		return
	}
	if f(o, "kind") == starlark.String("u") {
		u.Write("u")
	}
	u.writeConstant(v)
}

func (u *unparser) writeConstant(v starlark.Value) {
	switch v := v.(type) {
	case starlark.Float:
		switch {
		case math.IsNaN(float64(v)):
			u.Write("(" + infStr + "-" + infStr + ")")
		case math.IsInf(float64(v), 1):
			u.Write(infStr)
		case math.IsInf(float64(v), -1):
			u.Write("-" + infStr)
		default:
			u.Write(pyrt.PyRepr(v))
		}
	case starlark.String:
		if u.noBacksl {
			u.strAvoidingBackslashes(string(v), allQuotes)
		} else {
			u.Write(pyrt.PyRepr(v))
		}
	case pyrt.Ellipsis:
		u.Write("...")
	case *pyrt.Unavailable:
		if lit, ok := strings.CutPrefix(v.ModName, "the complex constant "); ok {
			u.Write(lit) // the source's literal: there is no complex value to repr
			return
		}
		u.Write(pyrt.PyRepr(v))
	default:
		u.Write(pyrt.PyRepr(v))
	}
}

// escapeChar is _str_literal_helper's escape_char.
func escapeChar(c rune, special bool) string {
	if !special && (c == '\n' || c == '\t') {
		return string(c)
	}
	if c == '\\' {
		return `\\`
	}
	if unicode.IsPrint(c) {
		return string(c)
	}
	switch {
	case c == '\n':
		return `\n`
	case c == '\t':
		return `\t`
	case c == '\r':
		return `\r`
	case c < 0x100:
		return fmt.Sprintf(`\x%02x`, c)
	case c < 0x10000:
		return fmt.Sprintf(`\u%04x`, c)
	}
	return fmt.Sprintf(`\U%08x`, c)
}

// strLiteral is _str_literal_helper: the literal's body with the fewest
// escapes, and the quotes it may use.
func strLiteral(s string, quotes []string, special bool) (string, []string) {
	var b strings.Builder
	for _, c := range s {
		b.WriteString(escapeChar(c, special))
	}
	esc := b.String()
	var possible []string
	for _, q := range quotes {
		if strings.Contains(esc, "\n") && len(q) != 3 {
			continue
		}
		if !strings.Contains(esc, q) {
			possible = append(possible, q)
		}
	}
	if len(possible) == 0 {
		r := pyrt.PyRepr(starlark.String(s))
		quote := r[:1]
		for _, q := range quotes {
			if strings.Contains(q, r[:1]) {
				quote = q
				break
			}
		}
		return r[1 : len(r)-1], []string{quote}
	}
	if esc != "" {
		last := esc[len(esc)-1]
		sort.SliceStable(possible, func(i, j int) bool {
			return possible[i][0] != last && possible[j][0] == last
		})
		if possible[0][0] == last {
			esc = esc[:len(esc)-1] + `\` + esc[len(esc)-1:]
		}
	}
	return esc, possible
}

func (u *unparser) strAvoidingBackslashes(s string, quotes []string) {
	body, qs := strLiteral(s, quotes, false)
	u.Write(qs[0] + body + qs[0])
}

func (u *unparser) joinedStr(o *pyrt.PyObject) {
	u.Write("f")
	if u.noBacksl {
		buf := u.buffered(func() { u.fstringInner(o) })
		u.strAvoidingBackslashes(strings.Join(buf, ""), allQuotes)
		return
	}
	type part struct {
		text     string
		constant bool
	}
	var parts []part
	for _, v := range nodes(f(o, "values")) {
		buf := u.buffered(func() { u.fstringInner(v) })
		parts = append(parts, part{strings.Join(buf, ""), u.className(v) == "Constant"})
	}
	quotes := allQuotes
	var bodies []string
	fallback := false
	for _, p := range parts {
		body, qs := strLiteral(p.text, quotes, p.constant)
		bodies = append(bodies, body)
		if disjoint(qs, quotes) {
			fallback = true
			break
		}
		quotes = qs
	}
	if fallback {
		quotes, bodies = []string{`'''`}, nil
		for _, p := range parts {
			r := pyrt.PyRepr(starlark.String(`"` + p.text))
			bodies = append(bodies, r[2:len(r)-1])
		}
	}
	u.Write(quotes[0] + strings.Join(bodies, "") + quotes[0])
}

func disjoint(a, b []string) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return false
			}
		}
	}
	return true
}

func (u *unparser) fstringInner(v starlark.Value) {
	o, _ := u.a.isAST(v)
	switch {
	case o != nil && o.Cls.TypeName == "JoinedStr":
		for _, x := range nodes(f(o, "values")) {
			u.fstringInner(x)
		}
	case o != nil && o.Cls.TypeName == "Constant":
		if s, ok := f(o, "value").(starlark.String); ok {
			u.Write(strings.NewReplacer("{", "{{", "}", "}}").Replace(string(s)))
			return
		}
		u.Fail(pyrt.ExcValueError, "Unexpected node inside JoinedStr, %s", pyrt.PyRepr(v))
	case o != nil && o.Cls.TypeName == "FormattedValue":
		u.formattedValue(o)
	default:
		u.Fail(pyrt.ExcValueError, "Unexpected node inside JoinedStr, %s", pyrt.PyRepr(v))
	}
}

func (u *unparser) formattedValue(o *pyrt.PyObject) {
	inner := u.a.newUnparser(true)
	inner.setPrec(precTest+1, f(o, "value"))
	expr := inner.visit(f(o, "value"))
	if inner.err != nil {
		if u.err == nil {
			u.err = inner.err
		}
		return
	}
	u.Write("{")
	if strings.Contains(expr, `\`) {
		u.Fail(pyrt.ExcValueError, "Unable to avoid backslash in f-string expression part")
		return
	}
	if strings.HasPrefix(expr, "{") {
		u.Write(" ")
	}
	u.Write(expr)
	if c, ok := f(o, "conversion").(starlark.Int); ok {
		if n, _ := c.Int64(); n != -1 {
			u.Write("!" + string(rune(n)))
		}
	}
	if spec := f(o, "format_spec"); present(spec) {
		u.Write(":")
		u.fstringInner(spec)
	}
	u.Write("}")
}
