// Tests of how tool calls look: titles, kinds, locations, diffs, and which results are failures.

package acp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"harness/config"
	"harness/jail"
	"harness/patch"
	"harness/repl"
	"harness/rlm"
	"harness/tools"
)

func TestCallView(t *testing.T) {
	r := roots{repository: "/repo", store: "/store", library: "/sess/library"}
	sub := rlm.Agent{Name: "lister", Depth: 1, ID: "c1"}
	root := rlm.Agent{Name: "20260101-120000"}
	patchArgs := func(p string, extra ...string) string {
		m := map[string]string{"patch": p}
		for i := 0; i+1 < len(extra); i += 2 {
			m[extra[i]] = extra[i+1]
		}
		b, _ := json.Marshal(m)
		return string(b)
	}
	for _, tc := range []struct {
		agent     rlm.Agent
		name      string
		args      string
		title     string
		kind      sdk.ToolKind
		locations []string // path[:line]
	}{
		{sub, "read_file", `{"path":"main.go"}`, "lister · read_file main.go", "read", []string{"/repo/main.go"}},
		{sub, "read_file", `{"path":"a/b.go","start_line":10,"end_line":20}`, "lister · read_file a/b.go:10-20", "read", []string{"/repo/a/b.go:10"}},
		{sub, "read_file", `{"path":"notes.md","root":"store","end_line":5}`, "lister · read_file store:notes.md:1-5", "read", []string{"/store/notes.md"}},
		{sub, "read_file", `{"path":"root.json","root":"library"}`, "lister · read_file library:root.json", "read", []string{"/sess/library/root.json"}},
		{sub, "read_file", `{"path":"../../etc/passwd"}`, "lister · read_file ../../etc/passwd", "read", nil},
		{sub, "read_file", `"{\"path\":\"x.go\"}"`, "lister · read_file x.go", "read", []string{"/repo/x.go"}},
		{sub, "grep", `{"pattern":"func main"}`, "lister · grep func main", "search", []string{"/repo"}},
		{sub, "grep", `{"pattern":"TODO","path":"src"}`, "lister · grep TODO in src", "search", []string{"/repo/src"}},
		{sub, "list", `{}`, "lister · list .", "search", []string{"/repo"}},
		{sub, "list", `{"path":"docs","root":"store"}`, "lister · list store:docs", "search", []string{"/store/docs"}},
		{sub, "repl", `{"code":"x = 1\nprint(x)"}`, "lister · repl x = 1 …", "execute", nil},
		{sub, "repl", `{"code":"` + strings.Repeat("y", 100) + `"}`, "lister · repl " + strings.Repeat("y", 79) + "…", "execute", nil},
		{sub, "apply_patch", patchArgs("*** Begin Patch\n*** Update File: a.go\n@@ line 7: x\n-x\n+y\n*** Add File: b.go\n+b\n*** End Patch\n"),
			"lister · apply_patch a.go, b.go", "edit", []string{"/repo/a.go:7", "/repo/b.go"}},
		{sub, "apply_patch", patchArgs("*** Begin Patch\n*** Delete File: old.go\n*** End Patch\n"), "lister · apply_patch old.go", "delete", []string{"/repo/old.go"}},
		{sub, "apply_patch", patchArgs("*** Begin Patch\n*** Update File: a.go\n*** Move to: b.go\n*** End Patch\n", "root", "store"),
			"lister · apply_patch store:a.go → b.go", "move", []string{"/store/a.go", "/store/b.go"}},
		{sub, "apply_patch", patchArgs("not a patch"), "lister · apply_patch", "edit", nil},
		{sub, "rlm", `{"task":"Find the bug.\nThen fix it.","name":"finder"}`, "lister · rlm finder: Find the bug. …", "think", nil},
		{root, "rlm", `{"task":"List the files.","name":"lister"}`, "rlm lister: List the files.", "think", nil},
		{root, "FYI", `{}`, "FYI", "other", nil},
		{sub, "mcp__github__search_issues", `{"q":"x"}`, "lister · MCP github search_issues", "other", nil},
		{sub, "nonsense", `{not json`, "lister · nonsense", "other", nil},
	} {
		c := newCall(tc.agent, tc.name, tc.args)
		if got := c.title(); got != tc.title {
			t.Errorf("%s %s: title %q, want %q", tc.name, tc.args, got, tc.title)
		}
		if got := c.kind(); got != tc.kind {
			t.Errorf("%s %s: kind %q, want %q", tc.name, tc.args, got, tc.kind)
		}
		var locs []string
		for _, l := range c.locations(r) {
			s := l.Path
			if l.Line != nil {
				s += ":" + itoa(*l.Line)
			}
			locs = append(locs, s)
		}
		if strings.Join(locs, " ") != strings.Join(tc.locations, " ") {
			t.Errorf("%s %s: locations %v, want %v", tc.name, tc.args, locs, tc.locations)
		}
	}
}

