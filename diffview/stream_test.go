package diffview

import (
	"reflect"
	"strings"
	"testing"

	"harness/llmtest"
	"harness/styled"
)

// streamPatches are patches that grow into every kind of section, and
// into what turns a parsed patch raw.
var streamPatches = []string{
	llmtest.AddFilePatch("big.go", 60),
	"*** Begin Patch\n*** Update File: a.go\n@@ func f\n-old\n+new\n ctx\n*** Add File: b/c.txt\n+one\n+\n+three\n*** Replace File: d.txt\n+x\n+y\n*** End Patch\n",
	"*** Begin Patch\n*** Add File: a\n+1\n\n+2\n*** Delete File: z\n*** End Patch",
	"*** Begin Patch\r\n*** Add File: crlf.txt\r\n+a\r\n+b\r\n*** End Patch\r\n",
	"*** Begin Patch\n*** Add File: ../escape\n+x\n*** End Patch\n",
	"*** Begin Patch\n*** Add File: a\n+" + strings.Repeat("long line ", 30) + "\n+日本語\n*** End Patch\n",
}

// TestStream: at every step of a growing patch, a Stream draws what Lines
// draws for the text so far.
func TestStream(t *testing.T) {
	for _, src := range streamPatches {
		for _, step := range []int{1, 7, 50} {
			for _, width := range []int{80, 12} {
				var s Stream
				for i := step; ; i += step {
					i = min(i, len(src))
					got, want := s.Lines(src[:i], width), Lines(src[:i], nil, width)
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("step %d width %d after %d bytes %q:\ngot\n%s\nwant\n%s", step, width, i, src[:i],
							styled.Annotate(got), styled.Annotate(want))
					}
					if i == len(src) {
						break
					}
				}
			}
		}
	}
}

// TestStreamExtends: while an Add File streams, a Stream draws only the
// lines that arrived.
func TestStreamExtends(t *testing.T) {
	src := llmtest.AddFilePatch("big.go", 400)
	var s Stream
	slow := 0
	for i := 30; i < len(src)-20; i += 30 {
		s.Lines(src[:i], 100)
		if !s.fast {
			slow++
		}
	}
	if slow > 3 {
		t.Errorf("%d frames drew the whole patch", slow)
	}
}

func FuzzStream(f *testing.F) {
	for _, p := range streamPatches[1:] {
		f.Add(p, 3, 20)
	}
	f.Fuzz(func(t *testing.T, src string, step, width int) {
		step = 1 + max(step, -step)%40
		width = 1 + max(width, -width)%90
		var s Stream
		for i := step; ; i += step {
			i = min(i, len(src))
			if got, want := s.Lines(src[:i], width), Lines(src[:i], nil, width); !reflect.DeepEqual(got, want) {
				t.Fatalf("after %d bytes %q:\ngot\n%s\nwant\n%s", i, src[:i], styled.Annotate(got), styled.Annotate(want))
			}
			if i == len(src) {
				break
			}
		}
	})
}

// TestStreamAfter: LinesAfter draws its lead, then what Lines draws, at
// every step, the lead changing on the way, and still draws only the
// lines that arrived while the lead stays.
func TestStreamAfter(t *testing.T) {
	one := []styled.Line{styled.One("● apply_patch", styled.Style{})}
	two := append([]styled.Line{one[0]}, styled.One("root: sub", styled.Style{}))
	for _, src := range streamPatches {
		for _, width := range []int{80, 12} {
			var s, plain Stream
			slow, plainSlow := 0, 0
			for i := 5; ; i += 5 {
				i = min(i, len(src))
				lead := one
				if i > len(src)/2 {
					lead = two
				}
				got := s.LinesAfter(lead, src[:i], width)
				want := append(append([]styled.Line(nil), lead...), Lines(src[:i], nil, width)...)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("width %d after %d bytes %q:\ngot\n%s\nwant\n%s", width, i, src[:i],
						styled.Annotate(got), styled.Annotate(want))
				}
				if plain.Lines(src[:i], width); !plain.fast {
					plainSlow++
				}
				if !s.fast {
					slow++
				}
				if i == len(src) {
					break
				}
			}
			if slow > plainSlow+1 { // the lead's change draws it whole once
				t.Errorf("width %d: %d steps drew the whole patch, %d without a lead", width, slow, plainSlow)
			}
		}
	}
}
