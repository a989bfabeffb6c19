// grep's pattern language: POSIX ERE read by Go's regexp, with the texts the two read differently refused.

package tools

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
)

// pattern is a compiled grep pattern. Its regular expression can never match
// across a newline, and ^ $ \A \z mean the start and end of a line, so it can
// be run over a buffer of many lines and every match lies inside one line.
type pattern struct {
	re      *regexp.Regexp
	prog    *syntax.Prog // the same expression, for the DFA
	literal []byte       // when the whole pattern is this exact byte string
	needles []needle     // every matching line contains one of these (nil: no prefilter)
	fold    bool         // needles are ASCII-lowercased and must be searched in lowercased text
}

// compilePattern checks and compiles a grep pattern (see the package doc).
func compilePattern(expr string, fixed, ignoreCase bool) (*pattern, error) {
	if expr == "" {
		return nil, errors.New("grep: pattern is empty; give the text or regular expression to search for " +
			"(to see a file use read_file, to see files use list)")
	}
	if strings.Contains(expr, "\n") {
		return nil, fmt.Errorf("grep: pattern %s contains a newline, and grep matches one line at a time; "+
			"search for one line's text, or for several alternatives write a|b", showPattern(expr))
	}
	flags := syntax.Perl &^ syntax.OneLine &^ syntax.ClassNL
	if fixed {
		flags = syntax.Literal
	} else if err := checkERE(expr); err != nil {
		return nil, err
	}
	if ignoreCase {
		flags |= syntax.FoldCase
	}
	src := expr
	if !fixed {
		src = posixSpace(expr)
	}
	tree, err := syntax.Parse(src, flags)
	if err != nil {
		return nil, explainSyntax(expr, err)
	}
	if err := lineSafe(tree); err != nil {
		return nil, fmt.Errorf("grep: pattern %s: %v", showPattern(expr), err)
	}
	re, err := regexp.Compile(tree.String())
	if err != nil {
		return nil, explainSyntax(expr, err)
	}
	prog, err := syntax.Compile(tree.Simplify())
	if err != nil {
		return nil, explainSyntax(expr, err)
	}
	p := &pattern{re: re, prog: prog}
	if tree.Op == syntax.OpLiteral && tree.Flags&syntax.FoldCase == 0 {
		p.literal = []byte(string(tree.Rune))
	}
	p.needles, p.fold = requiredNeedles(tree)
	return p, nil
}

// lineSafe rewrites a parsed expression so that it matches within one line:
// classes and . lose the newline, and text anchors become line anchors. A
// literal newline (written \n or \x0a) can never match and is refused.
func lineSafe(re *syntax.Regexp) error {
	switch re.Op {
	case syntax.OpAnyChar:
		re.Op = syntax.OpAnyCharNotNL
	case syntax.OpCharClass:
		re.Rune = withoutNewline(re.Rune)
		if len(re.Rune) == 0 {
			re.Op = syntax.OpNoMatch
		}
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if r == '\n' {
				return errors.New("a newline (\\n) never occurs inside a line; search for the text on one side of it")
			}
		}
	case syntax.OpBeginText:
		re.Op = syntax.OpBeginLine
	case syntax.OpEndText:
		re.Op = syntax.OpEndLine
		re.Flags &^= syntax.WasDollar
	}
	for _, sub := range re.Sub {
		if err := lineSafe(sub); err != nil {
			return err
		}
	}
	return nil
}

// withoutNewline removes '\n' from a class given as sorted [lo, hi] pairs.
func withoutNewline(ranges []rune) []rune {
	out := make([]rune, 0, len(ranges)+2)
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		if lo > '\n' || hi < '\n' {
			out = append(out, lo, hi)
			continue
		}
		if lo < '\n' {
			out = append(out, lo, '\n'-1)
		}
		if hi > '\n' {
			out = append(out, '\n'+1, hi)
		}
	}
	return out
}

// checkERE refuses the texts that POSIX ERE (as GNU grep reads it) and Go's
// regexp both accept but read differently. Escapes that POSIX leaves
// undefined and GNU grep warns about (\d, \t, \x41, \p{L}, (?i), ...) are
// Go's extensions and accepted.
func checkERE(p string) error {
	for i := 0; i < len(p); {
		switch p[i] {
		case '\\':
			if i+1 >= len(p) {
				return nil // Go reports the trailing backslash
			}
			if err := checkEscape(p, i); err != nil {
				return err
			}
			if p[i+1] == 'Q' { // Go's \Q...\E quotes everything up to \E
				end := strings.Index(p[i+2:], `\E`)
				if end < 0 {
					return nil
				}
				i += 2 + end + 2
				continue
			}
			i += 2
		case '[':
			end, err := checkBracket(p, i)
			if err != nil || end < 0 {
				return err // end < 0: unterminated, Go reports it
			}
			i = end + 1
		case '{':
			if err := checkInterval(p, i); err != nil {
				return err
			}
			if end := minOneInterval(p, i); end > 0 && end+1 < len(p) && p[end+1] == '?' {
				return optionalRepeat(p, p[i:end+1])
			}
			i++
		case '+':
			if i+1 < len(p) && p[i+1] == '?' {
				return optionalRepeat(p, "+")
			}
			i++
		default:
			i++
		}
	}
	return nil
}

