// Command harness is a terminal coding agent for OpenAI-compatible
// chat-completions endpoints. main parses the command line and wires the
// packages together; it holds no agent logic of its own.
package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime/debug"

	"harness/config"
)

// Exit codes.
const (
	exitOK          = 0
	exitError       = 1
	exitUsage       = 2 // bad usage or bad config
	exitInterrupted = 130
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

const usage = `harness: a terminal coding agent for OpenAI-compatible endpoints

Usage:
  harness setup [--force] [--base-url URL] [--model NAME] [--api-key-env VAR]
                        write a starter ~/.harness/config.toml and create the store
  harness doctor [--full]
                        check the configuration, the endpoint and the helper files
  harness --version     print the version
  harness -h, --help    print this help

Files live in ~/.harness (or $HARNESS_HOME): config.toml, .env, sessions/, replib/.
`

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "setup":
			return cmdSetup(args[1:], stdout, stderr)
		case "doctor":
			return cmdDoctor(args[1:], stdout, stderr)
		}
	}
	for _, a := range args {
		switch a {
		case "-h", "-help", "--help":
			fmt.Fprint(stdout, usage)
			return exitOK
		case "--version", "-version":
			fmt.Fprintln(stdout, "harness", version())
			return exitOK
		}
	}
	if len(args) > 0 {
		fmt.Fprintf(stderr, "harness: unknown argument %q\n\n%s", args[0], usage)
		return exitUsage
	}
	if _, code := loadConfig(stderr); code != exitOK {
		return code
	}
	fmt.Fprintln(stderr, "harness: the interactive terminal UI is not available in this build yet; see harness --help for what is")
	return exitUsage
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
		if errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintf(stderr, "harness: %v\n", err)
			return nil, exitUsage
		}
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
