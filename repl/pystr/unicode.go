// Python's str.isdigit and str.isnumeric, whose Unicode sets Go's unicode package lacks.

package pystr

import "unicode"

// IsDigit is str.isdigit for one character: a decimal digit, or a digit
// that is not decimal (superscripts, circled digits; Numeric_Type=Digit).
func IsDigit(r rune) bool { return unicode.Is(unicode.Nd, r) || unicode.Is(digitNotDecimal, r) }

// IsNumeric is str.isnumeric for one character: a number, or a CJK
// ideograph with a numeric value (一, 万).
func IsNumeric(r rune) bool { return unicode.IsNumber(r) || unicode.Is(numericIdeographs, r) }

// IsSpace is str.isspace for one character: Go's unicode.IsSpace and
// the separators U+001C to U+001F.
func IsSpace(r rune) bool { return unicode.IsSpace(r) || 0x1c <= r && r <= 0x1f }

// The tables were made with CPython 3.11 (Unicode 14.0): the characters
// for which isdigit() is true and isdecimal() false, and those for which
// isnumeric() is true outside the N categories.
var digitNotDecimal = &unicode.RangeTable{
	R16: []unicode.Range16{
		{Lo: 0xb2, Hi: 0xb3, Stride: 1},
		{Lo: 0xb9, Hi: 0xb9, Stride: 1},
		{Lo: 0x1369, Hi: 0x1371, Stride: 1},
		{Lo: 0x19da, Hi: 0x19da, Stride: 1},
		{Lo: 0x2070, Hi: 0x2070, Stride: 1},
		{Lo: 0x2074, Hi: 0x2079, Stride: 1},
		{Lo: 0x2080, Hi: 0x2089, Stride: 1},
		{Lo: 0x2460, Hi: 0x2468, Stride: 1},
		{Lo: 0x2474, Hi: 0x247c, Stride: 1},
		{Lo: 0x2488, Hi: 0x2490, Stride: 1},
		{Lo: 0x24ea, Hi: 0x24ea, Stride: 1},
		{Lo: 0x24f5, Hi: 0x24fd, Stride: 1},
		{Lo: 0x24ff, Hi: 0x24ff, Stride: 1},
		{Lo: 0x2776, Hi: 0x277e, Stride: 1},
		{Lo: 0x2780, Hi: 0x2788, Stride: 1},
		{Lo: 0x278a, Hi: 0x2792, Stride: 1},
	},
	R32: []unicode.Range32{
		{Lo: 0x10a40, Hi: 0x10a43, Stride: 1},
		{Lo: 0x10e60, Hi: 0x10e68, Stride: 1},
		{Lo: 0x11052, Hi: 0x1105a, Stride: 1},
		{Lo: 0x1f100, Hi: 0x1f10a, Stride: 1},
	},
}

