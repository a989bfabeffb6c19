// Load: read config.toml and .env from $HARNESS_HOME and validate every rule.

package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"
)

// Load reads home/config.toml and home/.env and validates them.
//
// launchDir is the directory harness was started in (the repository); the
// store and sessions rules are checked against it. An empty launchDir skips
// the rules that involve it.
//
// A missing config.toml gives an *Error that satisfies
// errors.Is(err, fs.ErrNotExist) and suggests `harness setup`. Problems in
// the files give an *Error, or Errors when there are several; both name the
// file, line, key and fix.
func Load(home, launchDir string) (*Config, error) {
	home, err := filepath.Abs(home)
	if err != nil {
		return nil, fmt.Errorf("harness home %q: %w", home, err)
	}
	path := filepath.Join(home, "config.toml")
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &Error{File: path, Err: err,
			Msg: "config file not found; run `harness setup` to create a starter one (or set HARNESS_HOME to the folder that holds your config.toml)"}
	}
	if err != nil {
		return nil, &Error{File: path, Err: err,
			Msg: fmt.Sprintf("cannot read the config file: %v", err)}
	}
	cfg, loc, err := decode(path, data)
	if err != nil {
		return nil, err
	}
	cfg.Home = home
	if err := checkPaths(cfg, loc, launchDir); err != nil {
		return nil, err
	}
	env, err := loadDotenv(filepath.Join(home, ".env"))
	if err != nil {
		return nil, err
	}
	cfg.dotenv = env
	return cfg, nil
}

// decode parses and validates config text without touching the filesystem.
// The returned locator finds keys in the text for later errors.
func decode(path string, data []byte) (*Config, *locator, error) {
	text := string(data)
	var tree map[string]any
	md, err := toml.Decode(text, &tree)
	if err != nil {
		return nil, nil, syntaxError(path, text, err)
	}
	c := &checker{file: path, loc: locate(text)}
	c.unknownKeys(md.Keys())
	cfg := &Config{Path: path}
	c.fill(cfg, tree)
	if err := collapse(c.errs); err != nil {
		return nil, nil, err
	}
	return cfg, c.loc, nil
}

// syntaxError turns a TOML parse error into an *Error with its position.
// The line and column are computed from the error's byte offset: the
// decoder's own Line and Col are occasionally off at line boundaries.
func syntaxError(path, text string, err error) error {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		msg := fmt.Sprintf("invalid TOML: %s; fix the syntax here", strings.TrimSuffix(pe.Message, "."))
		off := min(max(pe.Position.Start, 0), len(text))
		line := strings.Count(text[:off], "\n") + 1
		col := off - (strings.LastIndexByte(text[:off], '\n') + 1) + 1
		return &Error{File: path, Line: line, Col: col, Key: pe.LastKey, Msg: msg, Err: err}
	}
	return &Error{File: path, Msg: fmt.Sprintf("invalid TOML: %v", err), Err: err}
}

// fill validates tree table by table and copies the values into cfg.
func (c *checker) fill(cfg *Config, tree map[string]any) {
	if t, ok := c.table(tree, "", "endpoint", true); ok {
		cfg.Endpoint, _ = c.endpoint(t, "endpoint")
	}
	if t, ok := c.table(tree, "", "chat", true); ok {
		c.chat(&cfg.Chat, t)
	}
	if t, ok := c.table(tree, "", "repl", true); ok {
		c.repl(&cfg.REPL, t)
	}
	if t, ok := c.table(tree, "", "rlm", true); ok {
		c.rlm(&cfg.RLM, t)
	}
	if t, ok := c.table(tree, "", "commands", true); ok {
		c.commands(&cfg.Commands, t)
	}
	if t, ok := c.table(tree, "", "theme", true); ok {
		c.theme(&cfg.Theme, t)
	}
	if t, ok := c.table(tree, "", "approval_description", false); ok {
		cfg.ApprovalDescription = c.approval(t)
	}
	cfg.MCPMaxDirectTools = DefaultMaxDirectTools
	if t, ok := c.table(tree, "", "mcp", false); ok {
		cfg.MCP = c.mcp(t)
		cfg.MCPMaxDirectTools = c.maxDirectTools(t)
	}
}

func (c *checker) repl(r *REPL, t map[string]any) {
	r.ToolDescription, _ = c.str(t, "repl", "tool_description")
	if s, ok := c.str(t, "repl", "permission"); ok {
		p, valid := ParsePermission(s)
		if !valid {
			c.valueErr("repl.permission", "%q is not a permission level; use \"none\", \"read-only\" or \"read-write\"", s)
		}
		r.Permission = p
	}
	r.MaxMemoryMB = c.positive(t, "repl", "max_memory_mb", "the memory limit of each REPL in MiB, for example 2048")
	r.OutputLimit = c.positive(t, "repl", "output_limit", "the bytes of output per call given to the model, for example 100000")
}

func (c *checker) rlm(r *RLM, t map[string]any) {
	r.MaxDepth = c.positive(t, "rlm", "max_depth", "1 lets only the root delegate; 2 lets its subagents delegate once more")
	r.SubagentPrompt = c.optString(t, "rlm", "subagent_prompt")
	r.Parallel = c.parallel(t)
	if st, ok := c.table(t, "rlm", "store", true); ok {
		r.StorePath, _ = c.str(st, "rlm.store", "path")
	}
}

