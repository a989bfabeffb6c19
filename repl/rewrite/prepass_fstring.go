// f-strings: finding their end and their replacement fields.

package rewrite

import "strings"

// fstring is one f-string literal; offsets are into the source.
type fstring struct {
	body, end int // the first byte after the opening quote; the byte after the closing quote
	quote     string
	raw       bool
	parts     []fpart
}

// fpart is literal text (field == nil), the source range [start, end)
// with escapes and doubled braces as written, or a replacement field.
type fpart struct {
	start, end int
	field      *ffield
}

// ffield is {expr[=][!conv][:spec]}.
type ffield struct {
	open, close        int     // the braces
	exprStart, exprEnd int     // the expression
	debugEnd           int     // with '=', the end of the text shown before the value ("x = ")
	conv               byte    // 'r', 's', 'a' or 0
	spec               []fpart // the format spec: literal text and nested fields
	hasSpec            bool
}

// parseFString parses an f-string body starting at body (after the
// opening quote) up to its closing quote.
func parseFString(src string, body, end int, quote string, raw bool) (*fstring, error) {
	fs := &fstring{body: body, quote: quote, raw: raw}
	parts, j, err := parseFParts(src, body, end, quote, raw, false)
	if err != nil {
		return nil, err
	}
	fs.parts, fs.end = parts, j+len(quote)
	return fs, nil
}

// parseFParts reads literal text and fields until the closing quote (or,
// in a format spec, until the '}' closing the field) and returns the
// position of that terminator.
func parseFParts(src string, i, end int, quote string, raw, inSpec bool) ([]fpart, int, error) {
	var parts []fpart
	litStart := i
	flush := func(j int) {
		if j > litStart {
			parts = append(parts, fpart{start: litStart, end: j})
		}
	}
	for j := i; j < end; {
		c := src[j]
		switch {
		case !inSpec && strings.HasPrefix(src[j:end], quote):
			flush(j)
			return parts, j, nil
		case inSpec && c == '}':
			flush(j)
			return parts, j, nil
		case inSpec && strings.HasPrefix(src[j:end], quote):
			return nil, 0, &scanError{j, "f-string: expecting '}'"}
		case c == '\\':
			switch {
			case j+1 >= end:
				j++
			case !raw && src[j+1] == 'N' && j+2 < end && src[j+2] == '{':
				k := strings.IndexByte(src[j:end], '}')
				if k < 0 {
					return nil, 0, &scanError{j, "f-string: unterminated \\N{...} escape"}
				}
				j += k + 1
			case raw && src[j+1] != '\\' && src[j+1] != quote[0]:
				j++
			default:
				j += 2
			}
		case (c == '\n' || c == '\r') && len(quote) == 1 && !inSpec:
			return nil, 0, &scanError{j, "f-string: unterminated string"}
		case c == '{' && !inSpec && j+1 < end && src[j+1] == '{':
			j += 2
		case c == '}' && !inSpec && j+1 < end && src[j+1] == '}':
			j += 2
		case c == '}':
			return nil, 0, &scanError{j, "f-string: single '}' is not allowed"}
		case c == '{':
			flush(j)
			f, k, err := parseFField(src, j, end, quote, raw)
			if err != nil {
				return nil, 0, err
			}
			parts = append(parts, fpart{start: j, end: k, field: f})
			j, litStart = k, k
		default:
			j++
		}
	}
	return nil, 0, &scanError{i, "f-string: unterminated string"}
}

// parseFField parses the field whose '{' is at open and returns it with
// the position after its '}'.
func parseFField(src string, open, end int, quote string, raw bool) (*ffield, int, error) {
	f := &ffield{open: open, exprStart: open + 1}
	depth := 0
	j := open + 1
	for {
		if j >= end {
			return nil, 0, &scanError{open, "f-string: expecting '}'"}
		}
		c := src[j]
		if depth == 0 && (c == '}' || c == ':' || (c == '!' && !(j+1 < end && src[j+1] == '='))) {
			break
		}
		if depth == 0 && c == '=' && isDebugEquals(src, j, end) {
			f.exprEnd = j
			j++
			for j < end && (src[j] == ' ' || src[j] == '\t') {
				j++
			}
			f.debugEnd = j
			break
		}
		switch {
		case c == '(' || c == '[' || c == '{':
			depth++
			j++
		case c == ')' || c == ']' || c == '}':
			depth--
			j++
		case c == '"' || c == '\'':
			k, err := scanString(src, j, j, end)
			if err != nil {
				return nil, 0, &scanError{open, "f-string: expecting '}'"}
			}
			j = k
		case isNameStart(src, j):
			k := j
			for k < end && (src[k] == '_' || src[k] >= 'a' && src[k] <= 'z' || src[k] >= 'A' && src[k] <= 'Z' || src[k] >= '0' && src[k] <= '9' || src[k] >= 0x80) {
				k++
			}
			if k < end && (src[k] == '"' || src[k] == '\'') && isStringPrefix(src[j:k]) {
				e, err := scanString(src, j, k, end)
				if err != nil {
					return nil, 0, &scanError{open, "f-string: expecting '}'"}
				}
				k = e
			}
			j = k
		case c == '\\' && !raw && len(quote) == 1:
			return nil, 0, &scanError{j, "f-string: expression part cannot include a backslash"}
		default:
			j++
		}
	}
	if f.exprEnd == 0 {
		f.exprEnd = j
	}
	if strings.TrimSpace(src[f.exprStart:f.exprEnd]) == "" {
		return nil, 0, &scanError{open, "f-string: empty expression not allowed"}
	}
	if j < end && src[j] == '!' {
		if j+1 >= end || !strings.ContainsRune("rsa", rune(src[j+1])) {
			return nil, 0, &scanError{j, "f-string: invalid conversion character: expected 's', 'r', or 'a'"}
		}
		f.conv = src[j+1]
		j += 2
	}
	if j < end && src[j] == ':' {
		spec, k, err := parseFParts(src, j+1, end, quote, raw, true)
		if err != nil {
			return nil, 0, err
		}
		f.spec, f.hasSpec, j = spec, true, k
	}
	if j >= end || src[j] != '}' {
		return nil, 0, &scanError{open, "f-string: expecting '}'"}
	}
	f.close = j
	return f, j + 1, nil
}

// isDebugEquals reports whether the '=' at j ends a self-documenting
// expression ({x=}, {x = !r}, {x=:>5}) rather than being part of an
// operator.
func isDebugEquals(src string, j, end int) bool {
	if j > 0 && strings.ContainsRune("=!<>", rune(src[j-1])) {
		return false
	}
	if j+1 < end && src[j+1] == '=' {
		return false
	}
	k := j + 1
	for k < end && (src[k] == ' ' || src[k] == '\t') {
		k++
	}
	return k < end && (src[k] == '}' || src[k] == '!' || src[k] == ':')
}

// fields returns the replacement fields of parts in evaluation order: a
// field, then the fields nested in its format spec.
func fieldsOf(parts []fpart) []*ffield {
	var out []*ffield
	for _, p := range parts {
		if p.field != nil {
			out = append(out, p.field)
			out = append(out, fieldsOf(p.field.spec)...)
		}
	}
	return out
}
