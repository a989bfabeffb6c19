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
	ch.InstructionsMaxBytes = DefaultInstructionsMaxBytes
	if v, present := t["instructions_max_bytes"]; present {
		const hint = "the bytes of instruction-file text given to each agent, for example 32768"
		n, ok := v.(int64)
		switch {
		case !ok:
			c.valueErr("chat.instructions_max_bytes", "must be an integer, not %s; write a whole number without quotes (%s)", typeName(v), hint)
		case n < 1:
			c.valueErr("chat.instructions_max_bytes", "must be at least 1, not %d; %s (instruction_files = [] reads none)", n, hint)
		case n > math.MaxInt32:
			c.valueErr("chat.instructions_max_bytes", "%d is too large; use at most %d", n, math.MaxInt32)
		default:
			ch.InstructionsMaxBytes = int(n)
		}
	}
}
