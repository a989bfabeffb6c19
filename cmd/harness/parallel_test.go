package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"harness/llmtest"
	"harness/sessions"
)

// byTask answers each agent's requests by its task (its first user
// message): replies[task] in order.
func byTask(replies map[string][]llmtest.Reply) func(llmtest.Request) llmtest.Reply {
	var mu sync.Mutex
	return func(req llmtest.Request) llmtest.Reply {
		var body llmtest.ChatBody
		json.Unmarshal(req.Body, &body)
		task := ""
		for _, m := range body.Messages {
			if m.Role == "user" {
				task = m.Content
				break
			}
		}
		mu.Lock()
		defer mu.Unlock()
		rs := replies[task]
		if len(rs) == 0 {
			return llmtest.Error(500, "nothing scripted for "+task)
		}
		replies[task] = rs[1:]
		return rs[0]
	}
}

// delegateAll is a reply calling rlm once per name, the task "look at NAME".
func delegateAll(names ...string) llmtest.Reply {
	var cs []llmtest.ToolCall
	for _, n := range names {
		cs = append(cs, llmtest.ToolCall{Name: "rlm", Arguments: args(map[string]string{"task": "look at " + n, "name": n})})
	}
	return llmtest.Reply{ToolCalls: cs}
}

// TestParallelHeadless runs four subagents at once through the whole
// program (headless, --json, real REPL workers): every line is one whole
// JSON object, each agent_start has its agent_end, the results reach the
// root in call order, and each subagent's conversation is saved in a file
// of its own.
func TestParallelHeadless(t *testing.T) {
	e := newEnv(t)
	e.setConfig("max_depth = 2", "max_depth = 2\nparallel = 4")
	names := []string{"alpha", "beta", "gamma", "delta"}
	replies := map[string][]llmtest.Reply{"Look everywhere.": {delegateAll(names...), llmtest.Text("All four looked.")}}
	for _, n := range names {
		replies["look at "+n] = []llmtest.Reply{
			llmtest.Call("repl", args(map[string]string{"code": fmt.Sprintf("for i in range(3):\n    print(%q, i)", n)})),
			{Content: n + " found " + strings.Repeat("it ", 20), Split: 7},
		}
	}
	e.srv.Respond(byTask(replies))
	code, stdout, stderr := e.run(context.Background(), nil, "--json", "-p", "Look everywhere.")
	if code != 0 {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	lines := jsonLines(t, stdout) // fails on any line that is not one JSON object
	open := map[string]int{}
	for _, l := range lines {
		key := fmt.Sprint(l["agent"], "/", l["depth"])
		switch l["type"] {
		case "agent_start":
			open[key]++
		case "agent_end":
			if open[key] != 1 {
				t.Errorf("agent_end of %s without its agent_start", key)
			}
			open[key]--
		}
	}
	for k, n := range open {
		if n != 0 {
			t.Errorf("%s: %d agent_start without agent_end", k, n)
		}
	}
	if starts := ofType(lines, "agent_start"); len(starts) != 5 {
		t.Errorf("%d agent_start lines, want 5", len(starts))
	}
	done := ofType(lines, "turn_done")
	if len(done) != 1 || done[0]["text"] != "All four looked." {
		t.Fatalf("turn_done %v", done)
	}
	root, err := sessions.Load(filepath.Join(e.sessionDir(), "library", "root.json"))
	if err != nil {
		t.Fatal(err)
	}
	msgs := root.Messages()
	var calls []string
	for _, m := range msgs {
		for _, c := range m.ToolCalls {
			if c.Name == "rlm" {
				calls = append(calls, c.ID)
			}
		}
	}
	if len(calls) != 4 {
		t.Fatalf("root file has %d rlm calls", len(calls))
	}
	for i, id := range calls {
		var got string
		for _, m := range msgs {
			if m.Role == "tool" && m.ToolCallID == id {
				got = m.Content
			}
		}
		if !strings.HasPrefix(got, names[i]+" found it") {
			t.Errorf("result of call %d (%s): %q", i, names[i], got)
		}
		sub, err := sessions.Load(filepath.Join(e.sessionDir(), "library", id+".json"))
		if err != nil {
			t.Errorf("%s's conversation: %v", names[i], err)
			continue
		}
		if last := lastMessage(sub.Messages()); !strings.HasPrefix(last.Content, names[i]+" found it") {
			t.Errorf("%s's file ends with %q", names[i], last.Content)
		}
		if out := sub.Messages()[4].Content; !strings.Contains(out, names[i]+" 2") {
			t.Errorf("%s's REPL call printed %q", names[i], out)
		}
	}
	// In the order of the calls, whatever order they finished in.
	var order []string
	for _, m := range msgs {
		if m.Role == "tool" && strings.Contains(m.Content, " found it") {
			order = append(order, strings.Fields(m.Content)[0])
		}
	}
	if fmt.Sprint(order) != fmt.Sprint(names) {
		t.Errorf("results saved in the order %v", order)
	}
}

// TestParallelWallTime is the closing note's benchmark: a root turn
// delegating to four subagents that each take about 1.5 s to answer,
// [rlm] parallel 1 against 4, beside one subagent alone, with real REPL
// workers and the fake endpoint. It takes about ten seconds, so it runs
// only with HARNESS_BENCH=1; with parallel 4 the turn must take at most
// 1.3 times the turn with one subagent.
func TestParallelWallTime(t *testing.T) {
	if os.Getenv("HARNESS_BENCH") == "" {
		t.Skip("set HARNESS_BENCH=1 to measure (about 10 s)")
	}
	const pace = 100 * time.Millisecond // 15 content chunks and the closing ones: about 1.5 s
	turn := func(parallel int, names ...string) time.Duration {
		e := newEnv(t)
		e.setConfig("max_depth = 2", fmt.Sprintf("max_depth = 2\nparallel = %d", parallel))
		replies := map[string][]llmtest.Reply{"go": {delegateAll(names...), llmtest.Text("done")}}
		for _, n := range names {
			replies["look at "+n] = []llmtest.Reply{{Content: strings.Repeat("x", 15), Split: 1, Pace: pace}}
		}
		e.srv.Respond(byTask(replies))
		start := time.Now()
		code, _, stderr := e.run(context.Background(), nil, "-p", "go")
		d := time.Since(start)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		return d
	}
	one := turn(1, "a")
	seq := turn(1, "a", "b", "c", "d")
	par := turn(4, "a", "b", "c", "d")
	t.Logf("one subagent: %v; four, parallel 1: %v; four, parallel 4: %v (%.2f× one)",
		one.Round(time.Millisecond), seq.Round(time.Millisecond), par.Round(time.Millisecond), float64(par)/float64(one))
	if float64(par) > 1.3*float64(one) {
		t.Errorf("four subagents with parallel 4 took %v, over 1.3× one alone (%v)", par, one)
	}
}

// TestKilledMidParallel: harness is SIGKILLed while three subagents run at
// once: beta has answered (its result waits in memory for alpha's, before
// it in call order), alpha and gamma are streaming. Resuming, the root is
// given beta's answer read from its own file, and alpha and gamma are
// marked interrupted.
func TestKilledMidParallel(t *testing.T) {
	e := newEnv(t)
	e.setConfig("max_depth = 2", "max_depth = 2\nparallel = 3")
	stall := llmtest.Reply{Content: "working on it", Split: 4, Fail: llmtest.FailStall, After: 2}
	e.srv.Respond(byTask(map[string][]llmtest.Reply{
		"go":            {delegateAll("alpha", "beta", "gamma"), llmtest.Text("all done")},
		"look at alpha": {stall},
		"look at beta":  {llmtest.Text("beta found it")},
		"look at gamma": {stall},
	}))
	p := e.startJSON("--json", "-p", "go")
	name := p.waitFor("the session", isType("session"))["name"].(string)
	ids := map[string]string{}
	streaming := map[string]bool{}
	p.waitFor("beta's answer and the others streaming", func(m map[string]any) bool {
		switch {
		case m["type"] == "tool_call" && m["name"] == "rlm":
			var a struct{ Name string }
			json.Unmarshal([]byte(m["arguments"].(string)), &a)
			ids[a.Name] = m["id"].(string)
		case m["type"] == "text_delta" && m["depth"] == float64(1) && m["agent"] != "beta":
			streaming[m["agent"].(string)] = true
		case m["type"] == "agent_end" && m["agent"] == "beta":
			streaming["beta"] = true
		}
		return len(streaming) == 3
	})
	p.cmd.Process.Signal(syscall.SIGKILL)
	p.wait()

	out, err := e.command("--resume", name, "-p", "continue").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "all done\n") {
		t.Fatalf("resume: %v\n%s", err, out)
	}
	chats := e.srv.Chats()
	results := map[string]string{}
	for _, m := range chats[len(chats)-1].MustChat(t).Messages {
		if m.Role == "tool" {
			results[m.ToolCallID] = m.Content
		}
	}
	if got := results[ids["beta"]]; !strings.HasPrefix(got, "beta found it\n[recovered: ") {
		t.Errorf("beta's result after the crash: %q", got)
	}
	for _, n := range []string{"alpha", "gamma"} {
		if got := results[ids[n]]; !strings.Contains(got, "[interrupted: ") || !strings.Contains(got, `subagent "`+n+`"`) {
			t.Errorf("%s's result after the crash: %q", n, got)
		}
	}
}

