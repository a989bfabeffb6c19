// datetime values: repr, comparison, arithmetic, attributes and methods.

package pyrt

import (
	"fmt"
	"time"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

func (d *PyDate) PyClass() *PyType {
	if d.DateOnly {
		return d.Cls.date
	}
	return d.Cls.datetime
}

func (d *PyDate) isoformat(sep string) string {
	s, _ := d.isoformatSpec(sep, "auto")
	return s
}

// isoformatSpec is isoformat(sep, timespec): the time to the hour, minute,
// second, millisecond or microsecond, "auto" leaving out zero
// microseconds; the UTC offset follows whatever the precision.
func (d *PyDate) isoformatSpec(sep, spec string) (string, error) {
	s := fmt.Sprintf("%04d-%02d-%02d", d.T.Year(), d.T.Month(), d.T.Day())
	if d.DateOnly {
		return s, nil
	}
	us := d.T.Nanosecond() / 1000
	s += fmt.Sprintf("%s%02d", sep, d.T.Hour())
	switch spec {
	case "hours":
	case "minutes":
		s += fmt.Sprintf(":%02d", d.T.Minute())
	case "seconds", "milliseconds", "microseconds", "auto":
		s += fmt.Sprintf(":%02d:%02d", d.T.Minute(), d.T.Second())
		switch {
		case spec == "milliseconds":
			s += fmt.Sprintf(".%03d", us/1000)
		case spec == "microseconds" || spec == "auto" && us != 0:
			s += fmt.Sprintf(".%06d", us)
		}
	default:
		return "", PyErrorf(ExcValueError, "Unknown timespec value")
	}
	if d.Tz != nil {
		s += offsetText(d.Tz.offset, ":")
	}
	return s, nil
}

func (d *PyDate) String() string { return d.StrPy() }
func (d *PyDate) StrPy() string  { return d.isoformat(" ") }
func (d *PyDate) ReprPy() string {
	t := d.T
	if d.DateOnly {
		return fmt.Sprintf("datetime.date(%d, %d, %d)", t.Year(), t.Month(), t.Day())
	}
	s := fmt.Sprintf("datetime.datetime(%d, %d, %d, %d, %d", t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute())
	if us := t.Nanosecond() / 1000; t.Second() != 0 || us != 0 {
		s += fmt.Sprintf(", %d", t.Second())
		if us != 0 {
			s += fmt.Sprintf(", %d", us)
		}
	}
	if d.Tz != nil {
		s += ", tzinfo=" + d.Tz.ReprPy()
	}
	return s + ")"
}
func (d *PyDate) Type() string          { return "datetime." + d.PyClass().TypeName } // CPython's tp_name, as its messages write it
func (d *PyDate) Freeze()               {}
func (d *PyDate) Truth() starlark.Bool  { return true }
func (d *PyDate) Hash() (uint32, error) { return uint32(d.T.UnixNano() / 1000), nil }
func (d *PyDate) FormatPy(spec string) (string, error) {
	if spec == "" {
		return d.StrPy(), nil
	}
	return Strftime(d.T, spec), nil
}

func (d *PyDate) CompareSameType(op syntax.Token, y starlark.Value, _ int) (bool, error) {
	o := y.(*PyDate)
	if (d.Tz == nil) != (o.Tz == nil) {
		if op == syntax.EQL || op == syntax.NEQ {
			return op == syntax.NEQ, nil
		}
		return false, PyErrorf(ExcTypeError, "can't compare offset-naive and offset-aware datetimes")
	}
	return CompareInts(op, d.T.UnixNano(), o.T.UnixNano()), nil
}

func CompareInts(op syntax.Token, a, b int64) bool {
	switch op {
	case syntax.EQL:
		return a == b
	case syntax.NEQ:
		return a != b
	case syntax.LT:
		return a < b
	case syntax.LE:
		return a <= b
	case syntax.GT:
		return a > b
	}
	return a >= b
}

func (d *PyDate) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	switch y := y.(type) {
	case *pyDelta:
		if op == syntax.PLUS || (op == syntax.MINUS && side == starlark.Left) {
			us := y.us
			if op == syntax.MINUS {
				us = -us
			}
			if d.DateOnly {
				us = us / 86400e6 * 86400e6
			}
			return &PyDate{T: d.T.Add(time.Duration(us) * time.Microsecond), DateOnly: d.DateOnly, Tz: d.Tz, Cls: d.Cls}, nil
		}
	case *PyDate:
		if op == syntax.MINUS && side == starlark.Left {
			if (d.Tz == nil) != (y.Tz == nil) {
				return nil, PyErrorf(ExcTypeError, "can't subtract offset-naive and offset-aware datetimes")
			}
			return &pyDelta{us: d.T.Sub(y.T).Microseconds(), cls: d.Cls}, nil
		}
	}
	return nil, nil
}

// isoCalendarDate is the class of isocalendar()'s named tuple.
var (
	isoCalendarDate   = &PyType{TypeName: "IsoCalendarDate", Module: "datetime"}
	isoCalendarFields = []string{"year", "week", "weekday"}
)

var dateFields = []string{"year", "month", "day", "weekday", "isoweekday", "isoformat", "strftime", "replace", "timetuple", "toordinal", "ctime", "isocalendar"}
var datetimeFields = []string{"hour", "minute", "second", "microsecond", "tzinfo", "date", "time", "timestamp", "astimezone", "utcoffset", "tzname"}

func (d *PyDate) AttrNames() []string {
	if d.DateOnly {
		return dateFields
	}
	return append(append([]string{}, dateFields...), datetimeFields...)
}

