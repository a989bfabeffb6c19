// configparser: the parser as a Python value, its methods and mapping
// access (cp["section"], "section" in cp, iteration with DEFAULT first).

package pydata

import (
	"fmt"
	"strings"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

var (
	_ starlark.IterableMapping = (*cpParser)(nil)
	_ starlark.HasSetKey       = (*cpParser)(nil)
	_ starlark.HasSetField     = (*cpParser)(nil)
	_ starlark.Container       = (*cpParser)(nil)
)

func (p *cpParser) PyClass() *pyrt.PyType { return p.cls }
func (p *cpParser) String() string        { return p.ReprPy() }
func (p *cpParser) ReprPy() string        { return cpObjectRepr(p, p.cls.TypeName) }
func (p *cpParser) Type() string          { return p.cls.TypeName }
func (p *cpParser) Freeze()               {}
func (p *cpParser) Truth() starlark.Bool  { return true }
func (p *cpParser) Hash() (uint32, error) {
	return 0, pyrt.PyErrorf(pyrt.ExcTypeError, "unhashable type: '%s'", p.cls.TypeName)
}

// proxy returns cp[name] for an existing section or the default one.
func (p *cpParser) proxy(name starlark.Value) (*cpProxy, bool) {
	if p.isDefault(name) {
		if p.defaults.proxy == nil || p.defaults.proxy.name != p.defaultSection() {
			p.defaults.proxy = &cpProxy{p: p, name: p.defaultSection()}
		}
		return p.defaults.proxy, true
	}
	if sec, ok := p.section(name); ok {
		return sec.proxy, true
	}
	return nil, false
}

func (p *cpParser) Get(k starlark.Value) (starlark.Value, bool, error) {
	if px, ok := p.proxy(k); ok {
		return px, true, nil
	}
	return nil, false, nil
}

func (p *cpParser) Has(k starlark.Value) (bool, error) {
	_, ok := p.proxy(k)
	return ok, nil
}

// SetKey is cp[name] = mapping: the section's options are replaced.
func (p *cpParser) SetKey(k, v starlark.Value) error {
	if px, ok := p.proxy(k); ok && px == v {
		return nil
	}
	if p.isDefault(k) {
		p.defaults.opts.clear()
	} else if sec, ok := p.section(k); ok {
		sec.opts.clear()
	}
	d := starlark.NewDict(1)
	if err := d.SetKey(k, v); err != nil {
		return err
	}
	return p.readDict(d, starlark.String("<dict>"))
}

// Delete is del cp[name].
func (p *cpParser) Delete(k starlark.Value) (starlark.Value, bool, error) {
	if p.isDefault(k) {
		return nil, false, pyrt.PyErrorf(pyrt.ExcValueError, "Cannot remove the default section.")
	}
	if !p.removeSection(k) {
		return nil, false, nil
	}
	return starlark.None, true, nil
}

func (p *cpParser) Len() int { return len(p.order) + 1 }

func (p *cpParser) names() []starlark.Value {
	out := []starlark.Value{starlark.String(p.defaultSection())}
	for _, n := range p.order {
		out = append(out, starlark.String(n))
	}
	return out
}

func (p *cpParser) Iterate() starlark.Iterator { return starlark.NewList(p.names()).Iterate() }

func (p *cpParser) Items() []starlark.Tuple {
	var out []starlark.Tuple
	for _, n := range p.names() {
		px, _ := p.proxy(n)
		out = append(out, starlark.Tuple{n, px})
	}
	return out
}

func (p *cpParser) SetField(name string, v starlark.Value) error {
	if _, isMethod := cpMethods[name]; isMethod && name != "optionxform" {
		return pyrt.PyErrorf(pyrt.ExcTypeError, "setting %s on a %s is not supported in this REPL", name, p.cls.TypeName)
	}
	switch name {
	case "SECTCRE", "OPTCRE", "OPTCRE_NV", "NONSPACECRE", "_optcre", "_interpolation", "_sections", "_defaults":
		return pyrt.PyErrorf(pyrt.ExcTypeError, "setting %s on a %s is not supported in this REPL; use the constructor's options (delimiters=, comment_prefixes=, inline_comment_prefixes=, interpolation=)", name, p.cls.TypeName)
	}
	p.attrs[name] = v
	return nil
}

func (p *cpParser) AttrNames() []string {
	names := []string{"BOOLEAN_STATES", "default_section"}
	for k := range cpMethods {
		names = append(names, k)
	}
	return names
}

func (p *cpParser) Attr(name string) (starlark.Value, error) {
	if v, ok := p.attrs[name]; ok {
		return v, nil
	}
	if name == "BOOLEAN_STATES" {
		return p.booleanStates(), nil
	}
	m, ok := cpMethods[name]
	if !ok {
		return nil, nil
	}
	fn := "RawConfigParser." + name
	return pyrt.Builtin(name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		p.thread = thread
		return m(p, fn, args, kw)
	}), nil
}

