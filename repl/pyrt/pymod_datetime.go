// The datetime module: date, datetime, timedelta and timezone with
// Python's construction, arithmetic, formatting and parsing.

package pyrt

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"go.starlark.net/starlark"

	"harness/repl/pystr"
)

// pyDate is a date (dateOnly) or a datetime. Naive datetimes keep their
// wall-clock fields in UTC; aware ones carry a fixed-offset zone.
type PyDate struct {
	T        time.Time
	DateOnly bool
	Tz       *pyTimezone // nil when naive
	Cls      *DtClasses
}

// pyDelta is a timedelta, in microseconds.
type pyDelta struct {
	us  int64
	cls *DtClasses
}

// pyTimezone is a fixed UTC offset.
type pyTimezone struct {
	offset time.Duration
	name   string // tzname(): the name given, else UTC+HH:MM
	named  bool   // a name was given to timezone()
	cls    *DtClasses
}

// dtClasses are the module's classes, made once per interpreter.
type DtClasses struct {
	date, datetime, timedelta, timezone, timeT *PyType
	utc                                        *pyTimezone
}

var (
	_ starlark.HasBinary  = (*PyDate)(nil)
	_ starlark.Comparable = (*PyDate)(nil)
	_ starlark.HasAttrs   = (*PyDate)(nil)
	_ starlark.HasBinary  = (*pyDelta)(nil)
	_ starlark.HasUnary   = (*pyDelta)(nil)
	_ starlark.Comparable = (*pyDelta)(nil)
)

func (r *Interp) DtClasses() *DtClasses {
	if r.Dt != nil {
		return r.Dt
	}
	c := &DtClasses{}
	c.utc = &pyTimezone{name: "UTC", cls: c}
	c.timedelta = &PyType{TypeName: "timedelta", Module: "datetime", Call: c.newDelta}
	c.timedelta.Attrs = starlark.StringDict{"max": &pyDelta{us: math.MaxInt64, cls: c}, "min": &pyDelta{us: math.MinInt64, cls: c}}
	c.timezone = &PyType{TypeName: "timezone", Module: "datetime", Call: c.newTimezone, Attrs: starlark.StringDict{"utc": c.utc}}
	c.date = &PyType{TypeName: "date", Module: "datetime", Call: c.newDate(true)}
	c.datetime = &PyType{TypeName: "datetime", Module: "datetime", Base: c.date, Call: c.newDate(false)}
	c.timeT = &PyType{TypeName: "time", Module: "datetime", Call: c.newTimeOfDay}
	c.date.Attrs = starlark.StringDict{
		"today": Builtin("date.today", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return c.localNow(true), nil
		}),
		"fromtimestamp": Builtin("date.fromtimestamp", c.fromTimestamp(true, false)),
		"fromisoformat": Builtin("date.fromisoformat", c.fromISO(true)),
	}
	c.datetime.Attrs = starlark.StringDict{
		"now": Builtin("datetime.now", c.now),
		"today": Builtin("datetime.today", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return c.localNow(false), nil
		}),
		"utcnow": Builtin("datetime.utcnow", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return c.Naive(time.Now().UTC(), false), nil
		}),
		"fromtimestamp":    Builtin("datetime.fromtimestamp", c.fromTimestamp(false, false)),
		"utcfromtimestamp": Builtin("datetime.utcfromtimestamp", c.fromTimestamp(false, true)),
		"fromisoformat":    Builtin("datetime.fromisoformat", c.fromISO(false)),
		"strptime":         Builtin("datetime.strptime", c.strptime),
		"combine":          Builtin("datetime.combine", c.combine),
	}
	r.Dt = c
	return c
}

func (r *Interp) datetimeModule() starlark.Value {
	c := r.DtClasses()
	return NewModule("datetime", starlark.StringDict{
		"date": c.date, "datetime": c.datetime, "timedelta": c.timedelta, "timezone": c.timezone, "time": c.timeT,
		"MINYEAR": starlark.MakeInt(1), "MAXYEAR": starlark.MakeInt(9999),
	})
}

// naive returns a naive date or datetime with t's wall-clock fields.
func (c *DtClasses) Naive(t time.Time, dateOnly bool) *PyDate {
	w := time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond()/1000*1000, time.UTC)
	if dateOnly {
		w = time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	}
	return &PyDate{T: w, DateOnly: dateOnly, Cls: c}
}

func (c *DtClasses) localNow(dateOnly bool) *PyDate { return c.Naive(time.Now(), dateOnly) }

func (c *DtClasses) aware(t time.Time, tz *pyTimezone) *PyDate {
	t = t.In(time.FixedZone(tz.name, int(tz.offset.Seconds())))
	return &PyDate{T: t.Truncate(time.Microsecond), Tz: tz, Cls: c}
}

func (c *DtClasses) now(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var tz starlark.Value = starlark.None
	if err := UnpackArgs(b.Name(), args, kw, "tz?", &tz); err != nil {
		return nil, err
	}
	if z, ok := tz.(*pyTimezone); ok {
		return c.aware(time.Now(), z), nil
	}
	return c.localNow(false), nil
}

