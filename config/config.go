// Package config loads and validates harness's configuration: the TOML file
// $HARNESS_HOME/config.toml and the private $HARNESS_HOME/.env file.
//
// Every rule is strict: a missing required table or key, an unknown key at
// any depth, a wrong type or an invalid value is an error that names the
// file, the line (and column when known), the key and the fix. Values read
// from .env stay inside the process: they are never exported to os.Environ,
// so commands started by the REPL never inherit them.
package config

import (
	"fmt"
	"os"
	"path/filepath"
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
}

// Chat holds the [chat] table.
type Chat struct {
	Prompt *string // the system message; nil when not configured
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
	MaxDepth       int
	SubagentPrompt *string // nil when not set
	StorePath      string  // [rlm.store] path: absolute, existing directory
}

// Commands holds the [commands] table.
type Commands struct {
	Deny      []string
	EnvFilter []string
	Allow     map[string]string // name → absolute executable path
}

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
}

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
