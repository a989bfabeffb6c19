// Package doctor implements `harness doctor`: it checks that everything
// harness needs is in place and prints one line per check, with the fix for
// every failure.
//
// # Checks, in order
//
//	config     $HARNESS_HOME/config.toml loads and validates (one line per problem)
//	.env       the file's permissions, and the api_key_env variables are set
//	store      the [rlm.store] rules against the launch directory and the sessions folder
//	endpoint   GET {base_url}/models answers and lists the configured model
//	           (a warning for llama.cpp with one model: it ignores the name)
//	tokenize   /tokenize answers (llama.cpp or vLLM dialect), or estimates are in use
//	window     the model's context window and where it came from ([endpoint] context_window,
//	           /props, /models, Ollama), or a warning that it is unknown
//	completion with --full: one streamed request that must come back with a tool call
//	approval   the [approval_description] endpoint, when enabled, as for endpoint
//	mcp        each [mcp.servers.NAME] server starts in the launch directory and
//	           lists its tools: one line with the start time and the tool names, a
//	           warning for allow entries it does not offer (no tool is called, even
//	           with --full; a failure's line gives the reason and the server's log)
//	rules      the instruction files agents are given at their start
//	           ($HARNESS_HOME's, then from the repository's top down to the
//	           launch directory), one line each with its size, a warning for
//	           one skipped or cut; the nested directories with their own
//	           file are listed with theirs
//	prompts    the prompt files, one line each with its command, size and
//	           origin, a warning for each that did not become a command
//	replib     every $HARNESS_HOME/replib/*.star file parses as Starlark
//	sandbox    what confines REPL workers on this kernel (Landlock and its ABI, or the jail
//	           alone: a warning), and, with [commands] sandbox = "workspace", that the kernel
//	           can enforce it (FAIL when it cannot: run() would refuse every command)
//	worker     a REPL worker starts, answers one call, and says what confines it
//
// Each line starts with ok, warn, FAIL or skip. Run returns false when any
// line is FAIL (the command exits 1). Checks that need a loaded
// configuration are skipped when it does not load.
//
// Keys are never printed: every line is scrubbed of the configured API key
// values before it is written, whatever produced it.
package doctor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"go.starlark.net/syntax"

	"harness/config"
	"harness/llm"
	"harness/redact"
	"harness/sandbox"
)

// Timeouts of the network checks.
const (
	quickTimeout      = 20 * time.Second // /models, /tokenize
	completionTimeout = 3 * time.Minute  // the --full completion
)

// printer writes check lines and remembers failures.
type printer struct {
	w       io.Writer
	secrets []string
	failed  bool
}

func (p *printer) line(status, check, msg string) {
	for _, s := range p.secrets {
		msg = strings.ReplaceAll(msg, s, redact.Marker)
	}
	fmt.Fprintf(p.w, "%-4s  %-10s  %s\n", status, check, msg)
}

func (p *printer) ok(check, format string, a ...any) {
	p.line("ok", check, fmt.Sprintf(format, a...))
}

func (p *printer) warn(check, format string, a ...any) {
	p.line("warn", check, fmt.Sprintf(format, a...))
}

func (p *printer) skip(check, format string, a ...any) {
	p.line("skip", check, fmt.Sprintf(format, a...))
}

// fail prints a failure: what is wrong, then the fix.
func (p *printer) fail(check, what, fix string) {
	p.failed = true
	if fix != "" {
		what += "; fix: " + fix
	}
	p.line("FAIL", check, what)
}

// Run checks the installation in home for a session started in launchDir
// and reports to w. full adds one streamed completion that must make a tool
// call. It returns false when any check failed.
//
// probe, when given, starts a REPL worker (harness passes repl.ProbeWorker)
// for the worker check.
func Run(ctx context.Context, home, launchDir string, full bool, w io.Writer, probe ...WorkerProbe) (ok bool) {
	o := Options{Home: home, LaunchDir: launchDir, Full: full, Out: w}
	if len(probe) > 0 {
		o.Worker = probe[0]
	}
	return RunWith(ctx, o)
}

// Options are what RunWith checks and where it reports.
type Options struct {
	Home, LaunchDir string
	Full            bool
	Out             io.Writer
	// Worker, when set, starts a REPL worker for the worker check
	// (harness passes repl.ProbeWorker).
	Worker WorkerProbe
	// Commands are the built-in command names no prompt file can take
	// (ui.CommandNames).
	Commands []string
}