type cpMethod func(p *cpParser, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error)

// cpPositional checks a method taking at most n positional arguments
// (self counted, as CPython's message does).
func cpPositional(fn string, args starlark.Tuple, n int) error {
	if len(args)+1 > n {
		return pyrt.PyErrorf(pyrt.ExcTypeError, "%s() takes %d positional arguments but %d were given", fn, n, len(args)+1)
	}
	return nil
}

// cpGetArgs unpacks (section, option, *, raw=False, vars=None, fallback=unset).
func cpGetArgs(fn string, args starlark.Tuple, kw []starlark.Tuple) (section, option starlark.Value, raw bool, vars, fallback starlark.Value, err error) {
	var rawV starlark.Value = starlark.False
	if err = cpPositional(fn, args, 3); err != nil {
		return
	}
	err = cpUnpack(fn, args, kw, "section", &section, "option", &option, "raw?", &rawV, "vars?", &vars, "fallback?", &fallback)
	return section, option, bool(rawV.Truth()), vars, fallback, err
}

func cpGetConv(kind string) cpMethod {
	return func(p *cpParser, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		section, option, raw, vars, fallback, err := cpGetArgs(fn, args, kw)
		if err != nil {
			return nil, err
		}
		return p.getConv(kind, section, option, raw, vars, fallback)
	}
}

func cpOneArg(f func(p *cpParser, v starlark.Value) (starlark.Value, error)) cpMethod {
	return func(p *cpParser, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var v starlark.Value
		if err := cpUnpackPos(fn, args, kw, 1, &v); err != nil {
			return nil, err
		}
		return f(p, v)
	}
}

func cpNoArgs(f func(p *cpParser) (starlark.Value, error)) cpMethod {
	return func(p *cpParser, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if err := cpUnpackPos(fn, args, kw, 0); err != nil {
			return nil, err
		}
		return f(p)
	}
}

func cpStrList(names []string) starlark.Value {
	out := make([]starlark.Value, len(names))
	for i, n := range names {
		out[i] = starlark.String(n)
	}
	return starlark.NewList(out)
}

func cpPairs(pairs []starlark.Tuple) starlark.Value {
	out := make([]starlark.Value, len(pairs))
	for i, kv := range pairs {
		out[i] = kv
	}
	return starlark.NewList(out)
}

var cpMethods map[string]cpMethod