func refuse(p, what, instead string) error {
	return fmt.Errorf("grep: pattern %s: %s; %s", showPattern(p), what, instead)
}

func checkEscape(p string, i int) error {
	c := p[i+1]
	switch {
	case c >= '1' && c <= '9':
		return refuse(p, fmt.Sprintf(`back-reference \%c is not supported (Go's regexp has no back-references)`, c),
			"write the repeated text out, or search for the first part and check the lines with read_file")
	case c == '<' || c == '>':
		return refuse(p, fmt.Sprintf(`\%c (start or end of a word) is read by Go as a literal %c`, c, c),
			`write \b instead (a word boundary), e.g. \bword\b`)
	case c == '`' || c == '\'':
		return refuse(p, fmt.Sprintf(`\%c (start or end of the text) is read by Go as a literal %c`, c, c),
			"write ^ for the start of a line or $ for its end")
	case c == 'n':
		return refuse(p, `\n (a newline) never occurs inside a line, and grep matches one line at a time`,
			"search for the text on one side of the line break")
	}
	return nil
}

// posixSpace rewrites \s and \S outside brackets as [[:space:]] and
// [^[:space:]]: GNU grep reads \s as [[:space:]], which holds the vertical
// tab, and Go reads it as [\t\n\f\r ], which does not. p has passed
// checkERE, so a backslash inside brackets is one of [\\].
func posixSpace(p string) string {
	if !strings.Contains(p, `\s`) && !strings.Contains(p, `\S`) {
		return p
	}
	var b strings.Builder
	for i := 0; i < len(p); {
		switch c := p[i]; {
		case c == '\\' && i+1 < len(p) && p[i+1] == 'Q':
			end := strings.Index(p[i+2:], `\E`)
			if end < 0 {
				b.WriteString(p[i:])
				return b.String()
			}
			b.WriteString(p[i : i+2+end+2])
			i += 2 + end + 2
		case c == '\\' && i+1 < len(p):
			switch p[i+1] {
			case 's':
				b.WriteString("[[:space:]]")
			case 'S':
				b.WriteString("[^[:space:]]")
			default:
				b.WriteString(p[i : i+2])
			}
			i += 2
		case c == '[':
			end, err := checkBracket(p, i)
			if err != nil || end < 0 {
				b.WriteString(p[i:])
				return b.String()
			}
			b.WriteString(p[i : end+1])
			i = end + 1
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// checkBracket checks the bracket expression starting at p[i] == '[' and
// returns the index of its closing ']' (-1 when there is none).
func checkBracket(p string, i int) (int, error) {
	j := i + 1
	if j < len(p) && p[j] == '^' {
		j++
	}
	if j < len(p) && p[j] == ']' {
		j++
	}
	for j < len(p) {
		switch c := p[j]; {
		case c == ']':
			return j, nil
		case c == '[' && j+1 < len(p) && strings.IndexByte(":=.", p[j+1]) >= 0:
			kind := p[j+1]
			end := strings.Index(p[j+2:], string(kind)+"]")
			if end < 0 {
				return -1, nil
			}
			name := p[j+2 : j+2+end]
			if err := checkClassName(p, kind, name); err != nil {
				return -1, err
			}
			j += 2 + end + 2
		case c == '\\':
			if j+1 < len(p) && p[j+1] == '\\' {
				j += 2 // [\\] is one backslash in both readings
				continue
			}
			if j+1 >= len(p) {
				return -1, nil
			}
			return -1, bracketEscape(p, p[j+1])
		default:
			j++
		}
	}
	return -1, nil
}

func checkClassName(p string, kind byte, name string) error {
	switch kind {
	case '=':
		return refuse(p, fmt.Sprintf("equivalence class [=%s=] is not supported by Go", name),
			fmt.Sprintf("list the characters instead, e.g. [%s]", name))
	case '.':
		return refuse(p, fmt.Sprintf("collating symbol [.%s.] is not supported by Go", name),
			fmt.Sprintf("write the character itself, e.g. [%s]", name))
	}
	if name == "word" {
		return refuse(p, "[:word:] is not a POSIX class (GNU grep rejects it, Go reads it as [0-9A-Za-z_])",
			"write [[:alnum:]_] or \\w")
	}
	return nil
}

// bracketEscape explains a backslash inside [...]: POSIX reads it as a
// literal backslash, Go as an escape.
func bracketEscape(p string, c byte) error {
	what := fmt.Sprintf(`inside [...] POSIX ERE reads \%c as a backslash and %c, but Go reads it as an escape`, c, c)
	var instead string
	switch c {
	case 'd':
		instead = "write [:digit:] inside the brackets (e.g. [[:digit:].]) or \\d outside them"
	case 'D':
		instead = "write [^[:digit:]] or \\D outside brackets"
	case 's':
		instead = "write [:space:] inside the brackets (e.g. [[:space:],]) or \\s outside them"
	case 'S':
		instead = "write [^[:space:]] or \\S outside brackets"
	case 'w':
		instead = "write [:alnum:]_ inside the brackets (e.g. [[:alnum:]_.-]) or \\w outside them"
	case 'W':
		instead = "write [^[:alnum:]_] or \\W outside brackets"
	case ']':
		instead = "put ] first to include it, e.g. []abc] or [^]abc]"
	case '-':
		instead = "put - first or last to include it, e.g. [abc-]"
	case '^':
		instead = "put ^ anywhere but first to include it, e.g. [a^]"
	case 'n':
		instead = "leave the newline out: a line never contains one"
	case 't':
		instead = "put a literal tab character inside the brackets"
	default:
		instead = fmt.Sprintf("write %c without the backslash (inside brackets only ] ^ - are special), or [\\\\] for a backslash", c)
	}
	return refuse(p, what, instead)
}

// checkInterval refuses {,n} and {,}, which POSIX (GNU) reads as {0,n} and
// {0,} and Go as literal text.
func checkInterval(p string, i int) error {
	if i+1 >= len(p) || p[i+1] != ',' {
		return nil
	}
	j := i + 2
	for j < len(p) && p[j] >= '0' && p[j] <= '9' {
		j++
	}
	switch {
	case j >= len(p) || p[j] != '}':
		return nil
	case j == i+2:
		return refuse(p, "{,} is read by Go as literal text", "write * (or {0,})")
	}
	return refuse(p, fmt.Sprintf("%s is read by Go as literal text", p[i:j+1]),
		fmt.Sprintf("write {0,%s}", p[i+2:j]))
}

// minOneInterval returns the index of the '}' closing the interval {n},
// {n,} or {n,m} with n >= 1 that starts at p[i] == '{', or -1.
func minOneInterval(p string, i int) int {
	j := i + 1
	for j < len(p) && p[j] >= '0' && p[j] <= '9' {
		j++
	}
	if j == i+1 || strings.Trim(p[i+1:j], "0") == "" {
		return -1 // no minimum, or a minimum of 0: both readings allow an empty match
	}
	if j < len(p) && p[j] == ',' {
		j++
		for j < len(p) && p[j] >= '0' && p[j] <= '9' {
			j++
		}
	}
	if j < len(p) && p[j] == '}' {
		return j
	}
	return -1
}

// optionalRepeat refuses op followed by '?' when op needs at least one
// repetition: POSIX (GNU) reads "x+?" as "(x+)?", which also matches
// nothing, and Go as a non-greedy "x+", which does not. ("*?" and "??"
// allow an empty match in both readings, so they select the same lines.)
func optionalRepeat(p, op string) error {
	return refuse(p, fmt.Sprintf("%s? is read by POSIX as an optional repetition, (x%s)?, and by Go as a non-greedy %s, and they select different lines", op, op, op),
		fmt.Sprintf("write (x%s)? for the POSIX meaning, or %s alone", op, op))
}

// showPattern quotes a pattern for a message: between backquotes, so that
// its backslashes read as written, unless it holds a backquote or a
// character that does not print.
func showPattern(p string) string {
	if strings.ContainsRune(p, '`') || !plainText(p) {
		return strconv.Quote(p)
	}
	return "`" + p + "`"
}

// explainSyntax turns Go's parse errors into advice in terms of the pattern.
func explainSyntax(p string, err error) error {
	var se *syntax.Error
	if !errors.As(err, &se) {
		return fmt.Errorf("grep: invalid pattern %s: %v", showPattern(p), err)
	}
	var advice string
	switch se.Code {
	case syntax.ErrMissingRepeatArgument:
		advice = fmt.Sprintf("nothing before %s to repeat; write \\%s to match it literally", se.Expr, se.Expr[:1])
	case syntax.ErrInvalidRepeatOp:
		advice = fmt.Sprintf("%s repeats a repetition; write one operator, or group the first: (a*)*", se.Expr)
	case syntax.ErrInvalidRepeatSize:
		advice = fmt.Sprintf("bad repeat count %s: counts go up to 1000 with min <= max", se.Expr)
	case syntax.ErrInvalidEscape:
		advice = fmt.Sprintf("unknown escape %s; write the character without the backslash, or \\\\ for a backslash", se.Expr)
	case syntax.ErrTrailingBackslash:
		advice = "the pattern ends with a backslash; write \\\\ for a literal backslash"
	case syntax.ErrMissingBracket:
		advice = fmt.Sprintf("missing ] in %s; write \\[ for a literal [", se.Expr)
	case syntax.ErrMissingParen, syntax.ErrUnexpectedParen:
		advice = "unbalanced parentheses; write \\( or \\) for literal ones"
	case syntax.ErrInvalidCharRange, syntax.ErrInvalidCharClass:
		advice = fmt.Sprintf("bad character class or range %s; ranges go low-high ([a-z]); classes are "+
			"[:alnum:] [:alpha:] [:blank:] [:cntrl:] [:digit:] [:graph:] [:lower:] [:print:] [:punct:] [:space:] [:upper:] [:xdigit:]", se.Expr)
	default:
		advice = se.Error()
	}
	return fmt.Errorf("grep: invalid pattern %s: %s", showPattern(p), advice)
}
