// Tables: columns laid out to the width, cells wrapped inside them.

package markdown

import (
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"

	"harness/styled"
)

// colSep and the rule under the header row.
const (
	colSep    = " │ "
	ruleCross = "─┼─"
)

// table appends a table: its header row, a rule, and its rows, columns
// separated by a bar. Columns take their widest cell's width; when the
// table does not fit, the widest columns are narrowed alike and their
// cells wrap.
func (r *renderer) table(t *east.Table, p *prefix, out []styled.Line) []styled.Line {
	var rows [][][]styled.Span
	header := 0
	for row := t.FirstChild(); row != nil; row = row.NextSibling() {
		var cells [][]styled.Span
		for c := row.FirstChild(); c != nil; c = c.NextSibling() {
			cells = append(cells, r.inlines(c, p.base))
		}
		if _, ok := row.(*east.TableHeader); ok {
			header = 1
			for i := range cells {
				for j := range cells[i] {
					cells[i][j].Style = cells[i][j].Style.With(styled.Bold)
				}
			}
		}
		rows = append(rows, cells)
	}
	ncol := len(t.Alignments)
	for _, row := range rows {
		ncol = max(ncol, len(row))
	}
	if ncol == 0 {
		return out
	}
	in := p.take()
	avail := r.width - styled.Width(spansText(p.rest)) - (ncol-1)*len([]rune(colSep))
	widths := columnWidths(rows, ncol, avail)
	first := true
	emit := func(l styled.Line) {
		pre, decor := p.rest, styled.Width(spansText(p.rest))
		if first {
			pre, decor = in.First, in.FirstDecor
			first = false
		}
		l.Spans = concat(pre, l.Spans)
		l.Decoration = decor
		out = append(out, l)
	}
	for i, row := range rows {
		for _, l := range r.tableRow(row, widths, t.Alignments) {
			emit(l)
		}
		if i == header-1 {
			var parts []string
			for _, w := range widths {
				parts = append(parts, strings.Repeat("─", w))
			}
			emit(styled.One(strings.Join(parts, ruleCross), marker))
		}
	}
	return out
}

// tableRow returns the lines of one row: each cell wrapped to its column,
// the row as tall as its tallest cell.
func (r *renderer) tableRow(cells [][]styled.Span, widths []int, align []east.Alignment) []styled.Line {
	wrapped := make([][]styled.Line, len(widths))
	height := 1
	for i := range widths {
		var sp []styled.Span
		if i < len(cells) {
			sp = cells[i]
		}
		wrapped[i] = styled.Wrap(sp, widths[i], styled.Indent{})
		height = max(height, len(wrapped[i]))
	}
	out := make([]styled.Line, height)
	for k := range out {
		var spans []styled.Span
		for i, w := range widths {
			if i > 0 {
				spans = append(spans, styled.Span{Text: colSep, Style: marker})
			}
			var cell styled.Line
			if k < len(wrapped[i]) {
				cell = wrapped[i][k]
			}
			a := east.AlignNone
			if i < len(align) {
				a = align[i]
			}
			spans = append(spans, alignCell(cell, w, a, i == len(widths)-1)...)
		}
		out[k] = styled.Line{Spans: spans}
		if k > 0 {
			out[k].Break = styled.Hard
		}
	}
	return out
}

// alignCell pads a cell's line to w cells (the last column is not padded
// on the right).
func alignCell(l styled.Line, w int, a east.Alignment, last bool) []styled.Span {
	gap := max(w-l.Width(), 0)
	left := 0
	switch a {
	case east.AlignRight:
		left = gap
	case east.AlignCenter:
		left = gap / 2
	}
	var out []styled.Span
	if left > 0 {
		out = append(out, styled.Span{Text: strings.Repeat(" ", left), Style: plain})
	}
	out = append(out, l.Spans...)
	if right := gap - left; right > 0 && !last {
		out = append(out, styled.Span{Text: strings.Repeat(" ", right), Style: plain})
	}
	return out
}

// columnWidths gives each column its widest cell's width when the table
// fits in avail cells; otherwise the columns wider than a fair share are
// narrowed to an equal share of what the narrower ones leave (at least 1).
func columnWidths(rows [][][]styled.Span, ncol, avail int) []int {
	want := make([]int, ncol)
	for _, row := range rows {
		for i, c := range row {
			want[i] = max(want[i], styled.Width(spansText(c)))
		}
	}
	for i := range want {
		want[i] = max(want[i], 1)
	}
	total := 0
	for _, w := range want {
		total += w
	}
	if total <= avail {
		return want
	}
	widths := make([]int, ncol)
	fixed := make([]bool, ncol)
	left, open := max(avail, ncol), ncol
	for changed := true; changed && open > 0; {
		changed = false
		share := left / open
		for i, w := range want {
			if !fixed[i] && w <= share {
				widths[i], fixed[i] = w, true
				left -= w
				open--
				changed = true
			}
		}
	}
	if open > 0 {
		share, extra := left/open, left%open
		for i := range widths {
			if !fixed[i] {
				widths[i] = max(share, 1)
				if extra > 0 {
					widths[i]++
					extra--
				}
			}
		}
	}
	return widths
}

var _ ast.Node = (*east.Table)(nil)
