// Tab completion: the word before the cursor against the REPL's names,
// module names after import and from, four spaces on an empty line.

package replterm

import (
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// indent is what Tab inserts on a line holding only indentation.
const indent = "    "

// keywords are Python's keywords, offered with the names.
var keywords = []string{"and", "as", "assert", "break", "class", "continue", "def", "del", "elif",
	"else", "except", "False", "finally", "for", "from", "global", "if", "import", "in", "is",
	"lambda", "None", "nonlocal", "not", "or", "pass", "raise", "return", "True", "try", "while",
	"with", "yield"}

// importLine matches a line that names modules up to the cursor: import
// a, b or from a.
var importLine = regexp.MustCompile(`^\s*(import\s+([\w.]+\s*,\s*)*|from\s+)[\w.]*$`)

// Complete returns the completions of the text before the cursor: head
// is the text kept before the completed word, and each completion
// replaces the word. names are the names REPL code can use now (asked for
// only when a name is to be completed); modules are the names import
// finds. A name starting with "_" is offered only when the word does.
func Complete(before string, names func() []string, modules []string) (head string, completions []string) {
	if strings.TrimSpace(before) == "" {
		return before, []string{indent}
	}
	start := len(before)
	for start > 0 {
		r, w := utf8.DecodeLastRuneInString(before[:start])
		if r != '_' && r != '.' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			break
		}
		start -= w
	}
	head, word := before[:start], before[start:]
	if importLine.MatchString(before) {
		return head, withPrefix(modules, word, true)
	}
	if word == "" || strings.Contains(word, ".") || unicode.IsDigit(rune(word[0])) || inString(head) {
		return head, nil
	}
	return head, withPrefix(append(append([]string(nil), keywords...), names()...), word, strings.HasPrefix(word, "_"))
}

// withPrefix returns the distinct items starting with prefix, sorted,
// leaving out private ones ("_x") unless private.
func withPrefix(items []string, prefix string, private bool) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range items {
		if strings.HasPrefix(s, prefix) && (private || !strings.HasPrefix(s, "_")) && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// inString reports whether the end of the line text is inside a string
// literal opened on it (a word there is text, not a name).
func inString(text string) bool {
	var quote byte
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case quote != 0 && c == '\\':
			i++
		case quote != 0 && c == quote:
			quote = 0
		case quote == 0 && (c == '"' || c == '\''):
			quote = c
		case quote == 0 && c == '#':
			return true // a comment: nothing to complete either
		}
	}
	return quote != 0
}
