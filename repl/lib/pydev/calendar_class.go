// calendar.Calendar and calendar.TextCalendar: the month iterators and
// matrices, and the month as text.

package pydev

import (
	"fmt"
	"strings"
	"time"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
	"harness/repl/pystr"
)

type calendarObj struct {
	r     *pyrt.Interp
	cls   *pyrt.PyType
	first int
	text  bool
}

var (
	_ starlark.HasAttrs    = (*calendarObj)(nil)
	_ starlark.HasSetField = (*calendarObj)(nil)
)

func calendarCtor(r *pyrt.Interp, cls *pyrt.PyType, text bool) func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return func(_ *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		first := 0
		if err := pyrt.UnpackArgs(cls.TypeName, args, kw, "firstweekday?", &first); err != nil {
			return nil, err
		}
		return &calendarObj{r: r, cls: cls, first: first, text: text}, nil
	}
}

func (c *calendarObj) String() string        { return fmt.Sprintf("<calendar.%s object>", c.cls.TypeName) }
func (c *calendarObj) Type() string          { return c.cls.TypeName }
func (c *calendarObj) Freeze()               {}
func (c *calendarObj) Truth() starlark.Bool  { return true }
func (c *calendarObj) Hash() (uint32, error) { return uint32(c.first), nil }
func (c *calendarObj) PyClass() *pyrt.PyType { return c.cls }

func (c *calendarObj) AttrNames() []string {
	var names []string
	for n, m := range calMethods {
		if c.text || !calTextOnly[n] {
			names = append(names, n)
			_ = m
		}
	}
	return append(names, "firstweekday")
}

func (c *calendarObj) Attr(name string) (starlark.Value, error) {
	if name == "firstweekday" {
		return starlark.MakeInt(c.first), nil
	}
	m, ok := calMethods[name]
	if !ok || (!c.text && calTextOnly[name]) {
		return nil, nil
	}
	return pyrt.Builtin(name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		return m(c, name, args, kw)
	}), nil
}

func (c *calendarObj) SetField(name string, v starlark.Value) error {
	if name != "firstweekday" {
		return pyrt.PyErrorf(pyrt.ExcAttribute, "'%s' object has no attribute '%s'", c.cls.TypeName, name)
	}
	n, err := starlark.AsInt32(v)
	if err != nil {
		return pyrt.PyErrorf(pyrt.ExcTypeError, "firstweekday must be an int")
	}
	c.first = n
	return nil
}

type calMethod func(c *calendarObj, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error)

var calTextOnly = map[string]bool{"formatmonth": true, "prmonth": true, "formatweekheader": true, "formatmonthname": true,
	"formatweekday": true, "formatday": true, "formatweek": true}

var calMethods map[string]calMethod

func init() {
	calMethods = map[string]calMethod{
		"getfirstweekday": func(c *calendarObj, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			return starlark.MakeInt(c.first % 7), nil
		},
		"setfirstweekday": func(c *calendarObj, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackPositionalArgs(fn, args, kw, 1, &c.first); err != nil {
				return nil, err
			}
			return starlark.None, nil
		},
		"iterweekdays": func(c *calendarObj, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackPositionalArgs(fn, args, kw, 0); err != nil {
				return nil, err
			}
			var out []starlark.Value
			for i := c.first; i < c.first+7; i++ {
				out = append(out, starlark.MakeInt(i%7))
			}
			return pyrt.NewListIter("generator", out), nil
		},
		"itermonthdays":      calDaysMethod(false, func(c *calendarObj, d calDay) starlark.Value { return starlark.MakeInt(d.day) }),
		"itermonthdays2":     calDaysMethod(false, func(c *calendarObj, d calDay) starlark.Value { return d.pair() }),
		"itermonthdays3":     calDaysMethod(false, func(c *calendarObj, d calDay) starlark.Value { return d.triple() }),
		"itermonthdates":     calDaysMethod(false, (*calendarObj).date),
		"monthdayscalendar":  calDaysMethod(true, func(c *calendarObj, d calDay) starlark.Value { return starlark.MakeInt(d.day) }),
		"monthdays2calendar": calDaysMethod(true, func(c *calendarObj, d calDay) starlark.Value { return d.pair() }),
		"monthdatescalendar": calDaysMethod(true, (*calendarObj).date),
		"formatmonth":        calFormatMonth,
		"prmonth": func(c *calendarObj, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			s, err := calFormatMonth(c, fn, args, kw)
			if err != nil {
				return nil, err
			}
			c.r.Host.CallOf().Write(string(s.(starlark.String)))
			return starlark.None, nil
		},
		"formatweekheader": func(c *calendarObj, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var w int
			if err := starlark.UnpackPositionalArgs(fn, args, kw, 1, &w); err != nil {
				return nil, err
			}
			return starlark.String(c.weekHeader(w)), nil
		},
		"formatmonthname": func(c *calendarObj, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var y, m, w int
			withYear := true
			if err := pyrt.UnpackArgs(fn, args, kw, "theyear", &y, "themonth", &m, "width", &w, "withyear?", &withYear); err != nil {
				return nil, err
			}
			if m < 1 || m > 12 {
				return nil, pyrt.PyErrorf(pyrt.ExcIndexError, "list index out of range")
			}
			return starlark.String(calMonthName(y, m, w, withYear)), nil
		},
		"formatweekday": func(c *calendarObj, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var d, w int
			if err := starlark.UnpackPositionalArgs(fn, args, kw, 2, &d, &w); err != nil {
				return nil, err
			}
			return starlark.String(calWeekdayName(floorMod(d, 7), w)), nil
		},
		"formatday": func(c *calendarObj, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var d, wd, w int
			if err := starlark.UnpackPositionalArgs(fn, args, kw, 3, &d, &wd, &w); err != nil {
				return nil, err
			}
			return starlark.String(calDayText(d, w)), nil
		},
	}
}

