// The /tokenize request body and response reading, from inside the package.

package llm

import (
	"encoding/json"
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

func FuzzCountBody(f *testing.F) {
	f.Add(`[{"role":"user","content":"a \"b\" \\ c"}]`)
	f.Add("bad \xff\xe6\x97 \x00")
	f.Fuzz(func(t *testing.T, s string) {
		if msg := countBodyMismatch(s); msg != "" {
			t.Fatal(msg)
		}
	})
}
