// Tests of the input filter, with a fuzz target for its checks.

package acp

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"testing"
)

// runFilter passes input through filter and returns what reached the SDK
// and what was answered.
func runFilter(t *testing.T, input string) (passed, answered string, logged []string) {
	t.Helper()
	pr, pw := io.Pipe()
	var out bytes.Buffer
	var mu sync.Mutex
	done := make(chan string)
	go func() {
		b, _ := io.ReadAll(pr)
		done <- string(b)
	}()
	filter(strings.NewReader(input), pw, &out, func(f string, a ...any) {
		mu.Lock()
		logged = append(logged, f)
		mu.Unlock()
	})
	return <-done, out.String(), logged
}

func TestFilter(t *testing.T) {
	good := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`
	resp := `{"jsonrpc":"2.0","id":5,"result":{}}`
	note := `{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"x"}}`
	for _, tc := range []struct {
		name, in, passed string
		answers          []string // "id code" of each error response
	}{
		{"valid messages pass", good + "\n" + resp + "\n\n  \n" + note + "\n", good + "\n" + resp + "\n" + note + "\n", nil},
		{"the last line needs no newline", good, good + "\n", nil},
		{"CRLF", good + "\r\n", good + "\r\n", nil},
		{"not JSON", "hello\n" + good + "\n", good + "\n", []string{"null -32700"}},
		{"cut JSON", `{"jsonrpc":"2.0","id":1` + "\n", "", []string{"null -32700"}},
		{"a batch", "[" + good + "]\n", "", []string{"null -32600"}},
		{"a number", "42\n", "", []string{"null -32600"}},
		{"no method, no id", `{"jsonrpc":"2.0"}` + "\n", "", []string{"null -32600"}},
		{"a response without result", `{"jsonrpc":"2.0","id":3}` + "\n", "", []string{"null -32600"}},
		{"a method that is a number", `{"jsonrpc":"2.0","id":"a","method":1}` + "\n", "", []string{`"a" -32600`}},
		{"an object id", `{"jsonrpc":"2.0","id":[1],"method":"x"}` + "\n", "", []string{"null -32600"}},
		{"string params", `{"jsonrpc":"2.0","id":2,"method":"initialize","params":"x"}` + "\n", "", []string{"2 -32602"}},
		// A request too long to take still gets its error, under its id, so
		// the editor does not wait for an answer forever.
		{"too long", `{"jsonrpc":"2.0","id":7,"method":"x","params":{"p":"` + strings.Repeat("a", maxLine) + `"}}` + "\n" + good + "\n", good + "\n", []string{"7 -32600"}},
		{"too long, the id after the params", `{"jsonrpc":"2.0","method":"x","params":{"p":"` + strings.Repeat("a", maxLine) + `"},"id":7}` + "\n" + good + "\n", good + "\n", []string{"null -32600"}},
		{"too long, a string id, the last line", `{"id":"p-1","params":["` + strings.Repeat("a", maxLine) + `"]}`, "", []string{`"p-1" -32600`}},
		{"too long, not JSON", strings.Repeat("{", maxLine+1) + "\n", "", []string{"null -32600"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			passed, answered, logged := runFilter(t, tc.in)
			if passed != tc.passed {
				t.Errorf("passed %.200q, want %.200q", passed, tc.passed)
			}
			var got []string
			for _, line := range strings.Split(strings.TrimSuffix(answered, "\n"), "\n") {
				if line == "" {
					continue
				}
				var m struct {
					JSONRPC string          `json:"jsonrpc"`
					ID      json.RawMessage `json:"id"`
					Error   struct {
						Code    int    `json:"code"`
						Message string `json:"message"`
						Data    struct {
							Error string `json:"error"`
						} `json:"data"`
					} `json:"error"`
				}
				if err := json.Unmarshal([]byte(line), &m); err != nil || m.JSONRPC != "2.0" || m.Error.Message == "" || m.Error.Data.Error == "" {
					t.Errorf("answer %q", line)
				}
				got = append(got, string(m.ID)+" "+itoa(m.Error.Code))
			}
			if strings.Join(got, ",") != strings.Join(tc.answers, ",") {
				t.Errorf("answers %v, want %v", got, tc.answers)
			}
			if len(logged) != len(tc.answers) {
				t.Errorf("%d lines logged, want %d", len(logged), len(tc.answers))
			}
		})
	}
}

// FuzzCheck: any line either passes as a JSON object or gets exactly one
// JSON-RPC error response; nothing panics.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{`{"jsonrpc":"2.0","id":1,"method":"x","params":{}}`, `[1]`, `{"id":null}`, `"x"`, `{`, `{"method":1,"id":{}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		if bytes.ContainsRune(line, '\n') {
			return
		}
		msg, resp := check(line, nil)
		if id := headID(line); id != nil && !json.Valid(id) {
			t.Fatalf("headID(%q) = %q, not JSON", line, id)
		}
		if resp == nil {
			var obj map[string]json.RawMessage
			if json.Unmarshal(bytes.TrimSpace(line), &obj) != nil {
				t.Fatalf("passed %q, which is not a JSON object", line)
			}
			return
		}
		if msg == "" || !bytes.HasSuffix(resp, []byte("\n")) || bytes.Count(resp, []byte("\n")) != 1 {
			t.Fatalf("answer %q (%q) to %q", resp, msg, line)
		}
		var m map[string]any
		if json.Unmarshal(resp, &m) != nil || m["error"] == nil {
			t.Fatalf("answer %q is not an error response", resp)
		}
	})
}
