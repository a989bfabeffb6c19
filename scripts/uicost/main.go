// Command uicost is the scripted endpoint and the session maker that
// scripts/uicost.sh measures the UI's streaming cost with.
//
//	uicost serve -url FILE -done FILE [-tokens 20000] [-rate 500] [-shape prose]
//	uicost session -home DIR -repo DIR -name NAME [-turns 2000] [-lines 50]
//
// serve runs llmtest's fake endpoint on the loopback address, writes its
// base URL to -url and answers every chat request that offers tools (an
// agent's turn) with -tokens tokens of text, one token per SSE chunk, at
// -rate tokens a second on a fixed schedule; other requests (a title or a
// summary) get a short reply. Every token is four bytes; paragraphs of 120
// tokens are separated by a blank line, and the reply ends with
// "[stream end]". Another -shape streams a reply of that shape instead, in
// chunks of 6 bytes at -rate chunks a second (-tokens is then ignored):
// paragraph (20,000 words as one paragraph, 131 KB) or fence (a 4,000-line
// fenced Go block, 123 KB), each followed by "[stream end]"; or patch: the
// root delegates to a subagent, whose apply_patch call adding a 4,000-line
// Go file streams as its arguments, and the root's answer after it ends in
// "[stream end]". After each long reply is written it appends a line to
// -done. It runs until it is
// killed.
//
// session writes a saved harness session NAME under DIR/sessions: -turns
// turns of a question, an rlm call, its result and an answer, about -lines
// transcript lines each (every line shorter than 200 columns), with a
// turn_token_cache holding every turn, so opening it sends no /tokenize
// request.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"harness/llm"
	"harness/llmtest"
	"harness/sessions/sessiontest"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: uicost serve|session [flags] (see the package doc)")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "serve":
		err = serve(os.Args[2:])
	case "session":
		err = session(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q: want serve or session", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "uicost:", err)
		os.Exit(1)
	}
}

func serve(args []string) error {
	fs := flag.NewFlagSet("serve", flag.ExitOnError)
	urlFile := fs.String("url", "", "file to write the base URL to")
	doneFile := fs.String("done", "", "file to append a line to after each long reply")
	tokens := fs.Int("tokens", 20000, "tokens in a long reply")
	rate := fs.Int("rate", 500, "tokens a second")
	shape := fs.String("shape", "prose", "prose, paragraph, fence or patch")
	fs.Parse(args)
	if *urlFile == "" || *doneFile == "" || *tokens < 1 || *rate < 1 {
		return fmt.Errorf("serve needs -url, -done, and positive -tokens and -rate")
	}
	pace := time.Second / time.Duration(*rate)
	long, err := shapeReply(*shape, *tokens, pace)
	if err != nil {
		return err
	}
	// chunks is about how many chunks the long reply streams: Pace makes
	// it last chunks×pace.
	chunks := streamed(long)
	done := func() {
		go func() {
			time.Sleep(time.Duration(chunks+2) * pace)
			f, err := os.OpenFile(*doneFile, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			if err == nil {
				fmt.Fprintln(f, "done")
				f.Close()
			}
		}()
	}
	var patches atomic.Int32
	return llmtest.Serve(*urlFile, func(r llmtest.Request) llmtest.Reply {
		req := parse(r)
		switch {
		case len(req.tools) == 0:
			return llmtest.Text("Streaming test")
		case *shape != "patch":
			done()
			return long
		case !req.tools["repl"] && req.results < 2: // the root, after the start-up call
			return llmtest.Call("rlm", `{"task":"Write big.go.","name":"writer"}`)
		case !req.tools["repl"]:
			return llmtest.Text("The writer wrote the file.\n\n[stream end]")
		case req.results < 2: // the subagent, after its start-up call
			done()
			return patchReply(int(patches.Add(1)), pace)
		}
		return llmtest.Text("Wrote the file.")
	})
}

// shapeReply is the long reply of shape: prose is n four-byte tokens, one
// a chunk; paragraph and fence are a 131 KB paragraph and a 4,000-line
// fenced Go block in 6-byte chunks; each is a chunk every pace. patch is
// answered by patchReply instead, its zero Reply counting its chunks.
func shapeReply(shape string, n int, pace time.Duration) (llmtest.Reply, error) {
	usage := &llm.Usage{PromptTokens: 1000, CompletionTokens: 20000, TotalTokens: 21000}
	switch shape {
	case "prose":
		return longReply(n, pace), nil
	case "paragraph":
		return llmtest.Reply{Content: llmtest.Words(20000, 0) + "\n\n[stream end]", Split: 6, Pace: pace, Usage: usage}, nil
	case "fence":
		return llmtest.Reply{Content: llmtest.GoFence(4000) + "\n\n[stream end]", Split: 6, Pace: pace, Usage: usage}, nil
	case "patch":
		return patchReply(1, pace), nil
	}
	return llmtest.Reply{}, fmt.Errorf("unknown -shape %q: want prose, paragraph, fence or patch", shape)
}

// patchReply is the subagent's apply_patch call adding big<n>.go, 4,000
// lines of Go, its arguments streamed in 6-byte chunks, one every pace (a
// new name each time, so that every case's patch applies).
func patchReply(n int, pace time.Duration) llmtest.Reply {
	a, _ := json.Marshal(map[string]string{"patch": llmtest.AddFilePatch(fmt.Sprintf("big%d.go", n), 4000)})
	return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "call_patch", Name: "apply_patch", Arguments: string(a)}},
		Split: 6, Pace: pace, Usage: &llm.Usage{PromptTokens: 1000, CompletionTokens: 20000, TotalTokens: 21000}}
}

// streamed is how many chunks r streams, its text being ASCII.
func streamed(r llmtest.Reply) int {
	n := (len(r.Content) + r.Split - 1) / r.Split
	for _, c := range r.ToolCalls {
		n += 1 + (len(c.Arguments)+r.Split-1)/r.Split
	}
	return n + 3
}

// request is what serve looks at in a chat request: the tools it offers
// (a subagent's include repl) and how many tool results its last turn
// holds (after its last user message).
type request struct {
	tools   map[string]bool
	results int
}

func parse(r llmtest.Request) request {
	b, _ := r.Chat()
	req := request{tools: map[string]bool{}}
	for _, name := range b.ToolNames() {
		req.tools[name] = true
	}
	for _, m := range b.Messages {
		switch m.Role {
		case "user": // a resumed session's earlier turns have results of their own
			req.results = 0
		case "tool":
			req.results++
		}
	}
	return req
}

// longReply is n four-byte tokens sent one per chunk, every pace.
func longReply(n int, pace time.Duration) llmtest.Reply {
	end := "[stream end]" // three tokens, the last words on screen
	content := strings.Join(llmtest.Prose(max(n-3, 0)), "") + end
	return llmtest.Reply{Content: content, Split: 4, Pace: pace,
		Usage: &llm.Usage{PromptTokens: 1000, CompletionTokens: n, TotalTokens: 1000 + n}}
}

func session(args []string) error {
	fs := flag.NewFlagSet("session", flag.ExitOnError)
	home := fs.String("home", "", "HARNESS_HOME")
	repo := fs.String("repo", "", "the repository harness runs in")
	name := fs.String("name", "", "session name")
	turns := fs.Int("turns", 2000, "turns")
	lines := fs.Int("lines", 50, "transcript lines per turn")
	fs.Parse(args)
	if *home == "" || *repo == "" || *name == "" {
		return fmt.Errorf("session needs -home, -repo and -name")
	}
	_, err := sessiontest.WriteBig(*home, *repo, *name, *turns, *lines)
	return err
}
