// datetime values: repr, comparison, arithmetic, attributes and methods.

package pyrt

import (
	"fmt"
	"time"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

func (d *pyDate) pyClass() *PyType {
	if d.dateOnly {
		return d.cls.date
	}
	return d.cls.datetime
}

func (d *pyDate) isoformat(sep string) string {
	s := fmt.Sprintf("%04d-%02d-%02d", d.t.Year(), d.t.Month(), d.t.Day())
	if d.dateOnly {
		return s
	}
	s += fmt.Sprintf("%s%02d:%02d:%02d", sep, d.t.Hour(), d.t.Minute(), d.t.Second())
	if us := d.t.Nanosecond() / 1000; us != 0 {
		s += fmt.Sprintf(".%06d", us)
	}
	if d.tz != nil {
		s += offsetText(d.tz.offset, ":")
	}
	return s
}

func (d *pyDate) String() string { return d.strPy() }
func (d *pyDate) strPy() string  { return d.isoformat(" ") }
func (d *pyDate) reprPy() string {
	t := d.t
	if d.dateOnly {
		return fmt.Sprintf("datetime.date(%d, %d, %d)", t.Year(), t.Month(), t.Day())
	}
	s := fmt.Sprintf("datetime.datetime(%d, %d, %d, %d, %d", t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute())
	if us := t.Nanosecond() / 1000; t.Second() != 0 || us != 0 {
		s += fmt.Sprintf(", %d", t.Second())
		if us != 0 {
			s += fmt.Sprintf(", %d", us)
		}
	}
	if d.tz != nil {
		s += ", tzinfo=" + d.tz.reprPy()
	}
	return s + ")"
}
func (d *pyDate) Type() string          { return "datetime." + d.pyClass().name } // CPython's tp_name, as its messages write it
func (d *pyDate) Freeze()               {}
func (d *pyDate) Truth() starlark.Bool  { return true }
func (d *pyDate) Hash() (uint32, error) { return uint32(d.t.UnixNano() / 1000), nil }
func (d *pyDate) formatPy(spec string) (string, error) {
	if spec == "" {
		return d.strPy(), nil
	}
	return strftime(d.t, spec), nil
}

func (d *pyDate) CompareSameType(op syntax.Token, y starlark.Value, _ int) (bool, error) {
	o := y.(*pyDate)
	if (d.tz == nil) != (o.tz == nil) {
		if op == syntax.EQL || op == syntax.NEQ {
			return op == syntax.NEQ, nil
		}
		return false, pyErrorf(excTypeError, "can't compare offset-naive and offset-aware datetimes")
	}
	return compareInts(op, d.t.UnixNano(), o.t.UnixNano()), nil
}

func compareInts(op syntax.Token, a, b int64) bool {
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

func (d *pyDate) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	switch y := y.(type) {
	case *pyDelta:
		if op == syntax.PLUS || (op == syntax.MINUS && side == starlark.Left) {
			us := y.us
			if op == syntax.MINUS {
				us = -us
			}
			if d.dateOnly {
				us = us / 86400e6 * 86400e6
			}
			return &pyDate{t: d.t.Add(time.Duration(us) * time.Microsecond), dateOnly: d.dateOnly, tz: d.tz, cls: d.cls}, nil
		}
	case *pyDate:
		if op == syntax.MINUS && side == starlark.Left {
			if (d.tz == nil) != (y.tz == nil) {
				return nil, pyErrorf(excTypeError, "can't subtract offset-naive and offset-aware datetimes")
			}
			return &pyDelta{us: d.t.Sub(y.t).Microseconds(), cls: d.cls}, nil
		}
	}
	return nil, nil
}

// isoCalendarDate is the class of isocalendar()'s named tuple.
var (
	isoCalendarDate   = &PyType{name: "IsoCalendarDate", module: "datetime"}
	isoCalendarFields = []string{"year", "week", "weekday"}
)

var dateFields = []string{"year", "month", "day", "weekday", "isoweekday", "isoformat", "strftime", "replace", "timetuple", "toordinal", "ctime", "isocalendar"}
var datetimeFields = []string{"hour", "minute", "second", "microsecond", "tzinfo", "date", "time", "timestamp", "astimezone", "utcoffset", "tzname"}

func (d *pyDate) AttrNames() []string {
	if d.dateOnly {
		return dateFields
	}
	return append(append([]string{}, dateFields...), datetimeFields...)
}

func (d *pyDate) Attr(name string) (starlark.Value, error) {
	t := d.t
	switch name {
	case "year":
		return starlark.MakeInt(t.Year()), nil
	case "month":
		return starlark.MakeInt(int(t.Month())), nil
	case "day":
		return starlark.MakeInt(t.Day()), nil
	}
	if !d.dateOnly {
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
			if d.tz == nil {
				return starlark.None, nil
			}
			return d.tz, nil
		}
	}
	m := d.method(name)
	if m == nil {
		return nil, nil
	}
	return builtin(d.pyClass().name+"."+name, m), nil
}

