// The roots agents reach and the root agent built on them, shared by the
// headless run and the UI.

package main

import (
	"fmt"
	"io"
	"path/filepath"

	"harness/config"
	"harness/failures"
	"harness/jail"
	"harness/llm"
	"harness/repl"
	"harness/rlm"
	"harness/sessions"
)

// roots are the repository (the canonical launch directory) and the store.
type roots struct {
	dir   string
	repo  *jail.Root
	store *jail.Root // nil without [rlm.store]
}

// openRoots opens the launch directory as the repository, reading its
// permission level from level at every operation, and the store. Errors
// are printed to stderr; the code is exitOK, or the exit code to return.
func openRoots(cfg *config.Config, launchDir string, level func() config.Permission, stderr io.Writer) (*roots, int) {
	dir, err := filepath.EvalSymlinks(launchDir)
	if err != nil {
		fmt.Fprintf(stderr, "harness: current directory: %v\n", err)
		return nil, exitError
	}
	r := &roots{dir: dir}
	if r.repo, err = jail.Open(jail.Repository, dir, level); err != nil {
		fmt.Fprintf(stderr, "harness: open the repository: %v\n", err)
		return nil, exitError
	}
	if cfg.RLM.StorePath != "" {
		if r.store, err = jail.Open(jail.Store, cfg.RLM.StorePath, nil); err != nil {
			r.close()
			fmt.Fprintf(stderr, "harness: open the store [rlm.store] path %s: %v\n", cfg.RLM.StorePath, err)
			return nil, exitUsage
		}
	}
	return r, exitOK
}

func (r *roots) close() {
	r.repo.Close()
	if r.store != nil {
		r.store.Close()
	}
}

// agentParts are what a root agent is built from besides the roots.
type agentParts struct {
	system    *string // [chat] prompt, or --system-prompt
	approver  rlm.Approver
	events    *rlm.Stream
	redactor  *sessions.Redactor
	onFailure func(failures.Note, int) // nil: failure notes are only recorded
}

// newRunner builds the root agent continuing conv in sess, with the real
// endpoint client, file tools and REPLs.
func (r *roots) newRunner(cfg *config.Config, p agentParts, sess *sessions.Session, conv *sessions.File) (*rlm.Runner, error) {
	return rlm.New(rlm.Options{
		Config: cfg, Client: llm.New(cfg.Endpoint, cfg.APIKey(cfg.Endpoint)), System: p.system,
		Session: sess, RepoDir: r.dir, Repository: r.repo, Store: r.store,
		NewREPL: rlm.REPLs(repl.Options{
			Repository: r.repo, Store: r.store, Home: cfg.Home,
			OutputLimit: cfg.REPL.OutputLimit, MaxMemoryMB: cfg.REPL.MaxMemoryMB,
			Commands: cfg.Commands, RepoDir: r.dir, Environ: environ(cfg),
			Failures:  failures.Open(cfg.Home).Redacting(p.redactor.String),
			OnFailure: p.onFailure,
		}),
		Files: rlm.DefaultFileTools(), Approver: p.approver, Events: p.events, Redactor: p.redactor,
	}, conv)
}

// systemPrompt is --system-prompt when given, else [chat] prompt.
func systemPrompt(cfg *config.Config, f agentFlags) *string {
	if f.system != nil {
		return f.system
	}
	return cfg.Chat.Prompt
}
