// Command uitour is a scripted endpoint for trying every part of the UI by
// hand under tmux: each root message picks a scene by a word it contains.
//
//	uitour -url FILE [-repo DIR]
//
// With -repo it writes a.txt, b.txt and c.txt into DIR (the repository
// harness is started in) for the patch scene to edit. It serves llmtest's fake endpoint on the loopback address, writes its
// base URL to FILE and runs until it is killed. Scenes, by the first of
// these words in the root agent's latest user message:
//
//	markdown  a long markdown answer (headings, nested lists, a wide table,
//	          code in several languages, links, quotes), streamed slowly
//	long      the same answer eight times over, streamed fast (scroll up
//	          while it streams)
//	patch     a subagent applies one patch with Add, Delete, Update with a
//	          move and Replace File to the files -repo wrote
//	deep      a subagent delegates to a subagent of its own
//	run       a subagent runs sleep 6 (allow it in [commands.allow] to see
//	          it without an approval), then ls (which asks)
//	bomb      a subagent's REPL call allocates without bound (set
//	          [repl] max_memory_mb = 64)
//	mcp       a subagent calls the everything server's echo tool (configure
//	          [mcp.servers.everything])
//	retry     the first request answers 429 with Retry-After: 9
//	wait      the first token comes after six seconds
//
// Anything else is answered "ok N". Subagents are told their scene by the
// task the root gives them.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"harness/llm"
	"harness/llmtest"
)

func main() {
	urlFile := flag.String("url", "", "file to write the base URL to")
	repo := flag.String("repo", "", "the repository folder to write the patch scene's files into")
	flag.Parse()
	if *urlFile == "" {
		fmt.Fprintln(os.Stderr, "usage: uitour -url FILE [-repo DIR]")
		os.Exit(2)
	}
	if *repo != "" {
		files := map[string]string{"a.txt": "one\ntwo\nthree\n", "b.txt": "bee\n", "c.txt": "alpha\nbeta\n"}
		for name, text := range files {
			if err := os.WriteFile(filepath.Join(*repo, name), []byte(text), 0o644); err != nil {
				fmt.Fprintln(os.Stderr, "uitour:", err)
				os.Exit(1)
			}
		}
	}
	t := &tour{seen: map[string]int{}}
	if err := llmtest.Serve(*urlFile, t.respond); err != nil {
		fmt.Fprintln(os.Stderr, "uitour:", err)
		os.Exit(1)
	}
}

type tour struct {
	mu   sync.Mutex
	seen map[string]int // requests seen per scene, for retry
	n    int
}

var scenes = []string{"markdown", "long", "patch", "deep", "run", "bomb", "mcp", "retry", "wait"}

// request is what a scene looks at: the tools offered, the latest user
// message, the first one (a subagent's task) and the tool results since
// the latest user message.
type request struct {
	tools   map[string]bool
	task    string
	last    string
	results int
	depth   int // 0 for the root; subagents' tools include repl
}

func parse(body []byte) request {
	var b struct {
		Tools []struct {
			Function struct{ Name string } `json:"function"`
		} `json:"tools"`
		Messages []llm.Message `json:"messages"`
	}
	json.Unmarshal(body, &b)
	r := request{tools: map[string]bool{}}
	for _, t := range b.Tools {
		r.tools[t.Function.Name] = true
	}
	for _, m := range b.Messages {
		switch m.Role {
		case "user":
			if r.task == "" {
				r.task = m.Content
			}
			r.last, r.results = m.Content, 0
		case "tool":
			r.results++
		}
	}
	if r.tools["repl"] {
		r.depth = 1
	}
	return r
}

func scene(text string) string {
	low := strings.ToLower(text)
	for _, s := range scenes {
		if strings.Contains(low, s) {
			return s
		}
	}
	return ""
}

func args(kv ...string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	b, _ := json.Marshal(m)
	return string(b)
}

func slow(r llmtest.Reply) llmtest.Reply {
	r.Split, r.Delay = 6, 15*time.Millisecond
	return r
}

func call(id, name, arguments string) llmtest.Reply {
	return slow(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: id, Name: name, Arguments: arguments}}})
}

func (t *tour) respond(req llmtest.Request) llmtest.Reply {
	r := parse(req.Body)
	t.mu.Lock()
	t.n++
	n := t.n
	t.mu.Unlock()
	if len(r.tools) == 0 {
		return llmtest.Text("UI tour")
	}
	if r.depth > 0 {
		return t.subagent(r)
	}
	return t.root(r, n)
}

func (t *tour) root(r request, n int) llmtest.Reply {
	s := scene(r.last)
	delegate := func(name, task string) llmtest.Reply {
		if r.results >= 2 { // the FYI call's result, then the rlm call's
			return slow(llmtest.Reply{Content: "The **" + name + "** subagent is done.",
				Usage: &llm.Usage{PromptTokens: 900, CompletionTokens: 40, TotalTokens: 940}})
		}
		return slow(llmtest.Reply{Reasoning: "This needs a subagent.",
			ToolCalls: []llmtest.ToolCall{{ID: fmt.Sprintf("r%d", n), Name: "rlm", Arguments: args("task", task, "name", name)}}})
	}
	switch s {
	case "markdown":
		return llmtest.Reply{Reasoning: "The user wants to see **markdown**.", Content: markdown, Split: 5, Delay: 12 * time.Millisecond}
	case "long":
		return llmtest.Reply{Content: strings.Repeat(markdown+"\n\n---\n\n", 8), Split: 4, Pace: 2 * time.Millisecond}
	case "patch", "deep", "run", "bomb", "mcp":
		return delegate(s+"er", "Scene "+s+": "+tasks[s])
	case "retry":
		t.mu.Lock()
		t.seen[s]++
		k := t.seen[s]
		t.mu.Unlock()
		if k%2 == 1 {
			return llmtest.Error(429, `{"error":{"message":"Rate limit reached","type":"rate_limit"}}`).WithHeader("Retry-After", "9")
		}
		return slow(llmtest.Text("Answered after the retry."))
	case "wait":
		return llmtest.Reply{Content: "Here after a long think.", Delay: 3 * time.Second}
	}
	return llmtest.Text(fmt.Sprintf("ok %d", n))
}

