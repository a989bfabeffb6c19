// datetime.timedelta, datetime.timezone and datetime.time.

package pyrt

import (
	"fmt"
	"math"
	"time"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

func (c *DtClasses) newDelta(_ *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	names := []string{"days", "seconds", "microseconds", "milliseconds", "minutes", "hours", "weeks"}
	units := []float64{86400e6, 1e6, 1, 1e3, 60e6, 3600e6, 7 * 86400e6}
	if len(args) > len(names) {
		return nil, PyErrorf(ExcTypeError, "timedelta takes at most 7 arguments")
	}
	total := 0.0
	add := func(i int, v starlark.Value) error {
		f, ok := ToFloat(BoolToInt(v)) // a bool is the int it equals
		if !ok {
			return PyErrorf(ExcTypeError, "unsupported type for timedelta %s component: %s", names[i], PyTypeName(v))
		}
		total += f * units[i]
		return nil
	}
	for i, a := range args {
		if err := add(i, a); err != nil {
			return nil, err
		}
	}
	for _, kv := range kw {
		k := string(kv[0].(starlark.String))
		found := false
		for i, n := range names {
			if n == k {
				if err := add(i, kv[1]); err != nil {
					return nil, err
				}
				found = true
			}
		}
		if !found {
			return nil, PyErrorf(ExcTypeError, "'%s' is an invalid keyword argument for timedelta()", k)
		}
	}
	return &pyDelta{us: int64(math.RoundToEven(total)), cls: c}, nil
}

func (d *pyDelta) parts() (days, secs, us int64) {
	days = FloorDiv(d.us, 86400e6)
	rest := d.us - days*86400e6
	return days, rest / 1e6, rest % 1e6
}

func FloorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func (d *pyDelta) PyClass() *PyType { return d.cls.timedelta }
func (d *pyDelta) String() string   { return d.StrPy() }
func (d *pyDelta) StrPy() string {
	days, secs, us := d.parts()
	s := fmt.Sprintf("%d:%02d:%02d", secs/3600, secs%3600/60, secs%60)
	if us != 0 {
		s += fmt.Sprintf(".%06d", us)
	}
	switch {
	case days == 1 || days == -1:
		s = fmt.Sprintf("%d day, %s", days, s)
	case days != 0:
		s = fmt.Sprintf("%d days, %s", days, s)
	}
	return s
}
func (d *pyDelta) ReprPy() string {
	days, secs, us := d.parts()
	var parts []string
	if days != 0 {
		parts = append(parts, fmt.Sprintf("days=%d", days))
	}
	if secs != 0 {
		parts = append(parts, fmt.Sprintf("seconds=%d", secs))
	}
	if us != 0 {
		parts = append(parts, fmt.Sprintf("microseconds=%d", us))
	}
	if len(parts) == 0 {
		return "datetime.timedelta(0)"
	}
	s := "datetime.timedelta("
	for i, p := range parts {
		if i > 0 {
			s += ", "
		}
		s += p
	}
	return s + ")"
}
func (d *pyDelta) Type() string          { return "datetime.timedelta" }
func (d *pyDelta) Freeze()               {}
func (d *pyDelta) Truth() starlark.Bool  { return d.us != 0 }
func (d *pyDelta) Hash() (uint32, error) { return uint32(d.us), nil }
func (d *pyDelta) CompareSameType(op syntax.Token, y starlark.Value, _ int) (bool, error) {
	return CompareInts(op, d.us, y.(*pyDelta).us), nil
}

func (d *pyDelta) AttrNames() []string {
	return []string{"days", "microseconds", "seconds", "total_seconds"}
}

func (d *pyDelta) Attr(name string) (starlark.Value, error) {
	days, secs, us := d.parts()
	switch name {
	case "days":
		return starlark.MakeInt64(days), nil
	case "seconds":
		return starlark.MakeInt64(secs), nil
	case "microseconds":
		return starlark.MakeInt64(us), nil
	case "total_seconds":
		return Builtin("timedelta.total_seconds", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.Float(float64(d.us) / 1e6), nil
		}), nil
	}
	return nil, nil
}

