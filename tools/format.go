// Shared output formats: numbered lines, path quoting, times, and the output cap.

package tools

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Numbered renders lines as a numbered view, the first one numbered first:
// each line as fmt.Sprintf("%6d\t%s\n", n, line), like `cat -n`. It is the one
// numbered-line format shared by read_file and apply_patch.
func Numbered(lines []string, first int) string {
	var b strings.Builder
	n := 0
	for _, l := range lines {
		n += len(l) + 8
	}
	b.Grow(n)
	for i, l := range lines {
		fmt.Fprintf(&b, "%6d\t%s\n", first+i, l)
	}
	return b.String()
}

// Truncate caps s at limit bytes. When s is longer, the result keeps a prefix
// of s, cut after the last complete line when that keeps at least half of the
// room and otherwise on a UTF-8 character boundary, followed by a notice that
// states how many bytes of s were omitted and then hint (when not empty). The
// whole result, notice included, fits in limit bytes unless limit is too
// small to hold the notice, in which case only the notice is returned. A
// limit of zero or less means no limit.
func Truncate(s string, limit int, hint string) string {
	return truncate(s, limit, func(string) string { return hint })
}

// truncate is Truncate with a hint computed from the kept prefix (read_file
// uses it to name the first line not shown).
func truncate(s string, limit int, hint func(kept string) string) string {
	return truncatePrefix(s, len(s), limit, hint)
}

// truncatePrefix is truncate for a text of which only a prefix s is at hand
// (the rest was counted, not kept): total is the whole text's length, and s
// holds at least min(total, limit) bytes of it.
func truncatePrefix(s string, total, limit int, hint func(kept string) string) string {
	if limit <= 0 || total <= limit {
		return s
	}
	// The notice's length depends on the kept prefix (the omitted count and
	// the hint); reserve room for the longest it can be, then cut.
	reserve := len(notice(total, hint(s[:cut(s, limit)])))
	for {
		keep := cut(s, limit-reserve)
		n := notice(total-keep, hint(s[:keep]))
		if keep+len(n) <= limit || keep == 0 {
			return s[:keep] + n
		}
		reserve += keep + len(n) - limit
	}
}

// cut returns how many leading bytes of s to keep within n bytes.
func cut(s string, n int) int {
	if n <= 0 {
		return 0
	}
	if n >= len(s) {
		return len(s)
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	if j := strings.LastIndexByte(s[:i], '\n'); j >= 0 && j+1 >= i/2 {
		return j + 1
	}
	return i
}

func notice(omitted int, hint string) string {
	if hint != "" {
		hint = " " + hint
	}
	return fmt.Sprintf("\n[output truncated: %d bytes omitted.%s]\n", omitted, hint)
}

// quotePath returns p as the tools print it: unchanged when it is plain, and
// otherwise quoted and escaped as a Go string literal (strconv.Quote). A path
// is plain when it is valid UTF-8 and every character is printable and none
// is a space, a quote (" ' `), a backslash, or a character that could be
// confused with the separators of the output lines (none today).
func quotePath(p string) string {
	if plainPath(p) {
		return p
	}
	return strconv.Quote(p)
}

func plainPath(p string) bool {
	if p == "" || !utf8.ValidString(p) {
		return false
	}
	for _, r := range p {
		switch {
		case r == ' ', r == '"', r == '\'', r == '`', r == '\\':
			return false
		case !unicode.IsPrint(r):
			return false
		}
	}
	return true
}

// plainText reports whether s is valid UTF-8 made of printable characters.
func plainText(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || !unicode.IsPrint(r) {
			return false
		}
	}
	return utf8.ValidString(s)
}

// mtimeLayout is the listing's modification time: UTC, nine fractional digits.
const mtimeLayout = "2006-01-02T15:04:05.000000000Z"

func formatTime(t time.Time) string {
	return t.UTC().Format(mtimeLayout)
}
