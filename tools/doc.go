// Package tools implements the file tools subagents call directly:
// read_file, grep and list. Each works on one confined root (a *jail.Root:
// the repository, the store or the library); every path is relative to that
// root and every file access goes through the jail, which enforces the
// permission level at the moment of each operation and refuses absolute
// paths, ".." and symlinks leading outside the root. A tool returns either
// its result text or an error whose message is the result the model sees:
// it says what went wrong and what to do, and names paths relative to the
// root, never host paths. Results are capped at the output limit (see
// Truncate).
//
// # Entry points
//
//	ReadFile(ctx, root, ReadFileArgs{Path, StartLine, EndLine}, limit)
//	Grep(ctx, root, GrepArgs{Pattern, Path, Fixed, IgnoreCase, Context, Include}, limit)
//	List(ctx, root, ListArgs{Path, Recursive, Include}, limit)
//	Numbered(lines, first)       the numbered-line view, shared with apply_patch
//	Truncate(text, limit, hint)  the output cap, with a notice of what was omitted
//
// # Paths
//
// An empty path means "." (the root). Paths are printed root-relative and
// unchanged when plain; a path that is not valid UTF-8, or holds a space, a
// quote (" ' `), a backslash, or a control or other non-printable character,
// is printed as a Go string literal (strconv.Quote: "a b.txt",
// "caf\xe9"). The same rule applies in every tool's output and errors.
//
// # read_file
//
// Returns the lines StartLine..EndLine (1-based, inclusive; 0 means line 1
// and the last line) in the Numbered format: the line number right-aligned
// in six columns, a tab, the text. Line terminators ("\n" or "\r\n") are not
// shown; apply_patch preserves them. Relative symlinks inside the root are
// followed. An EndLine past the end stops at the last line; a StartLine past
// the end, StartLine > EndLine, negative bounds, directories, missing files,
// files with a NUL byte (binary), and requested lines that are not valid
// UTF-8 are errors. An empty file gives a one-line note instead of lines.
// Output over the limit is cut after a whole line, with a notice naming the
// lines shown and the start_line to continue from.
//
// # grep
//
// Searches one file, or every file below a directory, for lines matching
// Pattern, and prints each matching line as path:line:text. With Context
// > 0, up to that many lines before and after each match are printed in the
// same form, and "--" separates groups that are not adjacent, also between
// files. Files are printed in path order (component by component, so a
// directory's files follow it directly) and lines in file order.
//
// Pattern syntax is POSIX extended regular expressions as read by Go's
// regexp (RE2). Where the two read the same text differently, the pattern
// is refused with an error saying what to write instead: back-references
// (\1), \< and \> (write \b), \` and \' (write ^ or $), {,n} and {,} (write
// {0,n} or *), [[:word:]] (write [[:alnum:]_]), [[=e=]] and [[.x.]], a backslash
// inside brackets (POSIX reads it literally: write [[:digit:]] for [\d], put
// ] first and - last, [\\] stays a backslash), +? and {n,m}? with n >= 1
// (POSIX reads x+? as (x+)?, Go as a non-greedy x+: write (x+)? or x+), and
// a newline (an actual one, or \n: a line never contains one). Escapes that
// POSIX leaves undefined are Go's extensions and accepted: \d \s \w \b \pL
// \x41 \t, (?i), and *? ?? {0,n}? (which select the same lines in both
// readings). \s and \S are read as [[:space:]] and [^[:space:]], as GNU
// grep reads them (Go's own \s lacks the vertical tab). Go's \w, \b and
// POSIX classes such as [[:alpha:]] are ASCII-only, as in the C locale. Fixed makes the pattern a literal string;
// IgnoreCase uses Unicode simple case folding.
//
// A line is the text between newlines, so a trailing "\r" is part of it:
// "x$" does not match "x\r\n". Lines can be of any length. ^ and $ (and \A,
// \z) anchor at the line's start and end, and nothing in a pattern can match
// a newline.
//
// Directories are searched recursively, hidden and git-ignored files
// included; a directory that is one of its own parents (a bind mount loop)
// is skipped with a warning, here and in list. Files containing a NUL byte are binary and skipped silently
// (with a warning when the file was named as path). Symlinks met while
// walking are not followed, and named pipes, sockets and devices are not
// read: each is skipped with a warning line "warning: path: skipped ...",
// printed after the matches. A symlink named as path itself is followed when
// it stays inside the root. Include is a case-sensitive glob on base names
// (doublestar syntax: * ? [abc] {a,b}; "*.go" matches at every depth, a
// leading "**/" is ignored, other slashes are an error, and so are an
// unescaped comma or space outside {...}, since "*.go,*.md" means
// "*.{go,md}"); it selects the files of a directory search but not a file
// named as path. No match gives one line saying what was searched:
// "(no matches for `x` in src: 12 files searched, 1 binary file skipped,
// include "*.go")". The search runs files in parallel (a bounded
// worker pool; results are re-ordered by path) and stops promptly when ctx
// is cancelled.
//
// How grep runs: one goroutine walks the tree in path order and numbers the
// files, opening each directory once through its parent's handle (a
// jail.Dir) and handing that handle to the jobs of its files, so that a
// file costs one openat rather than one per path component;
// max(2, GOMAXPROCS) workers search the files, each with its own read
// buffer (256 KiB, grown only for longer lines) and matcher; the results
// are put back in order as they arrive. A file is read in chunks of whole
// lines (NUL checked in every chunk, the first one before anything else),
// and each chunk is matched as one buffer: a pattern that is one literal is
// found with memchr on its rarest byte; otherwise the literals every match
// must contain (one of "foo|bar", "Error" in "[A-Z]\w+Error") find
// candidate lines the same way, in ASCII-lowercased text under ignore_case;
// the full expression then runs as a lazily built DFA over Go's compiled
// program (falling back to the regexp when it needs too many states), and
// matches are mapped to line numbers by counting newlines.
//
// # list
//
// Prints one entry per line as "path size mtime": the root-relative path,
// with "/" after directories and " [symlink]" or " [special]" (other
// non-regular entries) after the path; the size in bytes from the entry's
// own metadata (a directory's own size, a symlink's target length); the
// modification time in UTC with nine fractional digits. A directory lists
// its entries (all entries below it when Recursive, in path order); a file
// or symlink named as path lists itself. Hidden entries are included and
// symlinks are never followed. Include filters the printed entries by base
// name and never stops the descent. Cancellation is checked as for grep.
package tools
