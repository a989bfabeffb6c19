package sessions

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"harness/llm"
)

func conv(n int) []Item {
	var out []Item
	for i := range n {
		out = append(out, Item{Message: llm.Message{Role: "user", Content: "q" + string(rune('0'+i))}},
			Item{Message: llm.Message{Role: "assistant", Content: "a" + string(rune('0'+i))}})
	}
	return out
}

func contents(msgs []llm.Message) string {
	var s []string
	for _, m := range msgs {
		s = append(s, m.Content)
	}
	return strings.Join(s, " ")
}

func TestCompactionEntry(t *testing.T) {
	items := HideTurns(conv(4), []int{0, 1}, HiddenByCompaction)
	items, err := AddEntry(items, &Compaction{Turns: []int{0, 1}, Summary: "S"})
	if err != nil {
		t.Fatal(err)
	}
	vis := Visible(items)
	if len(vis) != 6 || !strings.HasSuffix(vis[0].Content, "\n\nS") || !strings.Contains(vis[0].Content, "turns 1–2") || vis[1].Content != EntryAck {
		t.Fatalf("visible = %q", contents(vis))
	}
	if got := contents(vis[2:]); got != "q2 a2 q3 a3" {
		t.Errorf("the rest = %q", got)
	}
	ts := Turns(items)
	if len(ts) != 4 || !ts[0].Hidden || ts[0].By != HiddenByCompaction || ts[2].Hidden {
		t.Errorf("turns = %+v", ts)
	}

	// The file keeps the markers and the entry, and reads them back.
	f := &File{Items: items, Local: Local{Repository: "/r"}}
	var b bytes.Buffer
	if err := f.Encode(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`{"_harness_local":{"hidden":true,"by":"compaction"}}`, `{"_harness_local":{"compaction":{"turns":[0,1],"summary":"S"}}}`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("file lacks %s:\n%s", want, b.String())
		}
	}
	back, err := Decode(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Items, items) {
		t.Errorf("decoded %+v, want %+v", back.Items, items)
	}

	// The person hides the entry: its turns stay hidden, nothing stands for them.
	e := Entries(items)[0].Index
	off := SetEntryOff(items, e, true)
	if got := contents(Visible(off)); got != "q2 a2 q3 a3" {
		t.Errorf("entry off: %q", got)
	}
	// Restoring one of its turns restores them all and removes the entry.
	back2 := SetHidden(items, 1, false)
	if !reflect.DeepEqual(back2, conv(4)) {
		t.Errorf("restore turn 1: %+v", back2)
	}
	if !reflect.DeepEqual(RestoreEntry(items, e), conv(4)) {
		t.Error("RestoreEntry did not bring the conversation back exactly")
	}
}

func TestTurnRange(t *testing.T) {
	for _, c := range []struct {
		in   []int
		want string
	}{
		{[]int{1}, "turn 2"},
		{[]int{0, 1, 2}, "turns 1–3"},
		{[]int{0, 1, 2, 4}, "turns 1–3, 5"},
	} {
		if got := TurnRange(c.in); got != c.want {
			t.Errorf("TurnRange(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestDecodeLocalItemErrors(t *testing.T) {
	for _, raw := range []string{
		`{"_harness_local":{"hidden":true,"by":"someone"}}`,
		`{"_harness_local":{"compaction":{"turns":[],"summary":""}}}`,
		`{"_harness_local":{"compaction":{"turns":[2,1],"summary":""}}}`,
		`{"_harness_local":{"hidden":true,"compaction":{"turns":[1],"summary":""}}}`,
		`{"_harness_local":{"compaction":{"turns":[1]}}}`,
	} {
		if _, err := decodeLocalItem([]byte(raw)); err == nil {
			t.Errorf("%s decoded", raw)
		}
	}
}