// parallel reads the optional [rlm] parallel: 1 to maxParallel, 1 when
// absent.
func (c *checker) parallel(t map[string]any) int {
	return c.optionalInt(t, "parallel", intKey{path: "rlm.parallel", def: 1, min: 1, max: maxParallel,
		hint: "how many subagents may run at once, for example 4; 1 runs them one after another", tooBig: "too many",
		bigNote: " (each running subagent has a REPL worker of up to [repl] max_memory_mb)"})
}

// maxParallel bounds [rlm] parallel.
const maxParallel = 64

func (c *checker) commands(cmds *Commands, t map[string]any) {
	cmds.Deny = c.strList(t, "commands", "deny")
	cmds.EnvFilter = c.strList(t, "commands", "env_filter")
	cmds.Sandbox = SandboxNone
	if s := c.optString(t, "commands", "sandbox"); s != nil {
		switch *s {
		case SandboxNone, SandboxWorkspace:
			cmds.Sandbox = *s
		default:
			c.valueErr("commands.sandbox", "%q is not a sandbox; use \"none\" (commands run unconfined) or \"workspace\" (commands may write only in the repository, the store, the temp folder and writable)", *s)
		}
	}
	cmds.Writable = c.optStrList(t, "commands", "writable")
	cmds.Network = c.optBool(t, "commands", "network", true)
	if !cmds.Network && cmds.Sandbox != SandboxWorkspace {
		c.valueErr("commands.network", "false blocks the network only for sandboxed commands, and commands run unsandboxed (sandbox = %q); add sandbox = \"workspace\" or remove network", cmds.Sandbox)
	}
	allow, ok := c.table(t, "commands", "allow", true)
	if !ok {
		return
	}
	cmds.Allow = map[string]string{}
	for name := range allow {
		key := toml.Key{"commands", "allow", name}.String()
		exe, ok := c.str(allow, "commands.allow", name)
		if !ok {
			continue
		}
		switch {
		case name == "" || filepath.Base(name) != name:
			c.keyErr(key, "%q is not a command name; use the bare name agents pass to run(), for example go = \"/usr/local/go/bin/go\"", name)
		case !filepath.IsAbs(exe):
			c.valueErr(key, "%q is not an absolute path; give the executable's full path, for example as printed by `command -v %s`", exe, name)
		}
		cmds.Allow[name] = exe
	}
}

// themeSlots lists every [theme] key with the Theme field it fills.
func themeSlots(th *Theme) []struct {
	name string
	dst  *string
} {
	return []struct {
		name string
		dst  *string
	}{
		{"system", &th.System}, {"user", &th.User}, {"assistant", &th.Assistant},
		{"reasoning", &th.Reasoning}, {"tool_call", &th.ToolCall}, {"tool_result", &th.ToolResult},
		{"approval", &th.Approval}, {"warning", &th.Warning}, {"error", &th.Error},
		{"status", &th.Status}, {"input", &th.Input}, {"context_turn", &th.ContextTurn},
		{"context_tokens", &th.ContextTokens}, {"context_role", &th.ContextRole},
		{"context_message_tokens", &th.ContextMessageTokens},
	}
}

// optionalThemeSlots lists the [theme] keys that may be left out, with
// their defaults.
func optionalThemeSlots(th *Theme) []struct {
	name, def string
	dst       *string
} {
	return []struct {
		name, def string
		dst       *string
	}{
		{"diff_remove", DefaultDiffRemove, &th.DiffRemove}, {"diff_add", DefaultDiffAdd, &th.DiffAdd},
	}
}

func (c *checker) theme(th *Theme, t map[string]any) {
	for _, slot := range themeSlots(th) {
		s, ok := c.str(t, "theme", slot.name)
		if ok {
			c.colour(slot.name, s, slot.dst)
		}
	}
	for _, slot := range optionalThemeSlots(th) {
		*slot.dst = slot.def
		if s := c.optString(t, "theme", slot.name); s != nil {
			c.colour(slot.name, *s, slot.dst)
		}
	}
}

// colour checks the [theme] colour key name and stores it in dst.
func (c *checker) colour(name, s string, dst *string) {
	if !isColour(s) {
		c.valueErr("theme."+name, "%q is not a colour; write it as \"#RRGGBB\" with six hex digits, for example \"#87afd7\"", s)
		return
	}
	*dst = s
}

func isColour(s string) bool {
	if len(s) != 7 || s[0] != '#' {
		return false
	}
	for i := 1; i < 7; i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// approval validates [approval_description]; nil unless enabled = true.
// With enabled = false the rest of the table is not checked (unknown keys
// still are), so turning the feature off never requires fixing it first.
func (c *checker) approval(t map[string]any) *ApprovalDescription {
	const tbl = "approval_description"
	enabled, ok := c.boolean(t, tbl, "enabled")
	if !ok || !enabled {
		return nil
	}
	prompt := c.optString(t, tbl, "prompt")
	ep, hasEP := c.table(t, tbl, "endpoint", false)
	var endpoint Endpoint
	epOK := false
	if hasEP {
		endpoint, epOK = c.endpoint(ep, tbl+".endpoint")
	}
	if prompt == nil {
		c.missing(tbl, "prompt", "add prompt = \"... ${command} ...\" (the pending operation replaces ${command}), or set enabled = false")
	} else if !containsCommand(*prompt) {
		c.valueErr(tbl+".prompt", "the prompt does not contain ${command}; add ${command} where the pending operation should appear")
	}
	if !hasEP {
		c.missing(tbl, "endpoint", "add an [approval_description.endpoint] table with base_url and model, or set enabled = false")
	}
	if prompt == nil || !epOK {
		return nil
	}
	return &ApprovalDescription{Prompt: *prompt, Endpoint: endpoint}
}
