// decimal: Python's decimal module, the General Decimal Arithmetic that
// CPython's decimal implements, on a big.Int coefficient and an exponent:
// the signals (exceptions), the context and the module's functions.

package pynum

import (
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"harness/repl/pyrt"
)

func decExc(name string, base *pyrt.ExcType, also ...*pyrt.ExcType) *pyrt.ExcType {
	return &pyrt.ExcType{TypeName: name, Module: "decimal", Base: base, Also: also}
}

// The signals of decimal, with CPython's hierarchy.
var (
	excDecimal       = decExc("DecimalException", pyrt.ExcArithmetic)
	excDecClamped    = decExc("Clamped", excDecimal)
	excDecInvalid    = decExc("InvalidOperation", excDecimal)
	excDecSyntax     = decExc("ConversionSyntax", excDecInvalid)
	excDecImpossible = decExc("DivisionImpossible", excDecInvalid)
	excDecUndefined  = decExc("DivisionUndefined", excDecInvalid, pyrt.ExcZeroDivision)
	excDecInvalidCtx = decExc("InvalidContext", excDecInvalid)
	excDecDivByZero  = decExc("DivisionByZero", excDecimal, pyrt.ExcZeroDivision)
	excDecInexact    = decExc("Inexact", excDecimal)
	excDecRounded    = decExc("Rounded", excDecimal)
	excDecSubnormal  = decExc("Subnormal", excDecimal)
	excDecOverflow   = decExc("Overflow", excDecInexact, excDecRounded)
	excDecUnderflow  = decExc("Underflow", excDecInexact, excDecRounded, excDecSubnormal)
	excDecFloatOp    = decExc("FloatOperation", excDecimal, pyrt.ExcTypeError)
	decSignals       = []*pyrt.ExcType{excDecInvalid, excDecFloatOp, excDecDivByZero, excDecOverflow, excDecUnderflow, excDecSubnormal, excDecInexact, excDecRounded, excDecClamped}
	decRoundings     = []string{"ROUND_CEILING", "ROUND_FLOOR", "ROUND_UP", "ROUND_DOWN", "ROUND_HALF_UP", "ROUND_HALF_DOWN", "ROUND_HALF_EVEN", "ROUND_05UP"}
)

const decMaxPrec, decMaxExp = 999999999999999999, 999999999999999999

// decSignalOf is the signal a condition is reported as.
func decSignalOf(cond *pyrt.ExcType) *pyrt.ExcType {
	switch cond {
	case excDecSyntax, excDecImpossible, excDecUndefined, excDecInvalidCtx:
		return excDecInvalid
	}
	return cond
}

// decModule is one interpreter's decimal: its classes and the current
// context (getcontext()).
type decModule struct {
	decimal, context, tupleCls *pyrt.PyType
	cur                        *decContext
}

func decimalModule(r *pyrt.Interp) starlark.Value {
	m := &decModule{}
	m.decimal = &pyrt.PyType{TypeName: "Decimal", Module: "decimal", Call: m.newDecimal}
	m.decimal.Attrs = starlark.StringDict{"from_float": pyrt.Builtin("Decimal.from_float", m.fromFloatBuiltin)}
	m.context = &pyrt.PyType{TypeName: "Context", Module: "decimal", Call: m.newContext}
	m.tupleCls = &pyrt.PyType{TypeName: "DecimalTuple", Module: "decimal"}
	m.cur = m.defaultContext()
	members := starlark.StringDict{
		"Decimal": m.decimal, "Context": m.context, "DecimalTuple": m.tupleCls,
		"getcontext": pyrt.Builtin("getcontext", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return m.cur, nil
		}),
		"setcontext":      pyrt.Builtin("setcontext", m.setContext),
		"localcontext":    pyrt.Builtin("localcontext", m.localContext),
		"DefaultContext":  m.defaultContext(),
		"BasicContext":    &decContext{m: m, prec: 9, rounding: "ROUND_HALF_UP", emin: -999999, emax: 999999, capitals: 1, traps: decSignalDict(excDecClamped, excDecDivByZero, excDecInvalid, excDecOverflow, excDecUnderflow), flags: decSignalDict()},
		"ExtendedContext": &decContext{m: m, prec: 9, rounding: "ROUND_HALF_EVEN", emin: -999999, emax: 999999, capitals: 1, traps: decSignalDict(), flags: decSignalDict()},
		"MAX_PREC":        starlark.MakeInt64(decMaxPrec), "MAX_EMAX": starlark.MakeInt64(decMaxExp), "MIN_EMIN": starlark.MakeInt64(-decMaxExp),
		"MIN_ETINY": starlark.MakeInt64(-decMaxExp - decMaxPrec + 1), "HAVE_THREADS": starlark.True, "HAVE_CONTEXTVAR": starlark.True,
	}
	for _, name := range decRoundings {
		members[name] = starlark.String(name)
	}
	for _, e := range append(decSignals, excDecimal, excDecSyntax, excDecImpossible, excDecUndefined, excDecInvalidCtx) {
		members[e.TypeName] = e
	}
	return pyrt.NewModule("decimal", members)
}