func init() {
	cpMethods = map[string]cpMethod{
		"sections": cpNoArgs(func(p *cpParser) (starlark.Value, error) { return cpStrList(p.order), nil }),
		"defaults": cpNoArgs(func(p *cpParser) (starlark.Value, error) {
			d := starlark.NewDict(len(p.defaults.opts.keys))
			for _, k := range p.defaults.opts.keys {
				_ = d.SetKey(starlark.String(k), p.defaults.opts.vals[k])
			}
			return d, nil
		}),
		"add_section": cpOneArg(func(p *cpParser, v starlark.Value) (starlark.Value, error) { return starlark.None, p.addSection(v) }),
		"has_section": cpOneArg(func(p *cpParser, v starlark.Value) (starlark.Value, error) {
			_, ok := p.section(v)
			return starlark.Bool(ok), nil
		}),
		"options": cpOneArg(func(p *cpParser, v starlark.Value) (starlark.Value, error) {
			names, err := p.options(v)
			return cpStrList(names), err
		}),
		"remove_section": cpOneArg(func(p *cpParser, v starlark.Value) (starlark.Value, error) {
			return starlark.Bool(p.removeSection(v)), nil
		}),
		"optionxform": cpOneArg(func(p *cpParser, v starlark.Value) (starlark.Value, error) {
			s, ok := v.(starlark.String)
			if !ok {
				return nil, pyrt.PyErrorf(pyrt.ExcAttribute, "'%s' object has no attribute 'lower'", pyrt.PyTypeName(v))
			}
			return pyrt.CallMethod(p.thread, s, "lower", nil, nil)
		}),
		"has_option": func(p *cpParser, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var section, option starlark.Value
			if err := cpUnpackPos(fn, args, kw, 2, &section, &option); err != nil {
				return nil, err
			}
			ok, err := p.hasOption(section, option)
			return starlark.Bool(ok), err
		},
		"remove_option": func(p *cpParser, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var section, option starlark.Value
			if err := cpUnpackPos(fn, args, kw, 2, &section, &option); err != nil {
				return nil, err
			}
			return p.removeOption(section, option)
		},
		"set": func(p *cpParser, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var section, option, value starlark.Value = nil, nil, starlark.None
			if err := cpUnpack(fn, args, kw, "section", &section, "option", &option, "value?", &value); err != nil {
				return nil, err
			}
			return starlark.None, p.Set(section, option, value)
		},
		"get": func(p *cpParser, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			section, option, raw, vars, fallback, err := cpGetArgs(fn, args, kw)
			if err != nil {
				return nil, err
			}
			return p.get(section, option, raw, vars, fallback)
		},
		"getint": cpGetConv("int"), "getfloat": cpGetConv("float"), "getboolean": cpGetConv("boolean"),
		"items": cpItemsMethod,
		"read": func(p *cpParser, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var filenames, encoding starlark.Value
			if err := cpUnpack(fn, args, kw, "filenames", &filenames, "encoding?", &encoding); err != nil {
				return nil, err
			}
			return p.Read(filenames)
		},
		"read_file": func(p *cpParser, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var f, source starlark.Value
			if err := cpUnpack(fn, args, kw, "f", &f, "source?", &source); err != nil {
				return nil, err
			}
			return starlark.None, p.readFile(f, source)
		},
		"read_string": func(p *cpParser, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var s starlark.Value
			var source starlark.Value = starlark.String("<string>")
			if err := cpUnpack(fn, args, kw, "string", &s, "source?", &source); err != nil {
				return nil, err
			}
			text, ok := s.(starlark.String)
			if !ok {
				return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "initial_value must be str or None, not %s", pyrt.PyTypeName(s))
			}
			return starlark.None, p.parse(cpSplitLines(string(text)), source)
		},
		"read_dict": func(p *cpParser, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var d starlark.Value
			var source starlark.Value = starlark.String("<dict>")
			if err := cpUnpack(fn, args, kw, "dictionary", &d, "source?", &source); err != nil {
				return nil, err
			}
			return starlark.None, p.readDict(d, source)
		},
		"write": func(p *cpParser, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var fp starlark.Value
			var spaces starlark.Value = starlark.True
			if err := cpUnpack(fn, args, kw, "fp", &fp, "space_around_delimiters?", &spaces); err != nil {
				return nil, err
			}
			return starlark.None, p.Write(p.thread, fp, bool(spaces.Truth()))
		},
		"keys": cpNoArgs(func(p *cpParser) (starlark.Value, error) { return newCPView("KeysView", p, p.viewKeys), nil }),
		"values": cpNoArgs(func(p *cpParser) (starlark.Value, error) {
			return newCPView("ValuesView", p, func() ([]starlark.Value, error) { return cpColumn(p.Items(), 1), nil }), nil
		}),
		"popitem": cpNoArgs(func(p *cpParser) (starlark.Value, error) {
			if len(p.order) == 0 {
				return nil, &pyrt.PyError{Exc: &pyrt.PyException{Typ: pyrt.ExcKeyError}}
			}
			name := starlark.String(p.order[0])
			px, _ := p.proxy(name)
			p.removeSection(name)
			return starlark.Tuple{name, px}, nil
		}),
		"clear": cpNoArgs(func(p *cpParser) (starlark.Value, error) {
			for len(p.order) > 0 {
				p.removeSection(starlark.String(p.order[0]))
			}
			return starlark.None, nil
		}),
	}
}

func (p *cpParser) viewKeys() ([]starlark.Value, error) { return p.names(), nil }

func cpColumn(pairs []starlark.Tuple, i int) []starlark.Value {
	out := make([]starlark.Value, len(pairs))
	for j, kv := range pairs {
		out[j] = kv[i]
	}
	return out
}

