// What the agents need from the rest of harness, as small interfaces.

package rlm

import (
	"context"
	"encoding/json"

	"harness/jail"
	"harness/llm"
	"harness/mcpclient"
	"harness/repl"
)

// Streamer sends one chat request and streams the reply (*llm.Client).
// On an error the Response still holds the partial message.
type Streamer interface {
	Stream(ctx context.Context, req llm.Request, onDelta func(llm.Delta)) (llm.Response, error)
}

// REPL is one subagent's interpreter (*repl.REPL).
type REPL interface {
	Exec(ctx context.Context, code string) string
	Close()
}

// failReporter is implemented by REPLs that say whether a call failed
// (ended in an error, was stopped, or lost the REPL's state).
type failReporter interface {
	Run(ctx context.Context, code string) (out string, failed bool)
}

// functionLister is implemented by REPLs that can name their REPL and
// helper functions (name → signature), for the "Unknown tool" pointer.
type functionLister interface {
	Functions() map[string]string
}

// Approver decides on a host operation a REPL asks about (repl.Approver).
// A non-nil error is a refusal whose text the model sees.
type Approver interface {
	Approve(ctx context.Context, operation json.RawMessage) (bool, error)
}

// AgentApprover is an Approver that is told which agent asks and from
// which tool call. When the front end's Approver implements it, rlm calls
// ApproveFor instead of Approve, so requests of agents running at once
// ([rlm] parallel) can queue at one prompt, each naming its agent.
type AgentApprover interface {
	ApproveFor(ctx context.Context, who Agent, call string, operation json.RawMessage) (bool, error)
}

// REPLEnv is what one subagent's REPL is built from.
type REPLEnv struct {
	Depth   int
	Library *jail.Root // non-nil at depth >= 2
	// Output receives printed text while a call runs.
	Output func(string)
	// Command is told each run() command as it starts; the function it
	// returns when it ends (repl.Options.OnCommand).
	Command func(argv []string) (ended func())
	// Approver wraps the front end's approver with approval events.
	Approver Approver
	// AskWrites is Options.AskWrites (repl.Options.AskWrites).
	AskWrites    bool
	Model        func() string
	PromptTokens func() (int, bool)
	// Session names the agent in failure notes: the rlm call ID.
	Session string
	// MCP gives the REPL mcp() and mcp_tools(): calls go through the same
	// approvals as the direct MCP tools. nil without MCP servers.
	MCP repl.MCP
	// Touched is told each repository path a call's code resolved
	// (repl.Options.OnTouch), for nested instruction files.
	Touched func(path string)
}

// MCP is the session's MCP servers (*mcpclient.Set). Subagents are
// offered each tool of a running server as a direct tool and reach them
// from REPL code; Servers waits, on its first call, for servers still
// starting.
type MCP interface {
	Servers(ctx context.Context) []mcpclient.ServerInfo
	Call(ctx context.Context, c mcpclient.Call) (mcpclient.Result, error)
}

// NewREPL builds a subagent's REPL (cmd wires repl.New).
type NewREPL func(env REPLEnv) (REPL, error)

// GrepArgs are the grep tool's arguments.
type GrepArgs struct {
	Pattern    string `json:"pattern"`
	Path       string `json:"path"`
	Fixed      bool   `json:"fixed"`
	IgnoreCase bool   `json:"ignore_case"`
	Context    int    `json:"context"`
	Include    string `json:"include"`
}

// ListArgs are the list tool's arguments.
type ListArgs struct {
	Path      string `json:"path"`
	Recursive bool   `json:"recursive"`
	Include   string `json:"include"`
}

// ReadFileArgs are the read_file tool's arguments.
type ReadFileArgs struct {
	Path      string `json:"path"`
	StartLine int    `json:"start_line"`
	EndLine   int    `json:"end_line"`
}

// FileTools runs the direct file tools on a root (the tools and patch
// packages). Each returns the result text, or an error whose message is
// exactly the result text the model gets. limit is [repl] output_limit.
type FileTools struct {
	ReadFile   func(ctx context.Context, root *jail.Root, args ReadFileArgs, limit int) (string, error)
	Grep       func(ctx context.Context, root *jail.Root, args GrepArgs, limit int) (string, error)
	List       func(ctx context.Context, root *jail.Root, args ListArgs, limit int) (string, error)
	ApplyPatch func(ctx context.Context, root *jail.Root, patch string, limit int) (string, error)
}