// decSignalDict is a traps or flags dict with the given signals set.
func decSignalDict(set ...*pyrt.ExcType) *starlark.Dict {
	d := starlark.NewDict(len(decSignals))
	for _, s := range decSignals {
		on := false
		for _, x := range set {
			on = on || x == s
		}
		_ = d.SetKey(s, starlark.Bool(on))
	}
	return d
}

func (m *decModule) defaultContext() *decContext {
	return &decContext{m: m, prec: 28, rounding: "ROUND_HALF_EVEN", emin: -999999, emax: 999999, capitals: 1,
		traps: decSignalDict(excDecInvalid, excDecDivByZero, excDecOverflow), flags: decSignalDict()}
}

func (m *decModule) setContext(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var c starlark.Value
	if err := starlark.UnpackPositionalArgs("setcontext", args, kw, 1, &c); err != nil {
		return nil, err
	}
	ctx, ok := c.(*decContext)
	if !ok {
		return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "argument must be a context")
	}
	m.cur = ctx
	return starlark.None, nil
}

// localContext is localcontext(ctx=None, **attrs): a manager that makes a
// copy of ctx current for the with block and restores the context after.
func (m *decModule) localContext(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var c starlark.Value = starlark.None
	if err := starlark.UnpackPositionalArgs("localcontext", args, nil, 0, &c); err != nil {
		return nil, err
	}
	base := m.cur
	if c != starlark.None {
		ctx, ok := c.(*decContext)
		if !ok {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "optional argument must be a context")
		}
		base = ctx
	}
	ctx := base.copy()
	for _, kv := range kw {
		if err := ctx.SetField(string(kv[0].(starlark.String)), kv[1]); err != nil {
			return nil, err
		}
	}
	return &decLocal{m: m, ctx: ctx}, nil
}

// decLocal is the manager localcontext() returns.
type decLocal struct {
	m         *decModule
	ctx, prev *decContext
}

func (l *decLocal) String() string        { return "<decimal.ContextManager object>" }
func (l *decLocal) Type() string          { return "decimal.ContextManager" }
func (l *decLocal) Freeze()               {}
func (l *decLocal) Truth() starlark.Bool  { return true }
func (l *decLocal) Hash() (uint32, error) { return 0, nil }
func (l *decLocal) Enter() (starlark.Value, error) {
	l.prev, l.m.cur = l.m.cur, l.ctx
	return l.ctx, nil
}
func (l *decLocal) Exit() error {
	if l.prev != nil {
		l.m.cur = l.prev
	}
	return nil
}

// decContext is a decimal.Context: precision, rounding, exponent limits,
// and the traps and flags dicts of the signals.
type decContext struct {
	m               *decModule
	prec            int
	rounding        string
	emin, emax      int
	capitals, clamp int
	traps, flags    *starlark.Dict
}

func (c *decContext) copy() *decContext {
	n := *c
	n.traps, n.flags = copyDict(c.traps), copyDict(c.flags)
	return &n
}

func copyDict(d *starlark.Dict) *starlark.Dict {
	n := starlark.NewDict(d.Len())
	for _, kv := range d.Items() {
		_ = n.SetKey(kv[0], kv[1])
	}
	return n
}

