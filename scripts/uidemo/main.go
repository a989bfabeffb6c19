// Command uidemo is a scripted endpoint for looking at the UI by hand: one
// root turn that delegates to a subagent which prints a long output, runs
// a slow command, edits files with a patch and answers, then a markdown
// answer with a code block and a table.
//
//	uidemo -repo DIR -url FILE
//
// It writes hello.go and notes.txt into DIR (the repository harness is
// started in; the subagent's patch edits them), serves llmtest's fake
// endpoint on the loopback address, writes its base URL to FILE, and runs
// until it is killed. Every root request gets the next step by what it
// holds: the first (after the FYI call) an rlm call, the one after its
// result the markdown answer; every subagent request by how many tool
// results it holds. The
// slow command is sleep: allow it in [commands.allow] to see it run
// without an approval.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"harness/llm"
	"harness/llmtest"
)

const hello = `package main

import "fmt"

func main() {
	fmt.Println("helo, world")
}
`

const notes = "Notes\n\n- one\n- two\n- three\n"

const answer = "# What changed\n\nThe subagent fixed **two** things:\n\n" +
	"1. the greeting in `hello.go` (it said *helo*)\n2. the list in `notes.txt`\n\n" +
	"> Run `go run .` to see the greeting.\n\n" +
	"| file | change |\n|------|--------|\n| hello.go | typo fixed |\n| notes.txt | rewritten |\n| docs/new.md | added |\n\n" +
	"```go\nfunc main() {\n\tfmt.Println(\"hello, world\") // fixed\n}\n```\n\nSee [the Go tour](https://go.dev/tour) for more."

func main() {
	repo := flag.String("repo", "", "the repository folder to write the demo files into")
	urlFile := flag.String("url", "", "file to write the base URL to")
	flag.Parse()
	if *repo == "" || *urlFile == "" {
		fmt.Fprintln(os.Stderr, "usage: uidemo -repo DIR -url FILE")
		os.Exit(2)
	}
	for name, text := range map[string]string{"hello.go": hello, "notes.txt": notes} {
		if err := os.WriteFile(filepath.Join(*repo, name), []byte(text), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "uidemo:", err)
			os.Exit(1)
		}
	}
	if err := llmtest.Serve(*urlFile, respond); err != nil {
		fmt.Fprintln(os.Stderr, "uidemo:", err)
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
		Tools []struct {
			Function struct{ Name string } `json:"function"`
		} `json:"tools"`
		Messages []llm.Message `json:"messages"`
	}
	json.Unmarshal(r.Body, &body)
	tools := map[string]bool{}
	for _, t := range body.Tools {
		tools[t.Function.Name] = true
	}
	results := 0
	for _, m := range body.Messages {
		if m.Role == "tool" {
			results++
		}
	}
	slow := func(rep llmtest.Reply) llmtest.Reply {
		rep.Split, rep.Delay = 6, 15*time.Millisecond
		return rep
	}
	switch {
	case len(body.Tools) == 0:
		return llmtest.Text("UI demo")
	case tools["repl"]: // the subagent
		switch results {
		case 1:
			return slow(llmtest.Reply{Reasoning: "Let me look at the files first.",
				ToolCalls: []llmtest.ToolCall{{ID: "d1", Name: "repl", Arguments: args("code", `for i in range(1, 41):
    print("file %d: /repository/src/pkg%d/main.go" % (i, i))`)}}})
		case 2:
			return slow(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "d2", Name: "repl", Arguments: args("code", `print(run(["sleep", "4"]))`)}}})
		case 3:
			patch := "*** Begin Patch\n*** Update File: hello.go\n@@ func main() {\n-\tfmt.Println(\"helo, world\")\n+\tfmt.Println(\"hello, world\")\n }\n" +
				"*** Replace File: notes.txt\n+Notes\n+\n+- one\n+- two, checked\n+- three\n+- four\n" +
				"*** Add File: docs/new.md\n+# New\n+\n+A new page.\n*** End Patch"
			return slow(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "d3", Name: "apply_patch", Arguments: args("patch", patch)}}})
		}
		return slow(llmtest.Reply{Content: "Fixed the greeting in `hello.go`, rewrote `notes.txt` and added `docs/new.md`."})
	default: // the root
		if results >= 2 { // the FYI call's result, then the rlm call's
			return slow(llmtest.Reply{Reasoning: "The subagent is done; summarise for the user.", Content: answer,
				Usage: &llm.Usage{PromptTokens: 900, CompletionTokens: 200, TotalTokens: 1100}})
		}
		return slow(llmtest.Reply{Reasoning: "This needs a subagent.",
			ToolCalls: []llmtest.ToolCall{{ID: "r1", Name: "rlm", Arguments: args("task", "Fix the typo in hello.go, rewrite notes.txt and add docs/new.md.", "name", "fixer")}}})
	}
}
