package headless

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"harness/llm"
	"harness/rlm"
)

var (
	root = rlm.Agent{Name: "20260102-030405"}
	sub  = rlm.Agent{Name: "helper", Depth: 1, ID: "CALL1"}
)

func TestJSONLines(t *testing.T) {
	for _, tc := range []struct {
		event rlm.Event
		want  string // "" when the event is not printed
	}{
		{rlm.SessionReady{Name: "s", Dir: "/h/sessions/s"}, `{"type":"session","schema_version":1,"name":"s","dir":"/h/sessions/s"}`},
		{rlm.AgentStart{Agent: root, Task: "go <now> & then"}, `{"type":"agent_start","schema_version":1,"agent":"20260102-030405","depth":0,"task":"go <now> & then"}`},
		{rlm.AgentStart{Agent: sub, Task: "t"}, `{"type":"agent_start","schema_version":1,"agent":"helper","depth":1,"agent_id":"CALL1","task":"t"}`},
		{rlm.AgentEnd{Agent: sub, Status: rlm.Stopped, Result: "x\n[stopped by user]"}, `{"type":"agent_end","schema_version":1,"agent":"helper","depth":1,"agent_id":"CALL1","status":"stopped","result":"x\n[stopped by user]"}`},
		{rlm.Queued{Agent: sub, Waiting: true}, `{"type":"queued","schema_version":1,"agent":"helper","depth":1,"agent_id":"CALL1","waiting":true}`},
		{rlm.ReasoningDelta{Agent: sub, Text: "hm"}, `{"type":"reasoning_delta","schema_version":1,"agent":"helper","depth":1,"agent_id":"CALL1","text":"hm"}`},
		{rlm.TextDelta{Agent: root, Text: "é"}, `{"type":"text_delta","schema_version":1,"agent":"20260102-030405","depth":0,"text":"é"}`},
		{rlm.ToolCall{Agent: sub, ID: "C2", Name: "repl", Arguments: `{"code":"1"}`}, `{"type":"tool_call","schema_version":1,"agent":"helper","depth":1,"agent_id":"CALL1","id":"C2","name":"repl","arguments":"{\"code\":\"1\"}","synthetic":false}`},
		{rlm.ToolOutput{Agent: sub, ID: "C2", Text: "out"}, `{"type":"tool_output","schema_version":1,"agent":"helper","depth":1,"agent_id":"CALL1","id":"C2","text":"out"}`},
		{rlm.ToolResult{Agent: sub, ID: "C2", Name: "repl", Content: "1"}, `{"type":"tool_result","schema_version":1,"agent":"helper","depth":1,"agent_id":"CALL1","id":"C2","name":"repl","content":"1"}`},
		{rlm.ApprovalAnswered{Agent: sub, ID: "C2", Operation: json.RawMessage(`{"operation":"run"}`), Reason: "no"}, `{"type":"approval","schema_version":1,"agent":"helper","depth":1,"agent_id":"CALL1","id":"C2","operation":{"operation":"run"},"decision":"denied","reason":"no"}`},
		{rlm.Usage{Agent: root, Usage: llm.Usage{PromptTokens: 3, CompletionTokens: 2, TotalTokens: 5}}, `{"type":"usage","schema_version":1,"agent":"20260102-030405","depth":0,"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}`},
		{rlm.Error{Agent: root, Message: "boom"}, `{"type":"error","schema_version":1,"agent":"20260102-030405","depth":0,"message":"boom"}`},
		{rlm.TurnDone{Agent: root, Status: rlm.Done, Text: "ok"}, `{"type":"turn_done","schema_version":1,"agent":"20260102-030405","depth":0,"status":"done","text":"ok","usage":{"prompt_tokens":0,"completion_tokens":0,"total_tokens":0}}`},
		{rlm.Retry{Agent: sub, Attempt: 2, Max: 4, Delay: 4 * time.Second, Reason: "429 Too Many Requests"}, `{"type":"retry","schema_version":1,"agent":"helper","depth":1,"agent_id":"CALL1","attempt":2,"max":4,"delay_s":4.0,"reason":"429 Too Many Requests"}`},
		{rlm.Retry{Agent: root, Attempt: 1, Max: 4, Delay: 1234567 * time.Microsecond, Reason: "no data for 300 s before the first chunk"}, `{"type":"retry","schema_version":1,"agent":"20260102-030405","depth":0,"attempt":1,"max":4,"delay_s":1.235,"reason":"no data for 300 s before the first chunk"}`},
		{rlm.Notice{Agent: root, Message: "The reply was cut"}, `{"type":"notice","schema_version":1,"agent":"20260102-030405","depth":0,"message":"The reply was cut"}`},
		{rlm.ContextCompacted{Agent: root, Window: 12288, Before: 9900, After: 3100, Turns: []int{0, 1, 2}, Summarised: true, Message: "context: turns 1–3 summarised to fit the 12k window"},
			`{"type":"context","schema_version":1,"agent":"20260102-030405","depth":0,"message":"context: turns 1–3 summarised to fit the 12k window","window":12288,"tokens_before":9900,"tokens_after":3100,"turns_hidden":[1,2,3],"summarised":true,"outputs_elided":0,"output_cut":false}`},
		{rlm.ContextCompacted{Agent: sub, Window: 12288, Before: 9400, After: 5800, Elided: 2, Message: "context: 2 oldest tool outputs left out"},
			`{"type":"context","schema_version":1,"agent":"helper","depth":1,"agent_id":"CALL1","message":"context: 2 oldest tool outputs left out","window":12288,"tokens_before":9400,"tokens_after":5800,"turns_hidden":[],"summarised":false,"outputs_elided":2,"output_cut":false}`},
		{rlm.MessageAdded{Agent: root}, ""},
		{rlm.ToolArgsDelta{Agent: root}, ""},
	} {
		var b bytes.Buffer
		p := NewPrinter(true, &b, nil)
		p.Print(tc.event)
		want := tc.want
		if want != "" {
			want += "\n"
		}
		if b.String() != want {
			t.Errorf("%T:\n got %s\nwant %s", tc.event, b.String(), want)
		}
	}
}

