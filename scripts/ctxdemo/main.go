// Command ctxdemo is a scripted endpoint for looking at compaction by
// hand: a llama.cpp-like server whose /props says its window is -window
// tokens and which refuses longer prompts as llama.cpp does. Every request
// is answered with a short reply naming its prompt's size; summary
// requests get a short summary.
//
//	ctxdemo -url FILE [-window 4500]
//
// It writes its base URL to FILE and runs until it is killed. Paste a few
// long texts into harness pointed at it: the status line fills up, a
// compaction line appears, and the context overlay shows the Summary row.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"harness/llmtest"
)

type program struct{ cleanups []func() }

func (p *program) Cleanup(f func())                  { p.cleanups = append(p.cleanups, f) }
func (p *program) Errorf(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }

func main() {
	url := flag.String("url", "", "file to write the base URL to")
	window := flag.Int("window", 4500, "the context window in tokens")
	flag.Parse()
	p := &program{}
	srv := llmtest.New(p)
	srv.SetWindow(*window, llmtest.AdvertProps, llmtest.RefuseLlama)
	srv.Respond(func(req llmtest.Request) llmtest.Reply {
		if strings.Contains(string(req.Body), "You summarise part of a conversation") {
			return llmtest.Text("The person pasted long texts and asked for each to be read; the agent read them and said how long each prompt was.")
		}
		return llmtest.Text(fmt.Sprintf("Read it: this request held %d tokens.", srv.PromptTokens(req.Body)))
	})
	if err := os.WriteFile(*url, []byte(srv.URL+"\n"), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	<-stop
	for i := len(p.cleanups) - 1; i >= 0; i-- {
		p.cleanups[i]()
	}
}
