// csv: reader, DictReader, writer and DictWriter with Python's default
// dialect (quotes doubled, fields with newlines, "\r\n" line endings).

package pydata

import (
	"strings"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

const (
	quoteMinimal = iota
	quoteAll
	quoteNonnumeric
	quoteNone
)

func csvModule(r *pyrt.Interp) starlark.Value {
	return pyrt.NewModule("csv", starlark.StringDict{
		"reader": pyrt.Builtin("csv.reader", csvReader(false)), "DictReader": pyrt.Builtin("csv.DictReader", csvReader(true)),
		"writer": pyrt.Builtin("csv.writer", csvWriter(false)), "DictWriter": pyrt.Builtin("csv.DictWriter", csvWriter(true)),
		"QUOTE_MINIMAL": starlark.MakeInt(quoteMinimal), "QUOTE_ALL": starlark.MakeInt(quoteAll),
		"QUOTE_NONNUMERIC": starlark.MakeInt(quoteNonnumeric), "QUOTE_NONE": starlark.MakeInt(quoteNone),
		"Error": pyrt.ExcCSV,
	})
}

type csvDialect struct {
	delim, quote byte
	quoting      int
	lineEnd      string
	skipSpace    bool
}

func parseDialect(kw []starlark.Tuple) (*csvDialect, []starlark.Tuple, error) {
	d := &csvDialect{delim: ',', quote: '"', lineEnd: "\r\n"}
	var rest []starlark.Tuple
	for _, kv := range kw {
		k, v := string(kv[0].(starlark.String)), kv[1]
		one := func() (byte, error) {
			s, ok := v.(starlark.String)
			if !ok || len(s) != 1 {
				return 0, pyrt.PyErrorf(pyrt.ExcTypeError, "\"%s\" must be a 1-character string", k)
			}
			return s[0], nil
		}
		var err error
		switch k {
		case "delimiter":
			d.delim, err = one()
		case "quotechar":
			d.quote, err = one()
		case "quoting":
			d.quoting, err = starlark.AsInt32(v)
		case "lineterminator":
			d.lineEnd = pyrt.PyStr(v)
		case "skipinitialspace":
			d.skipSpace = v.Truth() == starlark.True
		case "dialect", "doublequote", "escapechar", "strict":
		default:
			rest = append(rest, kv)
		}
		if err != nil {
			return nil, nil, err
		}
	}
	return d, rest, nil
}

// parseRecords splits CSV text into records of fields.
func (d *csvDialect) parseRecords(text string) [][]string {
	var records [][]string
	var rec []string
	var field strings.Builder
	inQuote, quoted, any := false, false, false
	endField := func() {
		rec = append(rec, field.String())
		field.Reset()
		quoted = false
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case inQuote:
			if c == d.quote {
				if i+1 < len(text) && text[i+1] == d.quote {
					field.WriteByte(c)
					i++
				} else {
					inQuote = false
				}
			} else {
				field.WriteByte(c)
			}
		case c == d.quote && field.Len() == 0 && !quoted && d.quoting != quoteNone:
			inQuote, quoted, any = true, true, true
		case c == d.delim:
			endField()
			any = true
			if d.skipSpace {
				for i+1 < len(text) && text[i+1] == ' ' {
					i++
				}
			}
		case c == '\r' || c == '\n':
			if c == '\r' && i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			if any || field.Len() > 0 {
				endField()
				records = append(records, rec)
			} else {
				records = append(records, nil)
			}
			rec, any = nil, false
		default:
			field.WriteByte(c)
			any = true
		}
	}
	if any || field.Len() > 0 || inQuote {
		endField()
		records = append(records, rec)
	}
	return records
}

