package pyre

import "fmt"

// pySyntaxError is CPython's message for the commonest mistakes in a
// pattern neither engine compiles (a quantifier with nothing to repeat, a
// parenthesis or a bracket left open or closed twice), with the position
// in characters CPython gives; "" when the pattern has none of them.
// Flags, escapes and character classes are skipped as CPython's parser
// skips them, so only a real mistake is named.
func pySyntaxError(src string) string {
	p := []rune(src)
	var open []int // positions of the groups still open
	canRepeat := false
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '\\':
			i++
			canRepeat = true
		case '[':
			end := classEnd(p, i)
			if end < 0 {
				return fmt.Sprintf("unterminated character set at position %d", i)
			}
			i, canRepeat = end, true
		case '(':
			open = append(open, i)
			if i+1 < len(p) && p[i+1] == '?' {
				i++ // (?:, (?P<name>, (?=: the ? is no quantifier
			}
			canRepeat = false
		case ')':
			if len(open) == 0 {
				return fmt.Sprintf("unbalanced parenthesis at position %d", i)
			}
			open, canRepeat = open[:len(open)-1], true
		case '|':
			canRepeat = false
		case '*', '+', '?', '{':
			if c == '{' && !isRepeatBrace(p, i) {
				canRepeat = true
				continue
			}
			if !canRepeat {
				return fmt.Sprintf("nothing to repeat at position %d", i)
			}
			if c == '{' {
				for i < len(p) && p[i] != '}' {
					i++
				}
			}
			if i+1 < len(p) && (p[i+1] == '?' || p[i+1] == '+') {
				i++ // lazy or possessive
			}
			if i+1 < len(p) && (p[i+1] == '*' || p[i+1] == '+' || p[i+1] == '?' || p[i+1] == '{' && isRepeatBrace(p, i+1)) {
				return fmt.Sprintf("multiple repeat at position %d", i+1)
			}
			canRepeat = false
		default:
			canRepeat = c != '^' && c != '$'
		}
	}
	if len(open) > 0 {
		return fmt.Sprintf("missing ), unterminated subpattern at position %d", open[len(open)-1])
	}
	return ""
}

// classEnd is the position of the ] closing the class opened at i, or -1.
func classEnd(p []rune, i int) int {
	j := i + 1
	if j < len(p) && p[j] == '^' {
		j++
	}
	if j < len(p) && p[j] == ']' {
		j++ // a ] first is a literal
	}
	for ; j < len(p); j++ {
		switch p[j] {
		case '\\':
			j++
		case ']':
			return j
		}
	}
	return -1
}

// isRepeatBrace reports whether the { at i opens {m}, {m,}, {,n} or {m,n}
// (anything else is a literal brace, in Python as here).
func isRepeatBrace(p []rune, i int) bool {
	j, digits, comma := i+1, 0, false
	for ; j < len(p) && p[j] != '}'; j++ {
		switch {
		case p[j] >= '0' && p[j] <= '9':
			digits++
		case p[j] == ',' && !comma:
			comma = true
		default:
			return false
		}
	}
	return j < len(p) && digits > 0
}
