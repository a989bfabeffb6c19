package pyast

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// strPart is one piece of a (possibly concatenated, possibly f-) string.
type strPart struct {
	lit  string
	expr *Node // a FormattedValue
}

// strings parses adjacent string literals into a Constant or JoinedStr.
func (p *parser) strings() *Node {
	start := p.tok()
	el, ec := p.stringEnd()
	p.strPos = Pos{start.line, start.col, el, ec}
	var parts []strPart
	fstr, bytes, nonBytes := false, false, false
	kind := any(nil)
	for i := 0; p.tok().kind == tString; i++ {
		t := p.next()
		prefix := strings.ToLower(t.val[:t.strPrefixLen])
		if i == 0 && strings.Contains(prefix, "u") {
			kind = "u"
		}
		if strings.Contains(prefix, "b") {
			bytes = true
		} else {
			nonBytes = true
		}
		body := t.val[t.strPrefixLen:]
		q := 1
		if len(body) >= 6 && (strings.HasPrefix(body, `"""`) || strings.HasPrefix(body, `'''`)) {
			q = 3
		}
		body = body[q : len(body)-q]
		raw := strings.Contains(prefix, "r")
		if strings.Contains(prefix, "f") {
			fstr = true
			parts = append(parts, p.fstring(t, body, raw, q)...)
		} else {
			parts = append(parts, strPart{lit: p.decode(t, body, raw, strings.Contains(prefix, "b"))})
		}
	}
	if bytes && nonBytes {
		p.failAt(start, false, "cannot mix bytes and nonbytes literals")
	}
	pos := p.posFrom(start)
	if !fstr {
		var b strings.Builder
		for _, pt := range parts {
			b.WriteString(pt.lit)
		}
		c := Const{Kind: CStr, Str: b.String()}
		if bytes {
			c.Kind = CBytes
		}
		return mk("Constant", pos, "value", c, "kind", kind)
	}
	return mk("JoinedStr", pos, "values", joinParts(parts, pos))
}

// joinParts merges adjacent literals and drops empty ones.
func joinParts(parts []strPart, pos Pos) []*Node {
	vals := []*Node{}
	lit := ""
	flush := func() {
		if lit != "" {
			vals = append(vals, mk("Constant", pos, "value", Const{Kind: CStr, Str: lit}, "kind", nil))
			lit = ""
		}
	}
	for _, pt := range parts {
		if pt.expr == nil {
			lit += pt.lit
			continue
		}
		flush()
		vals = append(vals, pt.expr)
	}
	flush()
	return vals
}

