// The roots agents reach and the root agent built on them, shared by the
// headless run and the UI.

package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"harness/config"
	"harness/diffview"
	"harness/failures"
	"harness/jail"
	"harness/llm"
	"harness/mcpclient"
	"harness/redact"
	"harness/repl"
	"harness/rlm"
	"harness/sandbox"
	"harness/sessions"
	"harness/worker"
)

// roots are the repository (the canonical launch directory) and the store,
// the MCP servers agents working there use, and the pool of REPL workers
// that serve them.
type roots struct {
	dir     string
	repo    *jail.Root
	store   *jail.Root     // nil without [rlm.store]
	mcp     *mcpclient.Set // nil without [mcp.servers]
	workers *worker.Pool
	log     *os.File // the workers' stderr, $HARNESS_HOME/workers.log; nil when it cannot be opened

	winOnce sync.Once
	win     *llm.Window // the model's context window, asked once per process
}

// window is the model's context window: [endpoint] context_window, else
// asked of the server once per process, in the background (the first
// frame never waits), and learnt from refusals.
func (r *roots) window(cfg *config.Config, c *llm.Client) *llm.Window {
	r.winOnce.Do(func() {
		r.win = llm.NewWindow(cfg.Endpoint.ContextWindow)
		r.win.DetectInBackground(context.Background(), c)
	})
	return r.win
}

// openRoots opens the launch directory as the repository, reading its
// permission level from level at every operation, and the store. Errors
// are printed to stderr; the code is exitOK, or the exit code to return.
func openRoots(cfg *config.Config, launchDir string, level func() config.Permission, stderr io.Writer) (*roots, int) {
	r, code, err := newRoots(cfg, launchDir, level)
	if err != nil {
		fmt.Fprintf(stderr, "harness: %v\n", err)
	}
	return r, code
}

// newRoots is openRoots returning its error, with the exit code it calls for.
func newRoots(cfg *config.Config, launchDir string, level func() config.Permission) (*roots, int, error) {
	dir, err := filepath.EvalSymlinks(launchDir)
	if err != nil {
		return nil, exitError, fmt.Errorf("current directory: %v", err)
	}
	r := &roots{dir: dir}
	if r.repo, err = jail.Open(jail.Repository, dir, level); err != nil {
		return nil, exitError, fmt.Errorf("open the repository: %v", err)
	}
	if cfg.RLM.StorePath != "" {
		if r.store, err = jail.Open(jail.Store, cfg.RLM.StorePath, nil); err != nil {
			r.close()
			return nil, exitUsage, fmt.Errorf("open the store [rlm.store] path %s: %v", cfg.RLM.StorePath, err)
		}
	}
	r.log = openWorkerLog(cfg.Home)
	wc := worker.Config{Watch: commands.Watch} // the reaper ends workers with harness, however it ends
	if r.log != nil {
		wc.Log = &worker.LockedWriter{W: r.log}
	}
	r.workers = worker.NewPool(wc)
	return r, exitOK, nil
}

// startMCP starts the configured MCP servers in the background; failures
// are recorded (and shown through onFailure), never fatal.
// maxDirectTools is mcpclient's MaxDirectTools for [mcp] max_direct_tools
// (whose 0 means none, where mcpclient's means the default).
func maxDirectTools(cfg *config.Config) int {
	if cfg.MCPMaxDirectTools == 0 {
		return -1
	}
	return cfg.MCPMaxDirectTools
}

func (r *roots) startMCP(cfg *config.Config, fails *failures.Log, onFailure func(failures.Note, int)) {
	if len(cfg.MCP) == 0 {
		return
	}
	r.mcp = mcpclient.Start(mcpclient.FromConfig(cfg), mcpclient.Options{
		RepoDir: r.dir, Environ: environ(cfg), EnvFilter: cfg.Commands.EnvFilter,
		LogDir: filepath.Join(cfg.Home, "mcp"), Failures: fails, OnFailure: onFailure,
		MaxDirectTools: maxDirectTools(cfg),
	})
}

func (r *roots) close() {
	if r.mcp != nil {
		r.mcp.Close()
	}
	if r.workers != nil {
		r.workers.Close()
	}
	if r.log != nil {
		r.log.Close()
	}
	r.repo.Close()
	if r.store != nil {
		r.store.Close()
	}
}

// workerLogLimit is the size past which the workers' log starts afresh.
const workerLogLimit = 1 << 20

// openWorkerLog opens $HARNESS_HOME/workers.log for appending, emptying it
// first when it has grown past workerLogLimit.
func openWorkerLog(home string) *os.File {
	p := filepath.Join(home, "workers.log")
	flags := os.O_WRONLY | os.O_CREATE | os.O_APPEND
	if fi, err := os.Stat(p); err == nil && fi.Size() > workerLogLimit {
		flags |= os.O_TRUNC
	}
	f, err := os.OpenFile(p, flags, 0o600)
	if err != nil {
		return nil
	}
	return f
}

// sandboxPolicy is run()'s confinement for [commands] sandbox =
// "workspace", or nil.
func (r *roots) sandboxPolicy(cfg *config.Config) *sandbox.Policy {
	if cfg.Commands.Sandbox != config.SandboxWorkspace {
		return nil
	}
	write := []string{r.dir}
	if cfg.RLM.StorePath != "" {
		write = append(write, cfg.RLM.StorePath)
	}
	write = append(write, os.TempDir())
	return &sandbox.Policy{Write: append(write, cfg.Commands.Writable...), Network: cfg.Commands.Network}
}

