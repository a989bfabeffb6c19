// Interoperability with the reference server @modelcontextprotocol/server-everything
// (skipped, saying why, when node or the package is missing).

package mcpclient

import (
	"context"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"

	"harness/mcpclient/mcptest"
)

func startEverything(t *testing.T, environ []string, filter []string) (*Set, string) {
	t.Helper()
	command, args := mcptest.Everything(t)
	repo := t.TempDir()
	s := Start([]Spec{{Name: "everything", Command: command, Args: args, Env: map[string]string{"FROM_CONFIG": "yes"}}},
		Options{RepoDir: repo, Environ: func() []string { return environ }, EnvFilter: filter, LogDir: t.TempDir()})
	t.Cleanup(s.Close)
	info := s.Servers(context.Background())[0]
	if info.Err != "" {
		t.Fatalf("server-everything did not start: %s", info.Err)
	}
	return s, repo
}

func TestEverything(t *testing.T) {
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "VISIBLE=1", "FILTERED_OUT=1"}
	s, repo := startEverything(t, env, []string{"FILTERED_OUT"})
	ap := &approver{ok: true}
	run := func(t *testing.T, tool, args string, progress func(Progress)) Result {
		t.Helper()
		res, err := s.Call(context.Background(), Call{Server: "everything", Tool: tool, Arguments: json.RawMessage(args), Approver: ap, Progress: progress})
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		if res.IsError {
			t.Fatalf("%s reported an error: %s", tool, res.Text)
		}
		return res
	}
	t.Run("tools", func(t *testing.T) {
		names := map[string]string{}
		for _, tool := range s.Servers(context.Background())[0].Tools {
			names[tool.Name] = tool.Exposed
		}
		for _, want := range []string{"echo", "get-sum", "get-structured-content", "get-tiny-image", "get-resource-links", "trigger-long-running-operation", "get-roots-list"} {
			if names[want] != "mcp__everything__"+want {
				t.Errorf("tool %s: %q (all: %v)", want, names[want], names)
			}
		}
	})
	t.Run("echo", func(t *testing.T) {
		if res := run(t, "echo", `{"message":"hello there"}`, nil); res.Text != "Echo: hello there" || res.Structured != nil {
			t.Errorf("echo = %+v", res)
		}
	})
	t.Run("get-sum", func(t *testing.T) {
		if res := run(t, "get-sum", `{"a":2,"b":40}`, nil); res.Text != "The sum of 2 and 40 is 42." {
			t.Errorf("get-sum = %+v", res)
		}
	})
	t.Run("get-structured-content", func(t *testing.T) {
		res := run(t, "get-structured-content", `{"location":"Chicago"}`, nil)
		want := `{"conditions":"Light rain / drizzle","humidity":82,"temperature":36}`
		if string(res.Structured) != want || res.Text != want {
			t.Errorf("got text %q structured %s; want both %s (the text block repeating it left out)", res.Text, res.Structured, want)
		}
	})
	t.Run("get-tiny-image", func(t *testing.T) {
		res := run(t, "get-tiny-image", `{}`, nil)
		if !regexp.MustCompile(`\[image: image/png, [0-9,]+ bytes\]`).MatchString(res.Text) {
			t.Errorf("get-tiny-image = %q", res.Text)
		}
	})
	t.Run("get-resource-links", func(t *testing.T) {
		res := run(t, "get-resource-links", `{"count":2}`, nil)
		if !strings.Contains(res.Text, "[resource link: demo://resource/dynamic/blob/1 (Blob Resource 1)]") ||
			!strings.Contains(res.Text, "[resource link: demo://resource/dynamic/text/2 (Text Resource 2)]") {
			t.Errorf("get-resource-links = %q", res.Text)
		}
	})
	t.Run("trigger-long-running-operation", func(t *testing.T) {
		var mu sync.Mutex
		var got []string
		res := run(t, "trigger-long-running-operation", `{"duration":0.3,"steps":3}`, func(p Progress) {
			mu.Lock()
			got = append(got, p.String())
			mu.Unlock()
		})
		mu.Lock()
		defer mu.Unlock()
		if !strings.HasPrefix(res.Text, "Long running operation completed.") || len(got) < 2 || got[0] != "progress 1/3" || got[1] != "progress 2/3" {
			t.Errorf("result %q, progress %v", res.Text, got)
		}
	})
	t.Run("get-roots-list", func(t *testing.T) {
		if res := run(t, "get-roots-list", `{}`, nil); !strings.Contains(res.Text, "file://"+repo) {
			t.Errorf("roots = %q; want %s", res.Text, repo)
		}
	})
	t.Run("get-env", func(t *testing.T) {
		res := run(t, "get-env", `{}`, nil)
		var vars map[string]string
		if err := json.Unmarshal([]byte(res.Text), &vars); err != nil {
			t.Fatalf("get-env: %v\n%s", err, res.Text)
		}
		if vars["VISIBLE"] != "1" || vars["FROM_CONFIG"] != "yes" || vars["FILTERED_OUT"] != "" {
			t.Errorf("environment: VISIBLE=%q FROM_CONFIG=%q FILTERED_OUT=%q", vars["VISIBLE"], vars["FROM_CONFIG"], vars["FILTERED_OUT"])
		}
	})
	if n := len(ap.asked()); n == 0 {
		t.Error("no call asked for approval, though nothing is on the allow list")
	}
}
