// The [chat] table: the system message and the instruction files.

package config

import (
	"math"
	"strings"
)

// Defaults of the optional [chat] keys instruction_files and
// instructions_max_bytes.
const DefaultInstructionsMaxBytes = 32768

// DefaultInstructionFiles is [chat] instruction_files when it is absent.
func DefaultInstructionFiles() []string { return []string{"AGENTS.md"} }

func (c *checker) chat(ch *Chat, t map[string]any) {
	ch.Prompt = c.optString(t, "chat", "prompt")
	ch.InstructionFiles = DefaultInstructionFiles()
	if _, present := t["instruction_files"]; present {
		ch.InstructionFiles = c.strList(t, "chat", "instruction_files")
		for _, name := range ch.InstructionFiles {
			if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`) || strings.ContainsRune(name, 0) {
				c.valueErr("chat.instruction_files", "%q is not a file name; give bare names harness looks for in each directory, for example [\"AGENTS.md\", \"CLAUDE.md\"]", name)
			}
		}
	}
	c.chatContext(ch, t)
	ch.InstructionsMaxBytes = c.optionalInt(t, "instructions_max_bytes", intKey{path: "chat.instructions_max_bytes",
		def: DefaultInstructionsMaxBytes, min: 1, max: math.MaxInt32,
		hint: "the bytes of instruction-file text given to each agent, for example 32768", lowNote: " (instruction_files = [] reads none)"})
}
