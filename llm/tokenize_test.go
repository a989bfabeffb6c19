// Tests of /tokenize dialects, estimates, turn splitting and turn counting.

package llm_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"harness/llm"
	"harness/llmtest"
)

func TestEstimate(t *testing.T) {
	for _, tc := range []struct {
		text string
		want int
	}{
		{"", 0}, {"a", 1}, {"abc", 1}, {"abcd", 2}, {strings.Repeat("x", 13), 4}, {strings.Repeat("x", 14), 5}, {"é", 1},
	} {
		if got := llm.Estimate(tc.text); got != tc.want {
			t.Errorf("Estimate(%q) = %d, want %d", tc.text, got, tc.want)
		}
	}
}

func TestTokenizerDialects(t *testing.T) {
	for _, tc := range []struct {
		name     string
		mode     llmtest.TokenizeMode
		dialect  string
		requests int // for two counts
	}{
		{"llama.cpp", llmtest.TokenizeLlama, "llama.cpp", 2},
		{"llama.cpp pieces", llmtest.TokenizeLlamaPieces, "llama.cpp", 2},
		{"vLLM", llmtest.TokenizeVLLM, "vLLM", 3}, // one refused llama.cpp attempt, then remembered
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.New(t)
			srv.SetTokenize(tc.mode)
			tok := llm.NewTokenizer(srv.URL+"/", "key")
			if tok.URL() != srv.Root+"/tokenize" {
				t.Errorf("URL = %s", tok.URL())
			}
			for _, text := range []string{"hello world!", "abcdefgh"} {
				n, err := tok.Count(context.Background(), text)
				if err != nil || n != llmtest.CountBytes4(text) {
					t.Errorf("Count(%q) = %d, %v", text, n, err)
				}
			}
			if tok.Dialect() != tc.dialect {
				t.Errorf("dialect = %q", tok.Dialect())
			}
			reqs := srv.Tokenizes()
			if len(reqs) != tc.requests {
				t.Errorf("%d requests, want %d", len(reqs), tc.requests)
			}
			if reqs[0].Header.Get("Authorization") != "Bearer key" {
				t.Errorf("no key sent")
			}
		})
	}
	for _, tc := range []struct {
		mode     llmtest.TokenizeMode
		requests int // for two counts
	}{
		{llmtest.TokenizeFail, 2},    // a 500 may pass: asked again, and says nothing about the dialect
		{llmtest.TokenizeMissing, 2}, // no route: remembered
	} {
		srv := llmtest.New(t)
		srv.SetTokenize(tc.mode)
		tok := srv.Tokenizer()
		for range 2 {
			if _, err := tok.Count(context.Background(), "x"); err == nil || !strings.Contains(err.Error(), "/tokenize") {
				t.Errorf("mode %d: err = %v", tc.mode, err)
			}
		}
		if n := len(srv.Tokenizes()); n != tc.requests {
			t.Errorf("mode %d: %d requests, want %d", tc.mode, n, tc.requests)
		}
	}
}

func msg(role, content string) llm.Message { return llm.Message{Role: role, Content: content} }

func TestSplitTurns(t *testing.T) {
	a, u1, as, tl, u2 := msg("assistant", "pre"), msg("user", "1"), msg("assistant", "x"), msg("tool", "r"), msg("user", "2")
	for _, tc := range []struct {
		name string
		in   []llm.Message
		want []int // turn lengths
	}{
		{"empty", nil, nil},
		{"one user", []llm.Message{u1}, []int{1}},
		{"full turn", []llm.Message{u1, as, tl, as}, []int{4}},
		{"two turns", []llm.Message{u1, as, u2, as}, []int{2, 2}},
		{"leading non-user", []llm.Message{a, a, u1, as}, []int{2, 2}},
		{"consecutive users", []llm.Message{u1, u2}, []int{1, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			turns := llm.SplitTurns(tc.in)
			var got []int
			for _, tr := range turns {
				got = append(got, len(tr))
			}
			if len(got) != len(tc.want) {
				t.Fatalf("turn lengths %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("turn lengths %v, want %v", got, tc.want)
				}
			}
		})
	}
}