// RunWith is Run with every option.
func RunWith(ctx context.Context, o Options) (ok bool) {
	home, launchDir, full := o.Home, o.LaunchDir, o.Full
	p := &printer{w: o.Out}
	cfg := checkConfig(p, home, launchDir)
	if cfg != nil {
		p.secrets = append(cfg.Secrets(), cfg.MCPSecrets()...)
		checkDotenv(p, cfg)
		checkStore(p, home, launchDir)
		checkEndpoint(ctx, p, cfg, full)
		checkApproval(ctx, p, cfg)
		checkMCP(ctx, p, cfg, launchDir)
	} else {
		for _, c := range []string{".env", "store", "endpoint", "tokenize", "window", "completion"} {
			p.skip(c, "needs a configuration that loads")
		}
	}
	if cfg != nil {
		checkInstructions(p, cfg, launchDir, o.Commands)
	}
	checkReplib(p, filepath.Join(home, "replib"))
	checkSandbox(p, cfg)
	if o.Worker != nil {
		checkWorker(p, cfg, home, o.Worker)
	}
	return !p.failed
}

// WorkerProbe starts a REPL worker with the helpers of home under a
// maxMemoryMB limit, runs one call, and describes the result.
type WorkerProbe func(home string, maxMemoryMB int) (string, error)

// checkSandbox says what confines REPL workers on this kernel and whether
// [commands] sandbox = "workspace" can be enforced.
func checkSandbox(p *printer, cfg *config.Config) {
	if sandbox.ABI() == 0 {
		p.warn("sandbox", "%s", sandbox.Describe())
	} else {
		p.ok("sandbox", "%s", sandbox.Describe())
	}
	if cfg == nil || cfg.Commands.Sandbox != config.SandboxWorkspace {
		return
	}
	pol := sandbox.Policy{Network: cfg.Commands.Network}
	if err := pol.Check(); err != nil {
		p.fail("sandbox", err.Error(), "run harness on a kernel with Landlock enabled (Linux 6.2 or later, landlock in lsm=), or set [commands] sandbox = \"none\"")
		return
	}
	net := "may use the network"
	if !cfg.Commands.Network {
		net = "cannot make TCP connections"
	}
	meta := " (file metadata excepted: this system makes no mount namespace for them)"
	if sandbox.MetadataProtected() {
		meta = ", file metadata included"
	}
	p.ok("sandbox", "run() commands run confined: they write only in the repository, the store, the temp folder and %d writable directories%s, and %s", len(cfg.Commands.Writable), meta, net)
}

// checkWorker starts one REPL worker.
func checkWorker(p *printer, cfg *config.Config, home string, probe WorkerProbe) {
	mb := 512
	if cfg != nil {
		mb = cfg.REPL.MaxMemoryMB
	}
	msg, err := probe(home, mb)
	if err != nil {
		p.fail("worker", err.Error(), "reinstall harness with ./install.sh; the log of REPL workers is "+filepath.Join(home, "workers.log"))
		return
	}
	if cfg != nil && cfg.RLM.Parallel > 1 {
		msg = strings.TrimSuffix(msg, ".") + fmt.Sprintf("; [rlm] parallel = %d: up to %d subagents run at once, each with its own worker of up to %d MB (a subagent waiting on its own subagents keeps its worker)",
			cfg.RLM.Parallel, cfg.RLM.Parallel, cfg.REPL.MaxMemoryMB)
	}
	p.ok("worker", "%s", msg)
}

// checkConfig loads the configuration without the launch-directory rules
// (those are the store check's); it returns nil when it does not load.
func checkConfig(p *printer, home, launchDir string) *config.Config {
	path := filepath.Join(home, "config.toml")
	cfg, err := config.Load(home, "")
	if err == nil {
		p.ok("config", "%s loads", cfg.Path)
		return cfg
	}
	var list config.Errors
	var one *config.Error
	switch {
	case errors.Is(err, fs.ErrNotExist):
		p.fail("config", fmt.Sprintf("%s does not exist", path), "run `harness setup` to write a starter config, then edit [endpoint]")
	case errors.As(err, &list):
		for _, e := range list {
			p.fail("config", e.Error(), "")
		}
	case errors.As(err, &one):
		p.fail("config", one.Error(), "")
	default:
		p.fail("config", err.Error(), "correct "+path)
	}
	return nil
}

