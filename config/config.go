// Package config loads and validates harness's configuration: the TOML file
// $HARNESS_HOME/config.toml and the private $HARNESS_HOME/.env file.
//
// Every rule is strict: a missing required table or key, an unknown key at
// any depth, a wrong type or an invalid value is an error that names the
// file, the line (and column when known), the key and the fix. Values read
// from .env stay inside the process: they are never exported to os.Environ,
// so commands started by the REPL never inherit them.
//
// # Entry points
//
//	Load(home, launchDir)    read and validate home/config.toml and home/.env
//	Setup(home, opts)        write a starter home/config.toml (harness setup)
//	SavePermission(path, p)  store a new [repl] permission, changing nothing else
//	Example                  the text of config.toml.example
//
// # The file
//
// Tables and keys (all required unless marked optional):
//
//	[endpoint]                      base_url (http or https URL), model, api_key_env (optional),
//	                                max_retries (optional, integer ≥ 0, default 4),
//	                                idle_timeout_s (optional, seconds ≥ 0, default 300, 0 disables),
//	                                context_window (optional, tokens ≥ 256; absent: asked of the server)
//	[endpoint.parameters]           optional; any keys, sent as top-level request fields
//	[chat]                          prompt (optional); compact_at (optional, 0.1–1, default 0.8),
//	                                compaction (optional: "summary" (default), "hide", "off"),
//	                                instruction_files (optional array of bare file names, default
//	                                ["AGENTS.md"]), instructions_max_bytes (optional, ≥ 1, default
//	                                32768); the table itself is required
//	[repl]                          tool_description, permission, max_memory_mb ≥ 1, output_limit ≥ 1
//	[rlm]                           max_depth ≥ 1, subagent_prompt (optional),
//	                                parallel (optional, integer from 1 to 64, default 1)
//	[rlm.store]                     path: absolute path of an existing directory
//	[commands]                      deny, env_filter: arrays of strings; sandbox ("none" or
//	                                "workspace", optional, default "none"), writable (optional
//	                                array of absolute existing directories), network (optional
//	                                boolean, default true)
//	[commands.allow]                name = absolute executable path; may be empty
//	[theme]                         15 colours, each "#RRGGBB" (see Theme), and
//	                                optional diff_remove, diff_add
//	[approval_description]          optional: enabled, prompt containing ${command}
//	[approval_description.endpoint] base_url, model, api_key_env, max_retries, idle_timeout_s,
//	                                context_window (optional, as in [endpoint]), parameters (optional)
//	[mcp]                           max_direct_tools (optional, integer ≥ 0, default 128)
//	[mcp.servers.NAME]              optional, any number: command (+ args, env) or url (+ headers);
//	                                allow, timeout_s ≥ 1 (optional). NAME: letters, digits, - and _
//
// Parameters may hold strings, numbers, booleans, arrays and tables, at any
// depth, but not the reserved names model, messages, tools, stream,
// stream_options and n, not nan or inf, and not TOML dates or times (JSON
// has no such values). [approval_description] needs enabled; when it is true
// the prompt and endpoint are required, and when it is false the rest of the
// table is ignored (unknown keys are still errors). Absent or disabled, the
// Config's ApprovalDescription is nil.
//
// An MCP server has exactly one of command (a stdio server: an absolute
// path or a bare name looked up on PATH) and url (http or https); args and
// env only go with command, headers only with url. Command, args, env
// values, url and header values may refer to variables as ${NAME}; the
// references are checked here and replaced when the server starts
// (Config.Expand), so a secret can stay in .env.
//
// The store must not lie inside the launch directory or contain it, and must
// neither contain nor lie inside $HARNESS_HOME/sessions; the launch
// directory must not contain the sessions folder either. Paths are compared
// after resolving symlinks.
//
// # Errors
//
// Load reports every problem it finds, in line order, as an *Error (one
// problem) or Errors (several); each reads
//
//	FILE:LINE:COL: KEY: what is wrong; what to do
//
// Syntax errors carry the decoder's position; other errors are positioned
// by scanning the text for the key. Messages never repeat values that may be
// secrets (api_key_env values, .env lines).
//
// # .env
//
// NAME=value lines, # comments, blank lines, an optional "export " prefix,
// and single quotes (literal) or double quotes (with \n \t \" \\ \$ escapes).
// Values never span lines; a later line for a name replaces an earlier one.
// A variable set in the process environment wins over .env; Lookup and
// APIKey apply that order.
package config

