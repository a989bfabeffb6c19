package ui

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"golang.org/x/tools/txtar"

	"harness/config"
	"harness/llm"
	"harness/rlm"
	"harness/sessions"
)

var update = flag.Bool("update", false, "rewrite ui/testdata/screens/*.txtar with the screens drawn")

// screenCases are whole screens drawn from fixed states; the wanted
// screens are ui/testdata/screens/<name>.txtar. go test ./ui -run
// TestScreens -update rewrites them.
var screenCases = []struct {
	name, about string
	w, h        int
	items       []sessions.Item
	system      string
	events      []rlm.Event
	keys        string
}{
	{
		name: "conversation", about: "a saved conversation: system message, user, reasoning, call with result, answer",
		w: 60, h: 22, system: "Be brief.",
		items: []sessions.Item{
			{Message: llm.Message{Role: "user", Content: "What is in the repository?"}},
			{Message: reasoned(llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{{ID: "c1", Name: "rlm", Arguments: `{"task":"List the top-level files.","name":"lister"}`}}}, "I will delegate the listing.")},
			{Message: llm.Message{Role: "tool", ToolCallID: "c1", Content: "README.md\ngo.mod\nmain.go"}},
			{Message: llm.Message{Role: "assistant", Content: "Three files: a README, the module file and main.go."}},
		},
	},
	{
		name: "narrow", about: "word wrap at 24 columns, input wrapped too",
		w: 24, h: 14,
		items: []sessions.Item{
			{Message: llm.Message{Role: "user", Content: "Please explain the difference between a slice and an array."}},
			{Message: llm.Message{Role: "assistant", Content: "An array has a fixed length that is part of its type; a slice is a window onto one."}},
		},
		keys: "a message typed while reading",
	},
	{
		name: "subagent-approval", about: "a running subagent with a streamed patch call, printed output, a failure note and a pending approval",
		w: 72, h: 22,
		events: []rlm.Event{
			rlm.AgentStart{Agent: rlm.Agent{Name: "s1"}},
			rlm.MessageAdded{Agent: rlm.Agent{Name: "s1"}, Message: llm.Message{Role: "user", Content: "fix the typo"}},
			rlm.AgentStart{Agent: rlm.Agent{Name: "fixer", Depth: 1, ID: "c1"}},
			rlm.MessageAdded{Agent: rlm.Agent{Name: "fixer", Depth: 1, ID: "c1"}, Message: llm.Message{Role: "user", Content: "Fix the typo in README.md."}},
			rlm.ToolCallStarted{Agent: rlm.Agent{Name: "fixer", Depth: 1, ID: "c1"}, ID: "p1", Name: "apply_patch"},
			rlm.ToolArgsDelta{Agent: rlm.Agent{Name: "fixer", Depth: 1, ID: "c1"}, ID: "p1", Text: `{"root":"store","patch":"*** Begin Patch\n*** Update File: README.md\n@@\n-teh`},
			rlm.ToolOutput{Agent: rlm.Agent{Name: "fixer", Depth: 1, ID: "c1"}, ID: "x", Text: "checking...\n"},
			FailureNote{Message: "denied: write README.md: the repository is read-only\nraise the level with Shift+Tab", Count: 2},
		},
	},
}

func reasoned(m llm.Message, r string) llm.Message {
	raw, _ := json.Marshal(r)
	m.Set("reasoning_content", raw)
	return m
}

// drawScreen draws a case without the event loop and returns the screen.
func drawScreen(t *testing.T, w, h int, be *fakeBackend, system string, events []rlm.Event, keys string, approval json.RawMessage) string {
	t.Helper()
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	scr.SetSize(w, h)
	opts := Options{Theme: testTheme, Model: "model-x", Backend: be, Events: be.events,
		Approvals: NewApprovals(), Level: NewLevel(config.PermReadOnly)}
	if system != "" {
		opts.System = &system
	}
	a := newApp(opts)
	a.main.ov.SetCollapsed(true)
	for _, e := range events {
		a.handle(e)
	}
	for _, r := range keys {
		a.do(Action{Cmd: CmdInsert, Rune: r})
	}
	if approval != nil {
		a.addApproval(newApprovalReq(approval))
	}
	a.main.SetRect(0, 0, w, h)
	a.main.Draw(scr)
	scr.Show()
	cells, cw, ch := scr.GetContents()
	var sb strings.Builder
	for y := 0; y < ch; y++ {
		var row strings.Builder
		for x := 0; x < cw; x++ {
			if c := cells[y*cw+x]; len(c.Runes) > 0 {
				row.WriteString(string(c.Runes))
			} else {
				row.WriteByte(' ')
			}
		}
		sb.WriteString(strings.TrimRight(row.String(), " ") + "\n")
	}
	return sb.String()
}

func TestScreens(t *testing.T) {
	for _, c := range screenCases {
		t.Run(c.name, func(t *testing.T) {
			be := &fakeBackend{events: rlm.NewStream(), items: c.items, name: "s1"}
			var op json.RawMessage
			if c.name == "subagent-approval" {
				op = json.RawMessage(`{"operation":"run","executable":"/usr/bin/git","arguments":["status"]}`)
			}
			got := drawScreen(t, c.w, c.h, be, c.system, c.events, c.keys, op)
			checkScreen(t, filepath.Join("testdata", "screens", c.name+".txtar"), c.about, got, *update, "-update")
		})
	}
}

// TestTinyScreens draws every case at very small sizes: nothing may panic.
func TestTinyScreens(t *testing.T) {
	for _, c := range screenCases {
		for w := 1; w <= 6; w++ {
			for h := 1; h <= 5; h++ {
				be := &fakeBackend{events: rlm.NewStream(), items: c.items, name: "s1"}
				drawScreen(t, w, h, be, c.system, c.events, c.keys, json.RawMessage(`{"operation":"run"}`))
			}
		}
	}
}

// checkScreen compares a drawn screen with the golden file path, or
// rewrites the file (with about as its comment) when rewrite is set; flag
// names the test flag that does it.
func checkScreen(t *testing.T, path, about, got string, rewrite bool, flag string) {
	t.Helper()
	checkGolden(t, path, about, rewrite, flag, txtar.File{Name: "screen", Data: []byte(got)})
}

// checkGolden compares the golden txtar at path with files (its sections,
// in order), or rewrites it with them and about as its comment when
// rewrite is set; flag names the test flag that does it.
func checkGolden(t *testing.T, path, about string, rewrite bool, flag string, files ...txtar.File) {
	t.Helper()
	if rewrite {
		ar := &txtar.Archive{Comment: []byte(about + "\n"), Files: files}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatalf("%v (run with %s to create it)", err, flag)
	}
	if len(want.Files) != len(files) {
		t.Fatalf("%s has %d sections, want %d (rerun with %s after checking)", path, len(want.Files), len(files), flag)
	}
	for i, f := range files {
		if w := want.Files[i]; w.Name != f.Name || string(w.Data) != string(f.Data) {
			t.Errorf("%s differs from %s (rerun with %s after checking):\ngot:\n%s\nwant:\n%s", f.Name, path, flag, f.Data, w.Data)
		}
	}
}
