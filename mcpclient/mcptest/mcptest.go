// Package mcptest finds the reference MCP server that tests run against:
// @modelcontextprotocol/server-everything, which .ci/run installs with npm
// into a cache folder outside the repository.
package mcptest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// EverythingVersion is the version .ci/run installs; the tests use the
// tool names of this version (they have changed between versions).
const EverythingVersion = "2026.8.31"

// EverythingDir is where .ci/run installs the server:
// ${XDG_CACHE_HOME:-$HOME/.cache}/harness-ci/everything-VERSION.
func EverythingDir() string {
	cache := os.Getenv("XDG_CACHE_HOME")
	if cache == "" {
		home, _ := os.UserHomeDir()
		cache = filepath.Join(home, ".cache")
	}
	return filepath.Join(cache, "harness-ci", "everything-"+EverythingVersion)
}

// Everything returns the command and arguments that run server-everything
// on stdio, or skips t saying what is missing: node on PATH, or the
// package (install it with .ci/run, or point HARNESS_MCP_EVERYTHING at its
// dist/index.js).
func Everything(t testing.TB) (command string, args []string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("skipped: node is not on PATH, so the reference MCP server cannot run")
	}
	script := os.Getenv("HARNESS_MCP_EVERYTHING")
	if script == "" {
		script = filepath.Join(EverythingDir(), "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")
	}
	if _, err := os.Stat(script); err != nil {
		t.Skipf("skipped: @modelcontextprotocol/server-everything@%s is not installed at %s (bash .ci/run installs it)", EverythingVersion, script)
	}
	return node, []string{script, "stdio"}
}
