package repl

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"harness/config"
	"harness/failures"
	"harness/jail"
	"harness/replib"
)

// env is a REPL under test with its directories.
type env struct {
	repl             *REPL
	repo, store, lib string
	home             string
	perm             atomic.Int32
	approver         *fakeApprover
	output           []string
	outMu            sync.Mutex
	notes            []failures.Note
}

type fakeApprover struct {
	mu     sync.Mutex
	answer bool
	err    error
	seen   []map[string]any
}

func (a *fakeApprover) Approve(_ context.Context, op json.RawMessage) (bool, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	var m map[string]any
	if err := json.Unmarshal(op, &m); err != nil {
		return false, err
	}
	a.seen = append(a.seen, m)
	return a.answer, a.err
}

type envOption func(*env, *Options)

func withDepth(d int) envOption   { return func(_ *env, o *Options) { o.Depth = d } }
func withMemory(mb int) envOption { return func(_ *env, o *Options) { o.MaxMemoryMB = mb } }
func withLimit(n int) envOption   { return func(_ *env, o *Options) { o.OutputLimit = n } }
func withCommands(c config.Commands) envOption {
	return func(_ *env, o *Options) { o.Commands = c }
}
func withEnviron(f func() []string) envOption { return func(_ *env, o *Options) { o.Environ = f } }
func withoutHelpers() envOption {
	return func(e *env, _ *Options) { os.RemoveAll(filepath.Join(e.home, "replib")) }
}

// newEnv builds a REPL over fresh temporary directories with the shipped
// helpers installed and read-write permission.
func newEnv(t testing.TB, options ...envOption) *env {
	t.Helper()
	base := t.TempDir()
	e := &env{
		repo: filepath.Join(base, "repo"), store: filepath.Join(base, "store"),
		lib: filepath.Join(base, "library"), home: filepath.Join(base, "home"),
		approver: &fakeApprover{},
	}
	for _, d := range []string{e.repo, e.store, e.lib, e.home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := replib.Install(filepath.Join(e.home, "replib")); err != nil {
		t.Fatal(err)
	}
	e.perm.Store(int32(config.PermReadWrite))
	level := func() config.Permission { return config.Permission(e.perm.Load()) }
	open := func(name, dir string) *jail.Root {
		r, err := jail.Open(name, dir, level)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close() })
		return r
	}
	opts := Options{
		Depth: 1, Home: e.home, OutputLimit: 100000, MaxMemoryMB: 512,
		Commands: config.Commands{Allow: map[string]string{}},
		RepoDir:  e.repo, Approver: e.approver,
		Model:        func() string { return "test-model" },
		PromptTokens: func() (int, bool) { return 1234, true },
		Failures:     failures.Open(e.home), Session: "test-session",
	}
	if !inProcess() {
		opts.Workers, opts.testHooks = testPool(), true
	}
	opts.Output = func(s string) { e.outMu.Lock(); e.output = append(e.output, s); e.outMu.Unlock() }
	opts.OnFailure = func(n failures.Note, _ int) { e.notes = append(e.notes, n) }
	for _, o := range options {
		o(e, &opts)
	}
	opts.Repository = open(jail.Repository, e.repo)
	opts.Store = open(jail.Store, e.store)
	if opts.Depth >= 2 {
		opts.Library = open(jail.Library, e.lib)
	}
	r, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	e.repl = r
	return e
}

func (e *env) exec(code string) string { return e.repl.Exec(context.Background(), code) }

func (e *env) write(t testing.TB, rel, data string) {
	t.Helper()
	p := filepath.Join(e.repo, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