// jsonText returns the compact JSON of each message as CountTurns sees it.
func jsonText(msgs []llm.Message) []string {
	var out []string
	for _, m := range msgs {
		b, _ := json.Marshal(m)
		out = append(out, string(b))
	}
	return out
}

func TestCountTurns(t *testing.T) {
	conv := []llm.Message{
		msg("user", "first question"), msg("assistant", "an answer of some length"),
		msg("user", "second"), msg("assistant", "x"), msg("tool", "tool output here"), msg("assistant", "done"),
		msg("user", "third"),
	}
	turns := llm.SplitTurns(conv)
	texts := jsonText(conv)
	prefix := func(n int) string { return "[" + strings.Join(texts[:n], ",") }
	count := llmtest.CountBytes4

	srv := llmtest.New(t)
	tok := srv.Tokenizer()
	got := llm.CountTurns(context.Background(), tok, turns, nil)
	wantMsgs := [][]int{
		{count(prefix(1)), count(prefix(2)) - count(prefix(1))},
		{count(prefix(3)) - count(prefix(2)), count(prefix(4)) - count(prefix(3)), count(prefix(5)) - count(prefix(4)), count(prefix(6)) - count(prefix(5))},
		{count(prefix(7)) - count(prefix(6))},
	}
	for k, tc := range got {
		sum := 0
		for i, n := range tc.Messages {
			if n != wantMsgs[k][i] {
				t.Errorf("turn %d message %d = %d, want %d", k, i, n, wantMsgs[k][i])
			}
			sum += n
		}
		if tc.Tokens != sum || tc.Estimated || tc.Key != llm.TurnKey(turns[k]) {
			t.Errorf("turn %d = %+v", k, tc)
		}
	}
	if n := len(srv.Tokenizes()); n != 7 {
		t.Errorf("%d tokenize requests, want one per message (7)", n)
	}

	// Unchanged turns make no request; a changed last turn needs one
	// request per message, the prefixes through each (the count through
	// the turn before is the one cached with it), and counts as a fresh
	// count does.
	conv2 := append(append([]llm.Message(nil), conv[:6]...), msg("user", "third, edited"), msg("assistant", "ok"))
	texts2 := jsonText(conv2)
	before := len(srv.Tokenizes())
	got2 := llm.CountTurns(context.Background(), tok, llm.SplitTurns(conv2), got)
	if got2[0].Key != got[0].Key || got2[1].Tokens != got[1].Tokens {
		t.Errorf("cached turns changed")
	}
	sent := tokenizeTexts(t, srv.Tokenizes()[before:])
	want := []string{"[" + strings.Join(texts2[:7], ","), "[" + strings.Join(texts2[:8], ",")}
	if !slices.Equal(sent, want) {
		t.Errorf("a changed 2-message turn sent %d texts %q, want the 2 prefixes through its messages", len(sent), sent)
	}
	if fresh := llm.CountTurns(context.Background(), tok, llm.SplitTurns(conv2), nil); !reflect.DeepEqual(got2, fresh) {
		t.Errorf("counted from the cache %+v, afresh %+v", got2, fresh)
	}

	// Without the turns the cached count through a turn covers (the first
	// one dropped), a new turn after it asks for the prefix before it
	// again, then its messages'.
	conv3 := append(append([]llm.Message(nil), conv2[2:]...), msg("user", "fourth"))
	texts3 := jsonText(conv3)
	before = len(srv.Tokenizes())
	got3 := llm.CountTurns(context.Background(), tok, llm.SplitTurns(conv3), got2)
	sent = tokenizeTexts(t, srv.Tokenizes()[before:])
	want = []string{"[" + strings.Join(texts3[:6], ","), "[" + strings.Join(texts3[:7], ",")}
	if !slices.Equal(sent, want) {
		t.Errorf("after a dropped turn sent %q, want %q", sent, want)
	}
	if fresh := llm.CountTurns(context.Background(), tok, llm.SplitTurns(conv3), nil); got3[2].Tokens != fresh[2].Tokens || got3[2].Through != fresh[2].Through {
		t.Errorf("after a dropped turn counted %+v, afresh %+v", got3[2], fresh[2])
	}
	before = len(srv.Tokenizes())
	llm.CountTurns(context.Background(), tok, llm.SplitTurns(conv2), got2)
	if n := len(srv.Tokenizes()) - before; n != 0 {
		t.Errorf("%d requests with everything cached", n)
	}

	// A failing prefix estimates that whole turn only.
	srv.FailTokenizeWhen(func(text string) bool { return strings.Contains(text, "tool output here") })
	got3 = llm.CountTurns(context.Background(), tok, turns, nil)
	if got3[0].Estimated || !got3[1].Estimated {
		t.Errorf("estimated flags = %v %v", got3[0].Estimated, got3[1].Estimated)
	}
	if got3[1].Through != 0 || got3[1].Upto != "" {
		t.Errorf("an estimated turn has a count through it: %+v", got3[1])
	}
	turnText := "[" + strings.Join(texts[2:6], ",") + "]" // the turn's messages as a compact JSON array
	if got3[1].Tokens != llm.Estimate(turnText) || got3[1].Messages[3] != llm.Estimate(texts[5]) {
		t.Errorf("estimated turn = %+v", got3[1])
	}
	if got3[1].Key != llm.TurnKey(turns[1]) {
		t.Errorf("estimated key differs")
	}

	// No tokenizer: everything estimated, no requests.
	got4 := llm.CountTurns(context.Background(), nil, turns, nil)
	for _, tc := range got4 {
		if !tc.Estimated {
			t.Errorf("nil tokenizer gave a counted turn")
		}
	}
	if e := llm.EstimateTurn(turns[0]); e.Tokens != llm.Estimate("["+texts[0]+","+texts[1]+"]") || !e.Estimated {
		t.Errorf("EstimateTurn = %+v", e)
	}
}

