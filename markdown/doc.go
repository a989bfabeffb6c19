// Package markdown renders Markdown text into styled lines for a
// terminal: what an assistant's reply or reasoning looks like on screen.
//
// Text is parsed with goldmark (CommonMark with the GitHub extensions:
// tables, strikethrough, task lists, autolinks) and each node is drawn
// into styled.Line values by this package's own renderer, so the caller
// wraps, selects and copies the same cells it draws. Code blocks are
// highlighted with chroma's lexer for the fence's language. Nothing here
// knows of tcell or colours: a span carries a styled.Class that the UI
// maps to its theme.
//
// # What each construct becomes
//
//	# Heading           bold text in the Heading class (level 1 also underlined), no "#"
//	**bold** *italic*   Bold, Italic; ~~strike~~ Strike; nested ones combine
//	`code`              the Code class, without the backticks
//	[text](url)         the text underlined in the Link class, then " (url)" in URL;
//	                    the URL alone when it is the text (autolinks)
//	![alt](url)         "[image: alt] (url)"
//	- item, 1. item     "• " (then "◦ ", "▪ " when nested) or the number, the
//	                    item's following lines under its text; "[x] " for tasks
//	> quote             "│ " before each line (decoration), the text in Quote, italic
//	```lang             the code after a two-cell margin (decoration), highlighted,
//	                    cut (not word-wrapped) at the width; no fence lines
//	| a | b |           columns separated by " │ ", a rule under the header row;
//	                    columns narrowed alike and cells wrapped when it does not fit
//	---                 a rule across the width
//
// Top-level blocks are separated by one blank line; paragraphs wrap at
// spaces with styled.Wrap. Raw HTML is shown as text.
//
// # Streaming
//
// Doc renders a text that grows, as a reply streams in. The text is
// parsed and drawn one top-level block at a time: text appended can only
// change the last top-level block (or start new ones), so Doc keeps the
// lines of the blocks before it and re-parses and re-draws from the start
// of the last one. A block counts as closed only when a blank line
// separates it from the next and that next block does not follow a list
// (a delimiter row can turn the lines above it into a table, and an item
// after a blank line still joins the list). A frame therefore costs the size of the last block, not
// of the reply. An unfinished construct is drawn as what it will be: an
// open code fence is a code block to the end of the text, and with
// Doc.Streaming inline code or strong emphasis opened in the last
// paragraph is drawn closed ("**bol" is already bold). A new width, or
// text that is not the old text with more at its end, renders it all
// again. When the last block is a top-level paragraph, only its text
// after the last settled word is parsed again: a word is settled when no
// construct is open before it that text still to come could close (an
// unmatched "*", "_", "~", "[" or backtick, a "<" that may start a tag,
// also inside a closed construct), it is not on a line that may still
// turn into a block's start, and it is not on a table's header row; the
// wrapped lines before the settled text's last line are kept. A paragraph
// that stops being one (a setext underline, a delimiter row, a blank line
// and a new block) is parsed again from its start. A streaming Doc that
// ends in an open code fence does not parse
// it again at all while no line that could close it arrives: its lines
// are kept and lexing starts over at the last line the lexer began in its
// first state (after a plain line end, not one inside a string or a
// comment; after relexLines lines without one, the last line), so a frame
// lexes only the lines that changed. When the fence closes, the Doc
// parses the block again but keeps the lines lexed: a late line that
// changes the meaning of earlier ones (a comment opened, its end lines
// later) shows when the text is rendered afresh, as a reply's saved
// message is, not at every frame. A
// block after a closed fence is, like one after a blank line, never
// joined to it. (One construct can reach back: a link reference definition
// written after the paragraph that uses it. Doc draws that paragraph as
// it stood; a complete message rendered afresh resolves it.)
package markdown