func (c *decContext) etiny() int { return c.emin - c.prec + 1 }
func (c *decContext) etop() int  { return c.emax - c.prec + 1 }

func (c *decContext) on(d *starlark.Dict, s *pyrt.ExcType) bool {
	v, found, _ := d.Get(s)
	return found && bool(v.Truth())
}

// signal records cond in the flags and raises it when its signal is
// trapped: InvalidOperation([<class 'decimal.ConversionSyntax'>]) as
// CPython's decimal does.
func (c *decContext) signal(cond *pyrt.ExcType) error {
	sig := decSignalOf(cond)
	_ = c.flags.SetKey(sig, starlark.True)
	if !c.on(c.traps, sig) {
		return nil
	}
	return &pyrt.PyError{Exc: &pyrt.PyException{Typ: sig, Args: starlark.Tuple{starlark.NewList([]starlark.Value{cond})}}}
}

// invalid signals cond, an InvalidOperation, and is NaN when untrapped.
func (c *decContext) invalid(cond *pyrt.ExcType) (*pyDecimal, error) {
	if err := c.signal(cond); err != nil {
		return nil, err
	}
	return c.m.nan(), nil
}

func (c *decContext) String() string {
	list := func(d *starlark.Dict) string {
		var on []string
		for _, s := range decSignals {
			if c.on(d, s) {
				on = append(on, s.TypeName)
			}
		}
		return "[" + strings.Join(on, ", ") + "]"
	}
	return "Context(prec=" + pyrt.Itoa(c.prec) + ", rounding=" + c.rounding + ", Emin=" + pyrt.Itoa(c.emin) + ", Emax=" + pyrt.Itoa(c.emax) +
		", capitals=" + pyrt.Itoa(c.capitals) + ", clamp=" + pyrt.Itoa(c.clamp) + ", flags=" + list(c.flags) + ", traps=" + list(c.traps) + ")"
}
func (c *decContext) ReprPy() string        { return c.String() }
func (c *decContext) PyClass() *pyrt.PyType { return c.m.context }
func (c *decContext) Type() string          { return "decimal.Context" }
func (c *decContext) Freeze()               {}
func (c *decContext) Truth() starlark.Bool  { return true }
func (c *decContext) Hash() (uint32, error) {
	return 0, pyrt.PyErrorf(pyrt.ExcTypeError, "unhashable type: 'decimal.Context'")
}
func (c *decContext) Enter() (starlark.Value, error) { return c, nil }
func (c *decContext) Exit() error                    { return nil }

func (c *decContext) AttrNames() []string {
	return []string{"Emax", "Emin", "Etiny", "Etop", "capitals", "clamp", "clear_flags", "clear_traps", "copy", "create_decimal",
		"create_decimal_from_float", "flags", "prec", "rounding", "traps"}
}

func (c *decContext) Attr(name string) (starlark.Value, error) {
	switch name {
	case "prec":
		return starlark.MakeInt(c.prec), nil
	case "rounding":
		return starlark.String(c.rounding), nil
	case "Emin":
		return starlark.MakeInt(c.emin), nil
	case "Emax":
		return starlark.MakeInt(c.emax), nil
	case "capitals":
		return starlark.MakeInt(c.capitals), nil
	case "clamp":
		return starlark.MakeInt(c.clamp), nil
	case "traps":
		return c.traps, nil
	case "flags":
		return c.flags, nil
	}
	return c.method(name), nil
}

func (c *decContext) method(name string) starlark.Value {
	noArgs := func(f func() starlark.Value) starlark.Value {
		return pyrt.Builtin("Context."+name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 0); err != nil {
				return nil, err
			}
			return f(), nil
		})
	}
	switch name {
	case "Etiny":
		return noArgs(func() starlark.Value { return starlark.MakeInt(c.etiny()) })
	case "Etop":
		return noArgs(func() starlark.Value { return starlark.MakeInt(c.etop()) })
	case "copy":
		return noArgs(func() starlark.Value { return c.copy() })
	case "clear_flags":
		return noArgs(func() starlark.Value { c.flags = decSignalDict(); return starlark.None })
	case "clear_traps":
		return noArgs(func() starlark.Value { c.traps = decSignalDict(); return starlark.None })
	case "create_decimal", "create_decimal_from_float":
		return pyrt.Builtin("Context."+name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var v starlark.Value = starlark.String("0")
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 0, &v); err != nil {
				return nil, err
			}
			d, err := c.m.convert(v, c, true)
			if err != nil {
				return nil, err
			}
			return d.fix(c)
		})
	}
	return nil
}

