// Package approval reads the operations harness asks a person to approve
// and says them in words: a host command (repl's "run", and
// "working_directory" for a directory that resolves outside the
// repository), an MCP call ("mcp", mcpclient's), and a write the
// permission level refuses ("write", which the UI puts to the person
// instead of refusing it). The operations are JSON objects, the
// interface between the packages that ask (repl, mcpclient, rlm) and the
// front ends that answer (ui, acp, headless).
//
// It also holds what a person allowed for the rest of a session (Session:
// the same command with the same arguments, or the same MCP call, never
// written to config.toml) and the refusal that carries a note for the
// model (Refusal). It imports nothing of harness.
//
// # Operations
//
//	{"operation":"run", "executable":"/usr/bin/go", "arguments":["test","./..."],
//	 "working_directory":"/repository", "sandbox":"none"}
//	{"operation":"working_directory", ... "working_directory_resolves_to":"/elsewhere"}
//	{"operation":"mcp", "server":"github", "tool":"create_issue", "arguments":{...}}
//	{"operation":"write", "tool":"apply_patch", "action":"write", "root":"repository",
//	 "paths":["main.go"], "permission":"read-only"}
package approval

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strings"
	"sync"

	"harness/sandbox"
)

// Kinds of operation.
const (
	Run     = "run"
	WorkDir = "working_directory"
	MCP     = "mcp"
	Write   = "write"
)

// Op is an operation as read from its JSON. Fields an operation does not
// have are empty.
type Op struct {
	Kind       string          `json:"operation"`
	Executable string          `json:"executable,omitempty"`
	Arguments  json.RawMessage `json:"arguments,omitempty"` // run: the argv after the name; mcp: the call's object
	Dir        string          `json:"working_directory,omitempty"`
	ResolvesTo string          `json:"working_directory_resolves_to,omitempty"`
	Sandbox    string          `json:"sandbox,omitempty"`
	Server     string          `json:"server,omitempty"`
	Tool       string          `json:"tool,omitempty"` // mcp: the server's tool; write: apply_patch or repl
	Action     string          `json:"action,omitempty"`
	Root       string          `json:"root,omitempty"`
	Paths      []string        `json:"paths,omitempty"`
	Permission string          `json:"permission,omitempty"`

	Argv []string        `json:"-"` // run's Arguments
	Raw  json.RawMessage `json:"-"` // the JSON as given
	Bad  bool            `json:"-"` // not an operation this package knows
}

// Parse reads an operation; one it cannot read is Bad, with Raw kept.
func Parse(raw json.RawMessage) Op {
	var op Op
	op.Bad = json.Unmarshal(raw, &op) != nil
	if op.Kind != MCP && op.Arguments != nil && json.Unmarshal(op.Arguments, &op.Argv) != nil {
		op.Bad = true
	}
	switch op.Kind {
	case Run, WorkDir, MCP, Write:
	default:
		op.Bad = true
	}
	op.Raw = raw
	return op
}

// WriteOp is the operation of a write that permission level refuses:
// tool (apply_patch, repl) wants to do action (write, remove, rename,
// mkdir, …) to paths of root.
func WriteOp(tool, action, root string, paths []string, level string) json.RawMessage {
	raw, _ := json.Marshal(Op{Kind: Write, Tool: tool, Action: action, Root: root, Paths: paths, Permission: level})
	return raw
}

// Name is how a line names the command: the executable's base name for
// one found on PATH, the virtual path for one in the repository.
func (op Op) Name() string {
	if strings.HasPrefix(op.Executable, "/repository/") {
		return op.Executable
	}
	return path.Base(op.Executable)
}

// CommandLine is the command as a shell would take it: its name and its
// arguments, quoted where they need it.
func (op Op) CommandLine() string { return ShellLine(append([]string{op.Name()}, op.Argv...)) }