func (d *pyDelta) Unary(op syntax.Token) (starlark.Value, error) {
	switch op {
	case syntax.MINUS:
		return &pyDelta{us: -d.us, cls: d.cls}, nil
	case syntax.PLUS:
		return d, nil
	}
	return nil, nil
}

func (d *pyDelta) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	mk := func(us float64) starlark.Value { return &pyDelta{us: int64(math.RoundToEven(us)), cls: d.cls} }
	switch y := y.(type) {
	case *pyDelta:
		a, b := d.us, y.us
		if side == starlark.Right {
			a, b = b, a
		}
		switch op {
		case syntax.PLUS:
			return &pyDelta{us: a + b, cls: d.cls}, nil
		case syntax.MINUS:
			return &pyDelta{us: a - b, cls: d.cls}, nil
		case syntax.SLASH:
			if b == 0 {
				return nil, PyErrorf(ExcZeroDivision, "division by zero")
			}
			return starlark.Float(float64(a) / float64(b)), nil
		case syntax.SLASHSLASH:
			if b == 0 {
				return nil, PyErrorf(ExcZeroDivision, "integer division or modulo by zero")
			}
			return starlark.MakeInt64(FloorDiv(a, b)), nil
		case syntax.PERCENT:
			if b == 0 {
				return nil, PyErrorf(ExcZeroDivision, "integer division or modulo by zero")
			}
			return &pyDelta{us: a - FloorDiv(a, b)*b, cls: d.cls}, nil
		}
	case starlark.Int, starlark.Float:
		f, _ := ToFloat(y)
		switch {
		case op == syntax.STAR:
			return mk(float64(d.us) * f), nil
		case op == syntax.SLASH && side == starlark.Left:
			if f == 0 {
				return nil, PyErrorf(ExcZeroDivision, "division by zero")
			}
			return mk(float64(d.us) / f), nil
		case op == syntax.SLASHSLASH && side == starlark.Left:
			if f == 0 {
				return nil, PyErrorf(ExcZeroDivision, "integer division or modulo by zero")
			}
			return mk(math.Floor(float64(d.us) / f)), nil
		}
	}
	return nil, nil
}

func (c *DtClasses) newTimezone(_ *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var off *pyDelta
	var name string
	if err := UnpackArgs("timezone", args, kw, "offset", &off, "name?", &name); err != nil {
		return nil, err
	}
	z := c.Zone(time.Duration(off.us) * time.Microsecond)
	if name != "" {
		z = &pyTimezone{offset: z.offset, name: name, named: true, cls: c}
	}
	return z, nil
}

func (z *pyTimezone) PyClass() *PyType { return z.cls.timezone }
func (z *pyTimezone) String() string   { return z.StrPy() }
func (z *pyTimezone) StrPy() string    { return z.name }
func (z *pyTimezone) ReprPy() string {
	if z.offset == 0 && z.name == "UTC" {
		return "datetime.timezone.utc"
	}
	if z.named {
		return "datetime.timezone(" + (&pyDelta{us: z.offset.Microseconds(), cls: z.cls}).ReprPy() + ", " + PyRepr(starlark.String(z.name)) + ")"
	}
	return "datetime.timezone(" + (&pyDelta{us: z.offset.Microseconds(), cls: z.cls}).ReprPy() + ")"
}
func (z *pyTimezone) AttrNames() []string { return []string{"dst", "tzname", "utcoffset"} }

