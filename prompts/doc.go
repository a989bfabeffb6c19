// Package prompts turns prompt files into slash commands: a person keeps a
// prompt they send often as a markdown file and sends it as /NAME, with
// arguments.
//
// # Files
//
// [Load] reads $HARNESS_HOME/prompts/NAME.md (the person's own, for every
// repository) and <repository>/.harness/prompts/NAME.md (the repository's,
// where <repository> is its top: its git root, else the launch directory).
// When both have a NAME, the repository's is used and marked as the
// repository's ([Prompt.Repository]). NAME is the file name without .md:
// letters, digits, '-', '_' and '.', starting with a letter or digit. A
// NAME that is a built-in command's cannot be taken: that file, like one
// that cannot be read, is not UTF-8 or is larger than 256 KiB, is a
// [Problem] (harness reports each once, at start). Other files and
// folders there are passed over.
//
// A file may open with a front-matter block:
//
//	---
//	description: Review a file for bugs
//	argument-hint: FILE
//	---
//	Review $1 for bugs …
//
// description is the line shown by /help and the input's completion (the
// text's first line when there is none); argument-hint is shown after the
// name. Other keys are ignored; values may be quoted. A file without a
// closing --- line has no front matter: all of it is the text.
//
// # Expansion
//
// "/NAME rest of the line" sends the file's text ([Prompt.Expand]) as the
// person's message, with
//
//	$ARGUMENTS  the rest of the line, trimmed
//	$1 … $9     its words (white space separates them; "double" or
//	            'single' quotes keep one together); "" past the last
//	$$          a single $
//
// and any other $ left as it is. When the text uses none of $ARGUMENTS and
// $1 … $9, arguments given are appended after a blank line, so they are
// never lost. [Set.Resolve] does this for the UI, headless runs and ACP
// alike, and also sends /init's fixed prompt ([Set.Init]).
package prompts
