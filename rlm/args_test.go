package rlm

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"harness/jail"
	"harness/llm"
	"harness/llmtest"
	"harness/sessions"
)

// TestBadArgumentsSentBackAsObjects: calls whose arguments are empty or not
// a JSON object run (or get their error) with the text the model sent, but
// the message saved and sent back holds a JSON object, which servers that
// parse arguments (vLLM, llama.cpp) require; a resumed conversation is
// repaired the same way.
func TestBadArgumentsSentBackAsObjects(t *testing.T) {
	r := newRig(t,
		llmtest.Reply{Content: "Checking.", ToolCalls: []llmtest.ToolCall{
			{Name: "FYI", Arguments: ""},
			{Name: "rlm", Arguments: `{"task":"A","name":"a"`},
			{Name: "rlm", Arguments: `["A","a"]`},
			{Name: "FYI", Arguments: " {} "},
		}},
		llmtest.Text("done"),
	)
	if _, err := r.turn(context.Background(), "go", nil); err != nil {
		t.Fatal(err)
	}
	var raw []string
	for _, c := range eventsOf[ToolCall](r)[1:] {
		raw = append(raw, c.Arguments)
	}
	if want := []string{"", `{"task":"A","name":"a"`, `["A","a"]`, " {} "}; strings.Join(raw, "|") != strings.Join(want, "|") {
		t.Errorf("ToolCall events carry %q, want what the model sent %q", raw, want)
	}
	sent := r.chat(1).RawMessages()[4]
	for _, want := range []string{
		`"arguments":"{}"`,
		`"arguments":"{\"invalid_arguments\":\"{\\\"task\\\":\\\"A\\\",\\\"name\\\":\\\"a\\\"\"}"`,
		`"arguments":"{\"invalid_arguments\":\"[\\\"A\\\",\\\"a\\\"]\"}"`,
		`"arguments":" {} "`,
	} {
		if !strings.Contains(string(sent), want) {
			t.Errorf("sent back\n%s\nwithout %s", sent, want)
		}
	}
	saved := r.file(0, "").Messages()
	if got := saved[3].ToolCalls[1].Arguments; got != `{"invalid_arguments":"{\"task\":\"A\",\"name\":\"a\""}` {
		t.Errorf("saved arguments %s", got)
	}
	if got := saved[5].Content; !strings.HasPrefix(got, "Invalid arguments for rlm: the arguments are not a JSON object (unexpected end of JSON input)") {
		t.Errorf("result %q", got)
	}
	if got := saved[6].Content; !strings.HasPrefix(got, "Invalid arguments for rlm: the arguments are not a JSON object") {
		t.Errorf("result %q", got)
	}

	conv := &sessions.File{Local: sessions.Local{Repository: "/r"}}
	conv.Append(llm.Message{Role: "user", Content: "one"},
		llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{{ID: "A", Name: "FYI"}, {ID: "B", Name: "rlm", Arguments: "{"}}})
	runner, err := New(r.opts, conv)
	if err != nil {
		t.Fatal(err)
	}
	calls := runner.Conversation()[1].Message.ToolCalls
	if calls[0].Arguments != "{}" || calls[1].Arguments != `{"invalid_arguments":"{"}` {
		t.Errorf("resumed calls %+v", calls)
	}
}

// TestToolPanicBecomesResult: a tool that panics (a bug elsewhere in
// harness) gives a result and an Error event; the turn carries on.
func TestToolPanicBecomesResult(t *testing.T) {
	r := newRig(t,
		llmtest.Call("rlm", `{"task":"A","name":"a"}`),
		llmtest.Call("read_file", `{"path":"x"}`),
		llmtest.Text("sub done"),
		llmtest.Text("root done"),
	)
	r.opts.Files.ReadFile = func(context.Context, *jail.Root, ReadFileArgs, int) (string, error) {
		panic("assignment to entry in nil map")
	}
	res, err := r.turn(context.Background(), "go", nil)
	if err != nil || res.Text != "root done" {
		t.Fatalf("%+v %v", res, err)
	}
	id := eventsOf[AgentStart](r)[1].Agent.ID
	msgs := r.file(1, id).Messages()
	if got := msgs[4].Content; !strings.HasPrefix(got, "read_file failed: harness hit an internal error (assignment to entry in nil map)") {
		t.Errorf("result %q", got)
	}
	if errs := eventsOf[Error](r); len(errs) != 1 || !strings.Contains(errs[0].Message, "nil map") {
		t.Errorf("Error events %+v", errs)
	}
}

