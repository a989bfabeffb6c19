// configparser: get, set, items and interpolation (BasicInterpolation's
// %(name)s and ExtendedInterpolation's ${section:name}).

package pydata

import (
	"fmt"
	"strings"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

// cpLookup finds an option in the map interpolation reads from.
type cpLookup func(string) (starlark.Value, bool)

func chainLookup(opts ...*cpOptions) cpLookup {
	return func(k string) (starlark.Value, bool) {
		for _, o := range opts {
			if o == nil {
				continue
			}
			if v, ok := o.get(k); ok {
				return v, true
			}
		}
		return nil, false
	}
}

// varsOptions converts get()'s vars=: keys through optionxform, values
// made str (None kept) when str is true.
func (p *cpParser) varsOptions(vars starlark.Value, str bool) (*cpOptions, error) {
	o := newCPOptions()
	if vars == nil || vars == starlark.None || !vars.Truth() {
		return o, nil
	}
	pairs, err := cpItemsOf(p.thread, vars)
	if err != nil {
		return nil, err
	}
	for _, kv := range pairs {
		v := kv[1]
		if str && v != starlark.None {
			v = starlark.String(pyrt.PyStr(v))
		}
		k, err := p.xform(kv[0])
		if err != nil {
			return nil, err
		}
		o.Set(k, v)
	}
	return o, nil
}

// get is get(section, option, raw=, vars=, fallback=); fallback nil is unset.
func (p *cpParser) get(section, option starlark.Value, raw bool, vars, fallback starlark.Value) (starlark.Value, error) {
	var secOpts *cpOptions
	if sec, ok := p.section(section); ok {
		secOpts = sec.opts
	} else if !p.isDefault(section) {
		if fallback != nil {
			return fallback, nil
		}
		return nil, errNoSection(section)
	}
	vo, err := p.varsOptions(vars, true)
	if err != nil {
		return nil, err
	}
	opt, err := p.xform(option)
	if err != nil {
		return nil, err
	}
	look := chainLookup(vo, secOpts, p.defaults.opts)
	v, ok := look(opt)
	if !ok {
		if fallback != nil {
			return fallback, nil
		}
		return nil, errNoOption(opt, section)
	}
	if raw || v == starlark.None {
		return v, nil
	}
	return p.beforeGet(section, opt, v, look)
}

// beforeGet is the interpolation's before_get.
func (p *cpParser) beforeGet(section starlark.Value, option string, v starlark.Value, look cpLookup) (starlark.Value, error) {
	if p.interp == cpNoInterp {
		return v, nil
	}
	if v == starlark.None {
		return starlark.String(""), nil // ''.join of nothing, as CPython's loop skips a None value
	}
	s, ok := v.(starlark.String)
	if !ok {
		return nil, pyrt.PyErrorf(pyrt.ExcAttribute, "'%s' object has no attribute 'find'", pyrt.PyTypeName(v))
	}
	var out strings.Builder
	var err error
	if p.interp == cpBasic {
		err = p.basicInterp(section, option, string(s), look, 1, &out)
	} else {
		err = p.extendedInterp(section, option, string(s), look, 1, &out)
	}
	if err != nil {
		return nil, err
	}
	return starlark.String(out.String()), nil
}

func (p *cpParser) rawValue(section starlark.Value, option string, rest string) starlark.Value {
	v, err := p.get(section, starlark.String(option), true, nil, starlark.String(rest))
	if err != nil {
		return starlark.String(rest)
	}
	return v
}

// interpText is a referenced value interpolation goes on with: a str.
func interpText(v starlark.Value) (string, error) {
	if s, ok := v.(starlark.String); ok {
		return string(s), nil
	}
	return "", pyrt.PyErrorf(pyrt.ExcTypeError, "argument of type '%s' is not iterable", pyrt.PyTypeName(v))
}

func (p *cpParser) basicInterp(section starlark.Value, option, rest string, look cpLookup, depth int, out *strings.Builder) error {
	orig := rest
	if depth > cpMaxDepth {
		return errInterpDepth(option, section, p.rawValue(section, option, orig))
	}
	for rest != "" {
		i := strings.IndexByte(rest, '%')
		if i < 0 {
			out.WriteString(rest)
			return nil
		}
		out.WriteString(rest[:i])
		rest = rest[i:]
		switch {
		case strings.HasPrefix(rest, "%%"):
			out.WriteByte('%')
			rest = rest[2:]
		case strings.HasPrefix(rest, "%("):
			end := strings.IndexByte(rest, ')')
			if end <= 2 || !strings.HasPrefix(rest[end:], ")s") {
				return errInterp(excCPInterpSyntax, option, section, "bad interpolation variable reference "+pyrt.PyRepr(starlark.String(rest)))
			}
			name, err := p.xform(starlark.String(rest[2:end]))
			if err != nil {
				return err
			}
			rest = rest[end+2:]
			v, ok := look(name)
			if !ok {
				return errInterpMissing(option, section, p.rawValue(section, option, orig), name)
			}
			s, err := interpText(v)
			if err != nil {
				return err
			}
			if !strings.Contains(s, "%") {
				out.WriteString(s)
			} else if err := p.basicInterp(section, option, s, look, depth+1, out); err != nil {
				return err
			}
		default:
			return errInterp(excCPInterpSyntax, option, section, "'%' must be followed by '%' or '(', found: "+pyrt.PyRepr(starlark.String(rest)))
		}
	}
	return nil
}

func (p *cpParser) extendedInterp(section starlark.Value, option, rest string, look cpLookup, depth int, out *strings.Builder) error {
	orig := rest
	if depth > cpMaxDepth {
		return errInterpDepth(option, section, p.rawValue(section, option, orig))
	}
	for rest != "" {
		i := strings.IndexByte(rest, '$')
		if i < 0 {
			out.WriteString(rest)
			return nil
		}
		out.WriteString(rest[:i])
		rest = rest[i:]
		switch {
		case strings.HasPrefix(rest, "$$"):
			out.WriteByte('$')
			rest = rest[2:]
		case strings.HasPrefix(rest, "${"):
			end := strings.IndexByte(rest, '}')
			if end <= 2 {
				return errInterp(excCPInterpSyntax, option, section, "bad interpolation variable reference "+pyrt.PyRepr(starlark.String(rest)))
			}
			ref := rest[2:end]
			rest = rest[end+1:]
			sect, opt, v, err := p.extendedRef(section, option, ref, rest, look)
			if err != nil {
				if isLookupMiss(err) {
					return errInterpMissing(option, section, p.rawValue(section, option, orig), ref)
				}
				return err
			}
			s, err := interpText(v)
			if err != nil {
				return err
			}
			if !strings.Contains(s, "$") {
				out.WriteString(s)
				continue
			}
			nested := look
			if sec, ok := p.section(sect); ok {
				nested = chainLookup(sec.opts, p.defaults.opts)
			} else if p.isDefault(sect) {
				nested = chainLookup(p.defaults.opts)
			} else {
				return errNoSection(sect)
			}
			if err := p.extendedInterp(sect, opt, s, nested, depth+1, out); err != nil {
				return err
			}
		default:
			return errInterp(excCPInterpSyntax, option, section, "'$' must be followed by '$' or '{', found: "+pyrt.PyRepr(starlark.String(rest)))
		}
	}
	return nil
}

var errCPMiss = fmt.Errorf("configparser: interpolation reference not found")

func isLookupMiss(err error) bool {
	if err == errCPMiss {
		return true
	}
	if pe, ok := err.(*pyrt.PyError); ok {
		return pe.Exc.Typ == excCPNoSection || pe.Exc.Typ == excCPNoOption
	}
	return false
}

// extendedRef resolves ${ref}: an option of this section (through look) or
// section:option.
func (p *cpParser) extendedRef(section starlark.Value, option, ref, rest string, look cpLookup) (starlark.Value, string, starlark.Value, error) {
	path := strings.Split(ref, ":")
	switch len(path) {
	case 1:
		opt, err := p.xform(starlark.String(path[0]))
		if err != nil {
			return nil, "", nil, err
		}
		v, ok := look(opt)
		if !ok {
			return nil, "", nil, errCPMiss
		}
		return section, opt, v, nil
	case 2:
		opt, err := p.xform(starlark.String(path[1]))
		if err != nil {
			return nil, "", nil, err
		}
		sect := starlark.String(path[0])
		v, err := p.get(sect, starlark.String(opt), true, nil, nil)
		return sect, opt, v, err
	}
	return nil, "", nil, errInterp(excCPInterpSyntax, option, section, "More than one ':' found: "+pyrt.PyRepr(starlark.String(rest)))
}

// beforeSet is the interpolation's before_set check of a value's syntax.
func (p *cpParser) beforeSet(value string) error {
	var tmp, mark string
	switch p.interp {
	case cpBasic:
		tmp, mark = strings.ReplaceAll(value, "%%", ""), "%"
		tmp = cpRemoveRefs(tmp, "%(", ")s")
	case cpExtended:
		tmp, mark = strings.ReplaceAll(value, "$$", ""), "$"
		tmp = cpRemoveRefs(tmp, "${", "}")
	default:
		return nil
	}
	if i := strings.Index(tmp, mark); i >= 0 {
		return pyrt.PyErrorf(pyrt.ExcValueError, "invalid interpolation syntax in %s at position %d", pyrt.PyRepr(starlark.String(value)), len([]rune(tmp[:i])))
	}
	return nil
}

// cpRemoveRefs is re.sub of open + a name + close by "": the name has at
// least one character and no close[0].
func cpRemoveRefs(s, open, close string) string {
	var out strings.Builder
	for {
		i := strings.Index(s, open)
		if i < 0 {
			out.WriteString(s)
			return out.String()
		}
		body := s[i+len(open):]
		j := strings.IndexByte(body, close[0])
		if j >= 1 && strings.HasPrefix(body[j:], close) {
			out.WriteString(s[:i])
			s = body[j+len(close):]
			continue
		}
		out.WriteString(s[:i+1])
		s = s[i+1:]
	}
}

// set is set(section, option, value): ConfigParser checks the value is a
// str (None allowed with allow_no_value) and its interpolation syntax.
func (p *cpParser) Set(section, option, value starlark.Value) error {
	if p.configParser {
		if err := p.validate(option, value); err != nil {
			return err
		}
	}
	if value.Truth() {
		if s, ok := value.(starlark.String); ok {
			if err := p.beforeSet(string(s)); err != nil {
				return err
			}
		}
	}
	opts := p.defaults.opts
	if bool(section.Truth()) && !p.isDefault(section) {
		sec, ok := p.section(section)
		if !ok {
			return errNoSection(section)
		}
		opts = sec.opts
	}
	k, err := p.xform(option)
	if err != nil {
		return err
	}
	opts.Set(k, value)
	return nil
}

func (p *cpParser) validate(option, value starlark.Value) error {
	if _, ok := option.(starlark.String); !ok {
		return pyrt.PyErrorf(pyrt.ExcTypeError, "option keys must be strings")
	}
	if !p.allowNoValue || bool(value.Truth()) {
		if _, ok := value.(starlark.String); !ok {
			return pyrt.PyErrorf(pyrt.ExcTypeError, "option values must be strings")
		}
	}
	return nil
}

// items is items(section, raw=, vars=): (name, value) pairs of the
// defaults and the section.
func (p *cpParser) items(section starlark.Value, raw bool, vars starlark.Value) ([]starlark.Tuple, error) {
	d := newCPOptions()
	for _, k := range p.defaults.opts.keys {
		d.Set(k, p.defaults.opts.vals[k])
	}
	if sec, ok := p.section(section); ok {
		for _, k := range sec.opts.keys {
			d.Set(k, sec.opts.vals[k])
		}
	} else if !p.isDefault(section) {
		return nil, errNoSection(section)
	}
	keys := append([]string(nil), d.keys...)
	vo, err := p.varsOptions(vars, false)
	if err != nil {
		return nil, err
	}
	for _, k := range vo.keys {
		d.Set(k, vo.vals[k])
	}
	out := make([]starlark.Tuple, 0, len(keys))
	for _, k := range keys {
		v := d.vals[k]
		if !raw {
			if v, err = p.beforeGet(section, k, v, chainLookup(d)); err != nil {
				return nil, err
			}
		}
		out = append(out, starlark.Tuple{starlark.String(k), v})
	}
	return out, nil
}

var cpBooleanStates = map[string]bool{"1": true, "yes": true, "true": true, "on": true, "0": false, "no": false, "false": false, "off": false}

// convert is getint's int, getfloat's float and getboolean's conversion.
func (p *cpParser) convert(kind string, v starlark.Value) (starlark.Value, error) {
	switch kind {
	case "int":
		return p.r.IntCall(p.thread, starlark.Tuple{v}, nil)
	case "float":
		return p.r.FloatCall(p.thread, starlark.Tuple{v}, nil)
	}
	s, ok := v.(starlark.String)
	if !ok {
		return nil, pyrt.PyErrorf(pyrt.ExcAttribute, "'%s' object has no attribute 'lower'", pyrt.PyTypeName(v))
	}
	low := starlark.String(strings.ToLower(string(s)))
	if states, set := p.attrs["BOOLEAN_STATES"]; set {
		m, ok := states.(starlark.Mapping)
		if !ok {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "BOOLEAN_STATES must be a dict, not %s", pyrt.PyTypeName(states))
		}
		b, found, err := m.Get(low)
		if err != nil || found {
			return b, err
		}
	} else if b, found := cpBooleanStates[string(low)]; found {
		return starlark.Bool(b), nil
	}
	return nil, pyrt.PyErrorf(pyrt.ExcValueError, "Not a boolean: %s", string(s))
}

// getConv is getint, getfloat and getboolean: a missing section or option
// gives fallback when one is set; a bad value is always an error.
func (p *cpParser) getConv(kind string, section, option starlark.Value, raw bool, vars, fallback starlark.Value) (starlark.Value, error) {
	v, err := p.get(section, option, raw, vars, nil)
	if err != nil {
		if fallback != nil && isLookupMiss(err) {
			return fallback, nil
		}
		return nil, err
	}
	return p.convert(kind, v)
}

func (p *cpParser) booleanStates() starlark.Value {
	if v, ok := p.attrs["BOOLEAN_STATES"]; ok {
		return v
	}
	d := starlark.NewDict(8)
	for _, k := range []string{"1", "yes", "true", "on", "0", "no", "false", "off"} {
		_ = d.SetKey(starlark.String(k), starlark.Bool(cpBooleanStates[k]))
	}
	p.attrs["BOOLEAN_STATES"] = d
	return d
}
