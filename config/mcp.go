// The optional [mcp.servers.NAME] tables: MCP servers offered to subagents.

package config

import (
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// MCPServer is one [mcp.servers.NAME] table: a stdio server (Command) or a
// Streamable HTTP server (URL), never both. Command, Args, Env values, URL
// and Headers values may hold ${NAME} references, kept as written here and
// replaced by Expand when the server starts.
type MCPServer struct {
	Name    string
	Command string            // stdio: an absolute path or a name looked up on PATH
	Args    []string          // stdio
	Env     map[string]string // stdio: added to the server's environment
	URL     string            // Streamable HTTP: http:// or https://
	Headers map[string]string // Streamable HTTP: sent with every request
	Allow   []string          // tools that run without asking
	Timeout time.Duration     // per call; 0 when timeout_s is not set
}

// mcpKeys are the keys of a [mcp.servers.NAME] table, in documentation order.
var mcpKeys = []string{"command", "args", "env", "url", "headers", "allow", "timeout_s"}

// The [mcp] tables join the schema here, so this file holds all of them.
// [mcp.servers] is open to the schema: its server tables are checked by
// mcpServer, which reports unknown keys inside them itself.
func init() {
	schema["mcp"] = table
	schema["mcp.servers"] = open
	schema["mcp.max_direct_tools"] = leaf
}

// DefaultMaxDirectTools is [mcp] max_direct_tools when absent: the most
// MCP tools offered as direct tools, across all servers (OpenAI refuses
// more than 128 tools in a request).
const DefaultMaxDirectTools = 128

// maxDirectTools reads the optional [mcp] max_direct_tools: an integer
// of at least 0 (0 offers MCP tools through the REPL alone).
func (c *checker) maxDirectTools(t map[string]any) int {
	return c.optionalInt(t, "max_direct_tools", intKey{path: "mcp.max_direct_tools", def: DefaultMaxDirectTools, min: 0, max: 100000,
		hint: "the most MCP tools offered as direct tools, across all servers; the rest stay reachable through mcp() in the REPL"})
}

// mcp validates the [mcp] table and returns its servers sorted by name.
func (c *checker) mcp(t map[string]any) []MCPServer {
	servers, ok := c.table(t, "mcp", "servers", false)
	if !ok {
		return nil
	}
	names := make([]string, 0, len(servers))
	for name := range servers {
		names = append(names, name)
	}
	sort.Strings(names)
	var out []MCPServer
	for _, name := range names {
		key := toml.Key{"mcp", "servers", name}.String()
		if !plainName(name) {
			c.keyErr(key, "%q is not a server name; use letters, digits, - and _ only (agents see its tools as mcp__<name>__<tool>)", name)
			continue
		}
		st, ok := servers[name].(map[string]any)
		if !ok {
			c.valueErr(key, "must be a table, not %s; write it as a [%s] section with command or url", typeName(servers[name]), key)
			continue
		}
		if s, ok := c.mcpServer(st, key, name); ok {
			out = append(out, s)
		}
	}
	return out
}

// plainName reports whether s is a name of letters, digits, - and _ only,
// as server names and header names must be.
func plainName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// mcpServer validates one server table at tbl; ok when it is usable.
func (c *checker) mcpServer(t map[string]any, tbl, name string) (MCPServer, bool) {
	before := len(c.errs)
	s := MCPServer{Name: name}
	c.mcpUnknown(t, tbl)
	_, hasCmd := t["command"]
	_, hasURL := t["url"]
	switch {
	case hasCmd && hasURL:
		c.keyErr(tbl+".url", "a server has either command (a stdio server) or url (a Streamable HTTP server), not both; remove one")
	case !hasCmd && !hasURL:
		c.missing(tbl, "command", "add command = \"/path/to/server\" (with args) for a stdio server, or url = \"https://host/mcp\" for a Streamable HTTP server")
	case hasCmd:
		s.Command = c.mcpCommand(t, tbl)
		s.Args = c.mcpStrings(t, tbl, "args")
		s.Env = c.mcpTable(t, tbl, "env", validEnvName, "is not an environment variable name; use letters, digits and underscores, not starting with a digit")
		c.onlyFor(t, tbl, "headers", "url")
	default:
		s.URL = c.mcpURL(t, tbl)
		s.Headers = c.mcpTable(t, tbl, "headers", plainName, "is not an HTTP header name; use letters, digits and -")
		c.onlyFor(t, tbl, "args", "command")
		c.onlyFor(t, tbl, "env", "command")
	}
	s.Allow = c.mcpStrings(t, tbl, "allow")
	for _, tool := range s.Allow {
		if tool == "" {
			c.valueErr(tbl+".allow", "holds an empty tool name; list the server's tool names, as `harness doctor` prints them")
		}
	}
	if _, ok := t["timeout_s"]; ok {
		s.Timeout = time.Duration(c.positive(t, tbl, "timeout_s", "the seconds one call may take before it is cancelled, for example 120")) * time.Second
	}
	return s, len(c.errs) == before
}

// mcpUnknown reports keys a server table does not know, in file order.
func (c *checker) mcpUnknown(t map[string]any, tbl string) {
	var unknown []string
	for k := range t {
		known := false
		for _, m := range mcpKeys {
			known = known || k == m
		}
		if !known {
			unknown = append(unknown, k)
		}
	}
	sort.Slice(unknown, func(i, j int) bool {
		return c.offset(tbl+"."+toml.Key{unknown[i]}.String()) < c.offset(tbl+"."+toml.Key{unknown[j]}.String())
	})
	for _, k := range unknown {
		hint := fmt.Sprintf("remove it or fix its name (known in [%s]: %s)", tbl, strings.Join(mcpKeys, ", "))
		for _, m := range mcpKeys {
			if strings.EqualFold(m, k) || editDistance(m, k) <= 2 {
				hint = fmt.Sprintf("did you mean %q? %s", m, hint)
				break
			}
		}
		c.keyErr(tbl+"."+toml.Key{k}.String(), "unknown key; %s", hint)
	}
}

// offset is where key starts in the text (for ordering), or the end.
func (c *checker) offset(key string) int {
	if sp, ok := c.loc.find(key); ok {
		return sp.KeyStart
	}
	return math.MaxInt
}

// onlyFor reports name, which only a server with other may have.
func (c *checker) onlyFor(t map[string]any, tbl, name, other string) {
	if _, ok := t[name]; !ok {
		return
	}
	kind := map[string]string{"command": "stdio servers (command)", "url": "Streamable HTTP servers (url)"}[other]
	c.keyErr(tbl+"."+name, "%s is only for %s; remove it", name, kind)
}

func (c *checker) mcpCommand(t map[string]any, tbl string) string {
	key := tbl + ".command"
	v, ok := t["command"].(string)
	if !ok {
		c.valueErr(key, "must be a string, not %s; write the server's executable in double quotes", typeName(t["command"]))
		return ""
	}
	if strings.TrimSpace(v) == "" {
		c.valueErr(key, "is empty; write the server's executable: an absolute path, or a name on PATH such as \"npx\"")
		return v
	}
	if c.expandable(key, v) && !strings.Contains(v, "${") && strings.Contains(v, "/") && !filepath.IsAbs(v) {
		c.valueErr(key, "%q is a relative path; give an absolute path, or a bare name looked up on PATH", v)
	}
	return v
}

func (c *checker) mcpURL(t map[string]any, tbl string) string {
	key := tbl + ".url"
	v, ok := t["url"].(string)
	if !ok {
		c.valueErr(key, "must be a string, not %s; write the server's URL in double quotes", typeName(t["url"]))
		return ""
	}
	if !c.expandable(key, v) {
		return v
	}
	good := strings.HasPrefix(v, "${") || strings.HasPrefix(v, "http://") || strings.HasPrefix(v, "https://")
	if !strings.Contains(v, "${") { // with a variable, only the scheme can be checked now
		u, err := url.Parse(v)
		good = err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
	}
	if !good {
		c.valueErr(key, "%q is not an http:// or https:// URL; write the server's Streamable HTTP endpoint, for example \"https://host/mcp\"", v)
	}
	return v
}

// mcpStrings returns the optional array of strings name.
func (c *checker) mcpStrings(t map[string]any, tbl, name string) []string {
	if _, ok := t[name]; !ok {
		return nil
	}
	out := c.strList(t, tbl, name)
	if name == "args" {
		for _, a := range out {
			c.expandable(tbl+".args", a)
		}
	}
	return out
}

// mcpTable returns the optional table of strings name (env, headers),
// checking each key with valid.
func (c *checker) mcpTable(t map[string]any, tbl, name string, valid func(string) bool, invalid string) map[string]string {
	m, ok := c.table(t, tbl, name, false)
	if !ok {
		return nil
	}
	out := map[string]string{}
	for k, v := range m {
		key := tbl + "." + name + "." + toml.Key{k}.String()
		s, isStr := v.(string)
		switch {
		case !valid(k):
			c.keyErr(key, "%q %s", k, invalid)
		case !isStr:
			c.valueErr(key, "must be a string, not %s; put the value in double quotes (a secret: \"${NAME}\" reads it from the environment or .env)", typeName(v))
		case c.expandable(key, s):
			out[k] = s
		}
	}
	return out
}

// expandable checks the ${NAME} references in s, reporting a malformed one
// at key; it reports whether s is well formed. Values are never echoed:
// they may hold secrets.
func (c *checker) expandable(key, s string) bool {
	if _, err := expand(s, func(string) (string, bool) { return "", true }); err != nil {
		c.valueErr(key, "%v", err)
		return false
	}
	return true
}

// Expand replaces each ${NAME} in s with the variable's value from the
// process environment or, failing that, .env (see Lookup). A variable that
// is set in neither is an error naming it. A "$" not followed by "{" is
// kept as it is.
func (c *Config) Expand(s string) (string, error) {
	return expand(s, c.Lookup)
}

// expand replaces the ${NAME} references of s using lookup.
func expand(s string, lookup func(string) (string, bool)) (string, error) {
	if !strings.Contains(s, "${") {
		return s, nil
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		b.WriteString(s[:i])
		end := strings.IndexByte(s[i:], '}')
		if end < 0 {
			return "", fmt.Errorf("has a ${ without its closing }; write ${NAME} with a variable name")
		}
		name := s[i+2 : i+end]
		if !validEnvName(name) {
			return "", fmt.Errorf("has a ${...} that does not name a variable; write ${NAME} with letters, digits and underscores, not starting with a digit")
		}
		v, ok := lookup(name)
		if !ok {
			return "", fmt.Errorf("${%s} is not set in the environment or in .env", name)
		}
		b.WriteString(v)
		s = s[i+end+1:]
	}
}

// minSecret is the shortest value MCPSecrets reports: shorter ones would
// garble unrelated text when redacted.
const minSecret = 8

// MCPSecrets returns the credentials ${NAME} references bring into MCP
// servers: the values referenced in headers, and those referenced in env
// that come from .env (the file for secrets). harness redacts them from
// sessions and failure notes as it does API keys. Values shorter than 8
// bytes are left out.
func (c *Config) MCPSecrets() []string {
	var out []string
	collect := func(s string, dotenvOnly bool) {
		expand(s, func(name string) (string, bool) {
			v, inEnv := os.LookupEnv(name)
			if !inEnv {
				v = c.dotenv[name]
			}
			if len(v) >= minSecret && !(dotenvOnly && inEnv) {
				out = append(out, v)
			}
			return "", true
		})
	}
	for _, s := range c.MCP {
		for _, h := range s.Headers {
			collect(h, false)
		}
		for _, e := range s.Env {
			collect(e, true)
		}
	}
	return out
}