// decode applies a literal's backslash escapes.
func (p *parser) decode(t token, s string, raw, isBytes bool) string {
	if raw || !strings.Contains(s, `\`) {
		if isBytes {
			for i := 0; i < len(s); i++ {
				if s[i] >= 0x80 {
					p.failAt(t, false, "bytes can only contain ASCII literal characters")
				}
			}
		}
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		c = s[i]
		switch c {
		case '\n':
		case '\\', '\'', '"':
			b.WriteByte(c)
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte(7)
		case 'b':
			b.WriteByte(8)
		case 'f':
			b.WriteByte(12)
		case 'v':
			b.WriteByte(11)
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint(s[i:j], 8, 32)
			p.putRune(&b, rune(n), isBytes)
			i = j - 1
		case 'x', 'u', 'U':
			width := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
			if isBytes && c != 'x' {
				b.WriteByte('\\')
				b.WriteByte(c)
				continue
			}
			if i+1+width > len(s) {
				p.failAt(t, false, "(unicode error) 'unicodeescape' codec can't decode bytes: truncated \\"+string(c)+"XX escape")
			}
			n, err := strconv.ParseUint(s[i+1:i+1+width], 16, 32)
			if err != nil {
				p.failAt(t, false, "(unicode error) 'unicodeescape' codec can't decode bytes: truncated \\"+string(c)+"XX escape")
			}
			p.putRune(&b, rune(n), isBytes)
			i += width
		default:
			b.WriteByte('\\')
			b.WriteByte(c)
		}
	}
	return b.String()
}

func (p *parser) putRune(b *strings.Builder, r rune, isBytes bool) {
	if isBytes {
		b.WriteByte(byte(r))
		return
	}
	if !utf8.ValidRune(r) {
		r = utf8.RuneError
	}
	b.WriteRune(r)
}

// fstring splits an f-string's body into literals and FormattedValues.
func (p *parser) fstring(t token, body string, raw bool, q int) []strPart {
	// where body starts in the source
	line, col := t.line, t.col+t.strPrefixLen+q
	lineCol := func(off int) (int, int) {
		l, c := line, col
		for i := 0; i < off; i++ {
			if body[i] == '\n' {
				l++
				c = 0
			} else {
				c++
			}
		}
		return l, c
	}
	var parts []strPart
	var lit strings.Builder
	flushLit := func() {
		if lit.Len() > 0 {
			parts = append(parts, strPart{lit: p.decode(t, lit.String(), raw, false)})
			lit.Reset()
		}
	}
	i := 0
	for i < len(body) {
		c := body[i]
		if c == '{' && i+1 < len(body) && body[i+1] == '{' || c == '}' && i+1 < len(body) && body[i+1] == '}' {
			lit.WriteByte(c)
			i += 2
			continue
		}
		if c == '}' {
			p.failAt(t, false, "f-string: single '}' is not allowed")
		}
		if c != '{' {
			lit.WriteByte(c)
			i++
			continue
		}
		flushLit()
		var fv *Node
		var selfDoc string
		fv, selfDoc, i = p.fieldAt(t, body, i+1, lineCol, raw, q)
		if selfDoc != "" {
			parts = append(parts, strPart{lit: selfDoc})
		}
		parts = append(parts, strPart{expr: fv})
	}
	flushLit()
	return parts
}

// fieldAt parses a replacement field whose expression starts at body[i];
// it returns the FormattedValue, the text of a self-documenting "x="
// field, and the index after the closing brace.
func (p *parser) fieldAt(t token, body string, i int, lineCol func(int) (int, int), raw bool, q int) (*Node, string, int) {
	start := i
	depth := 0
	for i < len(body) {
		c := body[i]
		switch {
		case c == '\'' || c == '"':
			j := strings.IndexByte(body[i+1:], c)
			if j < 0 {
				p.failAt(t, false, "f-string: unterminated string")
			}
			i += j + 2
			continue
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			if depth == 0 && c == '}' {
				goto done
			}
			depth--
		case depth == 0 && (c == ':' || c == '!' && i+1 < len(body) && body[i+1] != '='):
			goto done
		case depth == 0 && c == '=' && i+1 < len(body) && body[i+1] != '=' && i > start && !strings.ContainsRune("=!<>", rune(body[i-1])):
			goto done
		case c == '#':
			p.failAt(t, false, "f-string expression part cannot include '#'")
		}
		i++
	}
	p.failAt(t, false, "f-string: expecting '}'")
done:
	exprText := body[start:i]
	if strings.TrimSpace(exprText) == "" {
		p.failAt(t, false, "f-string: empty expression not allowed")
	}
	l, c := lineCol(start)
	expr := p.subExpr(exprText, l, c)
	selfDoc := ""
	conv := -1
	if body[i] == '=' {
		selfDoc = body[start : i+1]
		i++
		for i < len(body) && body[i] == ' ' {
			selfDoc += " "
			i++
		}
	}
	if i < len(body) && body[i] == '!' {
		if i+1 >= len(body) || !strings.ContainsRune("rsa", rune(body[i+1])) {
			p.failAt(t, false, "f-string: invalid conversion character: expected 's', 'r', or 'a'")
		}
		conv = int(body[i+1])
		i += 2
	}
	var spec *Node
	pos := p.strPos
	if i < len(body) && body[i] == ':' {
		i++
		var parts []strPart
		var lit strings.Builder
		for i < len(body) && body[i] != '}' {
			if body[i] == '{' {
				if lit.Len() > 0 {
					parts = append(parts, strPart{lit: p.decode(t, lit.String(), raw, false)})
					lit.Reset()
				}
				var fv *Node
				fv, _, i = p.fieldAt(t, body, i+1, lineCol, raw, q)
				parts = append(parts, strPart{expr: fv})
				continue
			}
			lit.WriteByte(body[i])
			i++
		}
		if lit.Len() > 0 {
			parts = append(parts, strPart{lit: p.decode(t, lit.String(), raw, false)})
		}
		sp := pos
		sp.Line, sp.Col = t.line, t.col
		spec = mk("JoinedStr", sp, "values", joinParts(parts, sp))
	}
	if i >= len(body) || body[i] != '}' {
		p.failAt(t, false, "f-string: expecting '}'")
	}
	if selfDoc != "" && conv == -1 && spec == nil {
		conv = 'r'
	}
	return mk("FormattedValue", pos, "value", expr, "conversion", conv, "format_spec", spec), selfDoc, i + 1
}

// stringEnd is the end of the whole run of adjacent strings t begins or is in.
func (p *parser) stringEnd() (int, int) {
	i := p.p
	for i < len(p.toks) && p.toks[i].kind == tString {
		i++
	}
	last := p.toks[i-1]
	return last.eline, last.ecol
}

// subExpr parses an f-string's expression text found at line, col.
func (p *parser) subExpr(text string, line, col int) *Node {
	lx := &lexer{src: text, line: 1, indent: []int{0}, depth: []byte{'('}, dline: []int{1}, dcol: []int{0}, sub: true}
	lx.lines = strings.Split(text, "\n")
	if err := lx.run(); err != nil {
		panic(err)
	}
	for i := range lx.toks {
		tk := &lx.toks[i]
		if tk.line == 1 {
			tk.col += col
		}
		if tk.eline == 1 {
			tk.ecol += col
		}
		tk.line += line - 1
		tk.eline += line - 1
	}
	sub := &parser{toks: lx.toks, lines: p.lines, paren: p.paren}
	e := sub.starExpressions()
	if sub.tok().kind != tEOF {
		sub.fail("f-string: invalid syntax")
	}
	return e
}
