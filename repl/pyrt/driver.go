// The driver: a call's top-level statements run as Starlark chunks, with
// try/except, del of names and loops around them run here.

package pyrt

import (
	"errors"
	"fmt"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"harness/repl/rewrite"
)

// Starlark has no exceptions, so a top-level try cannot be compiled. The
// driver runs the statements of a call in order: runs of ordinary
// statements as one REPL chunk each (starlark.ExecREPLChunk, so their
// globals persist), and itself the statements that need it:
//
//	if __py_try(): … elif __py_except(E, "e"): … elif __py_else(): … elif __py_finally(): …
//	                   a try statement (see rewrite/prepass.go)
//	__py_delname("x"), __py_import_star("m")
//	                   bindings only the driver can change between chunks
//	for, while, if     when their bodies hold one of these, or a break or
//	                   continue of a loop the driver runs
//
// A loop the driver runs binds its targets in the globals, as a top-level
// loop does. Errors the REPL cannot recover from (Esc, the memory limit,
// the recursion limit) are never caught.

type signal int

const (
	sigNone signal = iota
	sigBreak
	sigContinue
)

// runStmts executes top-level statements.
func (r *Interp) RunStmts(f *syntax.File, stmts []syntax.Stmt) error {
	_, err := r.block(f, stmts, false)
	return err
}

// block runs stmts; inLoop says whether break and continue belong to a
// loop the driver runs.
func (r *Interp) block(f *syntax.File, stmts []syntax.Stmt, inLoop bool) (signal, error) {
	start := 0
	flush := func(end int) error {
		if end > start {
			chunk := &syntax.File{Path: f.Path, Stmts: stmts[start:end], Options: f.Options}
			return starlark.ExecREPLChunk(chunk, r.Thread, r.Globals)
		}
		return nil
	}
	for i, s := range stmts {
		if !driven(s, inLoop) {
			continue
		}
		if err := flush(i); err != nil {
			return sigNone, err
		}
		start = i + 1
		sig, err := r.driveStmt(f, s, inLoop)
		if err != nil || sig != sigNone {
			return sig, err
		}
	}
	return sigNone, flush(len(stmts))
}

// stmtMarkers are the hidden calls the pre-pass writes for statements
// (del, assert, raise, from x import *), which are never a trailing
// expression whose value is shown.
var StmtMarkers = map[string]bool{
	"__py_assert": true, "__py_raise": true, "__py_delattr": true, "__py_delitem": true,
	"__py_delname": true, "__py_delslice": true, "__py_import_star": true, "__py_setglobal": true,
}

// driven reports whether s needs the driver.
func driven(s syntax.Stmt, inLoop bool) bool {
	switch s := s.(type) {
	case *syntax.BranchStmt:
		return inLoop && s.Token != syntax.PASS
	case *syntax.ExprStmt:
		_, name := rewrite.MarkerCall(s.X)
		return name == "__py_delname" || name == "__py_import_star"
	case *syntax.IfStmt:
		if _, name := rewrite.MarkerCall(s.Cond); name == "__py_try" {
			return true
		}
		return anyDriven(s.True, inLoop) || anyDriven(s.False, inLoop)
	case *syntax.ForStmt:
		if isWith(s) {
			return true // the driver hands the managers the block's exception
		}
		return anyDriven(s.Body, false) || withEscapes(s.Body)
	case *syntax.WhileStmt:
		return anyDriven(s.Body, false) || withEscapes(s.Body)
	}
	return false
}

// withEscapes reports whether a loop body holds a with statement whose
// break or continue belongs to the loop: the driver must run the loop so
// that the with does not take them.
func withEscapes(stmts []syntax.Stmt) bool {
	for _, s := range stmts {
		switch s := s.(type) {
		case *syntax.ForStmt:
			if isWith(s) && (branches(s.Body) || withEscapes(s.Body)) {
				return true
			}
		case *syntax.IfStmt:
			if withEscapes(s.True) || withEscapes(s.False) {
				return true
			}
		}
	}
	return false
}

// branches reports whether stmts hold a break or continue outside any
// loop of their own (with statements are not loops).
func branches(stmts []syntax.Stmt) bool {
	for _, s := range stmts {
		switch s := s.(type) {
		case *syntax.BranchStmt:
			if s.Token != syntax.PASS {
				return true
			}
		case *syntax.IfStmt:
			if branches(s.True) || branches(s.False) {
				return true
			}
		case *syntax.ForStmt:
			if isWith(s) && branches(s.Body) {
				return true
			}
		}
	}
	return false
}