func TestPlain(t *testing.T) {
	var out, errOut bytes.Buffer
	p := NewPrinter(false, &out, &errOut)
	p.Print(rlm.SessionReady{Name: "s1"})
	p.Print(rlm.TextDelta{Agent: root, Text: "streamed"})
	p.Print(rlm.Error{Agent: sub, Message: "endpoint said no"})
	p.Print(rlm.Retry{Agent: root, Attempt: 1, Max: 4, Delay: 1500 * time.Millisecond, Reason: "503 Service Unavailable"})
	p.Print(rlm.Retry{Agent: sub, Attempt: 2, Max: 4, Delay: 90 * time.Second, Reason: "429 Too Many Requests"})
	p.Print(rlm.Notice{Agent: root, Message: "The reply was cut at the token limit."})
	p.Print(rlm.TurnDone{Agent: root, Text: "Final answer.\n"})
	p.Finish()
	if out.String() != "Final answer.\n" {
		t.Errorf("stdout %q", out.String())
	}
	want := "harness: subagent \"helper\" (depth 1): endpoint said no\n" +
		"harness: 503 Service Unavailable: retrying in 1.5 s (1 of 4)\n" +
		"harness: subagent \"helper\" (depth 1): 429 Too Many Requests: retrying in 1 min 30 s (2 of 4)\n" +
		"harness: The reply was cut at the token limit.\n" +
		"harness: session s1 (continue with: harness --resume s1 -p PROMPT)\n"
	if errOut.String() != want {
		t.Errorf("stderr %q", errOut.String())
	}
	out.Reset()
	p.Print(rlm.TurnDone{Agent: root, Status: rlm.Failed, Text: "[branch failed: x]"})
	if out.Len() != 0 {
		t.Errorf("a failed turn printed %q on stdout", out.String())
	}
}

type fakeTurner struct {
	s   *rlm.Stream
	res rlm.Result
	err error
}

func (f fakeTurner) Turn(ctx context.Context, prompt string) (rlm.Result, error) {
	f.s.Emit(rlm.TurnDone{Agent: root, Status: f.res.Status, Text: prompt})
	return f.res, f.err
}

func TestRunExitCodes(t *testing.T) {
	for _, tc := range []struct {
		res  rlm.Result
		err  error
		want int
	}{
		{rlm.Result{Status: rlm.Done}, nil, ExitOK},
		{rlm.Result{Status: rlm.Stopped}, nil, ExitInterrupted},
		{rlm.Result{Status: rlm.Failed}, errors.New("x"), ExitError},
	} {
		s := rlm.NewStream()
		var out bytes.Buffer
		code := Run(context.Background(), fakeTurner{s, tc.res, tc.err}, s, "echo", NewPrinter(false, &out, &bytes.Buffer{}))
		if code != tc.want {
			t.Errorf("%v: exit %d, want %d", tc.res.Status, code, tc.want)
		}
		if tc.res.Status != rlm.Failed && out.String() != "echo\n" {
			t.Errorf("stdout %q: the printer did not see every event before Run returned", out.String())
		}
	}
	ok, err := Deny{}.Approve(context.Background(), nil)
	if ok || !errors.Is(err, ErrHeadless) {
		t.Error("Deny approved")
	}
}

// TestRetryTextShortWait: a jittered wait that rounds to nothing says
// "retrying now", not "retrying in 0 s".
func TestRetryTextShortWait(t *testing.T) {
	for _, tc := range []struct {
		delay time.Duration
		want  string
	}{
		{0, "502 Bad Gateway: retrying now (1 of 4)"},
		{30 * time.Millisecond, "502 Bad Gateway: retrying now (1 of 4)"},
		{60 * time.Millisecond, "502 Bad Gateway: retrying in 0.1 s (1 of 4)"},
		{4 * time.Second, "502 Bad Gateway: retrying in 4 s (1 of 4)"},
	} {
		if got := RetryText(rlm.Retry{Attempt: 1, Max: 4, Delay: tc.delay, Reason: "502 Bad Gateway"}); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.delay, got, tc.want)
		}
	}
}
