// A trailing lookahead, X(?=Y), run on RE2 as X(Y) with the match ending
// where Y's group starts.

package pyre

// RE2 has no lookaround. A positive lookahead ending the pattern (and not
// under a top-level |) keeps Python's meaning as X(Y): leftmost-first RE2
// takes, at the leftmost start, the first extent of X (in a backtracking
// engine's order) that Y can follow, which is the extent Python's X(?=Y)
// takes; the match then ends where Y's group starts, the group is not
// the user's, and the next search starts at the end of X, so that text Y
// looked at can be matched again (re.split(r"\n(?=class )", s)).

// trailingLookahead returns X and Y when src is X(?=Y) as above.
func trailingLookahead(src string) (x, y string, ok bool) {
	last := -1
	scanGroups(src, func(i int, c byte, depth int) bool {
		switch {
		case c == '(' && depth == 0:
			last = i
		case c == ')' && depth == 0 && i == len(src)-1 && last >= 0:
			x, y = src[:last], src[last+1:i]
			ok = len(y) >= 2 && y[:2] == "?=" && !topLevelBar(x)
			if ok {
				y = y[2:]
			} else {
				x, y = "", ""
			}
		}
		return true
	})
	return x, y, ok
}

// topLevelBar reports whether x holds a | outside groups and classes.
func topLevelBar(x string) bool {
	bar := false
	scanGroups(x, func(_ int, c byte, depth int) bool {
		bar = c == '|' && depth == 0
		return !bar
	})
	return bar
}

// scanGroups calls fn for each (, ) and | of the pattern src that is
// neither escaped nor in a character class, with the depth of groups it
// stands at (for a parenthesis: outside it), until fn returns false.
func scanGroups(src string, fn func(i int, c byte, depth int) bool) {
	depth, class := 0, false
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\\':
			i++
		case class:
			if c == ']' {
				class = false
			}
		case c == '[':
			class = true
			if i+1 < len(src) && src[i+1] == '^' {
				i++
			}
			if i+1 < len(src) && src[i+1] == ']' {
				i++ // a ] first in a class is literal
			}
		case c == '(':
			if !fn(i, c, depth) {
				return
			}
			depth++
		case c == ')':
			depth--
			if !fn(i, c, depth) {
				return
			}
		case c == '|':
			if !fn(i, c, depth) {
				return
			}
		}
	}
}

// aheadGroup names the group holding Y; groups inside Y are the user's
// and come after it.
const aheadGroup = "__py_lookahead"

// cutAhead ends a location (in text) where the lookahead's group g
// starts and drops the group; kFull needs the match to reach end.
func cutAhead(loc []int, g int, k Kind, end int) []int {
	if loc == nil || g == 0 {
		return loc
	}
	loc[1] = loc[2*g]
	loc = append(loc[:2*g], loc[2*g+2:]...)
	if k == Full && loc[1] != end {
		return nil
	}
	return loc
}
