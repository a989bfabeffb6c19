package rlm

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"harness/config"
	"harness/jail"
	"harness/llmtest"
	"harness/redact"
	"harness/sessions"
)

// fakeREPL records the code it runs and answers "ran: <code>".
type fakeREPL struct {
	env   REPLEnv
	mu    *sync.Mutex
	codes *[]string
	funcs map[string]string
}

func (f *fakeREPL) Exec(ctx context.Context, code string) string {
	f.mu.Lock()
	*f.codes = append(*f.codes, fmt.Sprintf("d%d: %s", f.env.Depth, code))
	f.mu.Unlock()
	if strings.HasPrefix(code, "run(") {
		ok, err := f.env.Approver.Approve(ctx, json.RawMessage(`{"operation":"run","executable":"/bin/ls"}`))
		return fmt.Sprintf("approved=%v err=%v", ok, err)
	}
	if strings.HasPrefix(code, "print(") {
		f.env.Output("printed ")
		f.env.Output("twice")
	}
	return "ran: " + code
}

func (f *fakeREPL) Close()                       {}
func (f *fakeREPL) Functions() map[string]string { return f.funcs }

// rig is one Runner against an llmtest server, with fakes for the REPL and
// the file tools.
type rig struct {
	t      *testing.T
	srv    *llmtest.Server
	cfg    *config.Config
	opts   Options
	store  sessions.Store
	events []Event
	mu     sync.Mutex
	codes  []string
	runner *Runner       // of the latest turn
	seen   chan struct{} // signalled by a session's consumer (context_test.go)
	// onEvent, when set, sees each event as the consumer receives it.
	onEvent func(Event)
}

func newRig(t *testing.T, replies ...llmtest.Reply) *rig {
	t.Helper()
	srv := llmtest.New(t, replies...)
	home := t.TempDir()
	repoDir, storeDir := t.TempDir(), t.TempDir()
	repo, err := jail.Open(jail.Repository, repoDir, func() config.Permission { return config.PermReadWrite })
	if err != nil {
		t.Fatal(err)
	}
	store, err := jail.Open(jail.Store, storeDir, nil)
	if err != nil {
		t.Fatal(err)
	}
	prompt := "be brief"
	cfg := &config.Config{
		Home:     home,
		Endpoint: srv.Endpoint(),
		Chat:     config.Chat{Prompt: &prompt},
		REPL:     config.REPL{ToolDescription: "Run Starlark code.", OutputLimit: 2000},
		RLM:      config.RLM{MaxDepth: 2, StorePath: storeDir},
	}
	r := &rig{t: t, srv: srv, cfg: cfg}
	r.store = sessions.Store{Dir: filepath.Join(home, "sessions"), Now: func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.Local) }}
	red := redact.New([]string{"sk-SECRET"})
	r.opts = Options{
		Config: cfg, Client: srv.Client(""), System: cfg.Chat.Prompt,
		Session: r.store.New(red), Redactor: red, RepoDir: repoDir,
		Repository: repo, Store: store,
		NewREPL: func(env REPLEnv) (REPL, error) {
			return &fakeREPL{env: env, mu: &r.mu, codes: &r.codes, funcs: map[string]string{"glob": "glob(pattern, path=None, exclude=())"}}, nil
		},
		Files: FileTools{
			ReadFile: func(ctx context.Context, root *jail.Root, a ReadFileArgs, limit int) (string, error) {
				return fmt.Sprintf("read %s:%s %d-%d", root.Name(), a.Path, a.StartLine, a.EndLine), nil
			},
			Grep: func(ctx context.Context, root *jail.Root, a GrepArgs, limit int) (string, error) {
				return "", fmt.Errorf("grep %s: no matches", a.Pattern)
			},
			List: func(ctx context.Context, root *jail.Root, a ListArgs, limit int) (string, error) {
				return fmt.Sprintf("list %s:%s %v", root.Name(), a.Path, a.Recursive), nil
			},
			ApplyPatch: func(ctx context.Context, root *jail.Root, p string, limit int) (string, error) {
				return "patched " + root.Name(), nil
			},
		},
		Now: func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) },
	}
	return r
}

// turn runs one root turn with a consumer collecting events.
func (r *rig) turn(ctx context.Context, prompt string, conv *sessions.File) (Result, error) {
	r.t.Helper()
	s := NewStream()
	r.opts.Events = s
	runner, err := New(r.opts, conv)
	if err != nil {
		r.t.Fatal(err)
	}
	r.runner = runner
	done := r.consume(s)
	res, err := runner.Turn(ctx, prompt)
	s.Close()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		r.t.Fatal("event consumer did not finish")
	}
	return res, err
}

// consume collects s's events on a goroutine of its own, telling onEvent
// and signalling seen (when set) after each; the channel closes once s has
// ended.
func (r *rig) consume(s *Stream) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			e, ok := s.Next(context.Background())
			if !ok {
				return
			}
			r.mu.Lock()
			r.events = append(r.events, e)
			r.mu.Unlock()
			if r.onEvent != nil {
				r.onEvent(e)
			}
			if r.seen != nil {
				select {
				case r.seen <- struct{}{}:
				default:
				}
			}
		}
	}()
	return done
}

// chat returns request i's body.
func (r *rig) chat(i int) llmtest.ChatBody {
	r.t.Helper()
	chats := r.srv.Chats()
	if i >= len(chats) {
		r.t.Fatalf("only %d requests", len(chats))
	}
	return chats[i].MustChat(r.t)
}

// file loads a conversation file of the session.
func (r *rig) file(depth int, id string) *sessions.File {
	r.t.Helper()
	f, err := sessions.Load(r.opts.Session.Path(depth, id))
	if err != nil {
		r.t.Fatal(err)
	}
	return f
}

// eventsOf returns the collected events of type T.
func eventsOf[T Event](r *rig) []T {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []T
	for _, e := range r.events {
		if v, ok := e.(T); ok {
			out = append(out, v)
		}
	}
	return out
}