// csvText returns the text of a reader's source: a file or an iterable
// of lines.
func csvText(thread *starlark.Thread, src starlark.Value) (string, error) {
	if f, ok := src.(*pyrt.PyFile); ok {
		v, err := pyrt.CallMethod(thread, f, "read", nil, nil)
		if err != nil {
			return "", err
		}
		s, _ := pyrt.TextOf(v)
		return s, nil
	}
	var sb strings.Builder
	err := pyrt.Iterate(src, func(v starlark.Value) (bool, error) {
		s, ok := v.(starlark.String)
		if !ok {
			return false, &pyrt.PyError{Exc: &pyrt.PyException{Typ: pyrt.ExcCSV, Text: "iterator should return strings, not " + pyrt.PyTypeName(v)}}
		}
		sb.WriteString(string(s))
		if !strings.HasSuffix(string(s), "\n") {
			sb.WriteByte('\n')
		}
		return true, nil
	})
	return sb.String(), err
}

func csvReader(dicts bool) pyrt.BuiltinFunc {
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		d, rest, err := parseDialect(kw)
		if err != nil {
			return nil, err
		}
		if len(args) == 0 {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "%s() needs a file or an iterable of lines", b.Name())
		}
		var fieldnames, restkey, restval starlark.Value = starlark.None, starlark.None, starlark.None
		if len(args) > 1 {
			fieldnames = args[1]
		}
		for _, kv := range rest {
			switch string(kv[0].(starlark.String)) {
			case "fieldnames":
				fieldnames = kv[1]
			case "restkey":
				restkey = kv[1]
			case "restval":
				restval = kv[1]
			default:
				return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "%s() got an unexpected keyword argument '%s'", b.Name(), kv[0].(starlark.String))
			}
		}
		text, err := csvText(thread, args[0])
		if err != nil {
			return nil, err
		}
		records := d.parseRecords(text)
		if !dicts {
			out := make([]starlark.Value, 0, len(records))
			for _, rec := range records {
				out = append(out, d.row(rec))
			}
			return pyrt.NewListIter("_csv.reader", out), nil
		}
		var names []starlark.Value
		if fieldnames != starlark.None {
			if names, err = pyrt.ListOf(fieldnames); err != nil {
				return nil, err
			}
		}
		var out []starlark.Value
		for _, rec := range records {
			if rec == nil {
				continue // DictReader skips blank lines
			}
			if names == nil {
				for _, f := range rec {
					names = append(names, starlark.String(f))
				}
				continue
			}
			row := starlark.NewDict(len(names))
			for i, n := range names {
				if i < len(rec) {
					_ = row.SetKey(n, d.field(rec[i]))
				} else {
					_ = row.SetKey(n, restval)
				}
			}
			if len(rec) > len(names) {
				var extra []starlark.Value
				for _, f := range rec[len(names):] {
					extra = append(extra, starlark.String(f))
				}
				_ = row.SetKey(restkey, starlark.NewList(extra))
			}
			out = append(out, row)
		}
		it := pyrt.NewListIter("csv.DictReader", out)
		var fields starlark.Value = starlark.None
		if names != nil {
			fields = starlark.NewList(names)
		}
		it.Extra = starlark.StringDict{"fieldnames": fields}
		return it, nil
	}
}

func (d *csvDialect) field(s string) starlark.Value {
	if d.quoting == quoteNonnumeric {
		if f, err := pyrt.ParseFloat(s); err == nil {
			return f
		}
	}
	return starlark.String(s)
}

func (d *csvDialect) row(rec []string) starlark.Value {
	out := make([]starlark.Value, len(rec))
	for i, f := range rec {
		out[i] = d.field(f)
	}
	return starlark.NewList(out)
}

// format writes one record.
func (d *csvDialect) format(fields []starlark.Value) string {
	parts := make([]string, len(fields))
	for i, v := range fields {
		s := ""
		if v != starlark.None {
			s = pyrt.PyStr(v)
		}
		_, number := v.(starlark.Int)
		if _, f := v.(starlark.Float); f {
			number = true
		}
		quote := d.quoting == quoteAll || d.quoting == quoteNonnumeric && !number ||
			d.quoting == quoteMinimal && (strings.ContainsAny(s, string([]byte{d.delim, d.quote})+"\r\n") || s == "" && len(fields) == 1)
		if quote {
			s = string(d.quote) + strings.ReplaceAll(s, string(d.quote), string([]byte{d.quote, d.quote})) + string(d.quote)
		}
		parts[i] = s
	}
	return strings.Join(parts, string(d.delim)) + d.lineEnd
}

