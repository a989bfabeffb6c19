package llm

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// endless is a reader of one line that never ends, counting what it gave.
type endless struct{ n int64 }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	e.n += int64(len(p))
	return len(p), nil
}

// TestLineReaderBounded: a line over the limit is refused after reading at
// most the limit and one buffer, and lines up to the limit are whole.
func TestLineReaderBounded(t *testing.T) {
	src := &endless{}
	lr := newLineReader(src)
	lr.max = 1 << 20
	if _, err := lr.next(); !errors.Is(err, errLineTooLong) {
		t.Fatalf("err %v", err)
	}
	if src.n > 1<<20+2*64<<10 {
		t.Errorf("read %d bytes of a line limited to 1 MiB", src.n)
	}
	if cap(lr.long) != 0 {
		t.Errorf("kept %d bytes after the refusal", cap(lr.long))
	}
	for _, tc := range []struct {
		name string
		line string
		err  error
	}{
		{"at the limit", strings.Repeat("b", 1<<20), nil},
		{"at the limit with CRLF", strings.Repeat("b", 1<<20) + "\r", nil},
		{"one over", strings.Repeat("b", 1<<20+3), errLineTooLong},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lr := newLineReader(io.MultiReader(strings.NewReader(tc.line+"\n"), strings.NewReader("next\n")))
			lr.max = 1 << 20
			got, err := lr.next()
			if !errors.Is(err, tc.err) {
				t.Fatalf("err %v", err)
			}
			if err == nil && len(got) != 1<<20 {
				t.Errorf("line of %d bytes", len(got))
			}
		})
	}
}
