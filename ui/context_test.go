package ui

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"harness/llm"
	"harness/sessions"
)

func ctxUser(s string) sessions.Item {
	return sessions.Item{Message: llm.Message{Role: "user", Content: s}}
}

func ctxAsst(content, reasoning string, calls ...llm.ToolCall) sessions.Item {
	m := llm.Message{Role: "assistant", Content: content, ToolCalls: calls}
	if reasoning != "" {
		b, _ := json.Marshal(reasoning)
		m.Extra = []llm.Field{{Key: "reasoning_content", Value: b}}
	}
	return sessions.Item{Message: m}
}

func ctxTool(id, content string) sessions.Item {
	return sessions.Item{Message: llm.Message{Role: "tool", ToolCallID: id, Content: content}}
}

func ctxCall(id, name, args string) llm.ToolCall {
	return llm.ToolCall{ID: id, Name: name, Arguments: args}
}

var ctxMarker = sessions.Item{Hidden: true}

// ctxCount returns an exact (tokenizer) count for the messages of items
// (markers skipped) with the given per-message counts.
func ctxCount(items []sessions.Item, per ...int) llm.TurnCount {
	var msgs []llm.Message
	for _, it := range items {
		if !it.Hidden {
			msgs = append(msgs, it.Message)
		}
	}
	tc := llm.TurnCount{Key: llm.TurnKey(msgs), Messages: per}
	for _, n := range per {
		tc.Tokens += n
	}
	return tc
}

func ctxMessages(items []sessions.Item) []llm.Message {
	var msgs []llm.Message
	for _, it := range items {
		if !it.Hidden {
			msgs = append(msgs, it.Message)
		}
	}
	return msgs
}

