package markdown

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"harness/styled"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestGolden renders each testdata/render/*.txtar's "in.md" at the widths
// its other files are named after, and compares with them (-update
// rewrites them). Lines are written with Annotate.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/render/*.txtar")
	if len(files) == 0 {
		t.Fatal("no golden files")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var src string
			for _, f := range ar.Files {
				if f.Name == "in.md" {
					src = string(f.Data)
				}
			}
			changed := false
			for i, f := range ar.Files {
				w, err := strconv.Atoi(f.Name)
				if err != nil {
					continue
				}
				got := Annotate(Render(src, w))
				if got != string(f.Data) {
					if *update {
						ar.Files[i].Data = []byte(got)
						changed = true
						continue
					}
					t.Errorf("width %d:\ngot\n%s\nwant\n%s", w, got, f.Data)
				}
			}
			if changed {
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

var classNames = map[styled.Class]string{
	styled.Heading: "h", styled.Code: "code", styled.Link: "link", styled.URL: "url",
	styled.Quote: "quote", styled.Marker: "mark", styled.CodeText: "ct", styled.Keyword: "kw",
	styled.Name: "name", styled.Function: "fn", styled.Type: "type", styled.Builtin: "bi",
	styled.String: "str", styled.Number: "num", styled.Comment: "com", styled.Operator: "op",
	styled.Punctuation: "p", styled.Tag: "tag", styled.DiffFile: "file", styled.DiffHunk: "hunk",
	styled.DiffAdd: "add", styled.DiffRemove: "del", styled.DiffContext: "ctx", styled.Note: "note",
}

// Annotate writes lines for a golden file: one row per line, a plain span
// as its text, any other as «class+attrs|text»; a row starts with "~" when
// it continues the line above at a dropped space, "+" inside a word, and
// "|" marks where its decoration ends.
func Annotate(lines []styled.Line) string {
	var sb strings.Builder
	for _, l := range lines {
		sb.WriteString([]string{"", "~", "+"}[l.Break])
		col := 0
		marked := l.Decoration == 0
		for _, s := range l.Spans {
			text := s.Text
			if !marked && col+styled.Width(text) >= l.Decoration {
				head := text[:len(text)-len(styled.CellsFrom(text, l.Decoration-col))]
				writeSpan(&sb, head, s.Style)
				sb.WriteString("|")
				marked = true
				col += styled.Width(head)
				text = text[len(head):]
			}
			writeSpan(&sb, text, s.Style)
			col += styled.Width(text)
		}
		sb.WriteString("\n")
	}
	return sb.String()
}

func writeSpan(sb *strings.Builder, text string, st styled.Style) {
	if text == "" {
		return
	}
	if st == (styled.Style{}) {
		sb.WriteString(text)
		return
	}
	name := classNames[st.Class]
	for _, a := range []struct {
		a styled.Attr
		n string
	}{{styled.Bold, "b"}, {styled.Italic, "i"}, {styled.Underline, "u"}, {styled.Strike, "s"}, {styled.Dim, "d"}} {
		if st.Attr&a.a != 0 {
			name += "+" + a.n
		}
	}
	fmt.Fprintf(sb, "«%s|%s»", strings.TrimPrefix(name, "+"), text)
}
