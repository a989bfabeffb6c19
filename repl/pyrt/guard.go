// Size checks for operations that allocate a lot in one step: sequence
// repetition and the universal builtins that preallocate their result.

package pyrt

import (
	"fmt"
	"math"
	"reflect"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// The memory watchdog samples the heap between interpreter steps, so it
// cannot stop one step that allocates gigabytes at once: [0] * 10**9 asks
// Go for 16 GB, and a failed allocation kills the whole process. Such
// steps are checked against the budget before they allocate, and fail
// with an ordinary error that keeps the REPL's state.

// bigAlloc is the size below which no check is made.
const BigAlloc = 1 << 20

// repeatName is the global through which "x * y" runs once guardRepeats has
// rewritten it. It is not an identifier, so REPL code can neither name nor
// rebind it.
const repeatName = "*"

// concatName is the global through which "x + y" runs once guardRepeats
// has rewritten it; like repeatName it is not an identifier.
const concatName = "+"

// guardRepeats rewrites, in place, every x * y in the tree below node into
// a call of the repeatName builtin, and every "name *= y" into
// "name = name * y" (which it then rewrites), so that sequence repetition
// is checked before it allocates. It likewise rewrites x + y into a call of
// concatName, so that a concatenation that cannot fit (s = s + s in a
// loop) stops the call before it allocates, rather than after, past the
// worker's ceiling. "name += y" is left alone: it is the hot statement of
// most loops, and a hidden call there costs a third of the loop's time.
// Evaluation order is unchanged.
func GuardRepeats(node any) {
	guardRewrite(reflect.ValueOf(node))
}

var exprType = reflect.TypeOf((*syntax.Expr)(nil)).Elem()

// guardRewrite walks v (a syntax node, a slice of nodes, or an interface
// holding one) and replaces multiplications and additions in the settable places it
// finds.
func guardRewrite(v reflect.Value) {
	switch v.Kind() {
	case reflect.Interface: // Expr, Stmt, Node (comprehension clauses), or any
		if !v.IsNil() {
			guardRewrite(v.Elem())
			if v.CanSet() && v.Type() == exprType {
				if call := repeatCall(v.Interface().(syntax.Expr)); call != nil {
					v.Set(reflect.ValueOf(call))
				}
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			guardRewrite(v.Index(i))
		}
	case reflect.Pointer:
		if v.IsNil() || v.Elem().Kind() != reflect.Struct || v.Elem().Type().PkgPath() != "go.starlark.net/syntax" {
			return
		}
		if a, ok := v.Interface().(*syntax.AssignStmt); ok && a.Op == syntax.STAR_EQ {
			if id, ok := a.LHS.(*syntax.Ident); ok {
				a.Op = syntax.EQ
				a.RHS = &syntax.BinaryExpr{X: &syntax.Ident{NamePos: id.NamePos, Name: id.Name}, OpPos: a.OpPos, Op: syntax.STAR, Y: a.RHS}
			}
		}
		s := v.Elem()
		for i := 0; i < s.NumField(); i++ {
			if f := s.Field(i); f.CanSet() {
				guardRewrite(f)
			}
		}
	}
}

// repeatCall returns the call replacing e when e is a multiplication or
// an addition.
func repeatCall(e syntax.Expr) *syntax.CallExpr {
	b, ok := e.(*syntax.BinaryExpr)
	if !ok || (b.Op != syntax.STAR && b.Op != syntax.PLUS) {
		return nil
	}
	name := repeatName
	if b.Op == syntax.PLUS {
		name = concatName
	}
	fn := &syntax.Ident{NamePos: b.OpPos, Name: name}
	return &syntax.CallExpr{Fn: fn, Lparen: b.OpPos, Args: []syntax.Expr{b.X, b.Y}, Rparen: b.OpPos}
}

// repeat is x * y with the size checked first.
func (r *Interp) repeat(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	x, y := boolOperands(args[0], args[1])
	need, what := repeatSize(x, y)
	if need > BigAlloc && r.Host.MaxMemoryMB() > 0 {
		if err := r.checkAlloc(what, need); err != nil {
			return nil, err
		}
	}
	r.NoteAlloc(need)
	return Arith(syntax.STAR, args[0], args[1])
}

// concat is x + y, stopped as a memory stop first when the result cannot
// fit in what the memory limit leaves.
func (r *Interp) concat(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	x, y := boolOperands(args[0], args[1]) // True + True is 2
	need := concatSize(x, y)
	if err := r.checkConcat(x, y, need); err != nil {
		return nil, err
	}
	r.NoteAlloc(need)
	return Arith(syntax.PLUS, args[0], args[1])
}

// allocNoteMin is the size below which noteAlloc does not count.
const AllocNoteMin = 4 << 10

// noteAlloc counts the bytes a guarded x * y or x + y allocates, and runs
// the memory check each time they pass a sixteenth of the limit: a loop
// that builds 100 KB strings allocates megabytes a millisecond, faster
// than the 5 ms watchdog and the step count sample under a small limit,
// and could reach the worker's ceiling (state lost, the process killed)
// before either saw it.
func (r *Interp) NoteAlloc(n int64) {
	if n < AllocNoteMin || r.Host.MaxMemoryMB() <= 0 {
		return
	}
	r.AllocNoted += n
	if r.AllocNoted < r.Host.LimitBytes()/16 {
		return
	}
	r.AllocNoted = 0
	if c := r.Host.CurrentCall(); c != nil {
		c.Mem().Check(c)
	}
}

// checkConcat stops the call, as the memory watchdog would once the result
// exists, when x + y would need more than the budget leaves. It stops
// rather than refusing (as the size checks of x * y do) because the
// concatenation that does not fit is the last step of a growth the
// watchdog stops: its state is already at the limit.
func (r *Interp) checkConcat(x, y starlark.Value, need int64) error {
	if need <= BigAlloc || r.Host.MaxMemoryMB() <= 0 {
		return nil
	}
	c := r.Host.CallOf()
	if left := c.Budget(); need > left {
		c.Stop(StopMemory)
		return fmt.Errorf("%s + %s needs about %d MiB at once, more than this REPL's memory limit leaves (max_memory_mb = %d)",
			x.Type(), y.Type(), need>>20, r.Host.MaxMemoryMB())
	}
	return nil
}

// concatSize estimates the bytes x + y allocates for sequences of the
// same type, 0 otherwise.
func concatSize(x, y starlark.Value) int64 {
	switch x := x.(type) {
	case starlark.String:
		if y, ok := y.(starlark.String); ok {
			return int64(len(x)) + int64(len(y))
		}
	case starlark.Bytes:
		if y, ok := y.(starlark.Bytes); ok {
			return int64(len(x)) + int64(len(y))
		}
	case *starlark.List:
		if y, ok := y.(starlark.Sequence); ok {
			return 16 * (int64(x.Len()) + int64(y.Len()))
		}
	case starlark.Tuple:
		if y, ok := y.(starlark.Tuple); ok {
			return 16 * (int64(len(x)) + int64(len(y)))
		}
	}
	return 0
}

// repeatSize estimates the bytes x * y allocates when it repeats a
// sequence, and describes the operation.
func repeatSize(x, y starlark.Value) (int64, string) {
	seq, count := x, y
	if _, ok := x.(starlark.Int); ok {
		seq, count = y, x
	}
	n, ok := count.(starlark.Int)
	if !ok {
		return 0, ""
	}
	c, ok := n.Int64()
	if !ok || c <= 0 {
		return 0, "" // Starlark refuses a count this large itself
	}
	var per int64
	switch s := seq.(type) {
	case starlark.String:
		per = int64(len(s))
	case starlark.Bytes:
		per = int64(len(s))
	case *starlark.List:
		per = 16 * int64(s.Len())
	case starlark.Tuple:
		per = 16 * int64(len(s))
	default:
		return 0, ""
	}
	what := fmt.Sprintf("%s * %d", seq.Type(), c)
	if per > 0 && c > math.MaxInt64/per {
		return math.MaxInt64, what
	}
	return per * c, what
}

// checkAlloc refuses an allocation of need bytes that the call's budget
// cannot hold.
func (r *Interp) checkAlloc(what string, need int64) error {
	if left := r.Host.CallOf().Budget(); need > left {
		return fmt.Errorf("%s needs about %d MiB at once, more than this REPL's memory limit leaves (max_memory_mb = %d); work on smaller pieces",
			what, need>>20, r.Host.MaxMemoryMB())
	}
	return nil
}

// threadInterp is the thread-local key of the interpreter running a
// thread, for builtins that are plain functions (checkGrowth).
const ThreadInterp = "harness.repl"

// checkGrowth refuses building text of about need bytes when the memory
// budget cannot hold it; what names the operation. Small sizes pass
// without a look at the budget.
func checkGrowth(thread *starlark.Thread, what string, need int64) error {
	if need <= BigAlloc || thread == nil {
		return nil
	}
	r, _ := thread.Local(ThreadInterp).(*Interp)
	if r == nil || r.Host.MaxMemoryMB() <= 0 {
		return nil
	}
	return r.checkAlloc(what, need)
}

// textGrowth watches a strings.Builder being filled: past each doubling of
// its length it checks the budget for the next doubling (a builder holds
// its old and new buffers while it grows).
type textGrowth struct {
	thread  *starlark.Thread
	what    string
	checked int64
}

func (g *textGrowth) Check(n int) error {
	if int64(n) <= g.checked || int64(n) <= BigAlloc {
		return nil
	}
	g.checked = 2 * int64(n)
	return checkGrowth(g.thread, g.what, 3*int64(n))
}

// perElement is the bytes a preallocating builtin spends per element.
var perElement = map[string]int64{
	"list": 24, "tuple": 24, "sorted": 24, "reversed": 24,
	"enumerate": 72, // the pair list, the pairs' backing array, one tuple header per pair
}

// checkSize refuses a builtin call that would preallocate more elements
// than the memory budget holds (see perElement).
func (r *Interp) checkSize(name string, args starlark.Tuple) error {
	if r.Host.MaxMemoryMB() <= 0 {
		return nil
	}
	if n, need := preallocation(name, args); need > BigAlloc {
		if err := r.checkAlloc(fmt.Sprintf("%s of %d elements", name, n), need); err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
	}
	return nil
}

// sizedBuiltins wraps the universal builtins that allocate in proportion to
// the length of their arguments, so that list(range(10**9)) is refused
// before it allocates.
func (r *Interp) SizedBuiltins(g starlark.StringDict) {
	g[repeatName] = starlark.NewBuiltin(repeatName, r.repeat)
	g[concatName] = starlark.NewBuiltin(concatName, r.concat)
	for _, name := range []string{"list", "tuple", "sorted", "reversed", "enumerate", "zip"} {
		orig := starlark.Universe[name].(*starlark.Builtin)
		g[name] = starlark.NewBuiltin(name, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if n, need := preallocation(name, args); need > BigAlloc && r.Host.MaxMemoryMB() > 0 {
				if err := r.checkAlloc(fmt.Sprintf("%s of %d elements", name, n), need); err != nil {
					return nil, fmt.Errorf("%s: %v", name, err)
				}
			}
			if it, ok := oneIter(args, kw); ok && (name == "list" || name == "tuple") {
				return drainIter(name, it) // its error is this call's, which try can catch
			}
			return starlark.Call(thread, orig, args, kw)
		})
	}
}

// oneIter returns the lone argument of a call when it is a one-pass
// iterator.
func oneIter(args starlark.Tuple, kw []starlark.Tuple) (*PyIter, bool) {
	if len(args) != 1 || len(kw) != 0 {
		return nil, false
	}
	it, ok := args[0].(*PyIter)
	return it, ok
}

// drainIter is list(it) or tuple(it) over a one-pass iterator, taking its
// elements itself: when Starlark iterates, an element's error (a lazy
// map's function failing, strict zip's ValueError) can only stop the
// thread.
func drainIter(name string, it *PyIter) (starlark.Value, error) {
	vals, err := ListOf(it)
	if err != nil {
		return nil, err
	}
	if name == "tuple" {
		return starlark.Tuple(vals), nil
	}
	return starlark.NewList(vals), nil
}

// preallocation returns the element count a builtin preallocates for and
// its size in bytes.
func preallocation(name string, args starlark.Tuple) (int64, int64) {
	if len(args) == 0 {
		return 0, 0
	}
	if name != "zip" {
		n := int64(starlark.Len(args[0]))
		return n, n * perElement[name]
	}
	rows := int64(-1)
	for _, a := range args {
		n := int64(starlark.Len(a))
		if n < 0 {
			return 0, 0 // zip does not preallocate when a length is unknown
		}
		if rows < 0 || n < rows {
			rows = n
		}
	}
	return rows, rows * (40 + 16*int64(len(args)))
}
