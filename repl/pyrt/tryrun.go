// __py_tryrun: a try statement inside a function, run with Python's rules
// over the clause functions the pre-pass made of it (rewrite/prepass_trydef.go).

package pyrt

import (
	"go.starlark.net/starlark"

	"harness/repl/rewrite"
)

// trySignal is how a clause function ended: by falling off its end
// (kind sigNoneKind), by return (the value), or by a break or continue
// of a loop outside the try. __py_tryrun returns one, and the lines after
// it read .ret, .brk, .cont and .value.
type trySignal struct {
	kind  int // sigRet, sigBrk, sigCont, or sigNoneKind
	value starlark.Value
}

const sigNoneKind = -1

var (
	_ starlark.HasAttrs = (*trySignal)(nil)

	noSignal   = &trySignal{kind: sigNoneKind, value: starlark.None}
	breakSig   = &trySignal{kind: rewrite.SigBrk, value: starlark.None}
	continueSg = &trySignal{kind: rewrite.SigCont, value: starlark.None}
)

func (s *trySignal) String() string        { return "<try signal>" }
func (s *trySignal) Type() string          { return "try_signal" }
func (s *trySignal) Freeze()               {}
func (s *trySignal) Truth() starlark.Bool  { return s.kind != sigNoneKind }
func (s *trySignal) Hash() (uint32, error) { return uint32(s.kind), nil }
func (s *trySignal) AttrNames() []string   { return []string{"brk", "cont", "ret", "value"} }
func (s *trySignal) Attr(name string) (starlark.Value, error) {
	switch name {
	case "ret":
		return starlark.Bool(s.kind == rewrite.SigRet), nil
	case "brk":
		return starlark.Bool(s.kind == rewrite.SigBrk), nil
	case "cont":
		return starlark.Bool(s.kind == rewrite.SigCont), nil
	case "value":
		return s.value, nil
	}
	return nil, nil
}

// signalOf reads a clause function's result: None when it fell off its
// end, else the signal it returned.
func signalOf(v starlark.Value) *trySignal {
	if s, ok := v.(*trySignal); ok {
		return s
	}
	return noSignal
}

// tryBuiltins are the hidden names the rewritten try calls.
func (r *Interp) tryBuiltins(g starlark.StringDict) {
	g["__py_tryrun"] = starlark.NewBuiltin("tryrun", r.tryRun)
	g["__py_withrun"] = starlark.NewBuiltin("withrun", r.withRun)
	g["__py_ret"] = starlark.NewBuiltin("ret", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
		return &trySignal{kind: rewrite.SigRet, value: args[0]}, nil
	})
	g["__py_brk"], g["__py_cont"] = breakSig, continueSg
	g[rewrite.HidLocals] = starlark.NewBuiltin("locals", func(_ *starlark.Thread, _ *starlark.Builtin, _ starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		l := &pyLocals{vars: make(map[string]starlark.Value, len(kw)+4)}
		for _, kv := range kw {
			l.vars[string(kv[0].(starlark.String))] = kv[1]
		}
		return l, nil
	})
}

// tryRun is __py_tryrun(body, handlers, else_fn, finally_fn): it runs the
// body; on an exception it runs the first handler whose classes match
// (handlers is a tuple of (classes, function) pairs, classes None for a
// bare except), with the exception as its argument and available to a
// bare raise; without one it runs else_fn; then finally_fn however the
// others ended. An exception no handler caught, or one a handler or
// finally raised, propagates; a return, break or continue in finally
// replaces whatever was under way, as in Python. Stops (Esc, the memory
// limit) are never caught.
func (r *Interp) tryRun(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	body, handlers, els, fin := args[0], args[1].(starlark.Tuple), args[2], args[3]
	v, err := starlark.Call(thread, body, nil, nil)
	err = r.IterError(err)
	switch {
	case err != nil && r.Catchable(err):
		exc := r.ExceptionOf(err)
		for _, h := range handlers {
			pair := h.(starlark.Tuple)
			match, merr := r.ExcMatches(pair[0], exc)
			if merr != nil {
				v, err = nil, merr
				break
			}
			if match {
				v, err = r.runHandler(thread, pair[1], exc)
				break
			}
		}
	case err == nil && els != starlark.None && signalOf(v) == noSignal:
		v, err = starlark.Call(thread, els, nil, nil)
	}
	if fin != starlark.None && (err == nil || r.Catchable(err)) {
		fv, ferr := starlark.Call(thread, fin, nil, nil)
		if ferr != nil {
			return nil, ferr
		}
		if s := signalOf(fv); s != noSignal {
			return s, nil
		}
	}
	if err != nil {
		return nil, err
	}
	return signalOf(v), nil
}

// runHandler calls an except clause's function with the exception, which a
// bare raise inside it re-raises.
func (r *Interp) runHandler(thread *starlark.Thread, fn starlark.Value, exc *PyException) (starlark.Value, error) {
	r.Handling = append(r.Handling, exc)
	defer func() { r.Handling = r.Handling[:len(r.Handling)-1] }()
	return starlark.Call(thread, fn, starlark.Tuple{exc}, nil)
}

// excMatches reports whether exc is an instance of the classes an except
// clause names (None: a bare except, which catches everything).
func (r *Interp) ExcMatches(classes starlark.Value, exc *PyException) (bool, error) {
	if classes == starlark.None {
		return true, nil
	}
	types := []starlark.Value{classes}
	if t, ok := classes.(starlark.Tuple); ok {
		types = t
	}
	for _, t := range types {
		et, ok := t.(*ExcType)
		if !ok {
			return false, PyErrorf(ExcTypeError, "catching classes that do not inherit from BaseException is not allowed")
		}
		if exc.Typ.IsSubclass(et) {
			return true, nil
		}
	}
	return false, nil
}

// pyLocals holds the variables of a function that its try clauses assign
// (see rewrite/astpass_locals.go): the function and its clause functions read and
// write them as __py_l["x"]. Reading one not yet assigned is Python's
// UnboundLocalError.
type pyLocals struct {
	vars map[string]starlark.Value
}

var (
	_ starlark.Mapping   = (*pyLocals)(nil)
	_ starlark.HasSetKey = (*pyLocals)(nil)
)

func (l *pyLocals) String() string       { return "<locals>" }
func (l *pyLocals) Type() string         { return "locals" }
func (l *pyLocals) Freeze()              {}
func (l *pyLocals) Truth() starlark.Bool { return true }
func (l *pyLocals) Hash() (uint32, error) {
	return 0, PyErrorf(ExcTypeError, "unhashable type: 'locals'")
}
func (l *pyLocals) Get(k starlark.Value) (starlark.Value, bool, error) {
	name, _ := starlark.AsString(k)
	if v, ok := l.vars[name]; ok {
		return v, true, nil
	}
	return nil, false, PyErrorf(excUnboundLocal, "cannot access local variable '%s' where it is not associated with a value", name)
}
func (l *pyLocals) SetKey(k, v starlark.Value) error {
	name, _ := starlark.AsString(k)
	l.vars[name] = v
	return nil
}
