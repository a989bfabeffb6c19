package pystr

import "strings"

// ExpandTabs is Python's str.expandtabs(size): each tab becomes the spaces
// to the next multiple of size, columns counted in characters from each
// line's start (after \n or \r); a size of 0 or less removes the tabs.
func ExpandTabs(s string, size int) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	col := 0
	for _, r := range s {
		switch r {
		case '\t':
			if size > 0 {
				n := size - col%size
				b.WriteString(strings.Repeat(" ", n))
				col += n
			}
		case '\n', '\r':
			b.WriteRune(r)
			col = 0
		default:
			b.WriteRune(r)
			col++
		}
	}
	return b.String()
}