var numericIdeographs = &unicode.RangeTable{
	R16: []unicode.Range16{
		{Lo: 0x3405, Hi: 0x3405, Stride: 1},
		{Lo: 0x3483, Hi: 0x3483, Stride: 1},
		{Lo: 0x382a, Hi: 0x382a, Stride: 1},
		{Lo: 0x3b4d, Hi: 0x3b4d, Stride: 1},
		{Lo: 0x4e00, Hi: 0x4e00, Stride: 1},
		{Lo: 0x4e03, Hi: 0x4e03, Stride: 1},
		{Lo: 0x4e07, Hi: 0x4e07, Stride: 1},
		{Lo: 0x4e09, Hi: 0x4e09, Stride: 1},
		{Lo: 0x4e5d, Hi: 0x4e5d, Stride: 1},
		{Lo: 0x4e8c, Hi: 0x4e8c, Stride: 1},
		{Lo: 0x4e94, Hi: 0x4e94, Stride: 1},
		{Lo: 0x4e96, Hi: 0x4e96, Stride: 1},
		{Lo: 0x4ebf, Hi: 0x4ec0, Stride: 1},
		{Lo: 0x4edf, Hi: 0x4edf, Stride: 1},
		{Lo: 0x4ee8, Hi: 0x4ee8, Stride: 1},
		{Lo: 0x4f0d, Hi: 0x4f0d, Stride: 1},
		{Lo: 0x4f70, Hi: 0x4f70, Stride: 1},
		{Lo: 0x5104, Hi: 0x5104, Stride: 1},
		{Lo: 0x5146, Hi: 0x5146, Stride: 1},
		{Lo: 0x5169, Hi: 0x5169, Stride: 1},
		{Lo: 0x516b, Hi: 0x516b, Stride: 1},
		{Lo: 0x516d, Hi: 0x516d, Stride: 1},
		{Lo: 0x5341, Hi: 0x5341, Stride: 1},
		{Lo: 0x5343, Hi: 0x5345, Stride: 1},
		{Lo: 0x534c, Hi: 0x534c, Stride: 1},
		{Lo: 0x53c1, Hi: 0x53c4, Stride: 1},
		{Lo: 0x56db, Hi: 0x56db, Stride: 1},
		{Lo: 0x58f1, Hi: 0x58f1, Stride: 1},
		{Lo: 0x58f9, Hi: 0x58f9, Stride: 1},
		{Lo: 0x5e7a, Hi: 0x5e7a, Stride: 1},
		{Lo: 0x5efe, Hi: 0x5eff, Stride: 1},
		{Lo: 0x5f0c, Hi: 0x5f0e, Stride: 1},
		{Lo: 0x5f10, Hi: 0x5f10, Stride: 1},
		{Lo: 0x62fe, Hi: 0x62fe, Stride: 1},
		{Lo: 0x634c, Hi: 0x634c, Stride: 1},
		{Lo: 0x67d2, Hi: 0x67d2, Stride: 1},
		{Lo: 0x6f06, Hi: 0x6f06, Stride: 1},
		{Lo: 0x7396, Hi: 0x7396, Stride: 1},
		{Lo: 0x767e, Hi: 0x767e, Stride: 1},
		{Lo: 0x8086, Hi: 0x8086, Stride: 1},
		{Lo: 0x842c, Hi: 0x842c, Stride: 1},
		{Lo: 0x8cae, Hi: 0x8cae, Stride: 1},
		{Lo: 0x8cb3, Hi: 0x8cb3, Stride: 1},
		{Lo: 0x8d30, Hi: 0x8d30, Stride: 1},
		{Lo: 0x9621, Hi: 0x9621, Stride: 1},
		{Lo: 0x9646, Hi: 0x9646, Stride: 1},
		{Lo: 0x964c, Hi: 0x964c, Stride: 1},
		{Lo: 0x9678, Hi: 0x9678, Stride: 1},
		{Lo: 0x96f6, Hi: 0x96f6, Stride: 1},
		{Lo: 0xf96b, Hi: 0xf96b, Stride: 1},
		{Lo: 0xf973, Hi: 0xf973, Stride: 1},
		{Lo: 0xf978, Hi: 0xf978, Stride: 1},
		{Lo: 0xf9b2, Hi: 0xf9b2, Stride: 1},
		{Lo: 0xf9d1, Hi: 0xf9d1, Stride: 1},
		{Lo: 0xf9d3, Hi: 0xf9d3, Stride: 1},
		{Lo: 0xf9fd, Hi: 0xf9fd, Stride: 1},
	},
	R32: []unicode.Range32{
		{Lo: 0x20001, Hi: 0x20001, Stride: 1},
		{Lo: 0x20064, Hi: 0x20064, Stride: 1},
		{Lo: 0x200e2, Hi: 0x200e2, Stride: 1},
		{Lo: 0x20121, Hi: 0x20121, Stride: 1},
		{Lo: 0x2092a, Hi: 0x2092a, Stride: 1},
		{Lo: 0x20983, Hi: 0x20983, Stride: 1},
		{Lo: 0x2098c, Hi: 0x2098c, Stride: 1},
		{Lo: 0x2099c, Hi: 0x2099c, Stride: 1},
		{Lo: 0x20aea, Hi: 0x20aea, Stride: 1},
		{Lo: 0x20afd, Hi: 0x20afd, Stride: 1},
		{Lo: 0x20b19, Hi: 0x20b19, Stride: 1},
		{Lo: 0x22390, Hi: 0x22390, Stride: 1},
		{Lo: 0x22998, Hi: 0x22998, Stride: 1},
		{Lo: 0x23b1b, Hi: 0x23b1b, Stride: 1},
		{Lo: 0x2626d, Hi: 0x2626d, Stride: 1},
		{Lo: 0x2f890, Hi: 0x2f890, Stride: 1},
	},
}
