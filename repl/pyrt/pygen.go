// Generator functions: a def whose body yields, run lazily on a goroutine
// and a Starlark thread of its own, one step per next().

package pyrt

import (
	"errors"
	"fmt"
	"runtime/debug"

	"go.starlark.net/starlark"
)

// The pre-pass writes yield x as __py_yield(x) and yield from xs as
// __py_yield_from(xs), and follows a def whose body yields with
// f = __py_generator(f). Calling f then returns a generator (a one-pass
// iterator) without running anything. Its first step starts the body on a
// goroutine with a thread of its own; each __py_yield hands its value to
// the consumer and waits for the next step. Only one of them runs at a
// time: every hand-over is a channel send, so the consumer and the body
// never touch Starlark values at once.
//
// Nothing is left behind: a generator not run to its end is closed when
// the REPL call that ran it ends (its thread is cancelled and its
// goroutine unwinds and exits before the call's result is returned), and
// a stop of the call (Esc, the memory limit) cancels a running body too.
// A generator that was never started holds no goroutine and may be used
// by a later call.

const genKey = "harness.generator" // thread-local: the generator a thread runs

// maxSuspended bounds the generators suspended at once, each holding a
// goroutine's stack.
const maxSuspended = 10000

var errGenClosed = errors.New("generator closed: the REPL call that ran it ended")

type genState uint8

const (
	genNew genState = iota
	genRunning
	genSuspended
	genDone
	genClosed
)

type genStep struct {
	v    starlark.Value
	done bool
	err  error
}

type PyGen struct {
	r      *Interp
	fn     starlark.Value
	args   starlark.Tuple
	kw     []starlark.Tuple
	state  genState
	thread *starlark.Thread
	out    chan genStep   // the body's steps
	resume chan GenResume // the consumer's next(), send() or throw()
	closed chan struct{}  // closed to end a suspended body
	ret    starlark.Value // what the body returned: StopIteration's value
}

// genResume is what a suspended yield gets: the value sent (None for
// next()), or an exception thrown in.
type GenResume struct {
	v   starlark.Value
	Exc error
}

// genFunc is a generator function: calling it makes a generator.
type GenFunc struct {
	r  *Interp
	fn starlark.Value
}

var _ starlark.Callable = (*GenFunc)(nil)

func (f *GenFunc) Name() string {
	if n, ok := f.fn.(interface{ Name() string }); ok {
		return n.Name()
	}
	return "generator"
}
func (f *GenFunc) String() string        { return "<function " + f.Name() + ">" }
func (f *GenFunc) Type() string          { return "function" }
func (f *GenFunc) Freeze()               { f.fn.Freeze() }
func (f *GenFunc) Truth() starlark.Bool  { return true }
func (f *GenFunc) Hash() (uint32, error) { return f.fn.Hash() }
func (f *GenFunc) CallInternal(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	g := &PyGen{r: f.r, fn: f.fn, args: args, kw: kw}
	it := NewLazyIter(thread, "generator", g.next)
	it.Gen = g
	return it, nil
}

// pyGenerator is __py_generator(f).
func (r *Interp) pyGenerator(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	return &GenFunc{r: r, fn: args[0]}, nil
}

// next runs the body to its next yield.
func (g *PyGen) next() (starlark.Value, bool, error) {
	return g.Step(GenResume{v: starlark.None})
}

// step resumes the body with m and runs it to its next yield.
func (g *PyGen) Step(m GenResume) (starlark.Value, bool, error) {
	switch g.state {
	case genDone:
		return nil, false, nil
	case genClosed:
		return nil, false, PyErrorf(ExcRuntime, "this generator was suspended when the REPL call that ran it ended, and was closed then; consume a generator within one call (list(gen()) keeps its values)")
	case genRunning:
		return nil, false, PyErrorf(ExcValueError, "generator already executing")
	}
	c := g.r.Host.CallOf()
	if g.state == genNew {
		if err := g.start(); err != nil {
			return nil, false, err
		}
	} else {
		g.resume <- m
	}
	g.state = genRunning
	var s genStep
	select {
	case s = <-g.out:
	case <-c.StopCh(): // nil when no call is installed
		g.thread.Cancel(c.Reason().String())
		s = <-g.out
	}
	if s.done || s.err != nil {
		g.state = genDone
		delete(g.r.Gens, g)
		return nil, false, s.err
	}
	g.state = genSuspended
	return s.v, true, nil
}

