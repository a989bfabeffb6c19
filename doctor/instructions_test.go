package doctor_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"harness/doctor"
	"harness/llmtest"
)

// TestRulesAndPrompts: doctor lists the instruction files (the person's,
// the repository top's, a nested one) and the prompt files with their
// sizes, and warns about a skipped file and a prompt file taking a
// built-in command's name.
func TestRulesAndPrompts(t *testing.T) {
	srv := llmtest.New(t)
	home, launch := setup(t, srv, false)
	files := map[string]string{
		filepath.Join(home, "AGENTS.md"):                           "mine\n",
		filepath.Join(launch, "AGENTS.md"):                         "top rules\n",
		filepath.Join(launch, "pkg", "AGENTS.md"):                  "nested\n",
		filepath.Join(launch, "bad", "AGENTS.md"):                  "\xff",
		filepath.Join(home, "prompts", "review.md"):                "Review $1.",
		filepath.Join(launch, ".harness", "prompts", "standup.md"): "Standup.",
		filepath.Join(home, "prompts", "tools.md"):                 "clash",
	}
	for p, data := range files {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	doctor.RunWith(context.Background(), doctor.Options{Home: home, LaunchDir: launch, Out: &out, Commands: []string{"tools", "init"}})
	for _, want := range []string{
		"ok    rules       " + filepath.Join(home, "AGENTS.md") + ": 5 bytes, given to every agent at its start",
		"ok    rules       " + filepath.Join(launch, "AGENTS.md") + ": 10 bytes, given to every agent at its start",
		"ok    rules       " + filepath.Join(launch, "pkg", "AGENTS.md") + ": 7 bytes, given to a subagent when it first works in pkg/",
		"warn  rules       " + filepath.Join(launch, "bad", "AGENTS.md") + " (1 bytes) is skipped: it is not UTF-8 text",
		"ok    prompts     /review: " + filepath.Join(home, "prompts", "review.md") + ", 10 bytes (yours)",
		"ok    prompts     /standup: " + filepath.Join(launch, ".harness", "prompts", "standup.md") + ", 8 bytes (the repository's)",
		"warn  prompts     prompt file " + filepath.Join(home, "prompts", "tools.md") + ": /tools is a built-in command",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}
