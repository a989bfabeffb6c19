// Package instructions finds and reads instruction files: the files
// (AGENTS.md, and the names a person adds, such as CLAUDE.md) in which a
// person and a project write down for agents how to work in a repository:
// how to build and test, the style, what never to touch. It also holds the
// fixed prompt of /init, which asks for one to be written.
//
// The package knows nothing of agents or screens: it answers "which files,
// with which text", and renders them as the text an agent is given. Package
// rlm decides who is given what, and when.
//
// # Where files are looked for
//
// In each directory the first of [Options.Names] that exists is used
// there (with the default, AGENTS.md). [Finder.Startup] reads, in this
// order:
//
//  1. the person's own file in $HARNESS_HOME ([Options.Home]), for every
//     repository;
//  2. the file of every directory from the repository's top ([Top]: the
//     nearest directory at or above the launch directory that holds .git,
//     else the launch directory itself) down to the launch directory.
//
// It reads them again at each call, so a changed file is seen at once.
// [Finder.Nested] reads the file of one directory below the launch
// directory through an [FS] (rlm passes the repository's jail, so the
// person's permission level and the jail's symlink rules apply to it).
//
// Files in the launch directory's parents are read inside the repository's
// top (os.Root): a symlink leading out of it is not followed. A directory
// named like an instruction file is passed over, as if absent.
//
// # Limits and failures
//
// The files Startup returns hold together at most [Options.MaxBytes] bytes
// of text: the first files in the order above are kept whole, the one that
// passes the limit is cut at its last line break before it, and later ones
// are left out; [File.Omitted] says how much of each was cut, and [Render]
// ends with a note naming them. A nested file is capped at MaxBytes alone.
// A byte-order mark is dropped. An empty file is passed over.
//
// A file that cannot be read (permission, an I/O error, a symlink leading
// outside, a special file) or is not UTF-8 text is skipped: its [File.Err]
// says why and its text is empty; [Render] gives a one-line note in its
// place. Nothing here panics on any input.
//
// # What agents are given
//
// [Render] is a short preamble followed by one block per file:
//
//	<instructions file="AGENTS.md">
//	…the file's text…
//	</instructions>
//
// File names are those [File.Name] gives: the person's own file as
// ~/.harness/AGENTS.md (its path, with the home directory as ~), the
// others relative to the launch directory (AGENTS.md, ../AGENTS.md,
// pkg/AGENTS.md). [Given] reports whether a text already holds a file's
// block with its current text, and [Mentioned] whether it holds any block
// of that file: rlm gives each agent a file once, and again only when it
// changed ([Render] then marks the block as replacing the earlier one).
// [RenderNested] is the text appended to a tool result when a subagent
// first works below a directory with its own file.
package instructions