func (c *DtClasses) newDate(dateOnly bool) func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return func(_ *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var y, mo, d int
		h, mi, s, us := 0, 0, 0, 0
		var tz starlark.Value = starlark.None
		name := "datetime"
		var err error
		if dateOnly {
			name = "date"
			err = UnpackArgs(name, args, kw, "year", &y, "month", &mo, "day", &d)
		} else {
			err = UnpackArgs(name, args, kw, "year", &y, "month", &mo, "day", &d, "hour?", &h, "minute?", &mi, "second?", &s, "microsecond?", &us, "tzinfo?", &tz)
		}
		if err != nil {
			return nil, PyErrorf(ExcTypeError, "%s", err.Error())
		}
		if err := CheckDate(y, mo, d, h, mi, s, us); err != nil {
			return nil, err
		}
		t := time.Date(y, time.Month(mo), d, h, mi, s, us*1000, time.UTC)
		if z, ok := tz.(*pyTimezone); ok {
			return &PyDate{T: time.Date(y, time.Month(mo), d, h, mi, s, us*1000, time.FixedZone(z.name, int(z.offset.Seconds()))), Tz: z, Cls: c}, nil
		}
		return &PyDate{T: t, DateOnly: dateOnly, Cls: c}, nil
	}
}

func CheckDate(y, mo, d, h, mi, s, us int) error {
	switch {
	case y < 1 || y > 9999:
		return PyErrorf(ExcValueError, "year %d is out of range", y)
	case mo < 1 || mo > 12:
		return PyErrorf(ExcValueError, "month must be in 1..12")
	case d < 1 || d > time.Date(y, time.Month(mo)+1, 0, 0, 0, 0, 0, time.UTC).Day():
		return PyErrorf(ExcValueError, "day is out of range for month")
	case h < 0 || h > 23:
		return PyErrorf(ExcValueError, "hour must be in 0..23")
	case mi < 0 || mi > 59:
		return PyErrorf(ExcValueError, "minute must be in 0..59")
	case s < 0 || s > 59:
		return PyErrorf(ExcValueError, "second must be in 0..59")
	case us < 0 || us > 999999:
		return PyErrorf(ExcValueError, "microsecond must be in 0..999999")
	}
	return nil
}

func (c *DtClasses) fromTimestamp(dateOnly, utc bool) BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var ts, tz starlark.Value = nil, starlark.None
		if err := UnpackArgs(b.Name(), args, kw, "timestamp", &ts, "tz?", &tz); err != nil {
			return nil, err
		}
		f, ok := ToFloat(ts)
		if !ok {
			return nil, PyErrorf(ExcTypeError, "'%s' object cannot be interpreted as a timestamp", PyTypeName(ts))
		}
		sec, frac := math.Modf(f)
		t := time.Unix(int64(sec), int64(math.Round(frac*1e6))*1000)
		if z, ok := tz.(*pyTimezone); ok {
			return c.aware(t, z), nil
		}
		if utc {
			t = t.UTC()
		}
		return c.Naive(t, dateOnly), nil
	}
}

// fromISO parses YYYY-MM-DD[(T| )HH:MM[:SS[.ffffff]]][Z|±HH:MM].
func (c *DtClasses) fromISO(dateOnly bool) BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var s string
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &s); err != nil {
			return nil, err
		}
		bad := PyErrorf(ExcValueError, "Invalid isoformat string: %s", pystr.Quote(s))
		layouts := []string{"2006-01-02T15:04:05.999999Z07:00", "2006-01-02T15:04:05Z07:00", "2006-01-02T15:04Z07:00",
			"2006-01-02T15:04:05.999999", "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02T15", "2006-01-02", "20060102"}
		norm := strings.Replace(s, " ", "T", 1)
		for _, l := range layouts {
			t, err := time.Parse(l, norm)
			if err != nil {
				continue
			}
			if dateOnly {
				if l != "2006-01-02" && l != "20060102" {
					return nil, bad
				}
				return c.Naive(t, true), nil
			}
			if strings.Contains(l, "Z07") {
				_, off := t.Zone()
				return c.aware(t, c.Zone(time.Duration(off)*time.Second)), nil
			}
			return c.Naive(t, false), nil
		}
		return nil, bad
	}
}

func (c *DtClasses) Zone(off time.Duration) *pyTimezone {
	if off == 0 {
		return c.utc
	}
	return &pyTimezone{offset: off, name: "UTC" + offsetText(off, ":"), cls: c}
}

func offsetText(off time.Duration, sep string) string {
	sign := "+"
	if off < 0 {
		sign, off = "-", -off
	}
	h, m := int(off.Hours()), int(off.Minutes())%60
	return fmt.Sprintf("UTC%s%02d%s%02d", sign, h, sep, m)[3:]
}

func (c *DtClasses) combine(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var d *PyDate
	var tod *PyTimeOfDay
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 2, &d, &tod); err != nil {
		return nil, err
	}
	return &PyDate{T: time.Date(d.T.Year(), d.T.Month(), d.T.Day(), tod.H, tod.M, tod.S, tod.Us*1000, time.UTC), Cls: c}, nil
}

