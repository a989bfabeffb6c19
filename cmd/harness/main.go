// Command harness is a terminal coding agent for OpenAI-compatible
// chat-completions endpoints. main parses the command line and wires the
// packages together; it holds no agent logic of its own.
package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"harness/config"
	"harness/reaper"
	"harness/repl"
	"harness/sandbox"
	"harness/worker"
)

// Exit codes.
const (
	exitOK          = 0
	exitError       = 1
	exitUsage       = 2   // bad usage or bad config
	exitInterrupted = 130 // SIGINT; SIGHUP and SIGTERM give 128 + their number (signals.go)
)

func main() {
	os.Exit(exitCode(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)))
}

const usage = `harness: a terminal coding agent for OpenAI-compatible endpoints

Usage:
  harness [--resume NAME] [--system-prompt TEXT]
                        start the full-screen UI in the current directory (a new
                        session, or continue session NAME)
  harness -p PROMPT [--json] [--resume NAME] [--system-prompt TEXT]
                        run one turn headless and print the final answer; -p -
                        reads the prompt from stdin; --json prints every event as
                        one JSON object per line instead; approvals are denied
  harness --resume      choose a saved session to continue in the UI (a full-screen
                        list, newest first); without a terminal, print the list,
                        least recently updated first
  harness setup [--force] [--base-url URL] [--model NAME] [--api-key-env VAR]
                        write a starter ~/.harness/config.toml and create the store
  harness doctor [--full]
                        check the configuration, the endpoint and the helper files
  harness acp           be an Agent Client Protocol agent on stdin and stdout,
                        for an editor (Zed, for one)
  harness repl [--permission LEVEL] [--library NAME] [-c CODE | FILE | -]
                        the REPL of a depth-1 subagent in the current directory:
                        interactive, or one call whose result is printed as the
                        subagent gets it (harness repl --help for more)
  harness replib check [-v] [FILE...]
                        load each helper file in a fresh REPL and report its load
                        errors, functions, shadowed names and docstring examples
  harness --version     print the version
  harness -h, --help    print this help

--system-prompt replaces [chat] prompt for this run (an empty TEXT sends an
empty system message); it is never saved. A session is open in one harness
at a time: another one resuming it is refused. SIGINT, SIGHUP and SIGTERM
stop every agent like Esc and save the session before harness exits.

Exit codes: 0 done, 1 error, 2 bad usage or configuration, or the session is
in use by another harness; 130 interrupted (SIGINT), 129 SIGHUP (the
terminal was closed), 143 SIGTERM.

Files live in ~/.harness (or $HARNESS_HOME): config.toml, .env, sessions/, replib/.
`

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 1 && args[0] == reaper.Arg {
		return reaper.Main(stdin) // the helper that outlives harness (package reaper)
	}
	if len(args) > 0 {
		switch args[0] {
		case worker.Subcommand: // hidden: a REPL worker, started by harness
			return repl.ServeWorker()
		case sandbox.Subcommand: // hidden: the shim that confines a run() command
			return sandbox.Main(args[1:], stderr)
		case "setup":
			return cmdSetup(args[1:], stdout, stderr)
		case "doctor":
			return cmdDoctor(args[1:], stdout, stderr)
		case "acp":
			return cmdACP(args[1:], stdin, stdout, stderr)
		case "repl":
			return cmdREPL(args[1:], stdin, stdout, stderr)
		case "replib":
			return cmdReplib(args[1:], stdout, stderr)
		}
	}
	switch infoFlag(args) {
	case "help":
		fmt.Fprint(stdout, usage)
		return exitOK
	case "version":
		fmt.Fprintln(stdout, "harness", version())
		return exitOK
	}
	return mainAgent(args, stdin, stdout, stderr)
}

// infoFlag returns "help" or "version" when args ask for them, skipping
// the values of -p and --system-prompt (a prompt may read "--help").
func infoFlag(args []string) string {
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "-p", "--system-prompt", "-system-prompt":
			i++
		case "-h", "-help", "--help":
			return "help"
		case "--version", "-version":
			return "version"
		}
	}
	return ""
}

// loadConfig loads the configuration for the current directory, printing
// any error to stderr. The returned code is exitOK or exitUsage.
func loadConfig(stderr io.Writer) (*config.Config, int) {
	home, err := config.Home()
	if err != nil {
		fmt.Fprintln(stderr, "harness:", err)
		return nil, exitUsage
	}
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(stderr, "harness: current directory:", err)
		return nil, exitUsage
	}
	cfg, err := config.Load(home, wd)
	if err != nil {
		fmt.Fprintln(stderr, "harness:", err)
		return nil, exitUsage
	}
	return cfg, exitOK
}

func cmdSetup(args []string, stdout, stderr io.Writer) int {
	var opts config.SetupOptions
	for i := 0; i < len(args); i++ {
		a := args[i]
		val := func() (string, bool) {
			if i+1 >= len(args) {
				fmt.Fprintf(stderr, "harness setup: %s needs a value\n", a)
				return "", false
			}
			i++
			return args[i], true
		}
		var ok = true
		switch a {
		case "--force":
			opts.Force = true
		case "--base-url":
			opts.BaseURL, ok = val()
		case "--model":
			opts.Model, ok = val()
		case "--api-key-env":
			opts.APIKeyEnv, ok = val()
		case "-h", "--help":
			fmt.Fprint(stdout, usage)
			return exitOK
		default:
			fmt.Fprintf(stderr, "harness setup: unknown argument %q\n", a)
			return exitUsage
		}
		if !ok {
			return exitUsage
		}
	}
	home, err := config.Home()
	if err != nil {
		fmt.Fprintln(stderr, "harness setup:", err)
		return exitUsage
	}
	res, err := config.Setup(home, opts)
	if err != nil {
		fmt.Fprintln(stderr, "harness setup:", err)
		return exitUsage
	}
	fmt.Fprint(stdout, res.String())
	return exitOK
}

func version() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		if v := info.Main.Version; v != "" && v != "(devel)" {
			return v
		}
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				return "dev-" + s.Value[:12]
			}
		}
	}
	return "dev"
}