func (d *pyDate) method(name string) BuiltinFunc {
	noArgs := func(f func() starlark.Value) BuiltinFunc {
		return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 0); err != nil {
				return nil, err
			}
			return f(), nil
		}
	}
	t := d.t
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
			return &record{cls: isoCalendarDate, fields: isoCalendarFields,
				vals: starlark.Tuple{starlark.MakeInt(y), starlark.MakeInt(w), starlark.MakeInt((int(t.Weekday())+6)%7 + 1)}}
		})
	case "ctime":
		return noArgs(func() starlark.Value { return starlark.String(strftime(t, "%a %b %e %H:%M:%S %Y")) })
	case "timetuple":
		return noArgs(func() starlark.Value { return &structTime{t: t} })
	case "isoformat":
		return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			sep, spec := "T", "auto"
			if err := starlark.UnpackArgs(b.Name(), args, kw, "sep?", &sep, "timespec?", &spec); err != nil {
				return nil, err
			}
			s := d.isoformat(sep)
			switch spec {
			case "seconds":
				s = d.isoformat(sep)[:10+len(sep)+8]
			case "minutes":
				s = d.isoformat(sep)[:10+len(sep)+5]
			case "milliseconds":
				s = d.isoformat(sep)[:10+len(sep)+8] + fmt.Sprintf(".%03d", t.Nanosecond()/1e6)
			}
			return starlark.String(s), nil
		}
	case "strftime":
		return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var f string
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &f); err != nil {
				return nil, err
			}
			return starlark.String(strftime(t, f)), nil
		}
	case "replace":
		return d.replace
	}
	if d.dateOnly {
		return nil
	}
	switch name {
	case "date":
		return noArgs(func() starlark.Value { return d.cls.naive(t, true) })
	case "time":
		return noArgs(func() starlark.Value {
			return &pyTimeOfDay{h: t.Hour(), m: t.Minute(), s: t.Second(), us: t.Nanosecond() / 1000, cls: d.cls}
		})
	case "timestamp":
		return noArgs(func() starlark.Value {
			wall := t
			if d.tz == nil {
				wall = time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.Local)
			}
			return starlark.Float(float64(wall.UnixNano()) / 1e9)
		})
	case "utcoffset":
		return noArgs(func() starlark.Value {
			if d.tz == nil {
				return starlark.None
			}
			return &pyDelta{us: d.tz.offset.Microseconds(), cls: d.cls}
		})
	case "tzname":
		return noArgs(func() starlark.Value {
			if d.tz == nil {
				return starlark.None
			}
			return starlark.String(d.tz.name)
		})
	case "astimezone":
		return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var tz starlark.Value = starlark.None
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 0, &tz); err != nil {
				return nil, err
			}
			instant := t
			if d.tz == nil {
				instant = time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.Local)
			}
			z, ok := tz.(*pyTimezone)
			if !ok {
				_, off := instant.In(time.Local).Zone()
				z = d.cls.zone(time.Duration(off) * time.Second)
			}
			return d.cls.aware(instant, z), nil
		}
	}
	return nil
}

func (d *pyDate) replace(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	t := d.t
	y, mo, day, h, mi, s, us := t.Year(), int(t.Month()), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond()/1000
	var tz starlark.Value = starlark.None
	if d.tz != nil {
		tz = d.tz
	}
	if err := starlark.UnpackArgs(b.Name(), args, kw, "year?", &y, "month?", &mo, "day?", &day, "hour?", &h, "minute?", &mi, "second?", &s, "microsecond?", &us, "tzinfo?", &tz); err != nil {
		return nil, err
	}
	if err := checkDate(y, mo, day, h, mi, s, us); err != nil {
		return nil, err
	}
	out := &pyDate{t: time.Date(y, time.Month(mo), day, h, mi, s, us*1000, time.UTC), dateOnly: d.dateOnly, cls: d.cls}
	if z, ok := tz.(*pyTimezone); ok && !d.dateOnly {
		out.tz = z
		out.t = time.Date(y, time.Month(mo), day, h, mi, s, us*1000, time.FixedZone(z.name, int(z.offset.Seconds())))
	}
	return out, nil
}
