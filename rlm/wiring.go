// The real file tools and REPLs: tools, patch and repl behind rlm's seams.

package rlm

import (
	"context"

	"harness/jail"
	"harness/patch"
	"harness/repl"
	"harness/tools"
)

// DefaultFileTools runs read_file, grep and list with package tools and
// apply_patch with package patch.
func DefaultFileTools() FileTools {
	return FileTools{
		ReadFile: func(ctx context.Context, r *jail.Root, a ReadFileArgs, limit int) (string, error) {
			return tools.ReadFile(ctx, r, tools.ReadFileArgs{Path: a.Path, StartLine: a.StartLine, EndLine: a.EndLine}, limit)
		},
		Grep: func(ctx context.Context, r *jail.Root, a GrepArgs, limit int) (string, error) {
			return tools.Grep(ctx, r, tools.GrepArgs{Pattern: a.Pattern, Path: a.Path, Fixed: a.Fixed,
				IgnoreCase: a.IgnoreCase, Context: a.Context, Include: a.Include}, limit)
		},
		List: func(ctx context.Context, r *jail.Root, a ListArgs, limit int) (string, error) {
			return tools.List(ctx, r, tools.ListArgs{Path: a.Path, Recursive: a.Recursive, Include: a.Include}, limit)
		},
		ApplyPatch: patch.Apply,
	}
}

// REPLs returns a NewREPL building repl.New REPLs from base (the options
// every subagent shares: roots, home, limits, commands, failure log), with
// the per-agent fields filled in.
func REPLs(base repl.Options) NewREPL {
	return func(env REPLEnv) (REPL, error) {
		r, err := repl.New(REPLOptions(base, env))
		if err != nil {
			return nil, err
		}
		return r, nil
	}
}

// REPLOptions are base with the fields of one agent's REPL taken from env
// (harness repl builds its REPL as a depth-1 subagent's this way).
func REPLOptions(base repl.Options, env REPLEnv) repl.Options {
	o := base
	o.Depth = env.Depth
	o.Library = env.Library
	o.Output = env.Output
	o.OnCommand = env.Command
	o.Approver = env.Approver
	o.AskWrites = env.AskWrites
	o.Model = env.Model
	o.PromptTokens = env.PromptTokens
	o.Window = env.Window
	o.Session = env.Session
	o.MCP = env.MCP
	o.OnTouch = env.Touched
	return o
}
