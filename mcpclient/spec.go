// What a server is started from (Spec) and what the Set tells about it
// (ServerInfo, Tool), with the names agents see.

package mcpclient

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"harness/config"
)

// DefaultTimeout is how long one call may take when the Spec sets no
// Timeout ([mcp.servers.NAME] timeout_s).
const DefaultTimeout = 120 * time.Second

// Spec is one MCP server: a stdio server (Command), a Streamable HTTP
// server (URL), or, for tests and in-process servers, Dial.
type Spec struct {
	Name string // letters, digits, - and _

	Command string            // stdio: an absolute path, or a name looked up on the server's PATH
	Args    []string          // stdio
	Env     map[string]string // stdio: added to the environment it starts with

	URL     string            // Streamable HTTP
	Headers map[string]string // Streamable HTTP: sent with every request

	// Dial, when set, replaces Command and URL: it returns the transport of
	// a new connection (an mcp.InMemoryTransport in tests).
	Dial func(ctx context.Context) (mcp.Transport, error)

	Allow   []string      // tools that run without asking
	Timeout time.Duration // per call; 0 means DefaultTimeout

	// Expand replaces ${NAME} references in Command, Args, Env values, URL
	// and Headers values each time the server starts (config.Config.Expand);
	// nil keeps them as written.
	Expand func(string) (string, error)
}

// FromConfig returns the Specs of cfg's [mcp.servers.NAME] tables, whose
// ${NAME} references are expanded from the environment and .env.
func FromConfig(cfg *config.Config) []Spec {
	out := make([]Spec, 0, len(cfg.MCP))
	for _, s := range cfg.MCP {
		out = append(out, Spec{
			Name: s.Name, Command: s.Command, Args: s.Args, Env: s.Env,
			URL: s.URL, Headers: s.Headers, Allow: s.Allow, Timeout: s.Timeout,
			Expand: cfg.Expand,
		})
	}
	return out
}

func (s Spec) timeout() time.Duration {
	if s.Timeout > 0 {
		return s.Timeout
	}
	return DefaultTimeout
}

func (s Spec) allowed(tool string) bool {
	for _, a := range s.Allow {
		if a == tool {
			return true
		}
	}
	return false
}

// ServerInfo is one server as the Set knows it now.
type ServerInfo struct {
	Name  string
	Err   string // why it is not running ("" when it is)
	Log   string // its stderr log ($HARNESS_HOME/mcp/NAME.log); "" for HTTP servers
	Tools []Tool // while it is down with restarts left: the tools it had, whose next call starts it again
}

// Tool is one tool of a running server.
type Tool struct {
	Server      string
	Name        string          // the server's name for it
	Exposed     string          // the direct tool's name: mcp__<server>__<tool>
	Description string          // the server's description (its title when it gives none)
	InputSchema json.RawMessage // a JSON Schema object
	Allowed     bool            // on the server's allow list: runs without asking
	// Indirect is set on the tools past Options.MaxDirectTools (counted
	// over the servers in name order): they are not offered as direct
	// tools, only to REPL code.
	Indirect bool
}

// usableName reports whether a server's tool name can be offered: not
// empty, valid UTF-8, without whitespace or control characters.
func usableName(s string) bool {
	if s == "" || !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			return false
		}
	}
	return true
}

// maxToolName is the longest function name the chat endpoints accept.
const maxToolName = 64

// exposedName is the direct tool name of server's tool: mcp__<server>__<tool>
// with every character other than letters, digits, _ and - replaced by _,
// and a hash of the tool's real name in place of the end when the result
// would pass 64 characters (or collide, see tools).
func exposedName(server, tool string, hashed bool) string {
	name := "mcp__" + nameChars(server) + "__" + nameChars(tool)
	if len(name) <= maxToolName && !hashed {
		return name
	}
	sum := sha256.Sum256([]byte(server + "\x00" + tool))
	suffix := "_" + hex.EncodeToString(sum[:4])
	return name[:min(len(name), maxToolName-len(suffix))] + suffix
}

// nameChars replaces each character other than letters, digits, _ and -.
func nameChars(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// objectSchema returns a tool's input schema as JSON, or the schema of any
// object when the server's is not an object schema (endpoints refuse those).
func objectSchema(s any) json.RawMessage {
	b, err := json.Marshal(s)
	var m map[string]any
	if err != nil || json.Unmarshal(b, &m) != nil || m == nil {
		return json.RawMessage(`{"type":"object"}`)
	}
	if t, ok := m["type"]; !ok || t != "object" {
		m["type"] = "object"
		b, _ = json.Marshal(m)
	}
	return b
}
