// The time module: Python's clock functions, sleep and strftime beside
// Starlark's time values.

package pyrt

import (
	"fmt"
	"strings"
	"time"

	ltime "go.starlark.net/lib/time"
	"go.starlark.net/starlark"
)

var processStart = time.Now()

func (r *Interp) TimeModule() starlark.Value {
	m := starlark.StringDict{}
	for k, v := range ltime.Module.Members {
		m[k] = v
	}
	starTime := ltime.Module.Members["time"]
	seconds := func(t time.Time) starlark.Value { return starlark.Float(float64(t.UnixNano()) / 1e9) }
	m["time"] = Builtin("time.time", func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if len(args) == 0 && len(kw) == 0 {
			return seconds(time.Now()), nil // Python's time.time()
		}
		return starlark.Call(thread, starTime, args, kw) // Starlark's time.time(year=…)
	})
	m["time_ns"] = Builtin("time.time_ns", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
		return starlark.MakeInt64(time.Now().UnixNano()), nil
	})
	mono := Builtin("time.monotonic", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
		return starlark.Float(time.Since(processStart).Seconds()), nil
	})
	m["monotonic"], m["perf_counter"], m["process_time"] = mono, mono, mono
	m["sleep"] = Builtin("time.sleep", r.sleep)
	m["strftime"] = Builtin("time.strftime", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var format string
		var t starlark.Value = starlark.None
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &format, &t); err != nil {
			return nil, err
		}
		when := time.Now()
		if st, ok := t.(*structTime); ok {
			when = st.t
		}
		return starlark.String(Strftime(when, format)), nil
	})
	m["localtime"] = Builtin("time.localtime", structTimeOf(time.Local))
	m["gmtime"] = Builtin("time.gmtime", structTimeOf(time.UTC))
	m["ctime"] = Builtin("time.ctime", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		t, err := secondsArg(b.Name(), args, kw, time.Local)
		if err != nil {
			return nil, err
		}
		return starlark.String(Strftime(t, "%a %b %e %H:%M:%S %Y")), nil
	})
	m["mktime"] = Builtin("time.mktime", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var st *structTime
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &st); err != nil {
			return nil, err
		}
		return seconds(st.t), nil
	})
	return NewModule("time", m)
}

// sleep waits, and stops at once when the call is stopped (Esc).
func (r *Interp) sleep(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var secs starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &secs); err != nil {
		return nil, err
	}
	f, ok := ToFloat(secs)
	if !ok || f < 0 {
		return nil, PyErrorf(ExcValueError, "sleep length must be a non-negative number")
	}
	t := time.NewTimer(time.Duration(f * float64(time.Second)))
	defer t.Stop()
	select {
	case <-t.C:
		return starlark.None, nil
	case <-r.Host.CallOf().Ctx().Done():
		return nil, fmt.Errorf("time.sleep: cancelled")
	}
}

func secondsArg(fn string, args starlark.Tuple, kw []starlark.Tuple, loc *time.Location) (time.Time, error) {
	var secs starlark.Value = starlark.None
	if err := starlark.UnpackPositionalArgs(fn, args, kw, 0, &secs); err != nil {
		return time.Time{}, err
	}
	if secs == starlark.None {
		return time.Now().In(loc), nil
	}
	f, ok := ToFloat(secs)
	if !ok {
		return time.Time{}, PyErrorf(ExcTypeError, "'%s' object cannot be interpreted as a number", PyTypeName(secs))
	}
	return time.Unix(0, int64(f*1e9)).In(loc), nil
}

func structTimeOf(loc *time.Location) BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		t, err := secondsArg(b.Name(), args, kw, loc)
		if err != nil {
			return nil, err
		}
		return &structTime{t: t}, nil
	}
}

// structTime is time.struct_time.
type structTime struct{ t time.Time }

var structTimeFields = []string{"tm_year", "tm_mon", "tm_mday", "tm_hour", "tm_min", "tm_sec", "tm_wday", "tm_yday", "tm_isdst"}

func (s *structTime) fields() starlark.Tuple {
	t := s.t
	isdst := 0
	if t.IsDST() {
		isdst = 1
	}
	return starlark.Tuple{starlark.MakeInt(t.Year()), starlark.MakeInt(int(t.Month())), starlark.MakeInt(t.Day()),
		starlark.MakeInt(t.Hour()), starlark.MakeInt(t.Minute()), starlark.MakeInt(t.Second()),
		starlark.MakeInt((int(t.Weekday()) + 6) % 7), starlark.MakeInt(t.YearDay()), starlark.MakeInt(isdst)}
}

