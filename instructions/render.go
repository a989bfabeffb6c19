// Rendering files as the text agents are given, and finding that text in a
// conversation again.

package instructions

import (
	"fmt"
	"strconv"
	"strings"
)

// Preamble opens every text Render returns; a conversation holding it holds
// start-up instructions.
const Preamble = "Instructions from the instruction files of this repository and of the person " +
	"(read by harness, not written in this conversation). Follow them; where two disagree, " +
	"the later one, nearer the work, wins."

const closeTag = "</instructions>"

// Block is the text that stands for f in what agents are given: its
// opening tag, its text and the closing tag, or for a skipped file a note
// saying why. A file the cap left out whole has none ("").
func Block(f File) string { return block(f, false) }

func block(f File, changed bool) string {
	switch {
	case f.Err != nil:
		return "[instruction file " + f.Name + " skipped: " + f.Err.Error() + "]"
	case f.Text == "":
		return ""
	}
	open := "<instructions file=" + strconv.Quote(f.Name)
	if changed {
		open += ` replaces="the text of this file given earlier"`
	}
	return open + ">\n" + body(f)
}

// body is what follows a block's opening tag.
func body(f File) string {
	return strings.TrimRight(f.Text, "\n") + "\n" + closeTag
}

// Render returns the text giving files to an agent: Preamble, the block of
// each file (marked as replacing an earlier text for the names in
// changed), and a note of what the cap of maxBytes left out. It is "" when
// no file has a block.
func Render(files []File, changed map[string]bool, maxBytes int) string {
	var blocks []string
	for _, f := range files {
		if b := block(f, changed[f.Name]); b != "" {
			blocks = append(blocks, b)
		}
	}
	if len(blocks) == 0 {
		return ""
	}
	out := Preamble + "\n\n" + strings.Join(blocks, "\n\n")
	if note := cutNote(files, maxBytes); note != "" {
		out += "\n\n" + note
	}
	return out
}

// RenderNested returns the text appended to a tool result that first
// touched a path below f's directory.
func RenderNested(f File, maxBytes int) string {
	dir := strings.TrimSuffix(f.Name, "/"+lastElem(f.Name)) + "/"
	b := Block(f)
	if b == "" {
		return ""
	}
	out := "Instructions for " + dir + " from its instruction file (given once, as this call touched a path there; " +
		"they add to the instructions given at the start and win where they disagree):\n\n" + b
	if note := cutNote([]File{f}, maxBytes); note != "" {
		out += "\n\n" + note
	}
	return out
}

func lastElem(p string) string { return p[strings.LastIndexByte(p, '/')+1:] }

// cutNote names what the cap left out of files, or "".
func cutNote(files []File, maxBytes int) string {
	var parts []string
	for _, f := range files {
		switch {
		case f.Err != nil || f.Omitted == 0:
		case f.Text == "":
			parts = append(parts, fmt.Sprintf("all %d bytes of %s", f.Omitted, f.Name))
		default:
			parts = append(parts, fmt.Sprintf("the last %d of the %d bytes of %s", f.Omitted, f.Size, f.Name))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("[instructions cut to %d bytes ([chat] instructions_max_bytes); left out: %s]", maxBytes, joinAnd(parts))
}

func joinAnd(parts []string) string {
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// Given reports whether text holds f's block with f's current text (marked
// as replacing an earlier one or not). A file without a block is never
// given.
func Given(text string, f File) bool {
	if f.Err != nil {
		return strings.Contains(text, Block(f))
	}
	if f.Text == "" {
		return false
	}
	open := "<instructions file=" + strconv.Quote(f.Name)
	want := body(f)
	for rest := text; ; {
		i := strings.Index(rest, open)
		if i < 0 {
			return false
		}
		rest = rest[i+len(open):]
		j := strings.Index(rest, ">\n")
		if j < 0 {
			return false
		}
		if attrs := rest[:j]; !strings.Contains(attrs, "\n") && strings.HasPrefix(rest[j+2:], want) {
			return true
		}
	}
}

// Mentioned reports whether text holds a block of the file called name,
// whatever its text, or the note of its being skipped.
func Mentioned(text, name string) bool {
	return strings.Contains(text, "<instructions file="+strconv.Quote(name)) ||
		strings.Contains(text, "[instruction file "+name+" skipped: ")
}