func TestBuildOverlayTurns(t *testing.T) {
	fyi := []sessions.Item{
		ctxUser("hello   there\n\tfriend"),
		ctxAsst("", "", ctxCall("f1", "FYI", "{}")),
		ctxTool("f1", "date: today"),
		ctxAsst("Hi!", ""),
	}
	sub := []sessions.Item{
		ctxUser("find the bug"),
		ctxAsst("", "", ctxCall("s1", "repl", `{"code":"FYI()\nhelp()\nstore_summary()"}`)),
		ctxTool("s1", "help text"),
		ctxAsst("", "", ctxCall("c1", "repl", `{"code":"print(1)"}`)),
		ctxTool("c1", "1"),
		ctxAsst("", "", ctxCall("c2", "FYI", `{}`)),
		ctxTool("c2", "date"),
		ctxAsst("done", ""),
	}
	notSynthetic := []sessions.Item{
		ctxUser("go"),
		ctxAsst("", "", ctxCall("r1", "repl", `{"code":"FYI()\nprint(2)"}`)),
		ctxTool("r1", "2"),
	}
	shared := []sessions.Item{
		ctxUser("q"),
		ctxAsst("", "", ctxCall("g1", "grep", `{"pattern":"x","path":"a"}`)),
		ctxTool("g1", "a:1:x"),
		ctxAsst("answer", ""),
	}
	orphan := []sessions.Item{
		ctxAsst("before any user message", ""),
		ctxTool("nope", "lost result"),
	}
	tests := []struct {
		name       string
		items      []sessions.Item
		counts     []llm.TurnCount
		activeFrom int
		want       []OverlayTurn
	}{
		{
			name:       "root turn: synthetic FYI omitted, counts from the cache",
			items:      fyi,
			counts:     []llm.TurnCount{{Key: "other"}, ctxCount(fyi, 5, 9, 11, 3)},
			activeFrom: -1,
			want: []OverlayTurn{{Index: 0, Tokens: 28, Rows: []OverlayRow{
				{Role: "user", Preview: "hello there friend", Tokens: 5},
				{Role: "assistant", Preview: "Hi!", Tokens: 3},
			}}},
		},
		{
			name:       "subagent: start-up REPL call omitted, later calls kept",
			items:      sub,
			counts:     []llm.TurnCount{ctxCount(sub, 4, 20, 30, 6, 1, 5, 2, 1)},
			activeFrom: -1,
			want: []OverlayTurn{{Index: 0, Tokens: 69, Rows: []OverlayRow{
				{Role: "user", Preview: "find the bug", Tokens: 4},
				{Role: "tool", Preview: "repl print(1)", Tokens: 7},
				{Role: "tool", Preview: "FYI", Tokens: 7},
				{Role: "assistant", Preview: "done", Tokens: 1},
			}}},
		},
		{
			name:       "a first REPL call that is not the start-up code is shown",
			items:      notSynthetic,
			counts:     []llm.TurnCount{ctxCount(notSynthetic, 1, 6, 2)},
			activeFrom: -1,
			want: []OverlayTurn{{Index: 0, Tokens: 9, Rows: []OverlayRow{
				{Role: "user", Preview: "go", Tokens: 1},
				{Role: "tool", Preview: "repl FYI() print(2)", Tokens: 8},
			}}},
		},
		{
			name:       "call and result share a row",
			items:      shared,
			counts:     []llm.TurnCount{ctxCount(shared, 2, 10, 4, 3)},
			activeFrom: -1,
			want: []OverlayTurn{{Index: 0, Tokens: 19, Rows: []OverlayRow{
				{Role: "user", Preview: "q", Tokens: 2},
				{Role: "tool", Preview: "grep x a", Tokens: 14},
				{Role: "assistant", Preview: "answer", Tokens: 3},
			}}},
		},
		{
			name:       "hidden turn, then the active turn estimated despite a count",
			items:      append(append(append([]sessions.Item{}, shared...), ctxMarker), fyi...),
			counts:     []llm.TurnCount{ctxCount(shared, 2, 10, 4, 3), ctxCount(fyi, 5, 9, 11, 3)},
			activeFrom: 1,
			want: []OverlayTurn{
				{Index: 0, Tokens: 19, Hidden: true, Rows: []OverlayRow{
					{Role: "user", Preview: "q", Tokens: 2},
					{Role: "tool", Preview: "grep x a", Tokens: 14},
					{Role: "assistant", Preview: "answer", Tokens: 3},
				}},
				ctxEstimated(1, fyi, true, []int{0, 3}, []string{"user", "assistant"}, []string{"hello there friend", "Hi!"}),
			},
		},
		{
			name:       "no count: estimated; messages before the first user message are a turn",
			items:      orphan,
			activeFrom: -1,
			want: []OverlayTurn{
				ctxEstimated(0, orphan, false, []int{0, 1}, []string{"assistant", "tool"}, []string{"before any user message", "lost result"}),
			},
		},
		{
			name:       "a count whose Messages do not match the turn is not used",
			items:      shared,
			counts:     []llm.TurnCount{{Key: llm.TurnKey(ctxMessages(shared)), Tokens: 3, Messages: []int{3}}},
			activeFrom: 5,
			want: []OverlayTurn{
				ctxEstimatedShared(shared),
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := BuildOverlayTurns(tc.items, tc.counts, tc.activeFrom)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got\n%+v\nwant\n%+v", got, tc.want)
			}
		})
	}
}

// ctxEstimated is the expected turn for items counted by llm.EstimateTurn
// whose rows are the messages at msgIdx (one message per row).
func ctxEstimated(index int, items []sessions.Item, active bool, msgIdx []int, roles, previews []string) OverlayTurn {
	est := llm.EstimateTurn(ctxMessages(items))
	t := OverlayTurn{Index: index, Tokens: est.Tokens, Estimated: true, Active: active}
	for i, m := range msgIdx {
		t.Rows = append(t.Rows, OverlayRow{Role: roles[i], Preview: previews[i], Tokens: est.Messages[m], Estimated: true})
	}
	return t
}

func ctxEstimatedShared(items []sessions.Item) OverlayTurn {
	est := llm.EstimateTurn(ctxMessages(items))
	return OverlayTurn{Index: 0, Tokens: est.Tokens, Estimated: true, Rows: []OverlayRow{
		{Role: "user", Preview: "q", Tokens: est.Messages[0], Estimated: true},
		{Role: "tool", Preview: "grep x a", Tokens: est.Messages[1] + est.Messages[2], Estimated: true},
		{Role: "assistant", Preview: "answer", Tokens: est.Messages[3], Estimated: true},
	}}
}