func (d *PyDate) Attr(name string) (starlark.Value, error) {
	t := d.T
	switch name {
	case "year":
		return starlark.MakeInt(t.Year()), nil
	case "month":
		return starlark.MakeInt(int(t.Month())), nil
	case "day":
		return starlark.MakeInt(t.Day()), nil
	}
	if !d.DateOnly {
		switch name {
		case "hour":
			return starlark.MakeInt(t.Hour()), nil
		case "minute":
			return starlark.MakeInt(t.Minute()), nil
		case "second":
			return starlark.MakeInt(t.Second()), nil
		case "microsecond":
			return starlark.MakeInt(t.Nanosecond() / 1000), nil
		case "tzinfo":
			if d.Tz == nil {
				return starlark.None, nil
			}
			return d.Tz, nil
		}
	}
	m := d.method(name)
	if m == nil {
		return nil, nil
	}
	return Builtin(d.PyClass().TypeName+"."+name, m), nil
}

func (d *PyDate) method(name string) BuiltinFunc {
	noArgs := func(f func() starlark.Value) BuiltinFunc {
		return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 0); err != nil {
				return nil, err
			}
			return f(), nil
		}
	}
	t := d.T
	switch name {
	case "weekday":
		return noArgs(func() starlark.Value { return starlark.MakeInt((int(t.Weekday()) + 6) % 7) })
	case "isoweekday":
		return noArgs(func() starlark.Value { return starlark.MakeInt((int(t.Weekday())+6)%7 + 1) })
	case "toordinal":
		return noArgs(func() starlark.Value {
			// Whole days counted by Unix seconds: time.Duration (t.Sub) cannot span 2,000 years.
			day := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
			return starlark.MakeInt64((day.Unix()-time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC).Unix())/86400 + 1)
		})
	case "isocalendar":
		return noArgs(func() starlark.Value {
			y, w := t.ISOWeek()
			return &Record{Cls: isoCalendarDate, Fields: isoCalendarFields,
				Vals: starlark.Tuple{starlark.MakeInt(y), starlark.MakeInt(w), starlark.MakeInt((int(t.Weekday())+6)%7 + 1)}}
		})
	case "ctime":
		return noArgs(func() starlark.Value { return starlark.String(Strftime(t, "%a %b %e %H:%M:%S %Y")) })
	case "timetuple":
		return noArgs(func() starlark.Value { return &structTime{t: t} })
	case "isoformat":
		return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			sep, spec := "T", "auto"
			if err := UnpackArgs(b.Name(), args, kw, "sep?", &sep, "timespec?", &spec); err != nil {
				return nil, err
			}
			s, err := d.isoformatSpec(sep, spec)
			if err != nil {
				return nil, err
			}
			return starlark.String(s), nil
		}
	case "strftime":
		return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var f string
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &f); err != nil {
				return nil, err
			}
			return starlark.String(Strftime(t, f)), nil
		}
	case "replace":
		return d.replace
	}
	if d.DateOnly {
		return nil
	}
	switch name {
	case "date":
		return noArgs(func() starlark.Value { return d.Cls.Naive(t, true) })
	case "time":
		return noArgs(func() starlark.Value {
			return &PyTimeOfDay{H: t.Hour(), M: t.Minute(), S: t.Second(), Us: t.Nanosecond() / 1000, Cls: d.Cls}
		})
	case "timestamp":
		return noArgs(func() starlark.Value {
			wall := t
			if d.Tz == nil {
				wall = time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.Local)
			}
			return starlark.Float(float64(wall.UnixNano()) / 1e9)
		})
	case "utcoffset":
		return noArgs(func() starlark.Value {
			if d.Tz == nil {
				return starlark.None
			}
			return &pyDelta{us: d.Tz.offset.Microseconds(), cls: d.Cls}
		})
	case "tzname":
		return noArgs(func() starlark.Value {
			if d.Tz == nil {
				return starlark.None
			}
			return starlark.String(d.Tz.name)
		})
	case "astimezone":
		return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var tz starlark.Value = starlark.None
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 0, &tz); err != nil {
				return nil, err
			}
			instant := t
			if d.Tz == nil {
				instant = time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.Local)
			}
			z, ok := tz.(*pyTimezone)
			if !ok {
				_, off := instant.In(time.Local).Zone()
				z = d.Cls.Zone(time.Duration(off) * time.Second)
			}
			return d.Cls.aware(instant, z), nil
		}
	}
	return nil
}

func (d *PyDate) replace(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	t := d.T
	y, mo, day, h, mi, s, us := t.Year(), int(t.Month()), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond()/1000
	var tz starlark.Value = starlark.None
	if d.Tz != nil {
		tz = d.Tz
	}
	if err := UnpackArgs(b.Name(), args, kw, "year?", &y, "month?", &mo, "day?", &day, "hour?", &h, "minute?", &mi, "second?", &s, "microsecond?", &us, "tzinfo?", &tz); err != nil {
		return nil, err
	}
	if err := CheckDate(y, mo, day, h, mi, s, us); err != nil {
		return nil, err
	}
	out := &PyDate{T: time.Date(y, time.Month(mo), day, h, mi, s, us*1000, time.UTC), DateOnly: d.DateOnly, Cls: d.Cls}
	if z, ok := tz.(*pyTimezone); ok && !d.DateOnly {
		out.Tz = z
		out.T = time.Date(y, time.Month(mo), day, h, mi, s, us*1000, time.FixedZone(z.name, int(z.offset.Seconds())))
	}
	return out, nil
}
