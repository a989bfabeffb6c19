// Package styled holds lines of text made of styled spans, the form in
// which the markdown renderer and the patch diff builder hand the UI what
// to draw, and the word wrapping that produces them.
//
// A Span is text with one Style; a Line is the spans of one screen row. A
// Style names what the text is (a Class: a heading, inline code, a
// keyword in a code block, an added diff line) and its attributes (bold,
// italic, underline, strike, dim); it names no colour. The consumer (the
// ui package) maps each Class to a colour of its theme, and drops the
// colours, not the attributes, under NO_COLOR. So this package knows
// nothing of terminals, and what it builds is tested as plain data.
//
// # Lines and copying
//
// A Line also says how it joins the line above it, so that text copied
// from the screen is the text as shown without the breaks wrapping made:
//
//	Break  Hard  the line starts a new line of the text (copied after "\n")
//	       Space wrapping broke the text at a space, dropped (copied after " ")
//	       Cut   wrapping cut a word too long for the width (copied after "")
//
// and how many of its first cells are Decoration (a hanging indent, a
// block quote's bar, a code block's margin): drawn, but never copied.
//
// # Wrapping
//
// Wrap lays out a run of spans in a width: lines break after the last
// space that fits, the space itself dropped; a word longer than the width
// is cut; "\n" in a span is a hard break. The first line can start with a
// different prefix (a bullet) from the following ones (the indent under
// it). Widths are terminal cells (RuneWidth): wide East Asian characters
// and emoji take two, combining marks none, a tab TabWidth.
package styled
