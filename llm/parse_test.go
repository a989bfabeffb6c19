// Internal tests: the JSON walker, the line reader, fuzzing and the benchmark.

package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestEachMember(t *testing.T) {
	var keys []string
	err := eachMember([]byte(` { "a" : 1 , "b\"c":{"x":[1,"]"]}, "d":"s\\"} `), func(k, v []byte) error {
		keys = append(keys, memberKey(k)+"="+string(v))
		return nil
	})
	want := `a=1|b"c={"x":[1,"]"]}|d="s\\"`
	if err != nil || strings.Join(keys, "|") != want {
		t.Errorf("got %q, %v; want %q", strings.Join(keys, "|"), err, want)
	}
	for _, bad := range []string{``, `[]`, `{"a"}`, `{"a":1`, `{"a":"x}`} {
		if eachMember([]byte(bad), func(k, v []byte) error { return nil }) == nil {
			t.Errorf("eachMember(%q) accepted", bad)
		}
	}
}

func TestLineReader(t *testing.T) {
	long := strings.Repeat("z", 200000)
	in := "a\r\nb\n\n" + long + "\nlast"
	lr := newLineReader(iotest.OneByteReader(strings.NewReader(in)))
	var got []string
	for {
		line, err := lr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(line))
	}
	want := []string{"a", "b", "", long, "last"}
	if len(got) != len(want) {
		t.Fatalf("%d lines", len(got))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d = %.20q", i, got[i])
		}
	}
}

// FuzzParseStream feeds arbitrary bodies to the parser: it must never panic,
// the message it returns must always encode to valid JSON, and the deltas
// must add up to it (reasoning shown once, content whole).
func FuzzParseStream(f *testing.F) {
	f.Add([]byte("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\",\"reasoning_details\":[{\"index\":0,\"text\":\"t\"}]}}]}\n\ndata: [DONE]\n"))
	f.Add([]byte("data:{\"choices\":[{\"delta\":{\"tool_calls\":[{\"function\":{\"arguments\":{\"a\":1}}}]},\"finish_reason\":\"length\"}]}\n"))
	f.Add([]byte(": c\r\nevent: error\r\ndata: {\"error\":\"x\"}\r\n\r\n"))
	f.Add([]byte("data: {\"choices\":[{\"delta\":{\"reasoning\":\"ab\",\"reasoning_content\":\"a\"}}]}\ndata: {\"choices\":[{\"delta\":{\"reasoning_content\":\"bc\",\"reasoning_details\":[{\"index\":0,\"text\":\"abc\"}]}}]}\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		var shown, content strings.Builder
		args := map[string]string{} // by call ID
		ids := map[int]string{}
		acc := newAccumulator(func(d Delta) {
			switch d.Kind {
			case DeltaReasoning:
				shown.WriteString(d.Text)
			case DeltaContent:
				content.WriteString(d.Text)
			case DeltaToolCall:
				ids[d.Index] = d.ID
			case DeltaToolArgs:
				args[ids[d.Index]] += d.Text
			}
		})
		parseStream(context.Background(), bytes.NewReader(body), acc)
		m := acc.response().Message
		raw, err := m.MarshalJSON()
		if err != nil || !json.Valid(raw) {
			t.Fatalf("message encodes to invalid JSON: %s (%v)", raw, err)
		}
		if r := m.Reasoning(); shown.String() != r {
			t.Fatalf("shown reasoning %q != Reasoning() %q", shown.String(), r)
		}
		if content.String() != m.Content {
			t.Fatalf("content deltas %q != Content %q", content.String(), m.Content)
		}
		for _, c := range m.ToolCalls {
			if args[c.ID] != c.Arguments {
				t.Fatalf("argument deltas %q != Arguments %q", args[c.ID], c.Arguments)
			}
		}
		var back Message
		if err := json.Unmarshal(raw, &back); err != nil {
			t.Fatalf("saved message does not load: %v\n%s", err, raw)
		}
		if again, _ := back.MarshalJSON(); !bytes.Equal(again, raw) {
			t.Fatalf("saved message changes when loaded:\n%s\n%s", raw, again)
		}
	})
}

// benchStream builds a stream of about size bytes shaped like a real one:
// reasoning, content and tool-argument deltas of a few tokens each, in
// OpenAI-style envelopes.
func benchStream(size int) []byte {
	var b bytes.Buffer
	env := `{"id":"chatcmpl-Bench0123456789","object":"chat.completion.chunk","created":1755000000,"model":"some-model-2025","system_fingerprint":"fp_0123456789","choices":[{"index":0,"delta":%s,"logprobs":null,"finish_reason":null}],"usage":null}`
	words := []string{" the", " quick", " brown", "\\n", " fox", " \\\"jumps\\\"", " ünï", " over"}
	b.WriteString("data: " + fmt.Sprintf(env, `{"role":"assistant","content":"","refusal":null}`) + "\n\n")
	b.WriteString("data: " + fmt.Sprintf(env, `{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"repl","arguments":""}}]}`) + "\n\n")
	for i := 0; b.Len() < size; i++ {
		w := words[i%len(words)]
		var delta string
		switch i % 3 {
		case 0:
			delta = `{"reasoning_content":"` + w + `"}`
		case 1:
			delta = `{"content":"` + w + `"}`
		default:
			delta = `{"tool_calls":[{"index":0,"function":{"arguments":"` + w + `"}}]}`
		}
		b.WriteString("data: " + fmt.Sprintf(env, delta) + "\n\n")
	}
	b.WriteString(`data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\ndata: [DONE]\n\n")
	return b.Bytes()
}

// BenchmarkParseStream parses and accumulates a 10 MB stream; the MB/s
// column is the figure to watch (it must stay far above any endpoint).
func BenchmarkParseStream(b *testing.B) {
	data := benchStream(10 << 20)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		deltas := 0
		acc := newAccumulator(func(Delta) { deltas++ })
		if err := parseStream(context.Background(), bytes.NewReader(data), acc); err != nil {
			b.Fatal(err)
		}
		acc.response()
		if deltas == 0 {
			b.Fatal("no deltas")
		}
	}
}
