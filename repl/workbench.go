// What harness repl and harness replib check ask of a REPL besides Exec:
// the names to complete, reloading the helpers over the current state,
// and the helper files described. Each is a control operation, answered
// in JSON by the interpreter, in this process or in the worker.

package repl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
	"harness/repl/rewrite"
	"harness/wire"
)

// The control operations (wire.ExecBody.Op).
const (
	opNames   = "names"
	opReload  = "reload"
	opHelpers = "helpers"
)

// Names returns the names REPL code can use now, sorted: Starlark's
// universe, the predeclared names, the helpers and what earlier calls
// bound; the hidden names of the rewritten code are left out.
func (r *REPL) Names(ctx context.Context) ([]string, error) {
	var names []string
	err := r.control(ctx, opNames, &names)
	return names, err
}

// Reload runs the helper files of $HARNESS_HOME/replib again over the
// current state: every name they bind is bound anew (a file that no
// longer loads keeps nothing of its old version), a name the last load
// bound and this one does not is removed unless REPL code has bound it
// since, and all other globals stay. It describes the files as they
// loaded; the load report is given there instead of at the start of the
// next result.
func (r *REPL) Reload(ctx context.Context) (HelperReport, error) {
	var rep HelperReport
	err := r.control(ctx, opReload, &rep)
	return rep, err
}

// Helpers describes the helper files as the current interpreter loaded
// them.
func (r *REPL) Helpers(ctx context.Context) (HelperReport, error) {
	var rep HelperReport
	err := r.control(ctx, opHelpers, &rep)
	return rep, err
}

// ModuleNames returns the names import finds, sorted.
func ModuleNames() []string { return pyrt.ModuleList() }

// control runs operation op between calls and decodes its JSON answer
// into out. An error is a text written for the person at the terminal
// (the REPL was closed, its worker could not start or was lost).
func (r *REPL) control(ctx context.Context, op string, out any) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	in := r.current()
	if r.closed.Load() || (in.remote == nil && in.Globals == nil) {
		return errors.New("error: this REPL has been closed")
	}
	var text string
	var failed bool
	if in.remote != nil {
		text, failed = r.execRemote(ctx, in, wire.ExecBody{Op: op})
	} else {
		text, failed = in.control(op)
	}
	if failed {
		return errors.New(text)
	}
	if err := json.Unmarshal([]byte(text), out); err != nil {
		return fmt.Errorf("internal error: bad answer to %s: %v", op, err)
	}
	return nil
}

// control answers operation op in JSON, or with a failure's text.
func (r *interp) control(op string) (string, bool) {
	var v any
	switch op {
	case opNames:
		v = r.names()
	case opReload:
		v = r.reloadHelpers()
	case opHelpers:
		v = r.helperReport()
	default:
		return "internal error: unknown control operation " + op, true
	}
	data, err := json.Marshal(v)
	if err != nil {
		return "internal error: " + err.Error(), true
	}
	return string(data), false
}

// names lists what Names returns.
func (r *interp) names() []string {
	seen := map[string]bool{}
	var out []string
	add := func(name string) {
		if !seen[name] && !strings.HasPrefix(name, "__py_") {
			seen[name] = true
			out = append(out, name)
		}
	}
	for name := range starlark.Universe {
		add(name)
	}
	for name := range r.Globals {
		add(name)
	}
	sort.Strings(out)
	return out
}

// control answers a control operation in the worker. After a reload the
// parent's description of the helpers (Functions, LoadErrors) is renewed.
func (s *server) control(id uint64, op string) {
	text, failed := s.in.control(op)
	res := wire.ResultBody{Text: text, Failed: failed}
	if op == opReload {
		info := s.in.info.Load()
		res.Reset, res.Functions, res.LoadErrors = true, info.functions, info.errors
	}
	s.conn.Send(wire.Make(wire.Result, id, res))
}

// Incomplete reports whether src, the lines typed so far at an interactive
// prompt joined by "\n" (without a final newline), still needs more lines
// before it can run, as Python's interactive loop decides (see
// rewrite.Incomplete).
func Incomplete(src string) bool { return rewrite.Incomplete(src) }
