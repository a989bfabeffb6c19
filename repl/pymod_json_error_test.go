package repl

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"harness/repl/lib/pydata"
)

// FuzzJSONSyntaxError checks the scanner behind JSONDecodeError's
// messages: it never panics, reports an offset inside the text, and
// agrees with encoding/json on what is valid (apart from NaN and
// Infinity, which Python's json accepts).
func FuzzJSONSyntaxError(f *testing.F) {
	for _, s := range []string{"", "{}", `{"a": [1, 2.5e3, "x\u00e9", true, null]}`, "{oops", "[1,]", `{"a" 1}`, `"abc`, "1 2", "\"\\x\"", "[\"\t\"]", "NaN", "-Infinity", "é", `{"é": 1,}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if !utf8.ValidString(text) {
			return
		}
		msg, pos, bad := pydata.JsonSyntaxError(text, false)
		if bad && (msg == "" || pos < 0 || pos > utf8.RuneCountInString(text)) {
			t.Fatalf("%q: message %q at %d", text, msg, pos)
		}
		special := strings.Contains(text, "NaN") || strings.Contains(text, "Infinity")
		if valid := json.Valid([]byte(text)); !special && valid == bad {
			t.Fatalf("%q: encoding/json valid=%v, scanner error %q at %d", text, valid, msg, pos)
		}
	})
}

func TestJSONDecodeErrorAttributes(t *testing.T) {
	e := newEnv(t)
	got := e.exec("import json\ntry:\n    json.loads('{\"a\": 1,\\n \"b\" 2}')\nexcept json.JSONDecodeError as e:\n    print(e)\n    print(e.msg, e.pos, e.lineno, e.colno)")
	want := "Expecting ':' delimiter: line 2 column 6 (char 14)\nExpecting ':' delimiter 14 2 6"
	if got != want {
		t.Fatalf("got %q, want %q (CPython's)", got, want)
	}
}
