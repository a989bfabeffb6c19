package llm

import (
	"bytes"
	"encoding/json"
	"testing"
)

// jsonStringMismatch reports how AppendJSONString(s) differs from
// encoding/json's bytes for s with HTML escaping off: "" when they agree.
func jsonStringMismatch(s string) string {
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	got := AppendJSONString([]byte("x"), s)
	if string(got) != "x"+string(bytes.TrimSuffix(want.Bytes(), []byte("\n"))) {
		return "got " + string(got[1:]) + ", encoding/json " + want.String()
	}
	return ""
}

func TestAppendJSONString(t *testing.T) {
	for _, s := range []string{
		"", "plain", `a "quoted" \ back / slash`, "tab\tnew\nline\rcr\bbell\a",
		"\x00\x01\x1f\x7f", "日本語 😀 e\u0301", "bad \xff utf-8 \xe6\x97", "\u2028\u2029 <&>",
		"\xed\xa0\x80 surrogate", "end \xe2\x80",
	} {
		if msg := jsonStringMismatch(s); msg != "" {
			t.Errorf("%q: %s", s, msg)
		}
	}
}

func FuzzAppendJSONString(f *testing.F) {
	f.Add("a \"b\" \\ c \u2028")
	f.Add("bad \xff\xe6\x97 \x00")
	f.Fuzz(func(t *testing.T, s string) {
		if msg := jsonStringMismatch(s); msg != "" {
			t.Fatal(msg)
		}
	})
}
