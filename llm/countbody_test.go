// The /tokenize request body and response reading, from inside the package.

package llm

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
)

// countBodyMismatch reports how countBody(field, s) differs from
// json.Marshal of the same map, decoded: "" when they agree.
func countBodyMismatch(s string) string {
	var got, want map[string]string
	body := countBody("content", s)
	if err := json.Unmarshal(body, &got); err != nil {
		return "countBody gave invalid JSON: " + err.Error() + ": " + string(body)
	}
	ref, _ := json.Marshal(map[string]string{"content": s})
	json.Unmarshal(ref, &want)
	if got["content"] != want["content"] || len(got) != 1 {
		return "countBody decodes to " + got["content"] + ", json.Marshal to " + want["content"]
	}
	return ""
}

// TestCountBody: the body built without json.Marshal sends the same text.
func TestCountBody(t *testing.T) {
	for _, s := range []string{
		"", "plain", `[{"role":"user","content":"a \"quoted\" \\ back"}]`, "tab\tnew\nline\rcr",
		"\x00\x01\x1f\x7f", "日本語 😀 e\u0301", "bad \xff utf-8 \xe6\x97", "\u2028\u2029 <&>",
	} {
		if msg := countBodyMismatch(s); msg != "" {
			t.Errorf("%q: %s", s, msg)
		}
	}
}

// TestCountBodyPieces: a text longer than a piece, with characters of
// every width, escapes and invalid bytes across the pieces' ends, is sent
// as json.Marshal sends it, and read in reads of any size.
func TestCountBodyPieces(t *testing.T) {
	for shift := range 7 {
		var sb strings.Builder
		sb.WriteString(strings.Repeat("x", shift))
		for sb.Len() < 3*countPiece {
			sb.WriteString("日本語 😀 \xff\xe6\x97 \"q\" \\ \n\t\x01 \u2028é")
		}
		s := sb.String()
		if msg := countBodyMismatch(s); msg != "" {
			t.Fatalf("shift %d: %s", shift, msg[:min(len(msg), 200)])
		}
		for _, size := range []int{1, 7, 4096, 1 << 20} {
			r, buf := newCountReader("prompt", s), make([]byte, size)
			var got []byte
			for {
				n, err := r.Read(buf)
				got = append(got, buf[:n]...)
				if err == io.EOF {
					break
				}
			}
			if string(got) != string(countBody("prompt", s)) {
				t.Fatalf("shift %d, reads of %d: a different body", shift, size)
			}
		}
	}
}

func FuzzCountBody(f *testing.F) {
	f.Add(`[{"role":"user","content":"a \"b\" \\ c"}]`)
	f.Add("bad \xff\xe6\x97 \x00")
	f.Fuzz(func(t *testing.T, s string) {
		if msg := countBodyMismatch(s); msg != "" {
			t.Fatal(msg)
		}
	})
}

// countBody is the whole request a countReader streams; its length is
// what countLen says.
func countBody(field, text string) []byte {
	b, err := io.ReadAll(newCountReader(field, text))
	if err != nil || int64(len(b)) != countLen(field, text) {
		panic(fmt.Sprintf("countReader: %v, %d bytes, countLen %d", err, len(b), countLen(field, text)))
	}
	return b
}