// Attr: tzname(dt), utcoffset(dt) and dst(dt), the same for every dt.
func (z *pyTimezone) Attr(name string) (starlark.Value, error) {
	var v starlark.Value
	switch name {
	case "tzname":
		v = starlark.String(z.name)
	case "utcoffset":
		v = &pyDelta{us: z.offset.Microseconds(), cls: z.cls}
	case "dst":
		v = starlark.None
	default:
		return nil, nil
	}
	return Builtin(name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var dt starlark.Value
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &dt); err != nil {
			return nil, err
		}
		return v, nil
	}), nil
}

func (z *pyTimezone) Type() string          { return "datetime.timezone" }
func (z *pyTimezone) Freeze()               {}
func (z *pyTimezone) Truth() starlark.Bool  { return true }
func (z *pyTimezone) Hash() (uint32, error) { return uint32(z.offset.Seconds()), nil }

// pyTimeOfDay is datetime.time.
type PyTimeOfDay struct {
	H, M, S, Us int
	Cls         *DtClasses
}

func (c *DtClasses) newTimeOfDay(_ *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	t := &PyTimeOfDay{Cls: c}
	if err := UnpackArgs("time", args, kw, "hour?", &t.H, "minute?", &t.M, "second?", &t.S, "microsecond?", &t.Us); err != nil {
		return nil, err
	}
	if err := CheckDate(2000, 1, 1, t.H, t.M, t.S, t.Us); err != nil {
		return nil, err
	}
	return t, nil
}

func (t *PyTimeOfDay) PyClass() *PyType { return t.Cls.timeT }
func (t *PyTimeOfDay) String() string   { return t.StrPy() }
func (t *PyTimeOfDay) StrPy() string {
	s := fmt.Sprintf("%02d:%02d:%02d", t.H, t.M, t.S)
	if t.Us != 0 {
		s += fmt.Sprintf(".%06d", t.Us)
	}
	return s
}
func (t *PyTimeOfDay) ReprPy() string {
	s := fmt.Sprintf("datetime.time(%d, %d", t.H, t.M)
	if t.S != 0 || t.Us != 0 {
		s += fmt.Sprintf(", %d", t.S)
		if t.Us != 0 {
			s += fmt.Sprintf(", %d", t.Us)
		}
	}
	return s + ")"
}
func (t *PyTimeOfDay) Type() string          { return "datetime.time" }
func (t *PyTimeOfDay) Freeze()               {}
func (t *PyTimeOfDay) Truth() starlark.Bool  { return true }
func (t *PyTimeOfDay) Hash() (uint32, error) { return uint32(t.H*3600 + t.M*60 + t.S), nil }
func (t *PyTimeOfDay) CompareSameType(op syntax.Token, y starlark.Value, _ int) (bool, error) {
	o := y.(*PyTimeOfDay)
	key := func(x *PyTimeOfDay) int64 { return int64(((x.H*60+x.M)*60+x.S)*1000000 + x.Us) }
	return CompareInts(op, key(t), key(o)), nil
}
func (t *PyTimeOfDay) FormatPy(spec string) (string, error) {
	if spec == "" {
		return t.StrPy(), nil
	}
	return Strftime(time.Date(1900, 1, 1, t.H, t.M, t.S, t.Us*1000, time.UTC), spec), nil
}
func (t *PyTimeOfDay) AttrNames() []string {
	return []string{"hour", "isoformat", "microsecond", "minute", "second", "strftime"}
}
func (t *PyTimeOfDay) Attr(name string) (starlark.Value, error) {
	switch name {
	case "hour":
		return starlark.MakeInt(t.H), nil
	case "minute":
		return starlark.MakeInt(t.M), nil
	case "second":
		return starlark.MakeInt(t.S), nil
	case "microsecond":
		return starlark.MakeInt(t.Us), nil
	case "isoformat":
		return Builtin("time.isoformat", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.String(t.StrPy()), nil
		}), nil
	case "strftime":
		return Builtin("time.strftime", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var f string
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &f); err != nil {
				return nil, err
			}
			s, err := t.FormatPy(f)
			return starlark.String(s), err
		}), nil
	}
	return nil, nil
}