func TestBuildOverlayTurnsSplit(t *testing.T) {
	big := strings.Repeat("r", 400)
	items := []sessions.Item{
		ctxUser("u"),
		ctxAsst("short", big,
			ctxCall("a", "grep", `{"pattern":"p"}`),
			ctxCall("b", "repl", `{"code":"`+strings.Repeat("x", 200)+`"}`)),
		ctxTool("a", "r1"),
		ctxTool("b", "r2"),
	}
	const asst = 1000
	got := BuildOverlayTurns(items, []llm.TurnCount{ctxCount(items, 1, asst, 50, 70)}, -1)
	rows := got[0].Rows
	roles := []string{}
	for _, r := range rows {
		roles = append(roles, r.Role)
	}
	if want := []string{"user", "reasoning", "assistant", "tool", "tool"}; !reflect.DeepEqual(roles, want) {
		t.Fatalf("roles %v, want %v", roles, want)
	}
	reasoning, content, grep, repl := rows[1].Tokens, rows[2].Tokens, rows[3].Tokens-50, rows[4].Tokens-70
	if sum := reasoning + content + grep + repl; sum != asst {
		t.Errorf("assistant parts add up to %d, want %d (%v)", sum, asst, rows)
	}
	// Sizes: reasoning ~420 bytes, content ~17, grep call ~80, repl call ~270.
	if !(reasoning > repl && repl > grep && grep > content && content > 0) {
		t.Errorf("parts not in proportion to their JSON sizes: reasoning %d, content %d, grep %d, repl %d", reasoning, content, grep, repl)
	}
	if rows[1].Preview != strings.Repeat("r", contextPreviewRunes-1)+"…" {
		t.Errorf("reasoning preview %q", rows[1].Preview)
	}
}

func TestContextSplit(t *testing.T) {
	tests := []struct {
		n     int
		sizes []int
		want  []int
	}{
		{10, []int{1, 1, 1}, []int{4, 3, 3}},
		{100, []int{25, 75}, []int{25, 75}},
		{7, nil, []int{}},
		{5, []int{0, 0}, []int{5, 0}},
		{0, []int{3, 9}, []int{0, 0}},
		{3, []int{1, 2, 100}, []int{0, 0, 3}},
		{11, []int{1, 3, 1}, []int{2, 7, 2}},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.n, tc.sizes), func(t *testing.T) {
			if got := contextSplit(tc.n, tc.sizes); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("contextSplit(%d, %v) = %v, want %v", tc.n, tc.sizes, got, tc.want)
			}
		})
	}
}

func TestOverlayTotal(t *testing.T) {
	tests := []struct {
		name    string
		turns   []OverlayTurn
		want    int
		wantEst bool
	}{
		{"empty", nil, 0, false},
		{"exact", []OverlayTurn{{Tokens: 3}, {Tokens: 4}}, 7, false},
		{"hidden excluded", []OverlayTurn{{Tokens: 3}, {Tokens: 40, Hidden: true, Estimated: true}}, 3, false},
		{"estimated", []OverlayTurn{{Tokens: 3}, {Tokens: 4, Estimated: true}}, 7, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n, est := OverlayTotal(tc.turns)
			if n != tc.want || est != tc.wantEst {
				t.Errorf("OverlayTotal = %d, %v; want %d, %v", n, est, tc.want, tc.wantEst)
			}
		})
	}
}