var tasks = map[string]string{
	"patch": "add d.txt, delete b.txt, move a.txt to moved/a.txt with an edit, replace c.txt.",
	"deep":  "ask a helper of your own to count the files.",
	"run":   "run a slow command, then list the folder.",
	"bomb":  "build a very large list.",
	"mcp":   "echo a message through the everything server.",
}

func (t *tour) subagent(r request) llmtest.Reply {
	s := scene(r.task)
	done := func(text string) llmtest.Reply {
		return slow(llmtest.Reply{Content: text})
	}
	// results counts the start-up call's result too.
	step := r.results - 1
	switch s {
	case "patch":
		if step == 0 {
			return call("p1", "apply_patch", args("patch", patchText))
		}
		return done("Applied the patch: `d.txt` added, `b.txt` deleted, `a.txt` moved, `c.txt` replaced.")
	case "deep":
		if strings.Contains(r.task, "counter") {
			if step == 0 {
				return call("c1", "repl", args("code", `print("counted", 3, "files")`))
			}
			return done("There are **3** files.")
		}
		if step == 0 {
			return slow(llmtest.Reply{Reasoning: "Delegate the count.",
				ToolCalls: []llmtest.ToolCall{{ID: "dd1", Name: "rlm", Arguments: args("task", "Scene deep, counter: count the files.", "name", "counter")}}})
		}
		return done("My helper counted **3** files.")
	case "run":
		switch step {
		case 0:
			return call("s1", "repl", args("code", `print(run(["sleep", "6"]))`))
		case 1:
			return call("s2", "repl", args("code", `r = run(["ls", "-la"])
print(r["stdout"])`))
		}
		return done("Slept and listed the folder.")
	case "bomb":
		if step == 0 {
			return call("b1", "repl", args("code", `x = []
for i in range(100000000):
    x.append("ab" * 1000)
print(len(x))`))
		}
		return done("The list was too large to build.")
	case "mcp":
		if step == 0 {
			return call("m1", "mcp__everything__echo", `{"message":"hello from the tour"}`)
		}
		return done("The server echoed the message.")
	}
	return done("Nothing to do.")
}

const patchText = "*** Begin Patch\n" +
	"*** Add File: d.txt\n+a new file\n+with two lines\n" +
	"*** Delete File: b.txt\n" +
	"*** Update File: a.txt\n*** Move to: moved/a.txt\n@@\n one\n-two\n+two, edited\n three\n" +
	"*** Replace File: c.txt\n+gamma\n+delta\n" +
	"*** End Patch"

const markdown = "# A tour of markdown\n\n" +
	"This answer has **bold**, *italic*, `inline code`, ~~struck~~ text and a [link](https://example.com/a/very/long/path/that/goes/on/and/on) in one paragraph that is long enough to wrap at every width the tour tries, eighty columns included.\n\n" +
	"## Lists\n\n" +
	"- first item\n- second item with a longer text that wraps onto a second line when the pane is narrow enough to need it\n  - nested item\n  - another nested item\n- third item\n\n" +
	"1. one\n2. two\n3. three\n\n" +
	"- [ ] a task\n- [x] a done task\n\n" +
	"## Table\n\n" +
	"| name | kind | description |\n|:-----|:----:|------------:|\n| parse | func | reads the input and returns a tree of nodes |\n| Node | type | one element of the tree |\n| render | func | draws the tree onto the screen with styles |\n\n" +
	"## Code\n\n" +
	"```go\npackage main\n\nimport \"fmt\"\n\n// main greets.\nfunc main() {\n\tfor i := 0; i < 3; i++ {\n\t\tfmt.Printf(\"hello %d\\n\", i)\n\t}\n}\n```\n\n" +
	"```python\ndef fib(n: int) -> int:\n    \"\"\"The n-th Fibonacci number.\"\"\"\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\n```\n\n" +
	"```rust\nfn main() {\n    let v: Vec<i32> = (1..=3).collect();\n    println!(\"{:?}\", v);\n}\n```\n\n" +
	"```json\n{\"name\": \"harness\", \"version\": 1, \"tags\": [\"go\", \"tui\"]}\n```\n\n" +
	"```bash\nfor f in *.go; do gofmt -l \"$f\"; done | wc -l\n```\n\n" +
	"```\nplain fenced text without a language, with a line that is quite a lot longer than eighty columns so it must wrap\n```\n\n" +
	"## Quotes\n\n" +
	"> A block quote with **bold** inside it, long enough to wrap on a narrow pane like the forty-column one.\n>\n> > And a nested quote.\n\n" +
	"### A third-level heading\n\n" +
	"Text after a rule:\n\n---\n\n" +
	"Visit <https://go.dev> or [the docs](https://pkg.go.dev) for more. Done."
