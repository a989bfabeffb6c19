// Command uiparallel is a scripted endpoint for looking at subagents that
// run at once ([rlm] parallel = 4): the root delegates to four subagents;
// each streams its thinking and a REPL call, one runs a command that asks
// for approval (ls, unless it is in [commands.allow]), and each answers
// after about twenty seconds of slow streaming.
//
//	uiparallel -url FILE
//
// It serves llmtest's fake endpoint on the loopback address, writes its
// base URL to FILE and runs until it is killed. Requests are answered by
// the agent's task and how many tool results it holds.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"harness/llm"
	"harness/llmtest"
)

var names = []string{"alpha", "beta", "gamma", "delta"}

func main() {
	urlFile := flag.String("url", "", "file to write the base URL to")
	flag.Parse()
	if *urlFile == "" {
		fmt.Fprintln(os.Stderr, "usage: uiparallel -url FILE")
		os.Exit(2)
	}
	if err := llmtest.Serve(*urlFile, respond); err != nil {
		fmt.Fprintln(os.Stderr, "uiparallel:", err)
		os.Exit(1)
	}
}

func args(kv ...string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	b, _ := json.Marshal(m)
	return string(b)
}

func respond(r llmtest.Request) llmtest.Reply {
	var body struct {
		Tools    []json.RawMessage `json:"tools"`
		Messages []llm.Message     `json:"messages"`
	}
	json.Unmarshal(r.Body, &body)
	task, results := "", 0
	for _, m := range body.Messages {
		switch {
		case m.Role == "user" && task == "":
			task = m.Content
		case m.Role == "tool":
			results++
		}
	}
	slow := func(rep llmtest.Reply) llmtest.Reply {
		rep.Split, rep.Pace = 4, 40*time.Millisecond
		return rep
	}
	if len(body.Tools) == 0 {
		return llmtest.Text("Parallel demo")
	}
	name, sub := strings.CutPrefix(task, "Investigate part ")
	if !sub { // the root
		if results >= 2 {
			return slow(llmtest.Reply{Content: "All four parts are investigated; see each subagent's answer above."})
		}
		var calls []llmtest.ToolCall
		for _, n := range names {
			calls = append(calls, llmtest.ToolCall{Name: "rlm", Arguments: args("task", "Investigate part "+n, "name", n)})
		}
		return slow(llmtest.Reply{Reasoning: "Four independent investigations: delegate them at once.", ToolCalls: calls})
	}
	switch results {
	case 1:
		code := fmt.Sprintf("for i in range(5):\n    print(%q, i)", name)
		if name == "gamma" {
			code = `print(run(["ls", "-l"]))`
		}
		return slow(llmtest.Reply{Reasoning: "First, " + name + " looks around. " + strings.Repeat("Thinking it over. ", 6),
			ToolCalls: []llmtest.ToolCall{{Name: "repl", Arguments: args("code", code)}}})
	}
	return slow(llmtest.Reply{Content: "Part " + name + ": " + strings.Repeat(name+" checked one more thing; ", 25) + "done."})
}