// tokenizeTexts returns the texts the /tokenize requests reqs counted.
func tokenizeTexts(t *testing.T, reqs []llmtest.Request) []string {
	t.Helper()
	var out []string
	for _, r := range reqs {
		var in struct {
			Content string `json:"content"`
		}
		if err := json.Unmarshal(r.Body, &in); err != nil {
			t.Fatalf("tokenize body %q: %v", r.Body, err)
		}
		out = append(out, in.Content)
	}
	return out
}

// TestTokenizerTransientFailure: llama.cpp answers 503 while it loads the
// model, and answers {"tokens": []} to a body without "content". A
// transient failure must not make the tokenizer settle on the vLLM dialect
// (every later count would be 0); only a refusal of the request's shape
// (4xx) tries the other dialect.
func TestTokenizerTransientFailure(t *testing.T) {
	srv := llmtest.New(t)
	srv.SetTokenize(llmtest.TokenizeLlama)
	var calls atomic.Int32
	srv.FailTokenizeWhen(func(string) bool { return calls.Add(1) == 1 })
	tok := srv.Tokenizer()
	if n, err := tok.Count(context.Background(), "hello world"); err == nil {
		t.Errorf("Count during a 500 = %d, nil error", n)
	}
	if tok.Dialect() != "" {
		t.Errorf("dialect after a transient failure = %q", tok.Dialect())
	}
	n, err := tok.Count(context.Background(), "hello world")
	if err != nil || n != llmtest.CountBytes4("hello world") || tok.Dialect() != "llama.cpp" {
		t.Errorf("Count = %d, %v, dialect %q", n, err, tok.Dialect())
	}
}

// TestCountTurnsCancelled: turns estimated only because the context ended
// carry no Key, so a cache built from the result counts them next time
// instead of keeping the estimate for good.
func TestCountTurnsCancelled(t *testing.T) {
	conv := []llm.Message{msg("user", "one"), msg("assistant", "a"), msg("user", "two"), msg("assistant", "b")}
	turns := llm.SplitTurns(conv)
	srv := llmtest.New(t)
	tok := srv.Tokenizer()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got := llm.CountTurns(ctx, tok, turns, nil)
	for k, tc := range got {
		if !tc.Estimated || tc.Key != "" || tc.Tokens != llm.EstimateTurn(turns[k]).Tokens {
			t.Errorf("turn %d after cancellation = %+v, want an estimate without Key", k, tc)
		}
	}
	again := llm.CountTurns(context.Background(), tok, turns, got)
	for k, tc := range again {
		if tc.Estimated || tc.Key != llm.TurnKey(turns[k]) {
			t.Errorf("turn %d not counted again: %+v", k, tc)
		}
	}
}