// TestACPParallelPermissions: two subagents running at once each ask the
// editor for a permission; the two requests are pending together, and
// each names its own subagent's tool call.
func TestACPParallelPermissions(t *testing.T) {
	e := newEnv(t)
	e.setConfig("max_depth = 2", "max_depth = 2\nparallel = 2")
	replies := map[string][]llmtest.Reply{"Touch both.": {delegateAll("one", "two"), llmtest.Text("Both touched.")}}
	for _, n := range []string{"one", "two"} {
		replies["look at "+n] = []llmtest.Reply{
			llmtest.Call("repl", args(map[string]string{"code": fmt.Sprintf(`print(run(["touch", "t-%s"])["exit_code"])`, n)})),
			llmtest.Text(n + " touched"),
		}
	}
	e.srv.Respond(byTask(replies))
	p := e.startACP()
	p.initialize()
	s := p.newSession(e.repo)
	arrived := make(chan struct{}, 2)
	both := make(chan struct{})
	var once sync.Once
	p.setAnswer(func(ctx context.Context, req sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
		arrived <- struct{}{}
		if len(arrived) == 2 {
			once.Do(func() { close(both) })
		}
		select {
		case <-both:
			return choose(optionOf(req, sdk.PermissionOptionKindAllowOnce)), nil
		case <-time.After(10 * time.Second):
			return choose(optionOf(req, sdk.PermissionOptionKindRejectOnce)), nil // not pending together
		}
	})
	resp, err := p.prompt(s.SessionId, "Touch both.")
	if err != nil || resp.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v, %v\nstderr:\n%s", resp, err, p.stderr)
	}
	for _, n := range []string{"one", "two"} {
		if _, err := os.Stat(filepath.Join(e.repo, "t-"+n)); err != nil {
			t.Errorf("t-%s: %v (the two requests were not pending together)", n, err)
		}
	}
	replCall := map[string]string{} // agent → its repl call's ID
	for _, c := range callsOf(t, p.take(s.SessionId)) {
		if strings.Contains(c.title, "repl") && c.meta["synthetic"] != true {
			replCall[c.meta["agent"].(string)] = c.id
		}
	}
	perms := p.permissions()
	if len(perms) != 2 {
		t.Fatalf("%d permission requests, want 2", len(perms))
	}
	matched := 0
	for _, req := range perms {
		id := string(req.ToolCall.ToolCallId)
		text := req.ToolCall.Content[0].Content.Content.Text.Text
		for _, n := range []string{"one", "two"} {
			if !strings.Contains(text, "touch t-"+n) {
				continue
			}
			matched++
			if replCall[n] == "" || replCall[n] != id {
				t.Errorf("the request to touch t-%s names call %s, not %s's repl call %q", n, id, n, replCall[n])
			}
		}
	}
	if matched != 2 {
		t.Errorf("%d of the requests name a subagent's command: %+v", matched, perms)
	}
}

