// The JSON bodies of the frames, and helpers to send and decode them.

package wire

import (
	"encoding/json"
	"fmt"
)

// HelloBody is the worker's first frame.
type HelloBody struct {
	Version int `json:"version"`
	PID     int `json:"pid"`
}

// BindBody configures a worker's REPL. Mounts names the directories, one
// file of the Bind frame each, in order ("repository", "store",
// "library"); the worker never learns their host paths.
type BindBody struct {
	Depth       int      `json:"depth"`
	Mounts      []string `json:"mounts"`
	Level       int      `json:"level"` // the repository's permission level now
	OutputLimit int      `json:"output_limit"`
	MaxMemoryMB int      `json:"max_memory_mb"`
	// CeilingMB is the hard limit of the worker's data segment
	// (RLIMIT_DATA), MaxMemoryMB plus the runtime allowance; 0 is none.
	CeilingMB int    `json:"ceiling_mb"`
	Session   string `json:"session"`
	// The [commands] settings help() describes (run() itself runs in the
	// parent): allow names (not paths), deny, sandbox, writable, network.
	Allow    []string `json:"allow"`
	Deny     []string `json:"deny"`
	Sandbox  string   `json:"sandbox"`
	Writable []string `json:"writable,omitempty"`
	Network  bool     `json:"network"`
	// ReadOnlyMounts: the parent's sandboxed commands run with everything
	// outside their writable folders read-only (sandbox.MetadataProtected,
	// which a worker cannot find out itself), for help().
	ReadOnlyMounts bool `json:"read_only_mounts,omitempty"`
	// MCP says the parent has MCP servers: the worker then offers mcp()
	// and mcp_tools(), each a host call.
	MCP bool `json:"mcp,omitempty"`
	// AskWrites says a write the permission level refuses is put to the
	// parent first (the write_ask host call), which may let it through.
	AskWrites bool `json:"ask_writes,omitempty"`
	// Siblings says other subagents may run at once ([rlm] parallel),
	// which help()'s Files section mentions for /store.
	Siblings bool `json:"siblings,omitempty"`
	// HelperLoadMS bounds the time one helper file may take to load.
	HelperLoadMS int `json:"helper_load_ms"`
	// TestHooks asks a test binary's worker to predeclare its test-only
	// functions; a harness binary has none.
	TestHooks bool `json:"test_hooks,omitempty"`
}

// ReadyBody answers Bind.
type ReadyBody struct {
	Functions  map[string]string `json:"functions"`
	LoadErrors []string          `json:"load_errors"`
	Protection string            `json:"protection"` // help()'s line about the protection in force
	Landlock   int               `json:"landlock"`   // the ABI the worker restricted itself with; 0 none
	Error      string            `json:"error,omitempty"`
}

// ExecBody runs code, or with Op one of the REPL's control operations
// (harness repl's: "names", "reload", "helpers"), whose Result text is
// their JSON answer.
type ExecBody struct {
	Code  string `json:"code"`
	Op    string `json:"op,omitempty"`
	Level int    `json:"level"`
}

// CallBody asks the parent for a host service.
type CallBody struct {
	Service string          `json:"service"`
	Request json.RawMessage `json:"request"`
}

// ReplyBody answers a Call. Notes are failure notes the service recorded
// for the running call, in order. Level is the repository's permission
// level once every frame sent before the Call has been handled.
type ReplyBody struct {
	Result json.RawMessage   `json:"result,omitempty"`
	Error  string            `json:"error,omitempty"`
	Notes  []json.RawMessage `json:"notes,omitempty"`
	Level  int               `json:"level"`
}

// StoppingBody says why the worker stopped a call itself.
type StoppingBody struct {
	Reason string `json:"reason"`
}

// ResultBody ends a call. When Reset is set the worker discarded the
// REPL's state and loaded the helpers again; Functions and LoadErrors
// describe the new interpreter.
type ResultBody struct {
	Text       string            `json:"text"`
	Failed     bool              `json:"failed"`
	Reset      bool              `json:"reset,omitempty"`
	Functions  map[string]string `json:"functions,omitempty"`
	LoadErrors []string          `json:"load_errors,omitempty"`
	// Touched are the repository paths the call's code resolved, each
	// once, in order (repl.Options.OnTouch).
	Touched []string `json:"touched,omitempty"`
}

// LevelBody is a new permission level.
type LevelBody struct {
	Level int `json:"level"`
}

// Make returns a frame whose body is v encoded as JSON (or, for a string
// or []byte, the bytes themselves).
func Make(t Type, id uint64, v any) Frame {
	var body []byte
	switch v := v.(type) {
	case nil:
	case string:
		body = []byte(v)
	case []byte:
		body = v
	default:
		b, err := json.Marshal(v)
		if err != nil {
			panic(fmt.Sprintf("wire: encode %s body: %v", t, err)) // bodies are plain structs
		}
		body = b
	}
	return Frame{Type: t, ID: id, Body: body}
}

// Unmarshal decodes f's JSON body into v, naming the frame in the error.
func (f Frame) Unmarshal(v any) error {
	if len(f.Body) == 0 {
		return nil
	}
	if err := json.Unmarshal(f.Body, v); err != nil {
		return fmt.Errorf("%w: %s body: %v", ErrFormat, f.Type, err)
	}
	return nil
}
