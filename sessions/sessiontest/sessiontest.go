// Package sessiontest writes the large generated session that
// scripts/uicost's resumed case and cmd/harness's memory test open, so both
// measure the same shape: turns of a one-line question, an rlm call whose
// task is a quarter of the transcript lines, a result of half and an
// answer of the rest, every turn already in turn_token_cache (opening it
// asks /tokenize nothing). 2,000 turns of 50 lines are about 9.6 MB.
//
// It imports sessions and llm, and is imported only by tests and scripts.
package sessiontest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"harness/llm"
	"harness/sessions"
)

// WriteBig writes session name under home/sessions (its root agent's
// conversation in repo) and returns the conversation file's path. lines
// must be at least MinLines.
func WriteBig(home, repo, name string, turns, lines int) (string, error) {
	if turns < 1 || lines < MinLines {
		return "", fmt.Errorf("sessiontest: %d turns of %d lines: need a turn and %d lines a turn", turns, lines, MinLines)
	}
	f := &sessions.File{Local: sessions.Local{Repository: repo}}
	for i := range turns {
		msgs := Turn(i, lines)
		f.Append(msgs...)
		c := llm.EstimateTurn(msgs)
		c.Estimated = false
		f.Local.TurnTokenCache = append(f.Local.TurnTokenCache, c)
	}
	dir := filepath.Join(home, "sessions", name, "library")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(dir, "root.json")
	return path, sessions.WriteFile(path, f)
}

// MinLines are the fewest transcript lines a turn has: six of framing, a
// quarter task, a half result and at least one line of answer.
const MinLines = 28

// Turn is turn i of lines transcript lines.
func Turn(i, lines int) []llm.Message {
	text := func(n int, what string) string {
		var sb strings.Builder
		for l := range n {
			if l > 0 {
				sb.WriteByte('\n')
			}
			fmt.Fprintf(&sb, "%s %d line %d: lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor", what, i, l)
		}
		return sb.String()
	}
	id := fmt.Sprintf("call_%d", i)
	task, _ := json.Marshal(map[string]string{"task": text(lines/4, "task"), "name": fmt.Sprintf("w%d", i)})
	return []llm.Message{
		{Role: "user", Content: fmt.Sprintf("question %d: what does the code at line %d do?", i, i)},
		{Role: "assistant", ToolCalls: []llm.ToolCall{{ID: id, Name: "rlm", Arguments: string(task)}}},
		{Role: "tool", ToolCallID: id, Content: text(lines/2, "result")},
		{Role: "assistant", Content: text(lines-lines/4-lines/2-6, "answer")},
	}
}
