package repl

import (
	"strings"
	"testing"

	"harness/config"
)

// helpCeiling is the most help() may print with 20 helper files loaded
// and every optional section present: it is in every subagent's context.
const helpCeiling = 4096

// TestHelpSize checks help() stays under helpCeiling at depth 2 with 20
// helper files, the workspace sandbox with extra writable folders, MCP
// servers and a worker's protection line (in worker mode), while still
// naming every helper.
func TestHelpSize(t *testing.T) {
	e := newEnv(t, withDepth(2), withLimit(100000), withMCP(newFakeMCP()), withCommands(config.Commands{
		Deny: []string{"git", "rm"}, Allow: map[string]string{"go": "/usr/local/go/bin/go", "make": "/usr/bin/make", "rg": "/usr/bin/rg"},
		Sandbox: config.SandboxWorkspace, Writable: []string{"~/.cache/go-build", "~/go/pkg/mod"},
	}))
	withHelpers(t, e)
	out := e.exec("help()")
	if len(out) >= helpCeiling {
		t.Errorf("help() is %d bytes, want under %d:\n%s", len(out), helpCeiling, out)
	}
	for _, want := range []string{"## Files", "Protection: ", "## Starlark", "Use instead:", "## REPL functions", "## Commands",
		"Sandbox: every command runs confined", "## MCP servers", "## Helper functions", "helper_16(", "help(name) shows"} {
		if !strings.Contains(out, want) {
			t.Errorf("help() lacks %q", want)
		}
	}
	t.Logf("help() is %d bytes", len(out))
}

// TestHelpOn checks help(name) for a helper, a REPL function and a module.
func TestHelpOn(t *testing.T) {
	e := newEnv(t)
	withHelpers(t, e)
	for _, tc := range []struct{ code, want string }{
		{`help("helper_03")`, "helper_03(path, pattern=\"*\", limit=10)\n    Helper 3: list up to limit paths.\n(from replib/h03.star; lib_source('h03') shows it)"},
		{`help(helper_03)`, "helper_03(path, pattern=\"*\", limit=10)\n"},
		{`help(run)`, "run(argv, cwd=None): "},
		{`import textwrap` + "\nhelp(textwrap)", "textwrap: TextWrapper dedent fill indent shorten wrap"},
		{`help("json")`, "json: "},
		{`help("argparse")`, "parse_args() with no list parses []"},
		{`help("re")`, "a backtracking engine that stops a match after 2 s"},
		{`help(3)`, "No documentation for 3; help() describes the REPL."},
	} {
		t.Run(tc.code, func(t *testing.T) {
			if got := e.exec(tc.code); !strings.Contains(got, tc.want) {
				t.Errorf("got:\n%s\nwant it to contain:\n%s", got, tc.want)
			}
		})
	}
}

// withHelpers gives e a REPL with 20 helper files loaded.
func withHelpers(t *testing.T, e *env) {
	writeHelpers(t, e)
	r, err := New(e.repl.opts)
	if err != nil {
		t.Fatal(err)
	}
	e.repl.Close()
	e.repl = r
	t.Cleanup(r.Close)
}

// TestHelpSiblings: with other subagents running at once ([rlm]
// parallel), help()'s Files section says how writes to /store meet.
func TestHelpSiblings(t *testing.T) {
	const line = "Other subagents may run at the same time: each write replaces the whole file at once"
	for _, siblings := range []bool{false, true} {
		e := newEnv(t, func(_ *env, o *Options) { o.Siblings = siblings })
		if got := strings.Contains(e.exec("help()"), line); got != siblings {
			t.Errorf("Siblings %v: help() says so: %v", siblings, got)
		}
	}
}