// leakREPL prints and returns a secret, as print(Path(".env").read_text())
// may in a repository holding the API key.
type leakREPL struct{ env REPLEnv }

func (l leakREPL) Exec(ctx context.Context, code string) string {
	l.env.Output("found sk-SECRET in .env\n")
	return "found sk-SECRET in .env"
}
func (leakREPL) Close() {}

// TestSecretsRedactedInEvents: a secret a REPL prints reaches no event (the
// UI and --json show them), as it reaches no file.
func TestSecretsRedactedInEvents(t *testing.T) {
	r := newRig(t,
		llmtest.Call("rlm", `{"task":"A","name":"a"}`),
		llmtest.Call("repl", `{"code":"x"}`),
		llmtest.Text("sub done"),
		llmtest.Text("root done"),
	)
	r.opts.NewREPL = func(env REPLEnv) (REPL, error) { return leakREPL{env}, nil }
	if _, err := r.turn(context.Background(), "go", nil); err != nil {
		t.Fatal(err)
	}
	outputs := 0
	for _, e := range r.events {
		if _, ok := e.(ToolOutput); ok {
			outputs++
		}
		if s := fmt.Sprintf("%+v", e); strings.Contains(s, "sk-SECRET") {
			t.Errorf("event %T carries the secret: %s", e, s)
		}
	}
	if outputs != 2 {
		t.Errorf("%d ToolOutput events, want 2", outputs)
	}
}

// TestRLMAtMaxDepth: an agent at max_depth is not offered rlm; calling it
// anyway gets "Unknown tool: rlm" and starts no subagent.
func TestRLMAtMaxDepth(t *testing.T) {
	r := newRig(t,
		llmtest.Call("rlm", `{"task":"A","name":"a"}`),
		llmtest.Call("rlm", `{"task":"B","name":"b"}`),
		llmtest.Call("rlm", `{"task":"C","name":"c"}`),
		llmtest.Text("b done"),
		llmtest.Text("a done"),
		llmtest.Text("root done"),
	)
	if _, err := r.turn(context.Background(), "go", nil); err != nil {
		t.Fatal(err)
	}
	starts := eventsOf[AgentStart](r)
	if len(starts) != 3 {
		t.Fatalf("%d agents started, want the root and two subagents", len(starts))
	}
	msgs := r.file(2, starts[2].Agent.ID).Messages()
	want := "Unknown tool: rlm\nYour tools are [\"repl\",\"read_file\",\"apply_patch\",\"grep\",\"list\"]."
	if got := msgs[4].Content; got != want {
		t.Errorf("depth-2 rlm call got %q", got)
	}
}

// TestDoubleEncodedArguments: arguments sent as a JSON string holding the
// object (a quirk of some servers) run as that object and are saved as it.
func TestDoubleEncodedArguments(t *testing.T) {
	r := newRig(t,
		llmtest.Call("rlm", `"{\"task\":\"A\",\"name\":\"a\"}"`),
		llmtest.Text("sub done"),
		llmtest.Text("root done"),
	)
	if _, err := r.turn(context.Background(), "go", nil); err != nil {
		t.Fatal(err)
	}
	saved := r.file(0, "").Messages()
	if got := saved[3].ToolCalls[0].Arguments; got != `{"task":"A","name":"a"}` {
		t.Errorf("saved arguments %s", got)
	}
	if got := saved[4].Content; got != "sub done" {
		t.Errorf("result %q", got)
	}
}
