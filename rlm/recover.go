// Crash records: the results New gives calls a killed process left open.

package rlm

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"harness/llm"
	"harness/sessions"
)

// crashResult returns the result for a call of an agent at depth that a
// process which died left without one. A call that never started gets
// NotRun. An rlm call whose subagent had started (its conversation file
// exists) gets what that file shows: the subagent's answer when it had
// answered, else a notice that it was interrupted, naming its file and
// saying whether it had made tool calls that may have changed files.
func crashResult(s *sessions.Session, depth, limit int) func(llm.ToolCall) string {
	return func(c llm.ToolCall) string {
		if c.Name != RLMTool {
			return NotRun
		}
		path := s.Path(depth+1, c.ID)
		if path == "" {
			return NotRun
		}
		if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
			return NotRun // killed before the subagent's first save: it ran nothing
		}
		rel := sessionRel(s, path)
		name := callName(c)
		f, err := sessions.Load(path)
		if err != nil {
			return fmt.Sprintf(InterruptedPrefix+" (it was killed or crashed) while subagent %q was working on this task, and its conversation %s cannot be read (%v). It may have changed files in the repository or the store; check them before relying on them, and delegate again what is left.]", name, rel, err)
		}
		msgs := sessions.Visible(f.Items)
		if last := lastOf(msgs); last.Role == "assistant" && len(last.ToolCalls) == 0 && last.Content != "" {
			return withMarker(capText(last.Content, limit),
				fmt.Sprintf("[recovered: harness stopped before this answer was delivered; it is the last reply of subagent %q, read from its conversation %s]", name, rel))
		}
		return withMarker(lastContent(msgs), interrupted(s, name, rel, depth+1, msgs))
	}
}

// interrupted is the notice for a subagent at depth, named name with file
// rel, whose conversation msgs stops without an answer.
func interrupted(s *sessions.Session, name, rel string, depth int, msgs []llm.Message) string {
	var b strings.Builder
	fmt.Fprintf(&b, InterruptedPrefix+" (it was killed or crashed) while subagent %q was working on this task, before it answered. ", name)
	calls, running := madeCalls(msgs)
	switch {
	case calls == "":
		b.WriteString("It had not made any tool call yet, so it changed no files. ")
	case running != "":
		fmt.Fprintf(&b, "It had made %s, and %s was still running when harness stopped, so files in the repository or the store may have changed; check them before relying on them, and delegate again what is left. ", calls, running)
	default:
		fmt.Fprintf(&b, "It had made %s, so files in the repository or the store may have changed; check them before relying on them, and delegate again what is left. ", calls)
	}
	fmt.Fprintf(&b, "Its conversation is %s in the session folder.", rel)
	switch subs := waitingOn(s, depth, msgs); len(subs) {
	case 0:
	case 1:
		fmt.Fprintf(&b, " It was waiting for its own subagent %s, interrupted too.", subs[0])
	default:
		fmt.Fprintf(&b, " It was waiting for its own subagents %s, running at once; each may have answered or been interrupted.", strings.Join(subs, ", "))
	}
	b.WriteString("]")
	return b.String()
}

// madeCalls counts the tool calls of msgs by tool, after the synthetic
// startup call every subagent begins with: "3 tool calls (apply_patch 1,
// repl 2)", or "" for none. running names the call left without a result
// ("repl"), or is "".
func madeCalls(msgs []llm.Message) (calls, running string) {
	counts := map[string]int{}
	answered := map[string]bool{}
	total, skipped := 0, false
	for _, m := range msgs {
		if m.Role == "tool" {
			answered[m.ToolCallID] = true
		}
		for _, c := range m.ToolCalls {
			if !skipped {
				skipped = true // the startup REPL call
				continue
			}
			counts[c.Name]++
			total++
		}
	}
	if total == 0 {
		return "", ""
	}
	for _, c := range lastOf(msgs).ToolCalls {
		if !answered[c.ID] && running == "" {
			running = "its " + c.Name + " call"
		}
	}
	var parts []string
	for n, k := range counts {
		parts = append(parts, fmt.Sprintf("%s %d", n, k))
	}
	sort.Strings(parts)
	noun := "tool calls"
	if total == 1 {
		noun = "tool call"
	}
	return fmt.Sprintf("%d %s (%s)", total, noun, strings.Join(parts, ", ")), running
}

// waitingOn finds the subagents, one level deeper than depth, that msgs'
// last reply was waiting for: its rlm calls without a result whose
// conversation file exists (several when they ran at once, [rlm]
// parallel), each as `"name" (file)`.
func waitingOn(s *sessions.Session, depth int, msgs []llm.Message) []string {
	answered := map[string]bool{}
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i]
		if m.Role == "tool" {
			answered[m.ToolCallID] = true
			continue
		}
		if m.Role != "assistant" {
			return nil
		}
		var out []string
		for _, c := range m.ToolCalls {
			if c.Name != RLMTool || answered[c.ID] {
				continue
			}
			p := s.Path(depth+1, c.ID)
			if _, err := os.Lstat(p); p != "" && err == nil {
				out = append(out, fmt.Sprintf("%q (%s)", callName(c), sessionRel(s, p)))
			}
		}
		return out
	}
	return nil
}

// callName is the name argument of an rlm call.
func callName(c llm.ToolCall) string {
	var args struct {
		Name string `json:"name"`
	}
	if obj, ok := objectText(c.Arguments); ok {
		json.Unmarshal([]byte(obj), &args)
	}
	if args.Name == "" {
		return "(unnamed)"
	}
	return args.Name
}

// sessionRel is path relative to the session's folder, slash-separated.
func sessionRel(s *sessions.Session, path string) string {
	if rel, err := filepath.Rel(s.Dir(), path); err == nil {
		return filepath.ToSlash(rel)
	}
	return path
}

func lastOf(msgs []llm.Message) llm.Message {
	if len(msgs) == 0 {
		return llm.Message{}
	}
	return msgs[len(msgs)-1]
}

// lastContent is the content of the latest assistant message of msgs.
func lastContent(msgs []llm.Message) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "assistant" {
			return msgs[i].Content
		}
	}
	return ""
}