func checkDotenv(p *printer, cfg *config.Config) {
	path := filepath.Join(cfg.Home, ".env")
	info, err := os.Stat(path)
	switch {
	case err == nil && info.Mode().Perm()&0o077 != 0:
		p.warn(".env", "%s can be read by other users (mode %v); run chmod 600 %s", path, info.Mode().Perm(), path)
	case err == nil:
		p.ok(".env", "%s loads and is private", path)
	case errors.Is(err, fs.ErrNotExist):
		p.ok(".env", "no %s (only needed for API keys)", path)
	default:
		p.fail(".env", fmt.Sprintf("cannot read %s: %v", path, err), "check the file's permissions")
	}
	eps := map[string]config.Endpoint{"[endpoint]": cfg.Endpoint}
	if cfg.ApprovalDescription != nil {
		eps["[approval_description.endpoint]"] = cfg.ApprovalDescription.Endpoint
	}
	for _, table := range sortedKeys(eps) {
		name := eps[table].APIKeyEnv
		if name == "" {
			continue
		}
		_, inEnv := os.LookupEnv(name)
		switch {
		case cfg.APIKey(eps[table]) == "":
			p.fail(".env", fmt.Sprintf("%s api_key_env names %s, which is unset or empty", table, name),
				fmt.Sprintf("add %s=<your key> to %s, or export it in your shell", name, path))
		case inEnv:
			p.ok(".env", "%s is set (from the environment) for %s", name, table)
		default:
			p.ok(".env", "%s is set (from %s) for %s", name, path, table)
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// checkStore applies the rules that involve the launch directory by loading
// again with it.
func checkStore(p *printer, home, launchDir string) {
	if launchDir == "" {
		p.skip("store", "no launch directory given")
		return
	}
	cfg, err := config.Load(home, launchDir)
	if err != nil {
		var list config.Errors
		var one *config.Error
		switch {
		case errors.As(err, &list):
			for _, e := range list {
				p.fail("store", e.Error(), "")
			}
		case errors.As(err, &one):
			p.fail("store", one.Error(), "")
		default:
			p.fail("store", err.Error(), "")
		}
		return
	}
	p.ok("store", "%s is outside %s and the sessions folder", cfg.RLM.StorePath, launchDir)
}

// checkEndpoint checks /models, /tokenize and, when full, one completion.
func checkEndpoint(ctx context.Context, p *printer, cfg *config.Config, full bool) {
	ep := cfg.Endpoint
	client := llm.New(once(ep), cfg.APIKey(ep))
	if !checkModels(ctx, p, "endpoint", client, ep) {
		p.skip("tokenize", "needs the endpoint")
		p.skip("window", "needs the endpoint")
		p.skip("completion", "needs the endpoint")
		return
	}
	checkTokenize(ctx, p, ep, cfg.APIKey(ep))
	checkWindow(ctx, p, client, ep)
	if !full {
		p.skip("completion", "run `harness doctor --full` to try one streamed completion with a tool call")
		return
	}
	checkCompletion(ctx, p, client)
}

func checkModels(ctx context.Context, p *printer, check string, client *llm.Client, ep config.Endpoint) bool {
	ctx, cancel := context.WithTimeout(ctx, quickTimeout)
	defer cancel()
	list, err := client.ListModels(ctx)
	if err != nil {
		msg := err.Error()
		var ce *llm.ConnectError
		if errors.As(err, &ce) {
			msg = fmt.Sprintf("cannot connect to %s: %s", ce.URL, ce.Reason())
		}
		fix := "start the server or correct base_url (it must end where /chat/completions is appended, e.g. http://localhost:8000/v1)"
		var se *llm.StatusError
		var re *llm.RedirectError
		switch {
		case errors.As(err, &se) && (se.Code == 401 || se.Code == 403):
			fix = "put a valid key in the variable api_key_env names (in .env or the environment)"
		case errors.As(err, &re):
			msg, fix, _ = strings.Cut(re.Error(), "; set ")
			fix = "set " + fix
		}
		p.fail(check, msg, fix)
		return false
	}
	ids := make([]string, len(list))
	for i, m := range list {
		if m.ID == ep.Model {
			p.ok(check, "%s/models lists %q", strings.TrimRight(ep.BaseURL, "/"), ep.Model)
			return true
		}
		ids[i] = m.ID
	}
	if len(list) == 1 && list[0].OwnedBy == "llamacpp" {
		// llama-server with one model ignores the requested name.
		p.warn(check, "llama.cpp serves only %q and answers requests for %q with it; set model = %q in config.toml to say so", ids[0], ep.Model, ids[0])
		return true
	}
	served := strings.Join(ids, ", ")
	if served == "" {
		served = "none"
	}
	if len(served) > 300 {
		served = served[:300] + "…"
	}
	p.fail(check, fmt.Sprintf("%s/models does not list model %q (served: %s)", strings.TrimRight(ep.BaseURL, "/"), ep.Model, served),
		"set model in config.toml to one of the served names")
	return false
}

func checkTokenize(ctx context.Context, p *printer, ep config.Endpoint, key string) {
	ctx, cancel := context.WithTimeout(ctx, quickTimeout)
	defer cancel()
	tok := llm.NewTokenizer(ep.BaseURL, key)
	n, err := tok.Count(ctx, "harness doctor")
	if err != nil {
		p.ok("tokenize", "%s unavailable (%s); context counts use estimates (ceil(bytes/3.25)), shown with ~", tok.URL(), reason(err))
		return
	}
	p.ok("tokenize", "%s answers (%s dialect, %d tokens for a test text)", tok.URL(), tok.Dialect(), n)
}

// checkWindow says the model's context window and where it came from, as
// a session would know it.
func checkWindow(ctx context.Context, p *printer, client *llm.Client, ep config.Endpoint) {
	w := llm.NewWindow(ep.ContextWindow)
	w.Detect(ctx, client)
	n, src := w.Tokens()
	if n == 0 {
		p.warn("window", "the server does not say the model's context window; set [endpoint] context_window in config.toml so that requests are fitted to it before they are sent (until then harness learns it from the first refusal that names it)")
		return
	}
	p.ok("window", "%d tokens (from %s)", n, llm.WindowSource(src))
}

// reason says why a request failed without repeating the URL or advice
// meant for the chat endpoint.
func reason(err error) string {
	var se *llm.StatusError
	var ce *llm.ConnectError
	switch {
	case errors.As(err, &se):
		return se.Reason()
	case errors.As(err, &ce):
		return ce.Reason()
	}
	return err.Error()
}

// checkCompletion streams one request offering an echo tool and asking for
// a call to it.
func checkCompletion(ctx context.Context, p *printer, client *llm.Client) {
	ctx, cancel := context.WithTimeout(ctx, completionTimeout)
	defer cancel()
	req := llm.Request{
		Messages: []llm.Message{{Role: "user", Content: "This is an automated connectivity check. " +
			`Call the echo tool once with {"text": "ok"}. Do not answer with text.`}},
		Tools: []llm.Tool{{
			Name:        "echo",
			Description: "Echo the given text back.",
			Parameters:  []byte(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`),
		}},
	}
	start := time.Now()
	resp, err := client.Stream(ctx, req, nil)
	took := time.Since(start).Round(100 * time.Millisecond)
	if err != nil {
		p.fail("completion", err.Error(), "see the message; check the server's log")
		return
	}
	for _, c := range resp.Message.ToolCalls {
		if c.Name == "echo" {
			p.ok("completion", "streamed a call to echo(%s) in %v", c.Arguments, took)
			return
		}
	}
	what := fmt.Sprintf("the model answered without calling the echo tool (finish_reason %q)", resp.FinishReason)
	p.fail("completion", what, "use a model and server with tool calling enabled "+
		"(llama.cpp: start llama-server with --jinja; vLLM: --enable-auto-tool-choice and a --tool-call-parser)")
}

func checkApproval(ctx context.Context, p *printer, cfg *config.Config) {
	ad := cfg.ApprovalDescription
	if ad == nil {
		return
	}
	client := llm.New(once(ad.Endpoint), cfg.APIKey(ad.Endpoint))
	checkModels(ctx, p, "approval", client, ad.Endpoint)
}

// once is ep without retries: a check reports what the endpoint answers
// now, at once, instead of waiting out a rate limit or an outage.
func once(ep config.Endpoint) config.Endpoint {
	ep.MaxRetries = 0
	return ep
}

// checkReplib parses every helper file as Starlark, with the options the
// REPL uses.
func checkReplib(p *printer, dir string) {
	files, err := filepath.Glob(filepath.Join(dir, "*.star"))
	if err != nil || len(files) == 0 {
		if _, serr := os.Stat(dir); serr != nil {
			p.warn("replib", "no %s: the shipped helpers (reasoning, glob, search) are missing; run ./install.sh", dir)
		} else {
			p.warn("replib", "no .star files in %s; run ./install.sh to install the shipped helpers", dir)
		}
		return
	}
	sort.Strings(files)
	opts := &syntax.FileOptions{Set: true, While: true, TopLevelControl: true, GlobalReassign: true, Recursion: true}
	good := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			p.fail("replib", fmt.Sprintf("cannot read %s: %v", f, err), "check the file's permissions")
			continue
		}
		if _, err := opts.Parse(f, src, 0); err != nil {
			p.fail("replib", err.Error(), "correct the file or remove it (other helper files still load); harness replib check loads it and runs its examples")
			continue
		}
		good++
	}
	if good > 0 {
		p.ok("replib", "%d of %d helper files in %s parse", good, len(files), dir)
	}
}
