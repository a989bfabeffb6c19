package repl

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"harness/approval"
	"harness/config"
)

func withAskWrites() envOption { return func(_ *env, o *Options) { o.AskWrites = true } }

// levelApprover answers writes; with toReadWrite it raises the level
// first, as the UI's a does.
type levelApprover struct {
	e           *env
	answer      bool
	err         error
	toReadWrite bool
	seen        []approval.Op
}

func (a *levelApprover) Approve(_ context.Context, raw json.RawMessage) (bool, error) {
	a.seen = append(a.seen, approval.Parse(raw))
	if a.toReadWrite {
		a.e.perm.Store(int32(config.PermReadWrite))
	}
	return a.answer, a.err
}

// TestWritesAskedAtReadOnly: with AskWrites a REPL write that the level
// refuses is put to the Approver (in a worker too, across its
// connection): yes lets that one operation through, no refuses it with a
// reason the model reads, a note is in it; a rename asks once; an answer
// that raised the level lets the next writes through unasked; without
// AskWrites nothing is asked.
func TestWritesAskedAtReadOnly(t *testing.T) {
	cases := []struct {
		name   string
		ask    bool
		ap     levelApprover
		code   string
		want   []string
		asked  int
		exists []string
	}{
		{name: "yes, once each", ask: true, ap: levelApprover{answer: true},
			code: `Path("a.txt").write_text("one")` + "\n" + `Path("b.txt").write_text("two")` + "\n" + `print("written")`,
			want: []string{"written"}, asked: 2, exists: []string{"a.txt", "b.txt"}},
		{name: "no", ask: true, ap: levelApprover{},
			code: `Path("a.txt").write_text("one")`,
			want: []string{"write_text /repository/a.txt: permission denied: the person refused the change at permission read-only; do not try it again another way"}, asked: 1},
		{name: "a note", ask: true, ap: levelApprover{err: &approval.Refusal{Note: "write to /store instead"}},
			code: `Path("a.txt").write_text("one")`,
			want: []string{"the person refused the change at permission read-only and wrote: write to /store instead"}, asked: 1},
		{name: "rename asks once", ask: true, ap: levelApprover{answer: true},
			code: `Path("old.txt").rename("new.txt")` + "\n" + `print("moved")`, want: []string{"moved"}, asked: 1, exists: []string{"new.txt"}},
		{name: "read-write from the answer on", ask: true, ap: levelApprover{answer: true, toReadWrite: true},
			code: `Path("a.txt").write_text("one")` + "\n" + `Path("b.txt").write_text("two")` + "\n" + `print("written")`,
			want: []string{"written"}, asked: 1, exists: []string{"a.txt", "b.txt"}},
		{name: "not asked without AskWrites", ap: levelApprover{answer: true},
			code: `Path("a.txt").write_text("one")`,
			want: []string{"the repository is not writable at permission read-only; the person can change it"}, asked: 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ap := c.ap
			opts := []envOption{func(e *env, o *Options) { ap.e = e; o.Approver = &ap }}
			if c.ask {
				opts = append(opts, withAskWrites())
			}
			e := newEnv(t, opts...)
			e.write(t, "old.txt", "x")
			e.perm.Store(int32(config.PermReadOnly))
			out := e.exec(c.code)
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("result %q lacks %q", out, w)
				}
			}
			if len(ap.seen) != c.asked {
				t.Fatalf("asked %d times, want %d: %+v", len(ap.seen), c.asked, ap.seen)
			}
			for _, op := range ap.seen {
				if op.Kind != approval.Write || op.Tool != "repl" || op.Permission != "read-only" || op.Root != "repository" {
					t.Errorf("asked about %+v", op)
				}
			}
			if c.name == "rename asks once" && strings.Join(ap.seen[0].Paths, " ") != "old.txt new.txt" {
				t.Errorf("the rename asked about %v", ap.seen[0].Paths)
			}
			for _, f := range c.exists {
				if _, err := os.Stat(filepath.Join(e.repo, f)); err != nil {
					t.Errorf("%s: %v", f, err)
				}
			}
			if len(c.exists) == 0 {
				if _, err := os.Stat(filepath.Join(e.repo, "a.txt")); err == nil {
					t.Error("a.txt was written")
				}
			}
		})
	}
}

// TestRunRefusedWithANote: a refusal carrying the person's note is the
// run() call's error, note included, for the model to read.
func TestRunRefusedWithANote(t *testing.T) {
	e := newEnv(t, withEnviron(hostEnviron))
	e.approver.err = &approval.Refusal{Note: "use make test instead"}
	out := e.exec(`run(["sh", "-c", "echo no"])`)
	if !strings.Contains(out, "PermissionError: the user refused to run sh and wrote: use make test instead") {
		t.Errorf("result %q", out)
	}
}
