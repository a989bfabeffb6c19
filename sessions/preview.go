// Previews for the session list.

package sessions

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"unicode/utf8"

	"harness/llm"
)

// PreviewRunes is the longest preview List returns, in runes.
const PreviewRunes = 72

// preview returns the start of the first user message of a conversation
// file, reading only as far as that message. Errors give "".
func preview(path string) string {
	first := ""
	userMessages(path, func(content string) bool {
		first = oneLine(content, PreviewRunes)
		return false
	})
	return first
}

// userMessages calls f with the content of each user message of a
// conversation file, in order, until f returns false; it decodes one
// message at a time and stops at the first error.
func userMessages(path string, f func(content string) bool) {
	file, err := os.Open(path)
	if err != nil {
		return
	}
	defer file.Close()
	dec := json.NewDecoder(bufio.NewReader(file))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return
		}
		if key != "messages" {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return
			}
			continue
		}
		if t, err := dec.Token(); err != nil || t != json.Delim('[') {
			return
		}
		for dec.More() {
			var m struct {
				Role    string          `json:"role"`
				Content json.RawMessage `json:"content"`
			}
			if dec.Decode(&m) != nil {
				return
			}
			if m.Role != "user" {
				continue
			}
			var msg llm.Message
			if msg.UnmarshalJSON([]byte(`{"content":`+string(orNull(m.Content))+`}`)) != nil || !f(msg.Content) {
				return
			}
		}
		return
	}
}

// repositoryOf returns the repository a conversation file of size bytes
// records, reading only its end: _harness_local is the file's last member
// and starts with the repository. Errors give "".
func repositoryOf(path string, size int64) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	// The member's opening cannot occur inside a string: there a quote
	// after the comma would be escaped.
	marker := []byte(`],"_harness_local":{"repository":`)
	for n := int64(4 << 10); ; n *= 4 {
		n = min(n, size)
		buf := make([]byte, n)
		if _, err := f.ReadAt(buf, size-n); err != nil {
			return ""
		}
		if i := bytes.LastIndex(buf, marker); i >= 0 {
			var repo string
			dec := json.NewDecoder(bytes.NewReader(buf[i+len(marker):]))
			if dec.Decode(&repo) != nil {
				return ""
			}
			return repo
		}
		if n == size || n >= 16<<20 {
			return ""
		}
	}
}

func orNull(raw json.RawMessage) []byte {
	if len(raw) == 0 {
		return []byte("null")
	}
	return raw
}

// oneLine collapses whitespace and cuts s to n runes, marking a cut with "…".
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