func TestContextPreview(t *testing.T) {
	exact := strings.Repeat("é", contextPreviewRunes)
	tests := []struct{ in, want string }{
		{"", ""},
		{"  a \n\n b\t\x00c  ", "a b c"},
		{exact, exact},
		{exact + "x", strings.Repeat("é", contextPreviewRunes-1) + "…"},
		{strings.Repeat("ab ", 100), strings.TrimSpace(strings.Repeat("ab ", 20))[:contextPreviewRunes-1] + "…"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			if got := contextPreview(tc.in); got != tc.want {
				t.Errorf("contextPreview(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestContextCallPreview(t *testing.T) {
	tests := []struct{ name, args, want string }{
		{"rlm", `{"task":"find  x","name":"explore"}`, "rlm find x name: explore"},
		{"apply_patch", `{"root":"store","patch":"*** Begin Patch\n"}`, "apply_patch root: store *** Begin Patch"},
		{"apply_patch", `{"patch":"*** Begin Patch\n","root":"store"}`, "apply_patch root: store *** Begin Patch"},
		{"grep", `{"pattern":"a","context":2,"fixed":true}`, "grep a 2 true"},
		{"FYI", ``, "FYI"},
		{"repl", `not json`, "repl not json"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := contextCallPreview(ctxCall("id", tc.name, tc.args)); got != tc.want {
				t.Errorf("preview %q, want %q", got, tc.want)
			}
		})
	}
}

func TestContextJSONStringLen(t *testing.T) {
	for _, s := range []string{"", "plain", "a\"b\\c\n\t\r", "\x01<&>", "héllo ✓"} {
		b, _ := json.Marshal(s)
		if got := contextJSONStringLen(s); got != len(b) {
			t.Errorf("contextJSONStringLen(%q) = %d, json.Marshal gives %d", s, got, len(b))
		}
	}
}

// ctxBenchConversation is 10,000 counted turns, every seventh hidden, the
// last one running.
func ctxBenchConversation() ([]sessions.Item, []llm.TurnCount) {
	var items []sessions.Item
	var counts []llm.TurnCount
	for i := range 10000 {
		turn := []sessions.Item{
			ctxUser(fmt.Sprintf("question %d: %s", i, strings.Repeat("words ", 30))),
			ctxAsst("", "", ctxCall(fmt.Sprint("f", i), "FYI", "{}")),
			ctxTool(fmt.Sprint("f", i), "date"),
			ctxAsst("", strings.Repeat("thinking ", 40), ctxCall(fmt.Sprint("r", i), "rlm", `{"task":"look","name":"x"}`)),
			ctxTool(fmt.Sprint("r", i), strings.Repeat("result ", 100)),
			ctxAsst(strings.Repeat("answer ", 50), ""),
		}
		items = append(items, turn...)
		if i%7 == 0 {
			items = append(items, ctxMarker)
		}
		counts = append(counts, ctxCount(turn, 40, 5, 3, 120, 200, 90))
	}
	return items, counts
}

// BenchmarkBuildOverlayTurns builds the rows of 10,000 turns from scratch.
func BenchmarkBuildOverlayTurns(b *testing.B) {
	items, counts := ctxBenchConversation()
	b.ReportAllocs()
	for b.Loop() {
		turns := BuildOverlayTurns(items, counts, 9999)
		if len(turns) != 10000 || turns[0].Estimated || !turns[9999].Active {
			b.Fatalf("bad build: %d turns", len(turns))
		}
	}
}

// BenchmarkOverlayBuilderRebuild rebuilds 10,000 turns after a message was
// added to the running turn, as the UI does at each message boundary.
func BenchmarkOverlayBuilderRebuild(b *testing.B) {
	items, counts := ctxBenchConversation()
	var ob OverlayBuilder
	ob.Build(items[:len(items)-1], counts, 9999)
	b.ReportAllocs()
	for b.Loop() {
		ob.Build(items[:len(items)-1], counts, 9999)
		turns := ob.Build(items, counts, 9999)
		if len(turns) != 10000 || turns[0].Estimated || !turns[9999].Active {
			b.Fatalf("bad build: %d turns", len(turns))
		}
	}
}

// TestOverlayBuilderMatchesBuild checks that a reused OverlayBuilder gives
// what a fresh build gives as the conversation and its counts change.
func TestOverlayBuilderMatchesBuild(t *testing.T) {
	t1 := []sessions.Item{ctxUser("a"), ctxAsst("b", "why")}
	t2 := []sessions.Item{ctxUser("c"), ctxAsst("", "", ctxCall("x", "grep", `{"pattern":"p"}`)), ctxTool("x", "r")}
	t2done := append(append([]sessions.Item{}, t2...), ctxAsst("done", ""))
	join := func(parts ...[]sessions.Item) []sessions.Item {
		var out []sessions.Item
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	steps := []struct {
		name       string
		items      []sessions.Item
		counts     []llm.TurnCount
		activeFrom int
	}{
		{"first turn running", t1, nil, 0},
		{"first turn counted", t1, []llm.TurnCount{ctxCount(t1, 3, 4)}, -1},
		{"second turn running", join(t1, t2), []llm.TurnCount{ctxCount(t1, 3, 4)}, 1},
		{"second turn grows", join(t1, t2done), []llm.TurnCount{ctxCount(t1, 3, 4)}, 1},
		{"second turn counted", join(t1, t2done), []llm.TurnCount{ctxCount(t1, 3, 4), ctxCount(t2done, 1, 2, 3, 4)}, -1},
		{"first turn hidden", join(t1, []sessions.Item{ctxMarker}, t2done), []llm.TurnCount{ctxCount(t1, 3, 4), ctxCount(t2done, 1, 2, 3, 4)}, -1},
		{"first turn recounted", join(t1, []sessions.Item{ctxMarker}, t2done), []llm.TurnCount{ctxCount(t1, 5, 4), ctxCount(t2done, 1, 2, 3, 4)}, -1},
		{"first turn edited", join([]sessions.Item{ctxUser("A")}, t1[1:], t2done), []llm.TurnCount{ctxCount(t1, 5, 4), ctxCount(t2done, 1, 2, 3, 4)}, -1},
		{"emptied", nil, nil, -1},
	}
	var b OverlayBuilder
	for _, s := range steps {
		got := b.Build(s.items, s.counts, s.activeFrom)
		want := BuildOverlayTurns(s.items, s.counts, s.activeFrom)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: builder gave\n%+v\nfresh build\n%+v", s.name, got, want)
		}
	}
}

// TestOverlayBuilderExtends: a conversation appended to in place, message
// by message, with the last turn running, builds what a fresh build gives,
// starting each time at the last turn; the total follows.
func TestOverlayBuilderExtends(t *testing.T) {
	all, counts := ctxBenchConversation()
	all = all[:60]
	items := make([]sessions.Item, 0, len(all)+1)
	var b OverlayBuilder
	for i, it := range all {
		items = append(items, it)
		cs := counts
		if i%2 == 0 {
			cs = nil // with and without a cache
		}
		if i == 30 {
			b = OverlayBuilder{} // a fresh builder in the middle of a turn
		}
		got := b.Build(items, cs, ActiveLast)
		turns := sessions.Turns(items)
		want := BuildOverlayTurns(items, cs, len(turns)-1)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("after %d items: builder gave\n%+v\nfresh build\n%+v", i+1, got, want)
		}
		if tot, est := b.Total(); true {
			wt, we := OverlayTotal(want)
			if tot != wt || est != we {
				t.Fatalf("after %d items: total %d, %v; want %d, %v", i+1, tot, est, wt, we)
			}
		}
	}
	// Same counts slice, appended in place: only the last turn is built.
	more := append(items, ctxAsst("more", ""))
	b.Build(more, counts, ActiveLast)
	if last := len(sessions.Turns(more)) - 1; b.from != last {
		t.Errorf("an appended message rebuilt from turn %d, want the last, %d", b.from, last)
	}
}

// BenchmarkOverlayBuilderAppend: messages added one by one to the running
// turn of a 10,000-turn conversation, appended in place as a view does
// (BenchmarkOverlayBuilderRebuild is the same without the fast path).
func BenchmarkOverlayBuilderAppend(b *testing.B) {
	base, counts := ctxBenchConversation()
	items := make([]sessions.Item, len(base), len(base)+1+b.N)
	copy(items, base)
	items = append(items, ctxUser("one more"))
	var ob OverlayBuilder
	ob.Build(items, counts, ActiveLast)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		items = append(items, ctxAsst(fmt.Sprint("step ", i), ""))
		if turns := ob.Build(items, counts, ActiveLast); len(turns) != 10001 || !turns[10000].Active {
			b.Fatalf("bad build: %d turns", len(turns))
		}
	}
}
