// Package diffview turns an apply_patch call's patch into the lines of a
// diff for the screen: per file a header, then its removed, added and
// unchanged lines, each classed for the UI to colour (styled.DiffFile,
// DiffHunk, DiffRemove, DiffAdd, DiffContext).
//
//	M path (+2 -1)      Update File      A path (+3)     Add File
//	R old -> new        Update + Move    D path          Delete File
//	M path (+4 -4)      Replace File: diffed against the file's old text
//	= path              Replace File whose text is unchanged
//
// Under each header come its hunks, "@@ anchor" (or "@@" alone between
// hunks with no anchor) then "- " removed, "+ " added and "  " unchanged
// lines. An Add File shows its lines as added. A Replace File lists its
// whole new text, so it is diffed (with go-diff, by line) against the text
// the file had before the patch, when the caller has it, and shown with
// two unchanged lines around each change; without it (a session reopened
// after the patch ran) the new text is shown as added under a note saying
// the old text was not kept.
//
// The patch is read with package patch's parser. A patch that does not
// parse (still streaming, or malformed) is shown line by line as it stands,
// with the same classes: the model gets the parser's error, the person
// sees what was sent. Lines longer than the width are cut, the rest
// indented under them (styled.Cut, so copying joins them again).
package diffview
