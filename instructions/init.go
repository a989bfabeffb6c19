// The fixed prompt of /init.

package instructions

import "strings"

// initPrompt is /init's message to the root; NAME is the instruction file
// it asks for.
const initPrompt = `Write NAME for this repository, or improve it if one exists: the file coding agents read before they work here (harness gives it to every agent at its start).

Delegate the work to one subagent, with this message as its task. The subagent should:

1. Look at the repository as it is: the README and other docs, build files and scripts (Makefile, go.mod, package.json, pyproject.toml, Cargo.toml, …), CI configuration, linter and formatter settings, the layout of the source and test folders, and any instruction files already there (NAME, AGENTS.md, CLAUDE.md, .cursorrules, .github/copilot-instructions.md).
2. Write NAME at the top of the repository (/repository/NAME), short and concrete, with only what is true of this repository and can be checked in it:
   - how to build it, run all the tests and one test, lint and format it: the exact commands;
   - the layout: which folder holds what, and where new code and tests go;
   - the conventions the code follows that it can see: naming, error handling, test style, commit messages, generated files not to edit;
   - anything a newcomer would get wrong.
   No generic advice, nothing it cannot see. When NAME exists, keep what is still right, correct what is wrong and add what is missing, without rewriting it for the sake of it.
3. Write the file with apply_patch (an edit is subject to the permission level: if writing is refused, answer with the text it would have written).
4. Answer with a few lines: what the file now covers, and what changed.

Then tell me in two or three sentences what was written.`

// InitPrompt returns /init's message to the root: it asks for the
// instruction file name (the first of [chat] instruction_files, AGENTS.md
// by default) to be written, or improved when one exists, by a subagent.
func InitPrompt(name string) string {
	if name == "" {
		name = "AGENTS.md"
	}
	return strings.ReplaceAll(initPrompt, "NAME", name)
}