// ShellLine writes argv as a shell would take it, quoting what needs it.
func ShellLine(argv []string) string {
	out := make([]string, len(argv))
	for i, a := range argv {
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\$`*?[]{}()<>|&;#~") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		out[i] = a
	}
	return strings.Join(out, " ")
}

// SandboxWords says how a command is confined, as the line shows it.
func SandboxWords(mode string) string {
	switch mode {
	case "workspace":
		if sandbox.MetadataProtected() {
			return "sandboxed: writes only in the workspace"
		}
		return "sandboxed: writes only in the workspace, except file metadata (chmod, times, xattrs)"
	case "none", "":
		return "not sandboxed"
	}
	return "sandbox " + mode
}

// Line says the operation in one line of words, the fields apart by two
// spaces: "run  go test ./...  in /repository  (not sandboxed)".
func (op Op) Line() string {
	if op.Bad {
		return "approve  " + compact(op.Raw)
	}
	switch op.Kind {
	case Run, WorkDir:
		s := "run  " + op.CommandLine() + "  in " + orDash(op.Dir)
		if op.ResolvesTo != "" {
			s += " (resolves to " + op.ResolvesTo + ", outside the repository)"
		}
		return s + "  (" + SandboxWords(op.Sandbox) + ")"
	case MCP:
		return "call  " + op.Server + "/" + op.Tool + "  " + cut(compact(op.Arguments), 200)
	}
	action := op.Action
	if action == "" || action == "open" {
		action = Write
	}
	root := op.Root
	if root == "" {
		root = "repository"
	}
	return action + "  " + strings.Join(op.Paths, ", ") + "  in /" + root + "  (permission " + op.Permission + ")"
}

// Key is what the session's allowance of op is kept under: the same
// command with the same arguments in the same directory, or the same MCP
// call; "" for operations never allowed for a session (a directory
// outside the repository, a write, one not understood).
func (op Op) Key() string {
	switch {
	case op.Bad:
		return ""
	case op.Kind == Run && op.ResolvesTo == "" && op.Executable != "":
		return strings.Join(append([]string{Run, op.Executable, op.Dir}, op.Argv...), "\x00")
	case op.Kind == MCP && op.Server != "" && op.Tool != "":
		return strings.Join([]string{MCP, op.Server, op.Tool, compact(op.Arguments)}, "\x00")
	}
	return ""
}

// Subject names what an allowance for the session covers: "go test ./...".
func (op Op) Subject() string {
	if op.Kind == MCP {
		return op.Server + "/" + op.Tool + " " + cut(compact(op.Arguments), 80)
	}
	return op.CommandLine()
}

func orDash(s string) string {
	if s == "" {
		return "/repository"
	}
	return s
}

func compact(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "{}"
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// cut shortens s to at most n bytes on a character boundary, ending a cut
// with "…".
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// Pretty is the operation's JSON, indented.
func (op Op) Pretty() string {
	var b bytes.Buffer
	if json.Indent(&b, op.Raw, "", "  ") != nil {
		return string(op.Raw)
	}
	return b.String()
}

// Session is what a person allowed for the rest of one session, in
// memory only. It is safe for concurrent use; the zero value is empty.
type Session struct {
	mu    sync.Mutex
	keys  map[string]bool
	lines []string // the allowed operations' lines, in the order allowed
}

// Allow allows op for the rest of the session; it reports false for an
// operation that cannot be allowed so (Key is "").
func (s *Session) Allow(op Op) bool {
	k := op.Key()
	if k == "" {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.keys == nil {
		s.keys = map[string]bool{}
	}
	if !s.keys[k] {
		s.keys[k] = true
		s.lines = append(s.lines, op.Line())
	}
	return true
}

// Allowed reports whether op was allowed for the session.
func (s *Session) Allowed(op Op) bool {
	k := op.Key()
	if k == "" {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.keys[k]
}

// Lines returns the lines of the operations allowed, in the order allowed.
func (s *Session) Lines() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.lines...)
}

// Refusal is a person's refusal with a note for the model: an Approver
// returns it as its error, and the refused operation's result says the
// note.
type Refusal struct{ Note string }

func (r *Refusal) Error() string { return "refused with the note: " + r.Note }

// WriteRefusal is the reason a write the level refused, and the person
// was asked about, did not happen, as the model reads it: err is the
// Approver's error (a *Refusal carries the person's note), cancelled says
// the call was stopped first.
func WriteRefusal(err error, cancelled bool, level string) string {
	var r *Refusal
	switch {
	case cancelled:
		return "cancelled: the call was stopped (Esc) while the person was asked about the change"
	case errors.As(err, &r):
		return fmt.Sprintf("the person refused the change at permission %s and wrote: %s", level, r.Note)
	case err != nil:
		return fmt.Sprintf("the repository is not writable at permission %s and the change could not be put to the person (%v)", level, err)
	}
	return fmt.Sprintf("the person refused the change at permission %s; do not try it again another way: work without changing the repository, or say in your answer what you would change and why", level)
}
