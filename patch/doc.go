// Package patch implements apply_patch: a small patch language for adding,
// deleting, updating, replacing and renaming text files inside a jail.Root.
//
// Entry points:
//
//	Parse(text) (*Patch, error)                    // the whole patch; a *SyntaxError names the patch line
//	Apply(ctx, root, text, limit) (string, error)  // parse, then apply each operation in order
//
// Apply parses the whole patch first, so a syntax error changes nothing.
// It then validates and applies each operation in order against the
// current files; a failure stops the patch and leaves the earlier
// operations applied. The error's message is what the model receives: it
// names the file, the hunk and its first line, shows the nearest candidate
// region with numbered lines, and, after a partial application, lists the
// operations applied and those not applied. On success the result lists
// the changes, one per line:
//
//	A path            added
//	M path            modified (Update or Replace)
//	D path            deleted
//	R old -> new      moved (with or without changes to the text)
//	= path            the new text equals the old; nothing was written
//
// followed by a numbered view of each changed region with two unchanged
// lines around it, in the numbered-line format "%6d\t%s\n" that read_file
// uses. The whole result, and every error, is cut to limit bytes on a UTF-8
// boundary with a notice of the bytes omitted.
//
// # Format
//
// A patch is a sequence of lines. Carriage returns at the end of each line
// are removed first, so a patch with CRLF line endings reads like one with
// LF endings (a patch line can therefore not end in a carriage return of
// its own). The final line needs no "\n".
//
//	patch     = blank* "*** Begin Patch" NL (operation | blank)* "*** End Patch" NL? blank*
//	operation = add | delete | update | replace
//	add       = "*** Add File: " path NL ("+" text NL)*
//	replace   = "*** Replace File: " path NL ("+" text NL)*
//	delete    = "*** Delete File: " path NL
//	update    = "*** Update File: " path NL ["*** Move to: " path NL] hunk*
//	hunk      = header NL (hunkline NL)+ ["*** End of File" NL]
//	header    = "@@" | "@@ " anchor | "@@ line " N ": " anchor
//	hunkline  = " " text | "-" text | "+" text | ""
//
// Marker lines ("*** Begin Patch", "*** End Patch", "*** End of File") may
// have trailing spaces. Blank lines are allowed before "*** Begin Patch",
// between operations and after "*** End Patch".
//
// Paths are relative to the root (the repository, or the store): white
// space around them is removed, they are cleaned ("a/./b" is "a/b"), and
// absolute paths, ".." components, NUL bytes, the root itself, a path
// ending in "/" (a directory) and one that cleaning leaves with white space
// at an end ("a /" is "a ") are syntax errors, so a patch naming one
// changes nothing.
//
// Add File creates a file that must not exist yet (not even as a dangling
// symlink), creating missing parent folders; its text is the "+" lines,
// each ending in "\n" (no "+" lines: an empty file), with mode 0644.
// Replace File gives an existing file the "+" lines as its whole new text,
// keeping its dominant line ending, its final-newline state and its
// permission bits. Delete File removes a file or a symlink (the link, not
// its target); deleting a directory or a missing file fails.
//
// Update File edits an existing file with hunks. Each hunk lists unchanged
// lines (" "), removed lines ("-") and added lines ("+"). An empty line in
// a hunk is an empty unchanged line (as Codex reads it); blank lines at the
// end of a hunk, before the next "@@", header or "*** End Patch", are
// spacing and are dropped, but blank lines just before "*** End of File"
// are kept as empty unchanged lines. The first hunk may omit its "@@" line.
// "*** Move to: q", directly after the Update File line, also moves the
// file to q, which must not exist; its parent folders are created. With
// no hunks the entry itself is renamed (a symlink stays a symlink) and its
// text is not read. With hunks, the updated text is written to q as a
// regular file with the source's permission bits, and the source entry is
// then removed (when it is a symlink, the link is removed and its target
// is left as it was). A Move to naming the file itself is a syntax error.
//
// Syntax errors, each naming the patch line: an empty patch; a first line
// other than "*** Begin Patch"; no "*** End Patch" (a cut-short patch);
// text after it; a patch with no operations; an unknown "***" line; a
// header without a path or with a refused path; Add or Replace lines not
// starting with "+" (an empty line there must be written "+"); any line
// under Delete File; an Update with neither hunks nor Move to; "*** Move
// to" anywhere but directly after its Update line; a hunk line starting
// with anything other than " ", "-" or "+" (a tab, a "\ No newline" line);
// a hunk with no lines, or with only unchanged lines; "*** End of File"
// followed by more hunk lines; unified-diff headers such as "@@ -3,7 +3,8
// @@"; "@@ line N" with N < 1 or without the colon.
//
// # Where a hunk applies
//
// A hunk's old lines are its unchanged and removed lines in order. They
// must equal consecutive lines of the file exactly (line endings aside) and
// uniquely: "unique" means exactly one place in the hunk's search window.
// Without an anchor the window is the whole file, so a hunk whose old lines
// occur twice anywhere in the file is refused, listing where; with an
// anchor it is the lines after the anchor line, so an anchor can rule out
// earlier occurrences but never picks the first of several after it. The
// matched places must follow the order of the hunks and must not overlap.
// A wrong place is therefore never chosen silently: every hunk matches one
// place or fails.
//
// An anchor "@@ text" names a line by its whole text, leading and trailing
// white space ignored; that text must be on exactly one line of the file.
// "@@ line N: text" names line N (1-based, of the file before this update)
// and fails unless that line holds the text; use it when the text repeats.
// A header "@@ line 5: x" is always read as a numbered anchor, so to anchor
// on a line whose text starts with "line 5:", write the number too.
//
// A hunk ending in "*** End of File" must match the last lines of the
// file. A hunk with only added lines goes right after its anchor line, at
// the end of the file with "*** End of File", or into an empty file;
// otherwise nothing says where it goes, and it fails.
//
// All hunks are located against the file as it was before the update, then
// applied together. Unchanged lines keep their own line endings; added
// lines take the file's dominant ending (the more frequent of LF and CRLF,
// a tie going to the first line's ending, LF for a file without endings).
// The file's final-newline state is kept: a file that ended without a line
// ending still does, whatever the hunks changed (except when its new last
// line is empty: "a\n" plus an empty unterminated line is just "a\n");
// "*** End of File" only says where a hunk is. Files holding a NUL byte are refused as binary.
//
// Locating is linear in the size of the file: one pass indexes the lines by
// content, and each hunk checks only the places where its rarest old line
// occurs.
//
// # Files
//
// Every access goes through the jail.Root, so absolute paths, ".." and
// symlinks leading outside the root are refused, and the root's permission
// level is checked at each step (apply_patch needs write access; a
// read-only repository fails before anything is changed). Updates and
// replacements follow in-root relative symlinks and write the target. The
// new text is written to a temporary file that is renamed over the old
// one, so the file's identity is replaced: other hard links keep the old
// text, and metadata other than the permission bits (including setuid,
// setgid and sticky) is not copied.
package patch