// csvWriter is writer(f) and DictWriter(f, fieldnames).
func csvWriter(dicts bool) pyrt.BuiltinFunc {
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		d, rest, err := parseDialect(kw)
		if err != nil {
			return nil, err
		}
		if len(args) == 0 {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "%s() needs a file", b.Name())
		}
		w := &csvWriterValue{d: d, file: args[0], thread: thread, dicts: dicts, restval: starlark.String(""), extras: "raise"}
		if dicts {
			var names starlark.Value
			if len(args) > 1 {
				names = args[1]
			}
			for _, kv := range rest {
				switch string(kv[0].(starlark.String)) {
				case "fieldnames":
					names = kv[1]
				case "restval":
					w.restval = kv[1]
				case "extrasaction":
					w.extras = pyrt.PyStr(kv[1])
				}
			}
			if names == nil {
				return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "DictWriter() missing required argument 'fieldnames'")
			}
			if w.names, err = pyrt.ListOf(names); err != nil {
				return nil, err
			}
		}
		return w, nil
	}
}

type csvWriterValue struct {
	d       *csvDialect
	file    starlark.Value
	thread  *starlark.Thread
	dicts   bool
	names   []starlark.Value
	restval starlark.Value
	extras  string
}

func (w *csvWriterValue) String() string        { return "<_csv.writer object>" }
func (w *csvWriterValue) ReprPy() string        { return w.String() }
func (w *csvWriterValue) Type() string          { return "_csv.writer" }
func (w *csvWriterValue) Freeze()               {}
func (w *csvWriterValue) Truth() starlark.Bool  { return true }
func (w *csvWriterValue) Hash() (uint32, error) { return 0, nil }
func (w *csvWriterValue) AttrNames() []string {
	return []string{"writeheader", "writerow", "writerows"}
}

func (w *csvWriterValue) Write(row starlark.Value) error {
	var fields []starlark.Value
	if w.dicts {
		m, ok := row.(starlark.Mapping)
		if !ok {
			return pyrt.PyErrorf(pyrt.ExcTypeError, "DictWriter.writerow() takes a dict")
		}
		if it, ok := row.(starlark.IterableMapping); ok && w.extras == "raise" {
			for _, kv := range it.Items() {
				known := false
				for _, n := range w.names {
					if eq, _ := starlark.Equal(n, kv[0]); eq {
						known = true
					}
				}
				if !known {
					return pyrt.PyErrorf(pyrt.ExcValueError, "dict contains fields not in fieldnames: %s", pyrt.PyRepr(kv[0]))
				}
			}
		}
		for _, n := range w.names {
			v, found, _ := m.Get(n)
			if !found {
				v = w.restval
			}
			fields = append(fields, v)
		}
	} else {
		vals, err := pyrt.ListOf(row)
		if err != nil {
			return &pyrt.PyError{Exc: &pyrt.PyException{Typ: pyrt.ExcCSV, Text: "iterable expected, not " + pyrt.PyTypeName(row)}}
		}
		fields = vals
	}
	_, err := pyrt.CallMethod(w.thread, w.file, "write", starlark.Tuple{starlark.String(w.d.format(fields))}, nil)
	return err
}

func (w *csvWriterValue) Attr(name string) (starlark.Value, error) {
	switch name {
	case "writerow":
		return pyrt.Builtin("writerow", pyrt.Unary(func(v starlark.Value) (starlark.Value, error) { return starlark.None, w.Write(v) })), nil
	case "writerows":
		return pyrt.Builtin("writerows", pyrt.Unary(func(v starlark.Value) (starlark.Value, error) {
			return starlark.None, pyrt.Iterate(v, func(row starlark.Value) (bool, error) { return true, w.Write(row) })
		})), nil
	case "writeheader":
		if !w.dicts {
			return nil, nil
		}
		return pyrt.Builtin("writeheader", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			_, err := pyrt.CallMethod(w.thread, w.file, "write", starlark.Tuple{starlark.String(w.d.format(w.names))}, nil)
			return starlark.None, err
		}), nil
	}
	return nil, nil
}
