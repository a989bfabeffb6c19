package replterm

import (
	"slices"
	"strings"
	"testing"

	"harness/repl"
)

func TestRemainder(t *testing.T) {
	for _, tt := range []struct {
		name, result, streamed, want string
		fresh                        bool
	}{
		{"nothing", "(no output)", "", "", false},
		{"a value", "42", "", "42", false},
		{"printed only", "a\nb", "a\nb\n", "", false},
		{"printed then a value", "a\n42", "a\n", "42", false},
		{"printed without a newline, then a value", "a\n42", "a", "\n42", false},
		{"printed without a newline only", "a", "a", "", false},
		{"printed, then an error", "x\nTraceback (most recent call last):\n  repl:2:1: in <toplevel>\nError: boom", "x\n",
			"Traceback (most recent call last):\n  repl:2:1: in <toplevel>\nError: boom", false},
		{"blank lines printed", "a", "a\n\n\n", "", false},
		{"a load report first", "Helper files that failed to load (…):\n  replib/x.star: x.star:1:1: bad\nhi\n1", "hi\n",
			"Helper files that failed to load (…):\n  replib/x.star: x.star:1:1: bad\n1", true},
		{"output cut for the tail", "0123\n[output truncated: 90 bytes omitted (output_limit)]\nError: boom", "0123456789\n",
			"[output truncated: 90 bytes omitted (output_limit)]\nError: boom", true},
		{"cancelled", "loop\ncancelled: the call was stopped by the user (Esc)", "loop\n", "cancelled: the call was stopped by the user (Esc)", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, fresh := Remainder(tt.result, tt.streamed)
			if got != tt.want || fresh != tt.fresh {
				t.Errorf("Remainder(%q, %q) = %q, %v; want %q, %v", tt.result, tt.streamed, got, fresh, tt.want, tt.fresh)
			}
		})
	}
}

func TestComplete(t *testing.T) {
	names := func() []string {
		return []string{"glob", "globals_x", "search", "_private", "len", "print", "printable"}
	}
	modules := []string{"collections", "glob", "json", "os", "os.path"}
	for _, tt := range []struct {
		before, head string
		want         []string
	}{
		{"", "", []string{"    "}},
		{"    ", "    ", []string{"    "}},
		{"gl", "", []string{"glob", "global", "globals_x"}},
		{"x = se", "x = ", []string{"search"}},
		{"print(pri", "print(", []string{"print", "printable"}},
		{"_p", "", []string{"_private"}},
		{"p", "", []string{"pass", "print", "printable"}},
		{"wh", "", []string{"while"}},
		{"import o", "import ", []string{"os", "os.path"}},
		{"import os.p", "import ", []string{"os.path"}},
		{"import json, co", "import json, ", []string{"collections"}},
		{"from gl", "from ", []string{"glob"}},
		{"json.du", "", nil},              // attributes are not completed
		{`print("gl`, `print("`, nil},     // inside a string
		{"x = 1  # gl", "x = 1  # ", nil}, // inside a comment
		{"x = 1", "x = ", nil},
		{"zz", "", nil},
	} {
		head, got := Complete(tt.before, names, modules)
		if head != tt.head || !slices.Equal(got, tt.want) {
			t.Errorf("Complete(%q) = %q, %q; want %q, %q", tt.before, head, got, tt.head, tt.want)
		}
	}
}

// TestCompleteAsksOnlyForNames: an indentation or an import does not
// wait on the REPL.
func TestCompleteAsksOnlyForNames(t *testing.T) {
	asked := 0
	names := func() []string { asked++; return nil }
	Complete("   ", names, nil)
	Complete("import o", names, []string{"os"})
	if asked != 0 {
		t.Errorf("asked for names %d times", asked)
	}
	Complete("x", names, nil)
	if asked != 1 {
		t.Errorf("asked for names %d times, want 1", asked)
	}
}

func TestReloadSummary(t *testing.T) {
	rep := repl.HelperReport{
		Files: []repl.HelperFile{
			{File: "a.star", Functions: []repl.HelperFunction{{Name: "f", Public: true}, {Name: "_g"}}},
			{File: "b.star", Error: "b.star:1:1: bad", Line: 1, Column: 1},
			{File: "c.star", Functions: []repl.HelperFunction{{Name: "h", Public: true}}},
		},
		Report: "Helper files that failed to load (left out of help(); fix them in $HARNESS_HOME/replib):\n  replib/b.star: b.star:1:1: bad\n",
	}
	got := ReloadSummary(rep)
	want := "Helper files that failed to load (left out of help(); fix them in $HARNESS_HOME/replib):\n  replib/b.star: b.star:1:1: bad\n" +
		"Reloaded 2 helper files (2 public functions); variables are kept. a.star, c.star\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := ReloadSummary(repl.HelperReport{}); !strings.HasPrefix(got, "Reloaded 0 helper files") {
		t.Errorf("no files: %q", got)
	}
}
