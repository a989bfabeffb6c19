package sessions

import (
	"reflect"
	"testing"

	"harness/llm"
)

func items(spec ...string) []Item {
	var out []Item
	for _, s := range spec {
		switch s {
		case "H":
			out = append(out, Item{Hidden: true})
		case "u":
			out = append(out, Item{Message: llm.Message{Role: "user"}})
		case "a":
			out = append(out, Item{Message: llm.Message{Role: "assistant"}})
		case "t":
			out = append(out, Item{Message: llm.Message{Role: "tool"}})
		}
	}
	return out
}

func TestTurns(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []Item
		want []Turn
		vis  int
	}{
		{"empty", nil, nil, 0},
		{"one", items("u", "a", "t", "a"), []Turn{{Start: 0, End: 4}}, 4},
		{"hidden first", items("u", "a", "H", "u", "a"), []Turn{{Start: 0, End: 2, Hidden: true}, {Start: 3, End: 5}}, 2},
		{"hidden last", items("u", "a", "u", "a", "t", "H"), []Turn{{Start: 0, End: 2}, {Start: 2, End: 5, Hidden: true}}, 2},
		{"leading assistant", items("a", "u"), []Turn{{Start: 0, End: 1}, {Start: 1, End: 2}}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Turns(tc.in); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Turns = %v, want %v", got, tc.want)
			}
			if got := len(Visible(tc.in)); got != tc.vis {
				t.Errorf("Visible has %d messages, want %d", got, tc.vis)
			}
		})
	}
}

func TestSetHidden(t *testing.T) {
	in := items("u", "a", "u", "a")
	h := SetHidden(in, 0, true)
	if !reflect.DeepEqual(h, items("u", "a", "H", "u", "a")) {
		t.Fatalf("hide: %v", h)
	}
	if again := SetHidden(h, 0, true); len(again) != len(h) {
		t.Fatal("hiding twice added a marker")
	}
	if back := SetHidden(h, 0, false); !reflect.DeepEqual(back, in) {
		t.Fatalf("restore: %v", back)
	}
	if same := SetHidden(in, 5, true); len(same) != len(in) {
		t.Fatal("out of range changed items")
	}
}
