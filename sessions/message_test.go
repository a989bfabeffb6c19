package sessions

import (
	"bufio"
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"harness/llm"
)

func TestUnquoteMatchesEncodingJSON(t *testing.T) {
	for _, in := range []string{
		`""`, `"plain"`, `"a\nb\t\"c\"\\ \/"`, `"\u00e9\u003c"`, `"\ud83d\ude00 smile"`,
		`"\ud83d alone"`, `"\ude00 low"`, "\"raw \xff byte\"", `"\u12"`, `"\x"`, `"end\"`,
	} {
		var want string
		werr := json.Unmarshal([]byte(in), &want)
		got, err := unquote([]byte(in))
		if (err != nil) != (werr != nil) || got != want {
			t.Errorf("unquote(%s) = %q, %v; encoding/json gives %q, %v", in, got, err, want, werr)
		}
	}
}

func TestWriteMessageRoundTrip(t *testing.T) {
	for _, content := range []string{
		"", "plain", "quote \" backslash \\ slash / tab \t nl \n cr \r bell \a nul \x00",
		"<html> & ünïcödé 😀", "line sep \u2028 para sep \u2029", "bad \xff\xfe utf8",
	} {
		m := llm.Message{Role: "tool", Content: content, ToolCallID: "id\"x",
			ToolCalls: []llm.ToolCall{{ID: "c", Name: "repl", Arguments: `{"code":"<x>"}`},
				{ID: content, Name: content, Arguments: content, Extra: []llm.Field{{Key: "index", Value: json.RawMessage(`1`)}}}}}
		m.Set("reasoning", json.RawMessage(`"r\u00e9"`))
		var b bytes.Buffer
		w := bufio.NewWriter(&b)
		if err := writeMessage(w, m); err != nil {
			t.Fatal(err)
		}
		w.Flush()
		if !json.Valid(b.Bytes()) {
			t.Fatalf("invalid JSON %s", b.Bytes())
		}
		want, _ := m.MarshalJSON()
		if !bytes.Equal(b.Bytes(), want) {
			t.Errorf("content %q: writeMessage\n %s\nMarshalJSON\n %s", content, b.Bytes(), want)
		}
		var fromLLM llm.Message
		if err := fromLLM.UnmarshalJSON(want); err != nil {
			t.Fatal(err)
		}
		got, err := decodeMessage(b.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, fromLLM) {
			t.Errorf("content %q:\n got %+v\nwant %+v", content, got, fromLLM)
		}
	}
}

// TestWriteStringInPieces: a long string written through a small buffer,
// cut into pieces next to multibyte characters, escapes, bad UTF-8 and
// U+2028, is the bytes llm.AppendJSONString gives for it whole.
func TestWriteStringInPieces(t *testing.T) {
	unit := "añ日😀\"\\\n\x01\u2028\xff\xe6\x97"
	for _, n := range []int{1, 1000, 5000} {
		s := strings.Repeat(unit, n)
		for _, size := range []int{16, 4096 + 3, 64 << 10} {
			var b bytes.Buffer
			w := bufio.NewWriterSize(&b, size)
			w.WriteString("x") // the pieces start anywhere in the buffer
			writeString(w, s)
			w.Flush()
			if want := "x" + string(llm.AppendJSONString(nil, s)); b.String() != want {
				t.Errorf("%d units through a %d-byte buffer: %d bytes differ from AppendJSONString's %d", n, size, b.Len(), len(want))
			}
		}
	}
}
