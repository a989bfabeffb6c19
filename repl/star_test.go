package repl

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestStarScripts runs testdata/*.star. Each script is split into chunks at
// lines "---"; the chunks run in order as separate calls of one REPL (depth
// 2, so /store and /library exist), after testdata/assert.star. A chunk with
// a line containing `### "regexp"` must fail with a result matching the
// regexp; any other chunk must succeed.
func TestStarScripts(t *testing.T) {
	assertSrc, err := os.ReadFile("testdata/assert.star")
	if err != nil {
		t.Fatal(err)
	}
	scripts, _ := filepath.Glob("testdata/*.star")
	for _, script := range scripts {
		if filepath.Base(script) == "assert.star" {
			continue
		}
		t.Run(strings.TrimSuffix(filepath.Base(script), ".star"), func(t *testing.T) {
			t.Parallel()
			src, err := os.ReadFile(script)
			if err != nil {
				t.Fatal(err)
			}
			e := newEnv(t, withDepth(2))
			if out, failed := e.repl.exec(context.Background(), string(assertSrc)); failed {
				t.Fatalf("assert.star: %s", out)
			}
			for i, chunk := range splitChunks(string(src)) {
				out, failed := e.repl.exec(context.Background(), chunk.code)
				switch {
				case chunk.want == nil && failed:
					t.Errorf("%s chunk %d (line %d) failed:\n%s", script, i, chunk.line, out)
				case chunk.want != nil && !failed:
					t.Errorf("%s chunk %d (line %d) succeeded, want error matching %q:\n%s", script, i, chunk.line, chunk.want, out)
				case chunk.want != nil && !chunk.want.MatchString(out):
					t.Errorf("%s chunk %d (line %d): error does not match %q:\n%s", script, i, chunk.line, chunk.want, out)
				}
			}
		})
	}
}

type chunk struct {
	code string
	line int
	want *regexp.Regexp
}

var wantRE = regexp.MustCompile(`### "(.*)"\s*$`)

func splitChunks(src string) []chunk {
	var out []chunk
	cur := chunk{line: 1}
	var lines []string
	flush := func() {
		cur.code = strings.Join(lines, "\n")
		if strings.TrimSpace(cur.code) != "" {
			out = append(out, cur)
		}
		lines = nil
	}
	for i, l := range strings.Split(src, "\n") {
		if l == "---" {
			flush()
			cur = chunk{line: i + 2}
			continue
		}
		if m := wantRE.FindStringSubmatch(l); m != nil {
			cur.want = regexp.MustCompile(m[1])
			l = l[:strings.Index(l, "###")]
		}
		lines = append(lines, l)
	}
	flush()
	return out
}