// TestParallelUI runs two subagents at once in the full-screen UI on a
// pseudo-terminal: the strip lists both while alpha streams (and then
// stalls), beta's command asks at the one prompt naming beta, y lets it
// run, beta answers while alpha still runs, and Esc stops alpha and the
// turn.
func TestParallelUI(t *testing.T) {
	e := newEnv(t)
	e.setConfig("max_depth = 2", "max_depth = 2\nparallel = 2")
	e.srv.Respond(byTask(map[string][]llmtest.Reply{
		"Look at both.": {delegateAll("alpha", "beta")},
		"look at alpha": {{Content: "alpha streams and streams", Split: 6, Fail: llmtest.FailStall, After: 3}},
		"look at beta": {
			llmtest.Call("repl", args(map[string]string{"code": `print(run(["touch", "t-beta"])["exit_code"])`})),
			llmtest.Text("beta touched"),
		},
	}))
	u := e.startUI()
	u.waitText(t, "llmtest-model")
	u.master.Write([]byte("Look at both.\r"))
	u.waitText(t, "alpha · depth 1 ·")
	u.waitText(t, "beta asks: run  touch t-beta")
	u.master.Write([]byte("y"))
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(e.repo, "t-beta")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("beta's command did not run")
		}
	}
	u.master.Write([]byte{0x1b}) // Esc
	u.waitText(t, "[stopped by user]")
	u.waitText(t, "● rlm beta · 1 tool call")
}
