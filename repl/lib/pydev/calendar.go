// calendar: leap years, month ranges, weekday names, month matrices and
// TextCalendar's month text in CPython's layout (English names, as the C
// locale gives), timegm, and the module's first weekday.

package pydev

import (
	"fmt"
	"strings"
	"time"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

var (
	excIllegalMonth   = &pyrt.ExcType{TypeName: "IllegalMonthError", Module: "calendar", Base: pyrt.ExcValueError}
	excIllegalWeekday = &pyrt.ExcType{TypeName: "IllegalWeekdayError", Module: "calendar", Base: pyrt.ExcValueError}
	calDayNames       = []string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}
)

func illegalMonth(m int) error {
	return &pyrt.PyError{Exc: &pyrt.PyException{Typ: excIllegalMonth, Args: starlark.Tuple{starlark.MakeInt(m)}, Text: fmt.Sprintf("bad month number %d; must be 1-12", m)}}
}

func illegalWeekday(d int) error {
	return &pyrt.PyError{Exc: &pyrt.PyException{Typ: excIllegalWeekday, Args: starlark.Tuple{starlark.MakeInt(d)}, Text: fmt.Sprintf("bad weekday number %d; must be 0 (Monday) to 6 (Sunday)", d)}}
}

func calIsLeap(y int) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

func idiv(a, b int) int { return int(pyrt.FloorDiv(int64(a), int64(b))) }

func floorMod(a, b int) int { return a - idiv(a, b)*b }

// calWeekday is date(y, m, d).weekday(), years outside 1..9999 mapped
// into 2000..2399 as CPython does.
func calWeekday(y, m, d int) (int, error) {
	if y < 1 || y > 9999 {
		y = 2000 + floorMod(y, 400)
	}
	if err := pyrt.CheckDate(y, m, d, 0, 0, 0, 0); err != nil {
		return 0, err
	}
	return (int(time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC).Weekday()) + 6) % 7, nil
}

func calMonthLen(y, m int) int {
	days := []int{0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}
	if m == 2 && calIsLeap(y) {
		return 29
	}
	return days[m]
}

// calMonthRange is monthrange(y, m): the first day's weekday and the
// month's length.
func calMonthRange(y, m int) (int, int, error) {
	if m < 1 || m > 12 {
		return 0, 0, illegalMonth(m)
	}
	wd, err := calWeekday(y, m, 1)
	return wd, calMonthLen(y, m), err
}

func calNames() (monthName, monthAbbr, dayName, dayAbbr starlark.Tuple) {
	months := []string{""}
	abbrs := []string{""}
	for m := 1; m <= 12; m++ {
		months = append(months, time.Month(m).String())
		abbrs = append(abbrs, time.Month(m).String()[:3])
	}
	var dabbr []string
	for _, d := range calDayNames {
		dabbr = append(dabbr, d[:3])
	}
	return strTuple(months), strTuple(abbrs), strTuple(calDayNames), strTuple(dabbr)
}

func calendarModule(r *pyrt.Interp) starlark.Value {
	mn, ma, dn, da := calNames()
	def := &calendarObj{r: r, text: true}
	calendarCls := &pyrt.PyType{TypeName: "Calendar", Module: "calendar"}
	textCls := &pyrt.PyType{TypeName: "TextCalendar", Module: "calendar", Base: calendarCls}
	calendarCls.Call = calendarCtor(r, calendarCls, false)
	textCls.Call = calendarCtor(r, textCls, true)
	def.cls = textCls
	members := starlark.StringDict{
		"Calendar": calendarCls, "TextCalendar": textCls,
		"IllegalMonthError": excIllegalMonth, "IllegalWeekdayError": excIllegalWeekday,
		"month_name": mn, "month_abbr": ma, "day_name": dn, "day_abbr": da,
		"isleap": pyrt.Builtin("isleap", calIsLeapFn), "leapdays": pyrt.Builtin("leapdays", calLeapDays),
		"weekday": pyrt.Builtin("weekday", calWeekdayFn), "monthrange": pyrt.Builtin("monthrange", calMonthRangeFn),
		"timegm": pyrt.Builtin("timegm", calTimegm), "EPOCH": starlark.MakeInt(1970),
		"firstweekday": pyrt.Builtin("firstweekday", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return starlark.MakeInt(def.first), nil
		}),
		"setfirstweekday": pyrt.Builtin("setfirstweekday", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var d int
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &d); err != nil {
				return nil, err
			}
			if d < 0 || d > 6 {
				return nil, illegalWeekday(d)
			}
			def.first = d
			return starlark.None, nil
		}),
	}
	for i, d := range calDayNames {
		members[strings.ToUpper(d)] = starlark.MakeInt(i)
	}
	for name, module := range map[string]string{"monthcalendar": "monthdayscalendar", "month": "formatmonth", "prmonth": "prmonth", "weekheader": "formatweekheader"} {
		m := calMethods[module]
		name := name
		members[name] = pyrt.Builtin(name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return m(def, name, args, kw)
		})
	}
	return pyrt.NewModule("calendar", members)
}

func calIsLeapFn(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var y int
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &y); err != nil {
		return nil, err
	}
	return starlark.Bool(calIsLeap(y)), nil
}

func calLeapDays(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var y1, y2 int
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 2, &y1, &y2); err != nil {
		return nil, err
	}
	y1, y2 = y1-1, y2-1
	n := idiv(y2, 4) - idiv(y1, 4) - (idiv(y2, 100) - idiv(y1, 100)) + idiv(y2, 400) - idiv(y1, 400)
	return starlark.MakeInt(n), nil
}

func calWeekdayFn(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var y, m, d int
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 3, &y, &m, &d); err != nil {
		return nil, err
	}
	wd, err := calWeekday(y, m, d)
	if err != nil {
		return nil, err
	}
	return starlark.MakeInt(wd), nil
}

func calMonthRangeFn(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var y, m int
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 2, &y, &m); err != nil {
		return nil, err
	}
	wd, n, err := calMonthRange(y, m)
	if err != nil {
		return nil, err
	}
	return starlark.Tuple{starlark.MakeInt(wd), starlark.MakeInt(n)}, nil
}

// calTimegm is timegm(tuple): the POSIX time of a UTC time tuple.
func calTimegm(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var tv starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &tv); err != nil {
		return nil, err
	}
	seq, ok := tv.(starlark.Indexable)
	if !ok || seq.Len() < 6 {
		return nil, pyrt.PyErrorf(pyrt.ExcValueError, "not enough values to unpack (expected 6, got %d)", lenOr0(seq))
	}
	var f [6]int
	for i := range f {
		n, err := starlark.AsInt32(seq.Index(i))
		if err != nil {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "an integer is required (got type %s)", pyrt.PyTypeName(seq.Index(i)))
		}
		f[i] = n
	}
	if err := pyrt.CheckDate(f[0], f[1], 1, 0, 0, 0, 0); err != nil {
		return nil, err
	}
	days := time.Date(f[0], time.Month(f[1]), 1, 0, 0, 0, 0, time.UTC).Unix()/86400 + int64(f[2]) - 1
	return starlark.MakeInt64(((days*24+int64(f[3]))*60+int64(f[4]))*60 + int64(f[5])), nil
}

func lenOr0(s starlark.Indexable) int {
	if s == nil {
		return 0
	}
	return s.Len()
}