import (
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Permission is the repository filesystem access level.
type Permission int

const (
	PermNone      Permission = iota // reads and writes are denied
	PermReadOnly                    // reads are allowed, writes denied
	PermReadWrite                   // reads and writes are allowed
)

// String returns the configuration spelling: none, read-only or read-write.
func (p Permission) String() string {
	switch p {
	case PermReadOnly:
		return "read-only"
	case PermReadWrite:
		return "read-write"
	default:
		return "none"
	}
}

// Next returns the level after p in the cycle none → read-only → read-write → none.
func (p Permission) Next() Permission { return (p + 1) % 3 }

// CanRead reports whether p allows reading the repository.
func (p Permission) CanRead() bool { return p >= PermReadOnly }

// CanWrite reports whether p allows writing the repository.
func (p Permission) CanWrite() bool { return p == PermReadWrite }

// ParsePermission parses none, read-only or read-write.
func ParsePermission(s string) (Permission, bool) {
	switch s {
	case "none":
		return PermNone, true
	case "read-only":
		return PermReadOnly, true
	case "read-write":
		return PermReadWrite, true
	}
	return PermNone, false
}

// Config is a loaded, validated configuration.
type Config struct {
	// Path is the config file this was loaded from; Home is $HARNESS_HOME.
	Path string
	Home string

	Endpoint            Endpoint
	Chat                Chat
	REPL                REPL
	RLM                 RLM
	Commands            Commands
	Theme               Theme
	ApprovalDescription *ApprovalDescription // nil when absent or disabled
	MCP                 []MCPServer          // [mcp.servers.NAME], sorted by name; see mcp.go
	MCPMaxDirectTools   int                  // [mcp] max_direct_tools (DefaultMaxDirectTools when absent)

	// dotenv holds the values of $HARNESS_HOME/.env; see Lookup.
	dotenv map[string]string
}

// Endpoint is an OpenAI-compatible chat-completions endpoint.
type Endpoint struct {
	BaseURL   string
	Model     string
	APIKeyEnv string // "" when the endpoint needs no key
	// Parameters are sent as top-level request fields. Values are the
	// decoded TOML: string, int64, float64, bool, []any, map[string]any.
	Parameters map[string]any
	// MaxRetries is how often a failed request is sent again
	// (DefaultMaxRetries unless configured). An Endpoint built by hand
	// (tests) has 0: no retries.
	MaxRetries int
	// IdleTimeout ends an attempt when it made no progress (no content,
	// reasoning or tool-call text) for that long (DefaultIdleTimeout
	// unless configured); 0 disables it.
	IdleTimeout time.Duration
	// ContextWindow is the model's context window in tokens from
	// context_window; 0 when not configured (then the server is asked).
	ContextWindow int
}

// Defaults of the optional endpoint keys max_retries and idle_timeout_s.
const (
	DefaultMaxRetries  = 4
	DefaultIdleTimeout = 300 * time.Second
)

// Chat holds the [chat] table.
type Chat struct {
	Prompt *string // the system message; nil when not configured
	// InstructionFiles are the names of the instruction files looked for
	// in each directory, the first found used there (default
	// ["AGENTS.md"]; empty reads none). A Config built by hand has nil.
	InstructionFiles []string
	// InstructionsMaxBytes caps the instruction-file text an agent is
	// given at its start (DefaultInstructionsMaxBytes unless configured).
	InstructionsMaxBytes int
	// CompactAt is the share of the context window a request may fill
	// before the oldest turns are compacted (DefaultCompactAt unless
	// configured; 0 in a Config built by hand means the default).
	CompactAt float64
	// Compaction is CompactionSummary, CompactionHide or CompactionOff
	// ("" in a Config built by hand means CompactionSummary).
	Compaction string
}

// REPL holds the [repl] table.
type REPL struct {
	ToolDescription string
	Permission      Permission
	MaxMemoryMB     int
	OutputLimit     int
}

// RLM holds the [rlm] table.
type RLM struct {
	MaxDepth int
	// Parallel is how many subagents may run at once in the whole tree
	// (default 1: the rlm calls of one response run one after another).
	Parallel       int
	SubagentPrompt *string // nil when not set
	StorePath      string  // [rlm.store] path: absolute, existing directory
}

// Commands holds the [commands] table.
type Commands struct {
	Deny      []string
	EnvFilter []string
	Allow     map[string]string // name → absolute executable path
	// Sandbox is SandboxNone (the default) or SandboxWorkspace: every
	// run() command is then confined by Landlock to writing in the
	// repository, the store, the system temp folder and Writable.
	Sandbox  string
	Writable []string // absolute, existing directories; optional
	Network  bool     // confined commands may use TCP; default true
}

// The values of [commands] sandbox.
const (
	SandboxNone      = "none"
	SandboxWorkspace = "workspace"
)

// Theme holds the [theme] colours, each "#RRGGBB".
type Theme struct {
	System               string
	User                 string
	Assistant            string
	Reasoning            string
	ToolCall             string
	ToolResult           string
	Approval             string
	Warning              string
	Error                string
	Status               string
	Input                string
	ContextTurn          string
	ContextTokens        string
	ContextRole          string
	ContextMessageTokens string
	// Optional keys: absent, they take the Default values.
	DiffRemove string // removed lines of a patch diff
	DiffAdd    string // added lines of a patch diff
}

// Defaults of the optional [theme] keys: a red and a green that read on
// dark and light backgrounds alike.
const (
	DefaultDiffRemove = "#d75f5f"
	DefaultDiffAdd    = "#5faf5f"
)

// ApprovalDescription holds an enabled [approval_description] table.
type ApprovalDescription struct {
	Prompt   string // contains ${command}
	Endpoint Endpoint
}

// Home returns $HARNESS_HOME, or ~/.harness when it is unset or empty.
func Home() (string, error) {
	if h := os.Getenv("HARNESS_HOME"); h != "" {
		return filepath.Abs(h)
	}
	u, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("find home directory: %w (set HARNESS_HOME)", err)
	}
	return filepath.Join(u, ".harness"), nil
}

