package replcheck

import (
	"reflect"
	"slices"
	"testing"
)

func TestExamples(t *testing.T) {
	for _, tt := range []struct {
		name string
		doc  string
		want []Example
	}{
		{"none", "Do a thing.\n\nMore words.", nil},
		{"one", "Do a thing.\n\n>>> f(1)\n2\n", []Example{{Source: "f(1)", Want: "2", Line: 2}}},
		{"no output", ">>> x = 1\n>>> x\n1", []Example{{Source: "x = 1", Line: 0}, {Source: "x", Want: "1", Line: 1}}},
		{"continuation", ">>> for i in range(2):\n...     print(i)\n0\n1\n\nafter", []Example{{Source: "for i in range(2):\n    print(i)", Want: "0\n1", Line: 0}}},
		{"indented", "Example:\n    >>> f()\n    'a'\n      'b'\n    next text", []Example{{Source: "f()", Want: "'a'\n  'b'\nnext text", Line: 1}}},
		{"ends at a blank line", ">>> f()\n1\n\n2", []Example{{Source: "f()", Want: "1", Line: 0}}},
		{"blankline", ">>> print('a\\n\\nb')\na\n<BLANKLINE>\nb", []Example{{Source: `print('a\n\nb')`, Want: "a\n\nb", Line: 0}}},
		{"bare prompt", ">>>\n>>> 1\n1", []Example{{Source: "", Line: 0}, {Source: "1", Want: "1", Line: 1}}},
		{"not a prompt", ">>>x\n>>>> y", nil},
		{"traceback", ">>> 1/0\nTraceback (most recent call last):\n  ...\nZeroDivisionError: division by zero",
			[]Example{{Source: "1/0", Want: "Traceback (most recent call last):\n  ...\nZeroDivisionError: division by zero", Line: 0}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := Examples(tt.doc); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Examples(%q)\n got %+v\nwant %+v", tt.doc, got, tt.want)
			}
		})
	}
}

func TestMatches(t *testing.T) {
	const tb = "Traceback (most recent call last):\n  repl:1:2: in <expr>\n  x.star:3:5: in f\nZeroDivisionError: division by zero"
	for _, tt := range []struct {
		name, want, got string
		match           bool
	}{
		{"same", "1", "1", true},
		{"different", "1", "2", false},
		{"trailing spaces", "a  \nb", "a\nb   ", true},
		{"trailing lines", "a", "a\n\n", true},
		{"nothing expected", "", "", true},
		{"nothing expected, something got", "", "x", false},
		{"leading spaces count", " a", "a", false},
		{"traceback, the stack skipped", "Traceback (most recent call last):\n  ...\nZeroDivisionError: division by zero", tb, true},
		{"traceback without a stack", "Traceback (most recent call last):\nZeroDivisionError: division by zero", tb, true},
		{"traceback after output", "Traceback (most recent call last):\nZeroDivisionError: division by zero", "printed\n" + tb, true},
		{"traceback, another exception", "Traceback (most recent call last):\nValueError: x", tb, false},
		{"traceback expected, none got", "Traceback (most recent call last):\nValueError: x", "ValueError: x", false},
		{"a whole traceback compared as text when not expected", "ZeroDivisionError: division by zero", tb, false},
	} {
		if got := Matches(tt.want, tt.got); got != tt.match {
			t.Errorf("%s: Matches(%q, %q) = %v", tt.name, tt.want, tt.got, got)
		}
	}
	if Got("(no output)") != "" || Got("1") != "1" {
		t.Error("Got")
	}
}

func TestDiff(t *testing.T) {
	for _, tt := range []struct {
		want, got string
		diff      []string
	}{
		{"4", "5", []string{"-4", "+5"}},
		{"a\nb\nc", "a\nB\nc", []string{" a", "-b", "+B", " c"}},
		{"", "x\ny", []string{"+x", "+y"}},
		{"x", "", []string{"-x"}},
		{"a  ", "a", []string{" a"}},
	} {
		if got := Diff(tt.want, tt.got); !slices.Equal(got, tt.diff) {
			t.Errorf("Diff(%q, %q) = %q, want %q", tt.want, tt.got, got, tt.diff)
		}
	}
}

func FuzzExamples(f *testing.F) {
	for _, s := range []string{">>> f(1)\n2", ">>> for x in y:\n...     p(x)\n1\n\n>>> z", "    >>> a\n   b\n<BLANKLINE>", ">>>\n..."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		for _, ex := range Examples(doc) {
			Matches(ex.Want, ex.Want)
			Diff(ex.Want, ex.Source)
		}
	})
}