// cpItemsMethod is items(): the sections' (name, proxy) pairs, or with a
// section its (option, value) pairs.
func cpItemsMethod(p *cpParser, fn string, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var section, vars starlark.Value
	var raw starlark.Value = starlark.False
	if err := cpUnpack(fn, args, kw, "section?", &section, "raw?", &raw, "vars?", &vars); err != nil {
		return nil, err
	}
	if section == nil {
		return newCPView("ItemsView", p, func() ([]starlark.Value, error) {
			var out []starlark.Value
			for _, kv := range p.Items() {
				out = append(out, kv)
			}
			return out, nil
		}), nil
	}
	pairs, err := p.items(section, bool(raw.Truth()), vars)
	if err != nil {
		return nil, err
	}
	return cpPairs(pairs), nil
}

func (p *cpParser) removeOption(section, option starlark.Value) (starlark.Value, error) {
	opts := p.defaults.opts
	if bool(section.Truth()) && !p.isDefault(section) {
		sec, ok := p.section(section)
		if !ok {
			return nil, errNoSection(section)
		}
		opts = sec.opts
	}
	k, err := p.xform(option)
	if err != nil {
		return nil, err
	}
	return starlark.Bool(opts.del(k)), nil
}

// cpView is a KeysView, ValuesView or ItemsView of a parser or a section:
// live, computed each time it is read.
type cpView struct {
	kind  string
	owner starlark.Value
	list  func() ([]starlark.Value, error)
}

var (
	_ starlark.Iterable  = (*cpView)(nil)
	_ starlark.Container = (*cpView)(nil)
	_ starlark.Sequence  = (*cpView)(nil)
)

func newCPView(kind string, owner starlark.Value, list func() ([]starlark.Value, error)) *cpView {
	return &cpView{kind: kind, owner: owner, list: list}
}

func (v *cpView) String() string       { return v.ReprPy() }
func (v *cpView) ReprPy() string       { return fmt.Sprintf("%s(%s)", v.kind, pyrt.PyRepr(v.owner)) }
func (v *cpView) Type() string         { return v.kind }
func (v *cpView) Freeze()              {}
func (v *cpView) Truth() starlark.Bool { return v.Len() > 0 }
func (v *cpView) Hash() (uint32, error) {
	return 0, pyrt.PyErrorf(pyrt.ExcTypeError, "unhashable type: '%s'", v.kind)
}

// Len and Iterate cannot return an error: one stops the thread with it
// kept, as a failing iterator does (pyIter.fail).
func (v *cpView) items() []starlark.Value {
	out, err := v.list()
	if err != nil {
		(&pyrt.PyIter{Thread: cpThread(v.owner)}).Fail(err)
	}
	return out
}

func cpThread(owner starlark.Value) *starlark.Thread {
	switch o := owner.(type) {
	case *cpParser:
		return o.curThread()
	case *cpProxy:
		return o.p.curThread()
	}
	return nil
}

func (p *cpParser) curThread() *starlark.Thread {
	if p.thread != nil {
		return p.thread
	}
	return p.r.Thread
}

func (v *cpView) Len() int                   { return len(v.items()) }
func (v *cpView) Iterate() starlark.Iterator { return starlark.NewList(v.items()).Iterate() }
func (v *cpView) Has(x starlark.Value) (bool, error) {
	out, err := v.list()
	if err != nil {
		return false, err
	}
	for _, e := range out {
		if eq, err := starlark.Equal(e, x); err != nil || eq {
			return eq, err
		}
	}
	return false, nil
}

// cpArgErr gives Starlark's argument errors Python's wording.
func cpArgErr(fn string, err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, fn+": missing argument for "); ok {
		return pyrt.PyErrorf(pyrt.ExcTypeError, "%s() missing 1 required positional argument: '%s'", fn, name)
	}
	if rest, ok := strings.CutPrefix(msg, fn+": unexpected keyword argument "); ok {
		name, _, _ := strings.Cut(rest, " ")
		return pyrt.PyErrorf(pyrt.ExcTypeError, "%s() got an unexpected keyword argument '%s'", fn, strings.Trim(name, `"`))
	}
	return pyrt.PyErrorf(pyrt.ExcTypeError, "%s", msg)
}

func cpUnpack(fn string, args starlark.Tuple, kw []starlark.Tuple, pairs ...any) error {
	return cpArgErr(fn, pyrt.UnpackArgs(fn, args, kw, pairs...))
}

func cpUnpackPos(fn string, args starlark.Tuple, kw []starlark.Tuple, min int, vars ...any) error {
	return cpArgErr(fn, starlark.UnpackPositionalArgs(fn, args, kw, min, vars...))
}