// TestCountTurnsStalledTokenizer: a /tokenize that stops answering (the
// client's timeout ends each request) is given up for the rest of the
// pass after one request, instead of costing a timeout per turn, and the
// turns it left estimated carry no Key, so the next pass counts them.
func TestCountTurnsStalledTokenizer(t *testing.T) {
	var requests atomic.Int32
	stop := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		select {
		case <-r.Context().Done():
		case <-stop:
		}
	}))
	defer srv.Close()
	defer close(stop)
	conv := []llm.Message{msg("user", "one"), msg("assistant", "a"), msg("user", "two"), msg("assistant", "b"), msg("user", "three")}
	turns := llm.SplitTurns(conv)
	tok := llm.NewTokenizer(srv.URL+"/v1", "").WithHTTPClient(&http.Client{Timeout: 50 * time.Millisecond})
	got := llm.CountTurns(context.Background(), tok, turns, nil)
	if n := requests.Load(); n != 1 {
		t.Errorf("%d /tokenize requests, want 1 (the stalled server is given up for the pass)", n)
	}
	for k, tc := range got {
		if !tc.Estimated || tc.Key != "" || tc.Tokens != llm.EstimateTurn(turns[k]).Tokens {
			t.Errorf("turn %d = %+v, want an estimate without Key", k, tc)
		}
	}
}

// TestEstimateSizes: a turn estimated from its messages' sizes is the
// turn's EstimateTurn without the Key, from no message to several.
func TestEstimateSizes(t *testing.T) {
	msgs := []llm.Message{
		{Role: "user", Content: "what does main do?"},
		{Role: "assistant", ToolCalls: []llm.ToolCall{{ID: "c1", Name: "grep", Arguments: `{"pattern":"func main"}`}}},
		{Role: "tool", ToolCallID: "c1", Content: strings.Repeat("main.go:1: func main() {}\n", 9)},
		{Role: "assistant", Content: "It starts the \"server\" <here>."},
	}
	for n := 0; n <= len(msgs); n++ {
		var sizes []int
		for _, m := range msgs[:n] {
			sizes = append(sizes, llm.MessageBytes(m))
		}
		got, want := llm.EstimateSizes(sizes), llm.EstimateTurn(msgs[:n])
		want.Key = ""
		if got.Tokens != want.Tokens || !got.Estimated || len(got.Messages) != n {
			t.Fatalf("%d messages: %+v, want %+v", n, got, want)
		}
		for i := range got.Messages {
			if got.Messages[i] != want.Messages[i] {
				t.Fatalf("%d messages: %+v, want %+v", n, got, want)
			}
		}
	}
}

// TestTokenListCount: a token array is counted without decoding it, pieces
// holding commas, brackets and escaped quotes included.
func TestTokenListCount(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       int
	}{
		{"numbers", `{"tokens":[1, 2,3]}`, 3},
		{"empty", `{"tokens":[ ]}`, 0},
		{"one", `{"tokens":[42]}`, 1},
		{"pieces", `{"tokens":[{"id":1,"piece":"a,b"},{"id":2,"piece":"]}[{"},{"id":3,"piece":"\"x,\\"}]}`, 3},
		{"nested", "{\"tokens\":[[1,2],[3],{\"a\":[4,5]}]\n}", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				io.WriteString(w, tc.body)
			}))
			defer srv.Close()
			n, err := llm.NewTokenizer(srv.URL+"/v1", "").Count(context.Background(), "some text")
			if err != nil || n != tc.want {
				t.Errorf("Count = %d, %v; want %d", n, err, tc.want)
			}
		})
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"tokens":"abc"}`)
	}))
	defer srv.Close()
	if _, err := llm.NewTokenizer(srv.URL+"/v1", "").Count(context.Background(), "x"); err == nil {
		t.Error("tokens that are not an array gave a count")
	}
}
