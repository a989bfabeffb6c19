// A streamed call's arguments, decoded as they arrive.

package ui

import (
	"encoding/json"
	"strings"
)

// argStream decodes a streamed tool call's arguments (a JSON object of
// string values, as every tool's are) a byte once, as they arrive, into
// the fields that objectFields, or partialFields while the object is not
// complete, would give for the text so far: a frame costs what arrived,
// not the arguments' size. Arguments it cannot follow (a value that is
// not a string) are decoded whole each time, as before.
type argStream struct {
	n      int // bytes of the arguments read
	state  argState
	comma  bool // a comma was read where a key may start
	loose  bool // a comma or a member where JSON has none: objectFields fails
	fields []*argField
	esc    []byte // an escape begun in the string being read
	start  int    // where the string being read starts (its quote)
	bad    bool   // not an object of string values
}

// argField is a member: its key and value as partialString decodes them
// (escape by escape) and, once complete, as encoding/json does (surrogate
// pairs joined, invalid text refused: fullOK false).
type argField struct {
	key, val         strings.Builder
	keyFull, valFull string
	done, fullOK     bool
}

type argState uint8

const (
	argOpen    argState = iota // before "{"
	argKey                     // before a key (or "}")
	argInKey                   // in a key
	argColon                   // after a key
	argValue                   // after ":"
	argInValue                 // in a value
	argAfter                   // after a value
	argClosed                  // after "}"
	argStopped                 // partialFields stopped reading
)

// decode returns the fields of args, which extend the arguments read
// before, and false when args do not start an object (as partialFields).
func (a *argStream) decode(args string) ([]field, bool) {
	if !a.bad {
		a.read(args)
	}
	if a.bad {
		fields, ok := objectFields(args)
		if !ok {
			fields, ok = partialFields(args)
		}
		return fields, ok
	}
	if a.state == argOpen {
		return nil, false
	}
	// objectFields succeeds after a complete member or "}" (or "{"
	// alone), when every value decodes.
	full := !a.loose && (a.state == argAfter || a.state == argClosed || a.state == argKey && len(a.fields) == 0)
	for _, f := range a.fields {
		if f.done && !f.fullOK {
			full = false
		}
	}
	out := make([]field, 0, len(a.fields))
	for _, f := range a.fields {
		switch {
		case full:
			out = append(out, field{f.keyFull, f.valFull})
		case f.done || a.state == argInValue || a.state == argValue:
			out = append(out, field{f.key.String(), f.val.String()})
		}
	}
	return out, true
}

// read decodes args from byte n on.
func (a *argStream) read(args string) {
	for a.n < len(args) && !a.bad {
		c := args[a.n]
		switch a.state {
		case argOpen, argKey, argColon, argValue, argAfter:
			if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
				a.n++
				continue
			}
			a.punct(c)
			a.n++
		case argInKey, argInValue:
			a.str(args)
		default: // closed or stopped: the rest is not read
			a.n = len(args)
		}
	}
}

// punct reads byte c outside strings, as partialFields does.
func (a *argStream) punct(c byte) {
	switch {
	case a.state == argOpen && c == '{':
		a.state, a.comma = argKey, false
	case a.state == argOpen:
		a.bad = true // not an object: partialFields says so
	case (a.state == argKey || a.state == argAfter) && c == '"':
		a.loose = a.loose || a.state == argAfter
		a.fields = append(a.fields, &argField{})
		a.state, a.start = argInKey, a.n
	case a.state == argKey && c == ',' && !a.comma:
		a.comma, a.loose = true, true
	case a.state == argKey && c == '}' && len(a.fields) == 0:
		a.state = argClosed
	case a.state == argColon && c == ':':
		a.state = argValue
	case a.state == argValue && c == '"':
		a.state, a.start = argInValue, a.n
	case a.state == argValue:
		a.bad = true // a value that is not a string
	case a.state == argAfter && c == ',':
		a.state, a.comma = argKey, true
	case a.state == argAfter && c == '}':
		a.state = argClosed
	default:
		a.state = argStopped
	}
}

// escLen is the length of the escape that esc begins.
func escLen(esc []byte) int {
	if len(esc) >= 2 && esc[1] == 'u' {
		return 6
	}
	return 2
}

// str reads the string being read (a key or a value) as far as args go.
func (a *argStream) str(args string) {
	f := a.fields[len(a.fields)-1]
	sb := &f.val
	if a.state == argInKey {
		sb = &f.key
	}
	if a.n == a.start {
		a.n++ // the opening quote
	}
	for a.n < len(args) {
		if len(a.esc) > 0 {
			for a.n < len(args) && len(a.esc) < escLen(a.esc) {
				a.esc = append(a.esc, args[a.n])
				a.n++
			}
			if len(a.esc) < escLen(a.esc) {
				return // the escape is cut off: not drawn yet
			}
			var r string
			if json.Unmarshal([]byte(`"`+string(a.esc)+`"`), &r) == nil {
				sb.WriteString(r)
			}
			a.esc = a.esc[:0]
			continue
		}
		i := strings.IndexAny(args[a.n:], "\"\\")
		if i < 0 {
			sb.WriteString(args[a.n:])
			a.n = len(args)
			return
		}
		sb.WriteString(args[a.n : a.n+i])
		a.n += i
		if args[a.n] == '\\' {
			a.esc = append(a.esc[:0], '\\')
			a.n++
			continue
		}
		// The closing quote: the string is complete.
		a.n++
		var full string
		ok := json.Unmarshal([]byte(args[a.start:a.n]), &full) == nil
		if a.state == argInKey {
			f.keyFull, f.fullOK = full, ok
			a.state = argColon
			return
		}
		f.valFull, f.done, f.fullOK = full, true, f.fullOK && ok
		a.state = argAfter
		return
	}
}