func anyDriven(stmts []syntax.Stmt, inLoop bool) bool {
	for _, s := range stmts {
		if driven(s, inLoop) {
			return true
		}
	}
	return false
}

// isWith reports whether a for statement is a with statement (rewrite/prepass.go).
func isWith(s *syntax.ForStmt) bool {
	x := s.X
	if c, ok := x.(*syntax.CallExpr); ok && len(c.Args) == 1 {
		if id, ok := c.Fn.(*syntax.Ident); ok && id.Name == rewrite.HidIter {
			x = c.Args[0]
		}
	}
	_, name := rewrite.MarkerCall(x)
	return name == "__py_with"
}

func (r *Interp) eval(e syntax.Expr) (starlark.Value, error) {
	return starlark.EvalExprOptions(r.FileOpts, r.Thread, e, r.Globals)
}

// driveStmt runs one statement that needs the driver.
func (r *Interp) driveStmt(f *syntax.File, s syntax.Stmt, inLoop bool) (signal, error) {
	switch s := s.(type) {
	case *syntax.BranchStmt:
		if s.Token == syntax.BREAK {
			return sigBreak, nil
		}
		return sigContinue, nil
	case *syntax.ExprStmt:
		_, err := r.eval(s.X)
		return sigNone, err
	case *syntax.IfStmt:
		if _, name := rewrite.MarkerCall(s.Cond); name == "__py_try" {
			return r.try(f, s, inLoop)
		}
		v, err := r.eval(s.Cond)
		if err != nil {
			return sigNone, err
		}
		if v.Truth() {
			return r.block(f, s.True, inLoop)
		}
		return r.block(f, s.False, inLoop)
	case *syntax.WhileStmt:
		for {
			v, err := r.eval(s.Cond)
			if err != nil {
				return sigNone, err
			}
			if !v.Truth() {
				return sigNone, nil
			}
			sig, err := r.block(f, s.Body, true)
			if err != nil {
				return sigNone, err
			}
			if sig == sigBreak {
				return sigNone, nil
			}
		}
	case *syntax.ForStmt:
		if isWith(s) {
			return r.with(f, s, inLoop)
		}
		return r.forLoop(f, s)
	}
	return sigNone, fmt.Errorf("internal error: the driver cannot run %T", s)
}

// forLoop runs a for statement whose body needs the driver.
func (r *Interp) forLoop(f *syntax.File, s *syntax.ForStmt) (signal, error) {
	x, err := r.eval(s.X)
	if err != nil {
		return sigNone, err
	}
	it, ok := x.(starlark.Iterable)
	if !ok {
		return sigNone, PyErrorf(ExcTypeError, "'%s' object is not iterable", PyTypeName(x))
	}
	iter := it.Iterate()
	defer iter.Done()
	var v starlark.Value
	for iter.Next(&v) {
		if err := r.bind(f, s.Vars, v); err != nil {
			return sigNone, err
		}
		sig, err := r.block(f, s.Body, true)
		if err != nil {
			return sigNone, err
		}
		if sig == sigBreak {
			break
		}
	}
	return sigNone, nil
}

// bind assigns v to a loop target in the globals.
func (r *Interp) bind(f *syntax.File, target syntax.Expr, v starlark.Value) error {
	switch t := target.(type) {
	case *syntax.Ident:
		r.Globals[t.Name] = v
		return nil
	case *syntax.ParenExpr:
		return r.bind(f, t.X, v)
	case *syntax.TupleExpr, *syntax.ListExpr:
		var list []syntax.Expr
		if tu, ok := t.(*syntax.TupleExpr); ok {
			list = tu.List
		} else {
			list = t.(*syntax.ListExpr).List
		}
		vals, err := unpackN(v, len(list))
		if err != nil {
			return err
		}
		for i, x := range list {
			if err := r.bind(f, x, vals[i]); err != nil {
				return err
			}
		}
		return nil
	}
	const tmp = "$target"
	r.Globals[tmp] = v
	defer delete(r.Globals, tmp)
	assign := &syntax.AssignStmt{OpPos: syntax.Start(target), Op: syntax.EQ, LHS: target, RHS: &syntax.Ident{NamePos: syntax.Start(target), Name: tmp}}
	return starlark.ExecREPLChunk(&syntax.File{Path: f.Path, Stmts: []syntax.Stmt{assign}, Options: f.Options}, r.Thread, r.Globals)
}