// agentParts are what a root agent is built from besides the roots.
type agentParts struct {
	system     *string // [chat] prompt, or --system-prompt
	approver   rlm.Approver
	events     *rlm.Stream
	redactor   *redact.Redactor
	onFailure  func(failures.Note, int) // nil: failure notes are only recorded
	roomAdvice func(string) string      // how to make room in a full context (nil: the UI's)
	bases      *diffview.Bases          // nil: Replace File's old texts are not kept
	askWrites  bool                     // writes the level refuses are put to the approver (the UI)
}

// fileTools are the real file tools; with bases, apply_patch first
// records the texts its Replace Files are about to replace, for the UI's
// diff.
func (p agentParts) fileTools() rlm.FileTools {
	ft := rlm.DefaultFileTools()
	if p.bases == nil {
		return ft
	}
	apply := ft.ApplyPatch
	ft.ApplyPatch = func(ctx context.Context, root *jail.Root, text string, limit int) (string, error) {
		p.bases.Record(root.Name(), text, root.ReadFile)
		return apply(ctx, root, text, limit)
	}
	return ft
}

// failures is the failure log, with secrets redacted.
func (p agentParts) failures(cfg *config.Config) *failures.Log {
	return failures.Open(cfg.Home).Redacting(p.redactor.String)
}

// newRunner builds the root agent continuing conv in sess, with the real
// endpoint client, file tools and REPLs.
func (r *roots) newRunner(cfg *config.Config, p agentParts, sess *sessions.Session, conv *sessions.File) (*rlm.Runner, error) {
	var mcp rlm.MCP
	if r.mcp != nil {
		mcp = r.mcp
	}
	client := endpointClient(cfg, cfg.Endpoint, "endpoint")
	return rlm.New(rlm.Options{
		Config: cfg, Client: client, System: p.system, Window: r.window(cfg, client),
		Session: sess, RepoDir: r.dir, Repository: r.repo, Store: r.store,
		NewREPL: rlm.REPLs(r.replOptions(cfg, p.failures(cfg), p.onFailure)),
		Files:   p.fileTools(), MCP: mcp, Approver: p.approver, Events: p.events, Redactor: p.redactor,
		RoomAdvice: p.roomAdvice, AskWrites: p.askWrites,
		Instructions: instructionFinder(cfg, r.dir),
	}, conv)
}

// replOptions are what every REPL over these roots shares (rlm.REPLs and
// harness repl fill in one agent's fields): the mounts, the limits, the
// [commands] rules and sandbox, the worker pool, and the failure log with
// its callback (both may be nil).
func (r *roots) replOptions(cfg *config.Config, fails *failures.Log, onFailure func(failures.Note, int)) repl.Options {
	return repl.Options{
		Repository: r.repo, Store: r.store, Home: cfg.Home,
		OutputLimit: cfg.REPL.OutputLimit, MaxMemoryMB: cfg.REPL.MaxMemoryMB,
		Commands: cfg.Commands, RepoDir: r.dir, Environ: commandEnviron(cfg),
		Failures: fails, OnFailure: onFailure,
		Watch:   commands.Watch,
		Sandbox: r.sandboxPolicy(cfg), Workers: r.workers,
		Siblings: cfg.RLM.Parallel > 1,
	}
}

// clientOptions are added to every endpoint client (tests add a fake clock).
var clientOptions []llm.Option

// endpointClient is the client for ep, the endpoint configured in table
// section, with its key and where that key was looked for.
func endpointClient(cfg *config.Config, ep config.Endpoint, section string) *llm.Client {
	origin := llm.Origin{Section: section, KeySource: cfg.KeySource(ep), Dotenv: cfg.DotenvPath()}
	return llm.New(ep, cfg.APIKey(ep), append([]llm.Option{llm.WithOrigin(origin)}, clientOptions...)...)
}

// keyWarnings warns about every endpoint whose api_key_env names a
// variable that is unset or empty in both the environment and .env:
// requests then go out without a key.
func keyWarnings(cfg *config.Config) []string {
	eps := []struct {
		section string
		ep      config.Endpoint
	}{{"endpoint", cfg.Endpoint}}
	if ad := cfg.ApprovalDescription; ad != nil {
		eps = append(eps, struct {
			section string
			ep      config.Endpoint
		}{"approval_description.endpoint", ad.Endpoint})
	}
	var out []string
	for _, e := range eps {
		name := e.ep.APIKeyEnv
		if name == "" || cfg.APIKey(e.ep) != "" {
			continue
		}
		state := "is set in neither the environment nor " + cfg.DotenvPath()
		if _, ok := cfg.Lookup(name); ok {
			state = "is empty"
		}
		out = append(out, fmt.Sprintf("[%s] api_key_env names %s, which %s: requests go out without an API key. Add %s=<key> to %s (or export it); `harness doctor` checks it",
			e.section, name, state, name, cfg.DotenvPath()))
	}
	return out
}

// systemPrompt is --system-prompt when given, else [chat] prompt.
func systemPrompt(cfg *config.Config, f agentFlags) *string {
	if f.system != nil {
		return f.system
	}
	return cfg.Chat.Prompt
}

// redactor removes the API keys and the MCP servers' credentials from what
// is saved.
func redactor(cfg *config.Config) *redact.Redactor {
	return redact.New(append(cfg.Secrets(), cfg.MCPSecrets()...))
}
