// difflib.Differ (and ndiff): line diffs with "?" guide lines marking the
// characters that changed between similar lines, as CPython 3.11 writes
// them.

package pytext

import (
	"strings"
	"unicode"
)

// differ is Differ(linejunk, charjunk); a nil junk function is None.
type differ struct {
	linejunk, charjunk func(string) (bool, error)
}

func (d *differ) compare(a, b []string) ([]string, error) {
	ids := map[string]int{}
	m := &seqMatch{autojunk: true}
	if d.linejunk != nil {
		rev := map[int]string{}
		m.junk = func(id int) (bool, error) { return d.linejunk(rev[id]) }
		ai, bi := stringIDs(ids, a), stringIDs(ids, b)
		for s, id := range ids {
			rev[id] = s
		}
		m.setA(ai)
		if err := m.setB(bi); err != nil {
			return nil, err
		}
	} else {
		m.setA(stringIDs(ids, a))
		m.setB(stringIDs(ids, b))
	}
	var out []string
	for _, c := range m.opcodes() {
		switch c.tag {
		case "replace":
			lines, err := d.fancyReplace(a, c.i1, c.i2, b, c.j1, c.j2)
			if err != nil {
				return nil, err
			}
			out = append(out, lines...)
		case "delete":
			out = dump(out, "-", a, c.i1, c.i2)
		case "insert":
			out = dump(out, "+", b, c.j1, c.j2)
		case "equal":
			out = dump(out, " ", a, c.i1, c.i2)
		}
	}
	return out, nil
}

func dump(out []string, tag string, x []string, lo, hi int) []string {
	for _, l := range x[lo:hi] {
		out = append(out, tag+" "+l)
	}
	return out
}

func plainReplace(a []string, alo, ahi int, b []string, blo, bhi int) []string {
	if bhi-blo < ahi-alo {
		return dump(dump(nil, "+", b, blo, bhi), "-", a, alo, ahi)
	}
	return dump(dump(nil, "-", a, alo, ahi), "+", b, blo, bhi)
}

// charMatcher is the SequenceMatcher(charjunk) of _fancy_replace.
func (d *differ) charMatcher() *seqMatch {
	m := &seqMatch{autojunk: true}
	if d.charjunk != nil {
		m.junk = func(id int) (bool, error) { return d.charjunk(string(rune(id))) }
	}
	return m
}

func (d *differ) fancyReplace(a []string, alo, ahi int, b []string, blo, bhi int) ([]string, error) {
	bestRatio, cutoff := 0.74, 0.75
	cr := d.charMatcher()
	eqi, eqj, besti, bestj := -1, -1, 0, 0
	for j := blo; j < bhi; j++ {
		if err := cr.setB(runeIDs(b[j])); err != nil {
			return nil, err
		}
		for i := alo; i < ahi; i++ {
			if a[i] == b[j] {
				if eqi < 0 {
					eqi, eqj = i, j
				}
				continue
			}
			cr.setA(runeIDs(a[i]))
			if cr.realQuickRatio() > bestRatio && cr.quickRatio() > bestRatio && cr.ratio() > bestRatio {
				bestRatio, besti, bestj = cr.ratio(), i, j
			}
		}
	}
	if bestRatio < cutoff {
		if eqi < 0 {
			return plainReplace(a, alo, ahi, b, blo, bhi), nil
		}
		besti, bestj = eqi, eqj
	} else {
		eqi = -1
	}
	out, err := d.fancyHelper(nil, a, alo, besti, b, blo, bestj)
	if err != nil {
		return nil, err
	}
	aelt, belt := a[besti], b[bestj]
	if eqi < 0 {
		var atags, btags strings.Builder
		cr.setA(runeIDs(aelt))
		if err := cr.setB(runeIDs(belt)); err != nil {
			return nil, err
		}
		for _, c := range cr.opcodes() {
			la, lb := c.i2-c.i1, c.j2-c.j1
			switch c.tag {
			case "replace":
				atags.WriteString(strings.Repeat("^", la))
				btags.WriteString(strings.Repeat("^", lb))
			case "delete":
				atags.WriteString(strings.Repeat("-", la))
			case "insert":
				btags.WriteString(strings.Repeat("+", lb))
			case "equal":
				atags.WriteString(strings.Repeat(" ", la))
				btags.WriteString(strings.Repeat(" ", lb))
			}
		}
		out = append(out, qformat(aelt, belt, atags.String(), btags.String())...)
	} else {
		out = append(out, "  "+aelt)
	}
	return d.fancyHelper(out, a, besti+1, ahi, b, bestj+1, bhi)
}

func (d *differ) fancyHelper(out []string, a []string, alo, ahi int, b []string, blo, bhi int) ([]string, error) {
	switch {
	case alo < ahi && blo < bhi:
		more, err := d.fancyReplace(a, alo, ahi, b, blo, bhi)
		return append(out, more...), err
	case alo < ahi:
		return dump(out, "-", a, alo, ahi), nil
	case blo < bhi:
		return dump(out, "+", b, blo, bhi), nil
	}
	return out, nil
}

func qformat(aline, bline, atags, btags string) []string {
	atags = strings.TrimRightFunc(keepOriginalWS(aline, atags), unicode.IsSpace)
	btags = strings.TrimRightFunc(keepOriginalWS(bline, btags), unicode.IsSpace)
	out := []string{"- " + aline}
	if atags != "" {
		out = append(out, "? "+atags+"\n")
	}
	out = append(out, "+ "+bline)
	if btags != "" {
		out = append(out, "? "+btags+"\n")
	}
	return out
}

func keepOriginalWS(s, tags string) string {
	var sb strings.Builder
	sr, tr := []rune(s), []rune(tags)
	for i := 0; i < len(sr) && i < len(tr); i++ {
		if tr[i] == ' ' && unicode.IsSpace(sr[i]) {
			sb.WriteRune(sr[i])
		} else {
			sb.WriteRune(tr[i])
		}
	}
	return sb.String()
}

// isCharacterJunk is IS_CHARACTER_JUNK: a blank or a tab.
func isCharacterJunk(ch string) bool { return ch == " " || ch == "\t" }

// isLineJunk is IS_LINE_JUNK: blank, or blank but for one "#".
func isLineJunk(line string) bool {
	t := strings.TrimLeft(line, " \t\n\r\f\v")
	t = strings.TrimPrefix(t, "#")
	return strings.TrimLeft(t, " \t\n\r\f\v") == ""
}
