package markdown

import (
	"strconv"
	"testing"

	"harness/goldentest"
	"harness/styled"
)

// TestGolden renders each testdata/render/*.txtar's "in.md" at the widths
// its other files are named after, and compares with them (-update
// rewrites them). Lines are written with styled.Annotate.
func TestGolden(t *testing.T) {
	goldentest.Run(t, "testdata/render/*.txtar", func(t *testing.T, c *goldentest.Case) {
		src, _ := c.Section("in.md")
		for _, f := range c.Archive.Files {
			if w, err := strconv.Atoi(f.Name); err == nil {
				c.Check(f.Name, styled.Annotate(Render(src, w)))
			}
		}
	})
}