// SessionsDir returns $HARNESS_HOME/sessions.
func (c *Config) SessionsDir() string { return filepath.Join(c.Home, "sessions") }

// ReplibDir returns $HARNESS_HOME/replib.
func (c *Config) ReplibDir() string { return filepath.Join(c.Home, "replib") }

// Lookup returns the value of an environment variable, looking first at the
// process environment and then at $HARNESS_HOME/.env. Values from .env are
// never exported to child processes.
func (c *Config) Lookup(name string) (string, bool) {
	if v, ok := os.LookupEnv(name); ok {
		return v, true
	}
	v, ok := c.dotenv[name]
	return v, ok
}

// DotenvPath returns $HARNESS_HOME/.env, where API keys are looked up after
// the environment.
func (c *Config) DotenvPath() string { return filepath.Join(c.Home, ".env") }

// KeySource says where e's API key was found: "the environment", the .env
// path, or "" when e needs no key or the variable is in neither (or empty).
func (c *Config) KeySource(e Endpoint) string {
	if e.APIKeyEnv == "" {
		return ""
	}
	if v, ok := os.LookupEnv(e.APIKeyEnv); ok {
		if v == "" {
			return ""
		}
		return "the environment"
	}
	if c.dotenv[e.APIKeyEnv] != "" {
		return c.DotenvPath()
	}
	return ""
}

// APIKey returns the key for e, or "" when e needs none or the variable is
// unset or empty.
func (c *Config) APIKey(e Endpoint) string {
	if e.APIKeyEnv == "" {
		return ""
	}
	v, _ := c.Lookup(e.APIKeyEnv)
	return v
}

// Secrets returns every non-empty API key value the configuration refers to,
// so that callers can make sure none is ever written anywhere.
func (c *Config) Secrets() []string {
	var out []string
	for _, e := range []Endpoint{c.Endpoint} {
		if k := c.APIKey(e); k != "" {
			out = append(out, k)
		}
	}
	if c.ApprovalDescription != nil {
		if k := c.APIKey(c.ApprovalDescription.Endpoint); k != "" {
			out = append(out, k)
		}
	}
	return out
}
