package sessions

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"

	"harness/llm"

	"golang.org/x/tools/txtar"
)

// FuzzDecode checks that Decode never panics and that whatever it accepts
// encodes to a file that decodes to the same encoding. Seeds are the golden
// inputs. Run with: go test ./sessions -fuzz FuzzDecode
func FuzzDecode(f *testing.F) {
	files, _ := filepath.Glob("testdata/decode/*.txtar")
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, af := range ar.Files {
			if af.Name == "in.json" {
				f.Add(af.Data)
			}
		}
	}
	f.Add([]byte(`{"messages":[{"role":"user","content":null}],"_harness_local":{"repository":"/r","depth":0}}`))
	f.Add([]byte(`{"messages":[{"role":"user","content":[{"type":"text","text":"a"}]}],"_harness_local":{"repository":"/r","depth":0}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Decode(data)
		if err != nil {
			return
		}
		var b1, b2 bytes.Buffer
		if err := file.Encode(&b1); err != nil {
			return // e.g. a message whose provider field is not re-encodable
		}
		again, err := Decode(b1.Bytes())
		if err != nil {
			t.Fatalf("re-decode of\n%s\nfailed: %v", b1.Bytes(), err)
		}
		again.Encode(&b2)
		if !bytes.Equal(b1.Bytes(), b2.Bytes()) {
			t.Fatalf("unstable encoding:\n%s\n%s", b1.Bytes(), b2.Bytes())
		}
	})
}

// FuzzDecodeMessage checks the fast message decoder against
// llm.Message.UnmarshalJSON: both accept the same objects and give the same
// message. Run with: go test ./sessions -fuzz FuzzDecodeMessage
func FuzzDecodeMessage(f *testing.F) {
	for _, s := range []string{
		`{"role":"user","content":"a\nb\u00e9\ud83d\ude00"}`,
		`{"role":"assistant","content":"","tool_calls":[{"id":"x","type":"function","function":{"name":"repl","arguments":"{}"}}],"reasoning":"r"}`,
		`{"role":"tool","tool_call_id":"x","content":null}`,
		`{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}],"role":"user"}`,
		`{"role":"user","content":"x","extra":{"a":[1,2,{"b":null}]}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var want llm.Message
		werr := want.UnmarshalJSON(data)
		got, err := decodeMessage(data)
		if werr != nil || err != nil {
			// decodeMessage is stricter only about input that is not JSON
			// (llm ignores what follows the object).
			if werr == nil && json.Valid(data) {
				t.Fatalf("llm accepts %q, decodeMessage says %v", data, err)
			}
			return
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n got %#v\nwant %#v", data, got, want)
		}
	})
}