// unpackN returns the n elements of v, or Python's error.
func unpackN(v starlark.Value, n int) ([]starlark.Value, error) {
	it, ok := v.(starlark.Iterable)
	if !ok || v.Type() == "string" {
		return nil, PyErrorf(ExcTypeError, "cannot unpack non-iterable %s object", PyTypeName(v))
	}
	var out []starlark.Value
	iter := it.Iterate()
	defer iter.Done()
	var x starlark.Value
	for iter.Next(&x) {
		if len(out) == n {
			return nil, PyErrorf(ExcValueError, "too many values to unpack (expected %d)", n)
		}
		out = append(out, x)
	}
	if len(out) < n {
		return nil, PyErrorf(ExcValueError, "not enough values to unpack (expected %d, got %d)", n, len(out))
	}
	return out, nil
}

// with runs a top-level with statement, for (a, __py_w) in __py_with(A,
// B): as nested withs, each manager is evaluated and entered once the
// ones before it are and their targets are bound; then the body runs, and
// the managers entered exit however it ends, the block's exception (or
// one evaluating, entering or binding an item) handed to them.
func (r *Interp) with(f *syntax.File, s *syntax.ForStmt, inLoop bool) (signal, error) {
	w := &WithValue{thread: r.Thread}
	err := r.enterWith(f, s, w)
	sig := sigNone
	if err == nil {
		sig, err = r.block(f, s.Body, inLoop)
	}
	switch err = r.IterError(err); {
	case err == nil || r.Catchable(err):
		err = r.ExitWithError(w, err)
	default:
		for i := len(w.Managers) - 1; i >= 0; i-- {
			_ = w.Managers[i].Exit() // a stop: the managers still exit
		}
	}
	return sig, err
}

// enterWith enters the managers of the with statement s in turn, adding
// each to w, and binds its target; it stops at the first error.
func (r *Interp) enterWith(f *syntax.File, s *syntax.ForStmt, w *WithValue) error {
	x := s.X
	if c, ok := x.(*syntax.CallExpr); ok && len(c.Args) == 1 {
		x = c.Args[0] // HidIter(__py_with(...))
	}
	call, _ := rewrite.MarkerCall(x)
	if call == nil {
		return fmt.Errorf("internal error: a with statement without __py_with")
	}
	targets := []syntax.Expr{s.Vars}
	if len(call.Args) > 1 {
		t, ok := unparen(s.Vars).(*syntax.TupleExpr)
		if !ok || len(t.List) != len(call.Args) {
			return fmt.Errorf("internal error: a with statement's targets do not match its managers")
		}
		targets = t.List
	}
	for i, a := range call.Args {
		v, err := r.eval(a)
		if err != nil {
			return err
		}
		cm, err := ManagerOf(v)
		if err != nil {
			return err
		}
		if v, err = cm.Enter(); err != nil {
			return err
		}
		w.Managers = append(w.Managers, cm)
		if err := r.bind(f, targets[i], v); err != nil {
			return err
		}
	}
	return nil
}

