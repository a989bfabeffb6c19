// format(Decimal, spec) and f-strings: Decimal's __format__, exact in
// every digit (types e E f F g G n % and none).

package pynum

import (
	"strings"
	"unicode/utf8"

	"harness/repl/pyrt"
)

func (d *pyDecimal) FormatPy(spec string) (string, error) {
	sp, err := pyrt.ParseSpec(spec)
	if err != nil {
		return "", err
	}
	if sp.Zero && (sp.Align != 0 || sp.Fill != ' ') {
		sp.Zero = false // an explicit alignment wins over the '0' flag
	}
	switch sp.Typ {
	case 0, 'e', 'E', 'f', 'F', 'g', 'G', 'n', '%':
		if sp.Alt || sp.Grouping == '_' {
			return "", pyrt.PyErrorf(pyrt.ExcValueError, "invalid format string")
		}
	default:
		return "", pyrt.PyErrorf(pyrt.ExcValueError, "invalid format string")
	}
	if sp.Typ == 'n' {
		sp.Typ = 'g'
	}
	if sp.Precision == 0 && (sp.Typ == 0 || sp.Typ == 'g' || sp.Typ == 'G') {
		sp.Precision = 1
	}
	if d.special() {
		body := d.copyAbs().sci(false)
		if sp.Typ == '%' {
			body += "%"
		}
		return decAlign(pyrt.SignOf(d.neg, sp), body, sp), nil
	}
	if sp.Typ == 0 {
		sp.Typ = "gG"[d.m.cur.capitals]
	}
	x := d
	if sp.Typ == '%' {
		x = d.m.dec(d.neg, d.coef, d.exp+2)
	}
	x = x.formatRound(sp, d.m.cur.rounding)
	intPart, frac, exp := x.formatParts(sp)
	return decFormatNumber(x.neg, intPart, frac, exp, sp), nil
}

func (d *pyDecimal) copyAbs() *pyDecimal {
	n := *d
	n.neg = false
	return &n
}

// formatRound rounds x to the spec's precision in the context's rounding.
func (x *pyDecimal) formatRound(sp pyrt.FmtSpec, rounding string) *pyDecimal {
	p := sp.Precision
	if p >= 0 {
		switch sp.Typ {
		case 'e', 'E':
			x = x.roundSig(p+1, rounding)
		case 'f', 'F', '%':
			x = x.rescale(-p, rounding)
		case 'g', 'G':
			if x.digits() > p {
				x = x.roundSig(p, rounding)
			}
		}
	}
	if x.isZero() && x.exp > 0 && strings.IndexByte("fF%", sp.Typ) >= 0 {
		x = x.rescale(0, rounding)
	}
	return x
}

// roundSig rounds a finite x to places significant digits.
func (x *pyDecimal) roundSig(places int, rounding string) *pyDecimal {
	if x.isZero() {
		return x
	}
	ans := x.rescale(x.adjusted()+1-places, rounding)
	if ans.adjusted() != x.adjusted() {
		ans = ans.rescale(ans.adjusted()+1-places, rounding)
	}
	return ans
}

// formatParts places the decimal point: the digits before and after it
// and the exponent to show.
func (x *pyDecimal) formatParts(sp pyrt.FmtSpec) (string, string, int) {
	digits := x.coef.String()
	left := x.exp + len(digits)
	var dot int
	switch sp.Typ {
	case 'e', 'E':
		dot = 1
		if x.isZero() && sp.Precision >= 0 {
			dot = 1 - sp.Precision
		}
	case 'f', 'F', '%':
		dot = left
	default:
		dot = 1
		if x.exp <= 0 && left > -6 {
			dot = left
		}
	}
	switch {
	case dot < 0:
		return "0", strings.Repeat("0", -dot) + digits, left - dot
	case dot > len(digits):
		return digits + strings.Repeat("0", dot-len(digits)), "", left - dot
	}
	intPart := digits[:dot]
	if intPart == "" {
		intPart = "0"
	}
	return intPart, digits[dot:], left - dot
}

func decFormatNumber(neg bool, intPart, frac string, exp int, sp pyrt.FmtSpec) string {
	sign := pyrt.SignOf(neg, sp)
	if frac != "" || sp.Alt {
		frac = "." + frac
	}
	if exp != 0 || sp.Typ == 'e' || sp.Typ == 'E' {
		e := "e"
		if sp.Typ == 'E' || sp.Typ == 'G' {
			e = "E"
		}
		if exp < 0 {
			frac += e + pyrt.Itoa(exp)
		} else {
			frac += e + "+" + pyrt.Itoa(exp)
		}
	}
	if sp.Typ == '%' {
		frac += "%"
	}
	minWidth := 0
	if sp.Zero {
		minWidth = sp.Width - len(frac) - len(sign)
	}
	intPart = decGroup(intPart, sp.Grouping, minWidth)
	return decAlign(sign, intPart+frac, sp)
}

// decGroup inserts the thousands separator, padding with zeros to
// minWidth (a leading separator gets one more zero, as Python's).
func decGroup(digits string, sep byte, minWidth int) string {
	if sep == 0 {
		if len(digits) < minWidth {
			return strings.Repeat("0", minWidth-len(digits)) + digits
		}
		return digits
	}
	var groups []string
	for {
		l := min(max(len(digits), minWidth, 1), 3)
		groups = append(groups, strings.Repeat("0", max(l-len(digits), 0))+digits[max(len(digits)-l, 0):])
		digits = digits[:max(len(digits)-l, 0)]
		minWidth -= l
		if digits == "" && minWidth <= 0 {
			break
		}
		minWidth--
	}
	for i, j := 0, len(groups)-1; i < j; i, j = i+1, j-1 {
		groups[i], groups[j] = groups[j], groups[i]
	}
	return strings.Join(groups, string(sep))
}

func decAlign(sign, body string, sp pyrt.FmtSpec) string {
	n := utf8.RuneCountInString(sign) + utf8.RuneCountInString(body)
	padding := ""
	if sp.Width > n {
		padding = strings.Repeat(string(sp.Fill), sp.Width-n)
	}
	switch sp.Align {
	case '<':
		return sign + body + padding
	case '=':
		return sign + padding + body
	case '^':
		half := len(padding) / 2 / max(utf8.RuneLen(sp.Fill), 1) * max(utf8.RuneLen(sp.Fill), 1)
		return padding[:half] + sign + body + padding[half:]
	}
	return padding + sign + body
}