// strptime parses s with the % directives of format.
func (c *DtClasses) strptime(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var s, format string
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 2, &s, &format); err != nil {
		return nil, err
	}
	bad := PyErrorf(ExcValueError, "time data %s does not match format %s", pystr.Quote(s), pystr.Quote(format))
	y, mo, d, h, mi, sec, us := 1900, 1, 1, 0, 0, 0, 0
	pm, twelve := -1, false
	var off *time.Duration
	i := 0
	num := func(maxLen int) (int, bool) {
		j := i
		if j < len(s) && (s[j] == '+' || s[j] == '-') && maxLen > 4 {
			j++
		}
		for j < len(s) && j-i < maxLen && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == i {
			return 0, false
		}
		n, err := strconv.Atoi(s[i:j]) // decimal: "08" is 8, never octal
		if err != nil {
			return 0, false
		}
		i = j
		return n, true
	}
	// field reads a number in [lo, hi]; like Python's patterns, a value
	// outside it does not match the format.
	field := func(maxLen, lo, hi int) (int, bool) {
		n, ok := num(maxLen)
		return n, ok && n >= lo && n <= hi
	}
	word := func(names []string, short bool) (int, bool) {
		for k, n := range names {
			if short {
				n = n[:3]
			}
			if len(s)-i >= len(n) && strings.EqualFold(s[i:i+len(n)], n) {
				i += len(n)
				return k, true
			}
		}
		return 0, false
	}
	for f := 0; f < len(format); f++ {
		if format[f] != '%' || f+1 == len(format) {
			if format[f] == ' ' {
				for i < len(s) && s[i] == ' ' {
					i++
				}
				continue
			}
			if i >= len(s) || s[i] != format[f] {
				return nil, bad
			}
			i++
			continue
		}
		f++
		ok := true
		switch format[f] {
		case 'Y':
			y, ok = num(4)
		case 'y':
			y, ok = num(2)
			if y < 69 {
				y += 2000
			} else {
				y += 1900
			}
		case 'm':
			mo, ok = field(2, 1, 12)
		case 'd':
			d, ok = field(2, 1, 31)
		case 'H':
			h, ok = field(2, 0, 23)
		case 'I':
			h, ok = field(2, 1, 12)
			twelve = true
		case 'M':
			mi, ok = field(2, 0, 59)
		case 'S':
			sec, ok = field(2, 0, 61)
		case 'f':
			start := i
			us, ok = num(6)
			for k := i - start; k < 6; k++ {
				us *= 10
			}
		case 'j':
			var yd int
			yd, ok = num(3)
			t := time.Date(y, 1, yd, 0, 0, 0, 0, time.UTC)
			mo, d = int(t.Month()), t.Day()
		case 'b', 'h':
			var k int
			k, ok = word(months, true)
			mo = k + 1
		case 'B':
			var k int
			k, ok = word(months, false)
			mo = k + 1
		case 'a':
			_, ok = word(weekdays, true)
		case 'A':
			_, ok = word(weekdays, false)
		case 'p':
			var k int
			k, ok = word([]string{"AM", "PM"}, false)
			pm = k
		case 'z':
			if i < len(s) && s[i] == 'Z' {
				i++
				z := time.Duration(0)
				off = &z
				break
			}
			j := i
			for j < len(s) && strings.IndexByte("+-0123456789:", s[j]) >= 0 {
				j++
			}
			v := strings.ReplaceAll(s[i:j], ":", "")
			if len(v) != 5 {
				ok = false
				break
			}
			hh, herr := strconv.Atoi(v[1:3])
			mm, merr := strconv.Atoi(v[3:5])
			if herr != nil || merr != nil || v[0] != '+' && v[0] != '-' {
				ok = false
				break
			}
			z := time.Duration(hh)*time.Hour + time.Duration(mm)*time.Minute
			if v[0] == '-' {
				z = -z
			}
			off, i = &z, j
		case 'Z':
			for i < len(s) && (s[i] >= 'A' && s[i] <= 'Z') {
				i++
			}
		case '%':
			ok = i < len(s) && s[i] == '%'
			i++
		default:
			return nil, PyErrorf(ExcValueError, "'%c' is a bad directive in format %s", format[f], pystr.Quote(format))
		}
		if !ok {
			return nil, bad
		}
	}
	if i != len(s) {
		return nil, PyErrorf(ExcValueError, "unconverted data remains: %s", s[i:])
	}
	if twelve {
		h = h%12 + 12*max(pm, 0) // %I without %p is a morning hour, as in Python
	}
	if err := CheckDate(y, mo, d, h, mi, sec, us); err != nil {
		return nil, err
	}
	t := time.Date(y, time.Month(mo), d, h, mi, sec, us*1000, time.UTC)
	if off != nil {
		z := c.Zone(*off)
		return &PyDate{T: time.Date(y, time.Month(mo), d, h, mi, sec, us*1000, time.FixedZone(z.name, int(off.Seconds()))), Tz: z, Cls: c}, nil
	}
	return &PyDate{T: t, Cls: c}, nil
}