func (g *PyGen) start() error {
	r := g.r
	if r.Gens == nil {
		r.Gens = map[*PyGen]bool{}
	}
	if len(r.Gens) >= maxSuspended {
		return PyErrorf(ExcRuntime, "more than %d generators are suspended at once; consume each before starting the next, or build lists", maxSuspended)
	}
	g.thread = &starlark.Thread{Name: "generator", Print: r.Thread.Print, OnMaxSteps: r.Host.OnSteps}
	g.thread.SetLocal(ThreadInterp, r)
	g.thread.SetLocal(genKey, g)
	g.thread.SetMaxExecutionSteps(StepInterval)
	g.out, g.resume, g.closed = make(chan genStep), make(chan GenResume), make(chan struct{})
	r.Gens[g] = true
	go g.run()
	return nil
}

// run is the body's goroutine: its last send is the body's end.
func (g *PyGen) run() {
	var err error
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error in a generator: %v\n%s", p, debug.Stack())
		}
		g.out <- genStep{done: true, err: err}
	}()
	g.ret, err = starlark.Call(g.thread, g.fn, g.args, g.kw)
}

// yield hands v to the consumer and waits for the next step: it returns
// the value sent, or the exception thrown in.
func (g *PyGen) yield(v starlark.Value) (starlark.Value, error) {
	select {
	case <-g.closed:
		return nil, errGenClosed
	default:
	}
	g.out <- genStep{v: v}
	select {
	case m := <-g.resume:
		return m.v, m.Exc
	case <-g.closed:
		return nil, errGenClosed
	}
}

func genOf(thread *starlark.Thread) (*PyGen, error) {
	g, _ := thread.Local(genKey).(*PyGen)
	if g == nil {
		return nil, PyErrorf(ExcSyntax, "'yield' outside a generator function")
	}
	return g, nil
}

// pyYield is __py_yield(x); its value is what send() sent (None for
// next()).
func pyYield(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	g, err := genOf(thread)
	if err != nil {
		return nil, err
	}
	return g.yield(args[0])
}

// pyYieldFrom is __py_yield_from(xs): a generator is delegated to (what
// is sent or thrown in goes to it, and its return value is the value of
// the yield from); any other iterable is yielded item by item.
func pyYieldFrom(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	g, err := genOf(thread)
	if err != nil {
		return nil, err
	}
	if it, ok := args[0].(*PyIter); ok && it.Gen != nil && !it.done {
		return g.delegate(it)
	}
	return starlark.None, Iterate(args[0], func(v starlark.Value) (bool, error) {
		_, err := g.yield(v)
		return true, err
	})
}

// delegate runs the generator it inside g's yield from.
func (g *PyGen) delegate(it *PyIter) (starlark.Value, error) {
	m := GenResume{v: starlark.None}
	for {
		v, ok, err := it.Gen.Step(m)
		if err != nil || !ok {
			it.done = true
			if err != nil {
				return nil, err
			}
			if it.Gen.ret == nil {
				return starlark.None, nil
			}
			return it.Gen.ret, nil
		}
		sent, exc := g.yield(v)
		if exc == errGenClosed {
			return nil, exc
		}
		m = GenResume{v: sent, Exc: exc}
	}
}

// closeGenerators ends the suspended generators when a call ends; each
// goroutine has exited when it returns.
func (r *Interp) CloseGenerators() {
	for g := range r.Gens {
		if g.state != genSuspended {
			continue // running only when its call was abandoned
		}
		g.thread.Cancel(errGenClosed.Error())
		close(g.closed)
		for s := range g.out {
			if s.done {
				break
			}
		}
		g.state = genClosed
		delete(r.Gens, g)
	}
}
