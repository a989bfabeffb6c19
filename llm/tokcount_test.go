package llm

import (
	"encoding/json"
	"strings"
	"testing"
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
	} {
		got, err := readTokenAnswer(strings.NewReader(c.in))
		if (err != nil) != c.failed || (!c.failed && got != c.want) {
			t.Errorf("readTokenAnswer(%.60q) = %+v, %v; want %+v, failed %v", c.in, got, err, c.want, c.failed)
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
