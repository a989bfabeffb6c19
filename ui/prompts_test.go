package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"harness/prompts"
)

func testPrompts() *prompts.Set {
	return &prompts.Set{Init: "INIT PROMPT", InitFile: "AGENTS.md", Prompts: []prompts.Prompt{
		{Name: "review", Description: "Review a file", ArgumentHint: "FILE", Text: "Review $1 carefully.", Repository: true},
		{Name: "standup", Text: "Summarise yesterday's commits.\nBriefly."},
	}}
}

// waitSent waits until the backend was sent n messages and returns them.
func waitSent(t *testing.T, be *fakeBackend, n int) []string {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if s := be.sent(); len(s) >= n {
			return s
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("sent %q, want %d messages", be.sent(), n)
	return nil
}

// idle waits until no turn runs in the UI.
func idle(u *uiTest) {
	u.t.Helper()
	for range 5000 {
		ch := make(chan bool, 1)
		u.onUI(func() { ch <- !u.app.running })
		if <-ch {
			return
		}
		time.Sleep(time.Millisecond)
	}
	u.t.Fatal("the turn did not end")
}

// TestPromptCommands: the command list shows /init and the prompt files
// (the repository's marked) with their lines; /review FILE sends the
// expanded text; a prompt without arguments chosen in the list is sent at
// once; /init sends its fixed prompt.
func TestPromptCommands(t *testing.T) {
	be := &fakeBackend{}
	u := startUI(t, 100, 20, be, func(o *Options) { o.Prompts = testPrompts() })
	u.typeText("/")
	s := u.waitText("/review")
	for _, want := range []string{"/init", "have a subagent write AGENTS.md for this repository, or improve it",
		"/review FILE", "Review a file (repository)"} {
		if !strings.Contains(s, want) {
			t.Errorf("the list lacks %q:\n%s", want, s)
		}
	}
	u.typeText("s")
	if s := u.waitText("/standup"); !strings.Contains(s, "Summarise yesterday's commits.") {
		t.Errorf("the list lacks /standup's first line:\n%s", s)
	}
	u.key(tcell.KeyBackspace2, 0, 0)
	u.typeText("rev")
	u.key(tcell.KeyEnter, 0, 0) // completes "/review " for its argument
	u.waitFor("the completed command", func(s string) bool {
		return strings.Contains(s, "> /review\n") && !strings.Contains(s, "Review a file")
	})
	// The completed "/review ", then a prompt chosen in the list, then /init.
	for i, c := range []struct{ typed, want string }{
		{"main.go", "Review main.go carefully."},
		{"/stand", "Summarise yesterday's commits.\nBriefly."},
		{"/init ", "INIT PROMPT"},
	} {
		u.typeText(c.typed)
		u.key(tcell.KeyEnter, 0, 0)
		if got := waitSent(t, be, i+1); got[i] != c.want {
			t.Errorf("%q sent %q, want %q", c.typed, got[i], c.want)
		}
		idle(u)
	}
	u.typeText("/nope x")
	u.key(tcell.KeyEnter, 0, 0)
	s = u.waitText("Unknown command /nope")
	if !strings.Contains(s, "/standup. To send") {
		t.Errorf("the unknown-command message does not list the prompts:\n%s", s)
	}
}