func unparen(e syntax.Expr) syntax.Expr {
	for {
		p, ok := e.(*syntax.ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}

// excExiter is a context manager that takes the exception that ended its
// block (a class's __exit__, a @contextmanager generator, suppress) and
// may swallow it.
type ExcExiter interface {
	ExitExc(r *Interp, exc *PyException, err error) (suppressed bool, _ error)
}

// exitWithError exits w's managers, innermost first, after the block
// raised err (nil: it ended cleanly): each that takes the exception gets
// it (or the one the manager inside it raised instead); once one swallows
// it, the rest exit as after a clean block. An exception a manager raises
// while taking one has it as __context__. It returns the error left, nil
// when swallowed.
func (r *Interp) ExitWithError(w *WithValue, err error) error {
	ms := w.Managers
	w.Managers = nil // the iterator's Done exits nothing more
	for i := len(ms) - 1; i >= 0; i-- {
		if x, ok := ms[i].(ExcExiter); ok && err != nil {
			exc := r.ExceptionOf(err)
			r.Handling = append(r.Handling, exc) // an exception __exit__ raises has it as __context__
			suppressed, xerr := x.ExitExc(r, exc, err)
			r.Handling = r.Handling[:len(r.Handling)-1]
			switch {
			case xerr != nil:
				err = xerr
			case suppressed:
				err = nil
			}
			continue
		}
		if xerr := ms[i].Exit(); xerr != nil {
			err = xerr
		}
	}
	return err
}

// tryClauses is a try statement's marker chain taken apart.
type tryClauses struct {
	body     []syntax.Stmt
	excepts  []*syntax.IfStmt
	orElse   []syntax.Stmt
	finally  []syntax.Stmt
	hasElse  bool
	hasFinal bool
}

func splitTry(s *syntax.IfStmt) (*tryClauses, error) {
	t := &tryClauses{body: s.True}
	for next := s.False; len(next) == 1; {
		clause, ok := next[0].(*syntax.IfStmt)
		if !ok {
			break
		}
		_, name := rewrite.MarkerCall(clause.Cond)
		switch name {
		case "__py_except":
			if t.hasElse || t.hasFinal {
				return nil, fmt.Errorf("except after else or finally")
			}
			t.excepts = append(t.excepts, clause)
		case "__py_else":
			if len(t.excepts) == 0 || t.hasElse || t.hasFinal {
				return nil, fmt.Errorf("else of a try needs an except before it")
			}
			t.orElse, t.hasElse = clause.True, true
		case "__py_finally":
			if t.hasFinal {
				return nil, fmt.Errorf("two finally clauses")
			}
			t.finally, t.hasFinal = clause.True, true
		default:
			return nil, fmt.Errorf("a try statement may be followed only by except, else and finally")
		}
		next = clause.False
	}
	if len(t.excepts) == 0 && !t.hasFinal {
		return nil, fmt.Errorf("expected 'except' or 'finally' block")
	}
	return t, nil
}

// try runs a try statement.
func (r *Interp) try(f *syntax.File, s *syntax.IfStmt, inLoop bool) (signal, error) {
	t, err := splitTry(s)
	if err != nil {
		return sigNone, &syntax.Error{Pos: s.If, Msg: err.Error()}
	}
	sig, err := r.block(f, t.body, inLoop)
	err = r.IterError(err)
	switch {
	case err != nil && r.Catchable(err):
		exc := r.ExceptionOf(err)
		for _, clause := range t.excepts {
			match, name, merr := r.matches(clause.Cond.(*syntax.CallExpr), exc)
			if merr != nil {
				err = merr
				break
			}
			if !match {
				continue
			}
			sig, err = r.handle(f, clause.True, inLoop, exc, name)
			break
		}
	case err == nil && sig == sigNone && t.hasElse:
		sig, err = r.block(f, t.orElse, inLoop)
	}
	if t.hasFinal {
		fsig, ferr := r.block(f, t.finally, inLoop)
		if ferr != nil {
			return sigNone, ferr
		}
		if fsig != sigNone {
			return fsig, nil // a break or continue in finally drops the error, as in Python
		}
	}
	return sig, err
}

// handle runs an except clause's body with the exception bound to name
// (unbound again afterwards, as Python does) and available to a bare raise.
func (r *Interp) handle(f *syntax.File, body []syntax.Stmt, inLoop bool, exc *PyException, name string) (signal, error) {
	if name != "" {
		r.Globals[name] = exc
		defer delete(r.Globals, name)
	}
	r.Handling = append(r.Handling, exc)
	defer func() { r.Handling = r.Handling[:len(r.Handling)-1] }()
	return r.block(f, body, inLoop)
}

// matches evaluates an except clause's types and matches them against exc.
func (r *Interp) matches(call *syntax.CallExpr, exc *PyException) (bool, string, error) {
	name := ""
	if len(call.Args) == 2 {
		if lit, ok := call.Args[1].(*syntax.Literal); ok {
			name, _ = lit.Value.(string)
		}
	}
	if len(call.Args) == 0 {
		return true, "", nil // a bare except catches everything
	}
	v, err := r.eval(call.Args[0])
	if err != nil {
		return false, "", err
	}
	types := []starlark.Value{v}
	if t, ok := v.(starlark.Tuple); ok {
		types = t
	}
	for _, t := range types {
		et, ok := t.(*ExcType)
		if !ok {
			return false, "", PyErrorf(ExcTypeError, "catching classes that do not inherit from BaseException is not allowed")
		}
		if exc.Typ.IsSubclass(et) {
			return true, name, nil
		}
	}
	return false, "", nil
}

// catchable reports whether an error may be caught by except: stops (Esc,
// the memory limit, Close) and the recursion limit may not.
func (r *Interp) Catchable(err error) bool {
	if c := r.Host.CurrentCall(); c != nil && c.Stopped() {
		return false
	}
	var ee *starlark.EvalError
	if errors.As(err, &ee) && strings.HasPrefix(ee.Msg, "Starlark computation cancelled") || errors.Is(err, errGenClosed) {
		return false
	}
	var se *syntax.Error
	return !errors.As(err, &se)
}
