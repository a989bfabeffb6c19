package approval

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestLine(t *testing.T) {
	for _, c := range []struct{ raw, line string }{
		{`{"operation":"run","executable":"/usr/local/go/bin/go","arguments":["test","./..."],"working_directory":"/repository","sandbox":"none"}`,
			"run  go test ./...  in /repository  (not sandboxed)"},
		{`{"operation":"run","executable":"/repository/scripts/check.sh","arguments":["a b","it's"],"working_directory":"/repository/sub","sandbox":"workspace"}`,
			`run  /repository/scripts/check.sh 'a b' 'it'\''s'  in /repository/sub  (` + SandboxWords("workspace") + `)`},
		{`{"operation":"working_directory","executable":"/bin/ls","arguments":[],"working_directory":"/repository/link","working_directory_resolves_to":"/elsewhere","sandbox":"none"}`,
			"run  ls  in /repository/link (resolves to /elsewhere, outside the repository)  (not sandboxed)"},
		{`{"operation":"mcp","server":"github","tool":"create_issue","arguments":{"title": "x"}}`,
			`call  github/create_issue  {"title":"x"}`},
		{string(WriteOp("apply_patch", "write", "repository", []string{"median.go", "notes.md"}, "read-only")),
			"write  median.go, notes.md  in /repository  (permission read-only)"},
		{string(WriteOp("repl", "remove", "repository", []string{"old.txt"}, "none")),
			"remove  old.txt  in /repository  (permission none)"},
		{`{"argv":["ls"]}`, `approve  {"argv":["ls"]}`},
		{`not json`, "approve  not json"},
	} {
		if got := Parse(json.RawMessage(c.raw)).Line(); got != c.line {
			t.Errorf("Line(%s)\n got %q\nwant %q", c.raw, got, c.line)
		}
	}
}

// TestSession: an allowance covers the same command with the same
// arguments in the same directory, or the same MCP call, and nothing else;
// a directory outside the repository and writes are never allowed so.
func TestSession(t *testing.T) {
	run := func(dir string, argv ...string) Op {
		raw, _ := json.Marshal(map[string]any{"operation": "run", "executable": "/usr/bin/" + argv[0], "arguments": argv[1:], "working_directory": dir})
		return Parse(raw)
	}
	var s Session
	if !s.Allow(run("/repository", "go", "test", "./...")) {
		t.Fatal("a run cannot be allowed")
	}
	s.Allow(run("/repository", "go", "test", "./...")) // twice: listed once
	for _, c := range []struct {
		op   Op
		want bool
	}{
		{run("/repository", "go", "test", "./..."), true},
		{run("/repository", "go", "test", "./median"), false},
		{run("/repository", "go", "test"), false},
		{run("/repository/sub", "go", "test", "./..."), false},
		{run("/repository", "gofmt", "test", "./..."), false},
	} {
		if got := s.Allowed(c.op); got != c.want {
			t.Errorf("Allowed(%s) = %v", c.op.Line(), got)
		}
	}
	mcp := func(args string) Op {
		return Parse(json.RawMessage(`{"operation":"mcp","server":"s","tool":"t","arguments":` + args + `}`))
	}
	s.Allow(mcp(`{"a": 1}`))
	if !s.Allowed(mcp(`{"a":1}`)) || s.Allowed(mcp(`{"a":2}`)) {
		t.Error("an MCP allowance is not the same call's")
	}
	out := Parse(json.RawMessage(`{"operation":"working_directory","executable":"/bin/ls","working_directory_resolves_to":"/x"}`))
	if s.Allow(out) || s.Allow(Parse(WriteOp("repl", "write", "repository", []string{"a"}, "none"))) {
		t.Error("allowed for the session what is asked each time")
	}
	if got := s.Lines(); len(got) != 2 || got[0] != "run  go test ./...  in /repository  (not sandboxed)" {
		t.Errorf("Lines = %q", got)
	}
}

func TestWriteRefusal(t *testing.T) {
	for _, c := range []struct {
		err       error
		cancelled bool
		want      string
	}{
		{nil, false, "the person refused the change at permission read-only; do not try it again"},
		{&Refusal{Note: "only tests"}, false, "the person refused the change at permission read-only and wrote: only tests"},
		{errors.New("no one is at the terminal"), false, "could not be put to the person (no one is at the terminal)"},
		{errors.New("context canceled"), true, "cancelled: the call was stopped"},
	} {
		if got := WriteRefusal(c.err, c.cancelled, "read-only"); !strings.Contains(got, c.want) {
			t.Errorf("WriteRefusal(%v, %v) = %q", c.err, c.cancelled, got)
		}
	}
}