func TestDiffs(t *testing.T) {
	r := roots{repository: "/repo"}
	b, _ := json.Marshal(map[string]string{"patch": "*** Begin Patch\n*** Update File: a.go\n ctx\n-old\n+new\n@@\n-x\n*** Add File: n.go\n+one\n+two\n*** Delete File: d.go\n*** Replace File: r.go\n+all\n*** End Patch\n"})
	c := newCall(rlm.Agent{}, "apply_patch", string(b))
	got := c.resultContent("M a.go\n…", false, r)
	type diff struct{ path, old, new string }
	var diffs []diff
	for _, tc := range got {
		if d := tc.Diff; d != nil {
			old := "<nil>"
			if d.OldText != nil {
				old = *d.OldText
			}
			diffs = append(diffs, diff{d.Path, old, d.NewText})
		}
	}
	want := []diff{{"/repo/a.go", "ctx\nold\n", "ctx\nnew\n"}, {"/repo/a.go", "x\n", ""}, {"/repo/n.go", "<nil>", "one\ntwo\n"}}
	if len(diffs) != len(want) {
		t.Fatalf("diffs %+v", diffs)
	}
	for i := range want {
		if diffs[i] != want[i] {
			t.Errorf("diff %d = %+v, want %+v", i, diffs[i], want[i])
		}
	}
	if last := got[len(got)-1]; last.Content == nil || last.Content.Content.Text.Text != "M a.go\n…" {
		t.Errorf("the result text is not last: %+v", last)
	}
	if failedContent := c.resultContent("a.go: no such hunk", true, r); len(failedContent) != 1 || failedContent[0].Diff != nil {
		t.Errorf("a failed patch shows diffs: %+v", failedContent)
	}
}

// TestFailed classifies results produced by the real tools, patch and REPL.
func TestFailed(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("hello\n"), 0o644)
	perm := config.PermReadWrite
	root, err := jail.Open(jail.Repository, dir, func() config.Permission { return perm })
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	ctx := context.Background()
	text := func(s string, err error) string {
		if err != nil {
			return err.Error()
		}
		return s
	}
	r, err := repl.New(repl.Options{Depth: 1, Home: t.TempDir(), OutputLimit: 10000, Repository: root, RepoDir: dir,
		Commands: config.Commands{Allow: map[string]string{}}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	update := "*** Begin Patch\n*** Update File: a.txt\n-hello\n+hi\n*** End Patch\n"
	for _, tc := range []struct {
		name, result string
		failed       bool
	}{
		{"read_file", text(tools.ReadFile(ctx, root, tools.ReadFileArgs{Path: "a.txt"}, 1000)), false},
		{"read_file", text(tools.ReadFile(ctx, root, tools.ReadFileArgs{Path: "missing.txt"}, 1000)), true},
		{"read_file", text(tools.ReadFile(ctx, root, tools.ReadFileArgs{Path: "a.txt", StartLine: 9}, 1000)), true},
		{"list", text(tools.List(ctx, root, tools.ListArgs{}, 1000)), false},
		{"list", text(tools.List(ctx, root, tools.ListArgs{Path: "nope"}, 1000)), true},
		{"grep", text(tools.Grep(ctx, root, tools.GrepArgs{Pattern: "hello"}, 1000)), false},
		{"grep", text(tools.Grep(ctx, root, tools.GrepArgs{Pattern: "("}, 1000)), true},
		{"apply_patch", text(patch.Apply(ctx, root, update, 1000)), false},
		{"apply_patch", text(patch.Apply(ctx, root, update, 1000)), true}, // hello is gone
		{"apply_patch", text(patch.Apply(ctx, root, "*** Begin Patch\n*** Add File: b.txt\n+b\n*** End Patch\n", 1000)), false},
		{"apply_patch", text(patch.Apply(ctx, root, "*** Begin Patch\n*** Update File: b.txt\n*** Move to: c.txt\n*** End Patch\n", 1000)), false},
		{"apply_patch", text(patch.Apply(ctx, root, "garbage", 1000)), true},
		{"repl", r.Exec(ctx, "print('ok')"), false},
		{"repl", r.Exec(ctx, "print('before')\n1 // 0"), true},
		{"repl", r.Exec(ctx, "print('Error: this is only printed')"), false},
		{"repl", r.Exec(ctx, "d = {}\nd['k']"), true},
		{"repl", r.Exec(ctx, "fail('boom')"), true},
		{"repl", r.Exec(ctx, "print('Traceback (most recent call last):\\n  x\\nnot an error')"), false},
		{"rlm", "The answer.", false},
		{"rlm", "partial\n" + rlm.StoppedMarker, true},
		{"rlm", "partial\n" + rlm.BranchFailed(os.ErrDeadlineExceeded), true},
		{"rlm", "partial\n" + rlm.InterruptedPrefix + " (it was killed or crashed) while subagent \"w\" was working on this task, before it answered.]", true},
		{"rlm", "The answer.\n[recovered: harness stopped before this answer was delivered; it is the last reply of subagent \"w\"]", false},
		{"list", rlm.NotRun, true},
		{"read_file", "Invalid arguments for read_file: missing required argument \"path\"", true},
		{"frob", "Unknown tool: frob", true},
		{"read_file", `"root" is "library"; it must be one of repository, store`, true},
		{"mcp__gh__search", "3 issues found", false},
		{"mcp__gh__search", "The tool reported an error:\nrate limited", true},
		{"mcp__gh__search", "PermissionError: gh/search was not approved: no", true},
		{"mcp__gh__search", "MCP server gh stopped during the call (exit 1)", true},
	} {
		if got := failed(tc.name, tc.result); got != tc.failed {
			t.Errorf("failed(%s, %q) = %v", tc.name, tc.result, got)
		}
	}
	perm = config.PermReadOnly
	if res := text(patch.Apply(ctx, root, "*** Begin Patch\n*** Add File: d.txt\n+d\n*** End Patch\n", 1000)); !failed("apply_patch", res) {
		t.Errorf("a refused write is not failed: %q", res)
	}
}
