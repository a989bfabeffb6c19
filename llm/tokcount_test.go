package llm

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestReadTokenAnswer(t *testing.T) {
	for _, c := range []struct {
		in     string
		want   tokenAnswer
		failed bool
	}{
		{in: `{"tokens":[1,2,3]}`, want: tokenAnswer{tokens: 3, hasTokens: true}},
		{in: ` { "tokens" : [ ] } ` + "\n", want: tokenAnswer{hasTokens: true}},
		{in: `{"tokens":[{"id":1,"piece":"a,b"},{"id":2,"piece":"]\"}"}]}`, want: tokenAnswer{tokens: 2, hasTokens: true}},
		{in: `{"count":7,"max_model_len":8192,"tokens":[5,6]}`, want: tokenAnswer{count: 7, hasCount: true, tokens: 2, hasTokens: true}},
		{in: `{"Count":4}`, want: tokenAnswer{count: 4, hasCount: true}},
		{in: `{"tokens":[1],"tokens":[1,2]}`, want: tokenAnswer{tokens: 2, hasTokens: true}},
		{in: `{"other":{"a":[1,{"b":null}],"c":"x\"y"},"tokens":[true,false,null,-1.5e3]}`, want: tokenAnswer{tokens: 4, hasTokens: true}},
		{in: `{}`, want: tokenAnswer{}},
		{in: `{"count":3,"count":null,"tokens":null}`, want: tokenAnswer{}},
		{in: `{"count":1.5}`, failed: true},
		{in: `{"count":"3"}`, failed: true},
		{in: `{"tokens":3}`, failed: true},
		{in: `{"tokens":[1,2}`, failed: true},
		{in: `{"tokens":[1,2]`, failed: true},
		{in: `{"tokens":[1,2]} x`, failed: true},
		{in: `[1,2]`, failed: true},
		{in: `<html>busy</html>`, failed: true},
		{in: ``, failed: true},
		{in: `{"a":tru}`, failed: true},
		{in: `{"a":"` + "\x01" + `"}`, failed: true},
		{in: `{"tokens":[` + strings.Repeat("[", maxNesting+2) + `]}`, failed: true},
		{in: `{"tokens":[1,]}`, failed: true},
		{in: `{"tokens":[1,2,,3]}`, failed: true},
		{in: `{"tokens":[10,0,7, 8,9 ,-1]}`, want: tokenAnswer{tokens: 6, hasTokens: true}},
	} {
		got, err := readTokenAnswer(strings.NewReader(c.in))
		if (err != nil) != c.failed || (!c.failed && got != c.want) {
			t.Errorf("readTokenAnswer(%.60q) = %+v, %v; want %+v, failed %v", c.in, got, err, c.want, c.failed)
		}
	}
}

// TestReadTokenAnswerAcrossBuffers: a long array of integers, read in
// pieces of every size so that elements are cut at the buffer's edge, is
// counted whole.
func TestReadTokenAnswerAcrossBuffers(t *testing.T) {
	const n = 200000
	answer := tokenArray(n, `,"count":5`)
	for _, size := range []int{1, 2, 3, 7, 4096, 1 << 20} {
		got, err := readTokenAnswer(iotest.OneByteReader(strings.NewReader(answer)))
		if size > 1 {
			got, err = readTokenAnswer(&chunkReader{s: answer, size: size})
		}
		if err != nil || got.tokens != n || got.count != 5 {
			t.Errorf("pieces of %d: %+v, %v; want %d tokens, count 5", size, got, err, n)
		}
	}
}

// tokenArray is a llama.cpp answer of n tokens, with members after the
// array.
func tokenArray(n int, members string) string {
	var b strings.Builder
	b.WriteString(`{"tokens":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%d", i*7919%100003)
	}
	b.WriteString("]" + members + "}")
	return b.String()
}

// chunkReader reads s in pieces of size bytes.
type chunkReader struct {
	s    string
	size int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if c.s == "" {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), c.size)], c.s)
	c.s = c.s[n:]
	return n, nil
}

// BenchmarkReadTokenAnswer reads a llama.cpp answer of 3 million tokens,
// the size of a long session's prefix.
func BenchmarkReadTokenAnswer(b *testing.B) {
	const n = 3000000
	answer := tokenArray(n, "")
	b.SetBytes(int64(len(answer)))
	for b.Loop() {
		if got, err := readTokenAnswer(strings.NewReader(answer)); err != nil || got.tokens != n {
			b.Fatal(got, err)
		}
	}
}

// FuzzReadTokenAnswer: on any answer encoding/json accepts, the one-pass
// reader finds the same count and number of tokens.
func FuzzReadTokenAnswer(f *testing.F) {
	for _, s := range []string{`{"tokens":[1,2,3]}`, `{"count":3,"tokens":[{"id":1}]}`, `{"x":[{"y":"\u00e9"}],"tokens":[]}`, `{}`, `{"tokens":null}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := readTokenAnswer(strings.NewReader(s))
		var want struct {
			Count  *int              `json:"count"`
			Tokens []json.RawMessage `json:"tokens"`
		}
		if json.Unmarshal([]byte(s), &want) != nil || want.Count == nil && want.Tokens == nil {
			return // the reader may be laxer, and neither counts: it must only not panic
		}
		if err != nil {
			t.Fatalf("encoding/json reads %q, the reader fails: %v", s, err)
		}
		if want.Count != nil && (!got.hasCount || got.count != *want.Count) {
			t.Errorf("%q: count %+v, want %d", s, got, *want.Count)
		}
		if want.Tokens != nil && (!got.hasTokens || got.tokens != len(want.Tokens)) {
			t.Errorf("%q: tokens %+v, want %d", s, got, len(want.Tokens))
		}
	})
}