func (s *structTime) String() string { return s.ReprPy() }
func (s *structTime) ReprPy() string {
	var parts []string
	for i, v := range s.fields() {
		parts = append(parts, structTimeFields[i]+"="+v.String())
	}
	return "time.struct_time(" + strings.Join(parts, ", ") + ")"
}
func (s *structTime) Type() string               { return "time.struct_time" }
func (s *structTime) Freeze()                    {}
func (s *structTime) Truth() starlark.Bool       { return true }
func (s *structTime) Hash() (uint32, error)      { return uint32(s.t.Unix()), nil }
func (s *structTime) Len() int                   { return len(structTimeFields) }
func (s *structTime) Index(i int) starlark.Value { return s.fields()[i] }
func (s *structTime) AttrNames() []string        { return append([]string{"tm_zone"}, structTimeFields...) }
func (s *structTime) Attr(name string) (starlark.Value, error) {
	if name == "tm_zone" {
		z, _ := s.t.Zone()
		return starlark.String(z), nil
	}
	for i, f := range structTimeFields {
		if f == name {
			return s.fields()[i], nil
		}
	}
	return nil, nil
}

var (
	weekdays = []string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}
	months   = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
)

// strftime formats t with C's (and Python's) % directives.
func Strftime(t time.Time, format string) string {
	var sb strings.Builder
	wd := (int(t.Weekday()) + 6) % 7
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 == len(format) {
			sb.WriteByte(c)
			continue
		}
		i++
		if format[i] == '-' && i+1 < len(format) { // glibc's %-d: no padding, as CPython on Linux
			i++
			v := Strftime(t, "%"+format[i:i+1])
			if u := strings.TrimLeft(v, "0 "); u != v {
				if u == "" {
					u = "0"
				}
				v = u
			}
			sb.WriteString(v)
			continue
		}
		switch format[i] {
		case 'Y':
			fmt.Fprintf(&sb, "%04d", t.Year())
		case 'y':
			fmt.Fprintf(&sb, "%02d", t.Year()%100)
		case 'm':
			fmt.Fprintf(&sb, "%02d", int(t.Month()))
		case 'd':
			fmt.Fprintf(&sb, "%02d", t.Day())
		case 'e':
			fmt.Fprintf(&sb, "%2d", t.Day())
		case 'H':
			fmt.Fprintf(&sb, "%02d", t.Hour())
		case 'I':
			h := t.Hour() % 12
			if h == 0 {
				h = 12
			}
			fmt.Fprintf(&sb, "%02d", h)
		case 'M':
			fmt.Fprintf(&sb, "%02d", t.Minute())
		case 'S':
			fmt.Fprintf(&sb, "%02d", t.Second())
		case 'f':
			fmt.Fprintf(&sb, "%06d", t.Nanosecond()/1000)
		case 'p':
			if t.Hour() < 12 {
				sb.WriteString("AM")
			} else {
				sb.WriteString("PM")
			}
		case 'a':
			sb.WriteString(weekdays[wd][:3])
		case 'A':
			sb.WriteString(weekdays[wd])
		case 'w':
			fmt.Fprintf(&sb, "%d", int(t.Weekday()))
		case 'u':
			fmt.Fprintf(&sb, "%d", wd+1)
		case 'b', 'h':
			sb.WriteString(months[t.Month()-1][:3])
		case 'B':
			sb.WriteString(months[t.Month()-1])
		case 'j':
			fmt.Fprintf(&sb, "%03d", t.YearDay())
		case 'U':
			fmt.Fprintf(&sb, "%02d", (t.YearDay()+6-int(t.Weekday()))/7)
		case 'W':
			fmt.Fprintf(&sb, "%02d", (t.YearDay()+6-wd)/7)
		case 'G':
			y, _ := t.ISOWeek()
			fmt.Fprintf(&sb, "%04d", y)
		case 'V':
			_, w := t.ISOWeek()
			fmt.Fprintf(&sb, "%02d", w)
		case 'Z':
			z, _ := t.Zone()
			sb.WriteString(z)
		case 'z':
			_, off := t.Zone()
			sign := '+'
			if off < 0 {
				sign, off = '-', -off
			}
			fmt.Fprintf(&sb, "%c%02d%02d", sign, off/3600, off%3600/60)
		case 'c':
			sb.WriteString(Strftime(t, "%a %b %e %H:%M:%S %Y"))
		case 'x', 'D':
			sb.WriteString(Strftime(t, "%m/%d/%y"))
		case 'X', 'T':
			sb.WriteString(Strftime(t, "%H:%M:%S"))
		case 'F':
			sb.WriteString(Strftime(t, "%Y-%m-%d"))
		case '%':
			sb.WriteByte('%')
		default:
			sb.WriteByte('%')
			sb.WriteByte(format[i])
		}
	}
	return sb.String()
}
