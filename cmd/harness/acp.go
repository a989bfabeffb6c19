// harness acp: an Agent Client Protocol agent on stdin and stdout, for
// editors; package acp maps the protocol, this file wires its sessions.

package main

import (
	"context"
	"fmt"
	"io"
	"os/signal"
	"path/filepath"
	"syscall"

	"harness/acp"
	"harness/config"
	"harness/failures"
	"harness/mcpclient"
	"harness/rlm"
)

const acpUsage = `Usage: harness acp

Speaks the Agent Client Protocol (version 1) on stdin and stdout, for an
editor that starts harness as its agent (Zed: see the README). stdout carries
protocol messages only; diagnostics go to stderr. The configuration is read
(and checked) at initialize and again for each session, in its cwd.
`

func cmdACP(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	for _, a := range args {
		switch a {
		case "-h", "--help":
			fmt.Fprint(stdout, acpUsage)
			return exitOK
		default:
			fmt.Fprintf(stderr, "harness acp: unknown argument %q\n\n%s", a, acpUsage)
			return exitUsage
		}
	}
	commands = newCommands()
	go commands.Start()
	// An editor that goes away leaves a broken pipe: writes then fail
	// (and are logged) instead of killing harness before it saves.
	signal.Ignore(syscall.SIGPIPE)
	ctx, sig, stop := interruptible(context.Background(), stderr)
	defer stop()
	acp.Serve(ctx, stdin, stdout, acp.Options{Load: loadACPConfig, Start: startACP, Log: stderr, Version: version()})
	return sig.exit()
}

// loadACPConfig loads the configuration for repository dir.
func loadACPConfig(dir string) (*config.Config, error) {
	home, err := config.Home()
	if err != nil {
		return nil, err
	}
	return config.Load(home, dir)
}

// acpRoom says how to make room when the conversation of session name no
// longer fits the model's context, in an editor.
func acpRoom(name string) string {
	return "start a new session in the editor, or open this one in the UI (harness --resume " + name +
		") and hide earlier turns in its context overlay"
}

// startACP builds a session's root agent: its roots in the session's cwd,
// its MCP servers (the configured ones, and the editor's, which replace a
// configured server of the same name), the endpoint client and REPLs.
func startACP(s acp.Setup) (acp.Agent, error) {
	cfg := s.Config
	rs, _, err := newRoots(cfg, s.Dir, s.Level)
	if err != nil {
		return acp.Agent{}, err
	}
	fails := failures.Open(cfg.Home).Redacting(s.Redactor.String)
	// As headless: a server that fails to start or stops is an error line.
	onFailure := func(n failures.Note, _ int) {
		if n.Kind == failures.KindMCP {
			s.Events.Emit(rlm.Error{Message: n.Message})
		}
	}
	if specs := withEditorServers(mcpclient.FromConfig(cfg), s.MCP); len(specs) > 0 {
		rs.mcp = mcpclient.Start(specs, mcpclient.Options{
			RepoDir: rs.dir, Environ: environ(cfg), EnvFilter: cfg.Commands.EnvFilter,
			LogDir: filepath.Join(cfg.Home, "mcp"), Failures: fails, OnFailure: onFailure,
			MaxDirectTools: maxDirectTools(cfg),
		})
	}
	parts := agentParts{system: cfg.Chat.Prompt, approver: s.Approver, events: s.Events,
		redactor: s.Redactor, roomAdvice: acpRoom}
	r, err := rs.newRunner(cfg, parts, s.Session, s.Conv)
	if err != nil {
		rs.close()
		return acp.Agent{}, err
	}
	return acp.Agent{Runner: r, Describe: describer(cfg), Close: rs.close, Commands: promptSet(cfg, rs.dir)}, nil
}

// withEditorServers is the configured servers plus the editor's; an
// editor server named like a configured one replaces it.
func withEditorServers(configured, editor []mcpclient.Spec) []mcpclient.Spec {
	names := map[string]bool{}
	for _, sp := range editor {
		names[sp.Name] = true
	}
	var out []mcpclient.Spec
	for _, sp := range configured {
		if !names[sp.Name] {
			out = append(out, sp)
		}
	}
	return append(out, editor...)
}