// SetField sets prec, rounding, Emin, Emax, capitals, clamp, checking
// them as CPython does.
func (c *decContext) SetField(name string, v starlark.Value) error {
	if name == "rounding" {
		s, ok := v.(starlark.String)
		if !ok || !validRounding(string(s)) {
			return pyrt.PyErrorf(pyrt.ExcTypeError, "valid values for rounding are:\n  [ROUND_CEILING, ROUND_FLOOR, ROUND_UP, ROUND_DOWN,\n   ROUND_HALF_UP, ROUND_HALF_DOWN, ROUND_HALF_EVEN,\n   ROUND_05UP]")
		}
		c.rounding = string(s)
		return nil
	}
	if name == "traps" || name == "flags" {
		d, ok := v.(*starlark.Dict)
		if !ok {
			return pyrt.PyErrorf(pyrt.ExcTypeError, "%s must be a signal dict", name)
		}
		n := decSignalDict()
		for _, kv := range d.Items() {
			_ = n.SetKey(kv[0], kv[1].Truth())
		}
		if name == "traps" {
			c.traps = n
		} else {
			c.flags = n
		}
		return nil
	}
	limits := map[string][3]int{"prec": {1, decMaxPrec}, "Emin": {-decMaxExp, 0}, "Emax": {0, decMaxExp}, "capitals": {0, 1}, "clamp": {0, 1}}
	lim, ok := limits[name]
	if !ok {
		return pyrt.PyErrorf(pyrt.ExcAttribute, "'decimal.Context' object has no attribute '%s'", name)
	}
	i, isInt := v.(starlark.Int)
	if !isInt {
		return pyrt.PyErrorf(pyrt.ExcTypeError, "'%s' object cannot be interpreted as an integer", pyrt.PyTypeName(v))
	}
	n, ok := i.Int64()
	if !ok || n < int64(lim[0]) || n > int64(lim[1]) {
		if name == "capitals" || name == "clamp" {
			return pyrt.PyErrorf(pyrt.ExcValueError, "valid values for %s are [0, 1]", name)
		}
		return pyrt.PyErrorf(pyrt.ExcValueError, "valid range for %s is [%d, %d]", name, lim[0], lim[1])
	}
	switch name {
	case "prec":
		c.prec = int(n)
	case "Emin":
		c.emin = int(n)
	case "Emax":
		c.emax = int(n)
	case "capitals":
		c.capitals = int(n)
	case "clamp":
		c.clamp = int(n)
	}
	return nil
}

func validRounding(s string) bool {
	for _, r := range decRoundings {
		if r == s {
			return true
		}
	}
	return false
}

// newContext is Context(prec=None, rounding=None, Emin=None, Emax=None,
// capitals=None, clamp=None, flags=None, traps=None), from the default.
func (m *decModule) newContext(_ *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	names := []string{"prec", "rounding", "Emin", "Emax", "capitals", "clamp", "flags", "traps"}
	vals := make([]starlark.Value, len(names))
	ptrs := make([]any, 0, 2*len(names))
	for i, n := range names {
		vals[i] = starlark.None
		ptrs = append(ptrs, n+"?", &vals[i])
	}
	if err := pyrt.UnpackArgs("Context", args, kw, ptrs...); err != nil {
		return nil, err
	}
	c := m.defaultContext()
	for i, n := range names {
		if vals[i] == starlark.None {
			continue
		}
		if l, ok := vals[i].(*starlark.List); ok && (n == "traps" || n == "flags") {
			d := starlark.NewDict(l.Len())
			for j := 0; j < l.Len(); j++ {
				_ = d.SetKey(l.Index(j), starlark.True)
			}
			vals[i] = d
		}
		if err := c.SetField(n, vals[i]); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// decCompareOp names op as Python's error messages do.
func decCompareOp(op syntax.Token) string { return op.String() }