// calDay is one cell of a month's weeks: day 0 for a day of a
// neighbouring month, whose real date is y-m-realDay.
type calDay struct {
	y, m, day, realDay, weekday int
}

func (d calDay) pair() starlark.Value {
	return starlark.Tuple{starlark.MakeInt(d.day), starlark.MakeInt(d.weekday)}
}

func (d calDay) triple() starlark.Value {
	return starlark.Tuple{starlark.MakeInt(d.y), starlark.MakeInt(d.m), starlark.MakeInt(d.realDay)}
}

func (c *calendarObj) date(d calDay) starlark.Value {
	return c.r.DtClasses().Naive(time.Date(d.y, time.Month(d.m), d.realDay, 0, 0, 0, 0, time.UTC), true)
}

// days lays out the month from the week's first day to its last.
func (c *calendarObj) days(y, m int) ([]calDay, error) {
	day1, n, err := calMonthRange(y, m)
	if err != nil {
		return nil, err
	}
	before := floorMod(day1-c.first, 7)
	after := floorMod(c.first-day1-n, 7)
	start := time.Date(y, time.Month(m), 1-before, 0, 0, 0, 0, time.UTC)
	var out []calDay
	for i := 0; i < before+n+after; i++ {
		t := start.AddDate(0, 0, i)
		d := calDay{y: t.Year(), m: int(t.Month()), realDay: t.Day(), weekday: floorMod(c.first+i, 7)}
		if i >= before && i < before+n {
			d.day = t.Day()
		}
		out = append(out, d)
	}
	return out, nil
}

// calDaysMethod is an itermonth* method (a generator) or, weeks, a
// month*calendar method (a list of weeks of seven).
func calDaysMethod(weeks bool, cell func(*calendarObj, calDay) starlark.Value) calMethod {
	return func(c *calendarObj, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var y, m int
		if err := starlark.UnpackPositionalArgs(fn, args, kw, 2, &y, &m); err != nil {
			return nil, err
		}
		days, err := c.days(y, m)
		if err != nil {
			return nil, err
		}
		cells := make([]starlark.Value, len(days))
		for i, d := range days {
			cells[i] = cell(c, d)
		}
		if !weeks {
			return pyrt.NewListIter("generator", cells), nil
		}
		var out []starlark.Value
		for i := 0; i < len(cells); i += 7 {
			out = append(out, starlark.NewList(append([]starlark.Value(nil), cells[i:i+7]...)))
		}
		return starlark.NewList(out), nil
	}
}

// pyCenter is str.center(width).
func pyCenter(s string, width int) string {
	marg := width - pystr.CharLen(s)
	if marg <= 0 {
		return s
	}
	left := marg/2 + (marg & width & 1)
	return strings.Repeat(" ", left) + s + strings.Repeat(" ", marg-left)
}

func calWeekdayName(d, width int) string {
	name := calDayNames[d]
	if width < 9 {
		name = name[:3]
	}
	if len(name) > width {
		name = name[:width]
	}
	return pyCenter(name, width)
}

func calDayText(d, width int) string {
	if d == 0 {
		return pyCenter("", width)
	}
	return pyCenter(fmt.Sprintf("%2d", d), width)
}

func calMonthName(y, m, width int, withYear bool) string {
	s := time.Month(m).String()
	if withYear {
		s += fmt.Sprintf(" %d", y)
	}
	return pyCenter(s, width)
}

func (c *calendarObj) weekHeader(width int) string {
	var parts []string
	for i := c.first; i < c.first+7; i++ {
		parts = append(parts, calWeekdayName(i%7, width))
	}
	return strings.Join(parts, " ")
}

// calFormatMonth is TextCalendar.formatmonth(theyear, themonth, w=0, l=0).
func calFormatMonth(c *calendarObj, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var y, m, w, l int
	if err := pyrt.UnpackArgs(fn, args, kw, "theyear", &y, "themonth", &m, "w?", &w, "l?", &l); err != nil {
		return nil, err
	}
	w, l = max(2, w), max(1, l)
	days, err := c.days(y, m)
	if err != nil {
		return nil, err
	}
	nl := strings.Repeat("\n", l)
	var sb strings.Builder
	sb.WriteString(strings.TrimRight(calMonthName(y, m, 7*(w+1)-1, true), " ") + nl)
	sb.WriteString(strings.TrimRight(c.weekHeader(w), " ") + nl)
	for i := 0; i < len(days); i += 7 {
		var cells []string
		for _, d := range days[i : i+7] {
			cells = append(cells, calDayText(d.day, w))
		}
		sb.WriteString(strings.TrimRight(strings.Join(cells, " "), " ") + nl)
	}
	return starlark.String(sb.String()), nil
}
