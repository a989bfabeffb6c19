// configparser: INI files read into ConfigParser and RawConfigParser, with
// CPython 3.11's parsing, interpolation, mapping access and output.

package pydata

import (
	"fmt"
	"reflect"
	"strings"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

const cpMaxDepth = 10

// cpOptions is an ordered str-keyed map: a section's options.
type cpOptions struct {
	keys []string
	vals map[string]starlark.Value
}

func newCPOptions() *cpOptions { return &cpOptions{vals: map[string]starlark.Value{}} }

func (o *cpOptions) get(k string) (starlark.Value, bool) {
	v, ok := o.vals[k]
	return v, ok
}

func (o *cpOptions) Set(k string, v starlark.Value) {
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

func (o *cpOptions) del(k string) bool {
	if _, ok := o.vals[k]; !ok {
		return false
	}
	delete(o.vals, k)
	for i, x := range o.keys {
		if x == k {
			o.keys = append(o.keys[:i:i], o.keys[i+1:]...)
			break
		}
	}
	return true
}

func (o *cpOptions) clear() { o.keys, o.vals = nil, map[string]starlark.Value{} }

// cpSection is a section and the proxy cp[name] returns (always the same).
type cpSection struct {
	opts  *cpOptions
	proxy *cpProxy
}

// Interpolation kinds.
const (
	cpNoInterp = iota
	cpBasic
	cpExtended
)

// cpInterpolation is an instance of Interpolation, BasicInterpolation or
// ExtendedInterpolation.
type cpInterpolation struct {
	cls  *pyrt.PyType
	kind int
}

func (i *cpInterpolation) PyClass() *pyrt.PyType { return i.cls }
func (i *cpInterpolation) String() string        { return i.ReprPy() }
func (i *cpInterpolation) ReprPy() string        { return cpObjectRepr(i, i.cls.TypeName) }
func (i *cpInterpolation) Type() string          { return i.cls.TypeName }
func (i *cpInterpolation) Freeze()               {}
func (i *cpInterpolation) Truth() starlark.Bool  { return true }
func (i *cpInterpolation) Hash() (uint32, error) { return uint32(reflect.ValueOf(i).Pointer()), nil }

func cpObjectRepr(v starlark.Value, cls string) string {
	return fmt.Sprintf("<configparser.%s object at %#x>", cls, reflect.ValueOf(v).Pointer())
}

// cpParser is a ConfigParser or RawConfigParser.
type cpParser struct {
	r            *pyrt.Interp
	cls          *pyrt.PyType
	configParser bool // ConfigParser: values checked to be str on set
	interp       int
	interpVal    starlark.Value
	defaults     *cpSection
	order        []string
	sections     map[string]*cpSection
	delimiters   []string
	comments     []string
	inline       []string
	strict       bool
	allowNoValue bool
	emptyLines   bool
	attrs        starlark.StringDict // optionxform, BOOLEAN_STATES, default_section and others set on it
	thread       *starlark.Thread
}

func configparserModule(r *pyrt.Interp) starlark.Value {
	object := r.Types["object"]
	raw := &pyrt.PyType{TypeName: "RawConfigParser", Module: "configparser", Base: object}
	cp := &pyrt.PyType{TypeName: "ConfigParser", Module: "configparser", Base: raw}
	raw.Call = cpConstructor(r, raw, false)
	cp.Call = cpConstructor(r, cp, true)
	safe := &pyrt.PyType{TypeName: "SafeConfigParser", Module: "configparser", Base: cp, Call: cp.Call}
	interp := &pyrt.PyType{TypeName: "Interpolation", Module: "configparser", Base: object}
	basic := &pyrt.PyType{TypeName: "BasicInterpolation", Module: "configparser", Base: interp}
	ext := &pyrt.PyType{TypeName: "ExtendedInterpolation", Module: "configparser", Base: interp}
	for t, kind := range map[*pyrt.PyType]int{interp: cpNoInterp, basic: cpBasic, ext: cpExtended} {
		t, kind := t, kind
		t.Call = func(_ *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			if len(args)+len(kw) > 0 {
				return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "%s() takes no arguments", t.TypeName)
			}
			return &cpInterpolation{cls: t, kind: kind}, nil
		}
	}
	r.Types["configparser.SectionProxy"] = &pyrt.PyType{TypeName: "SectionProxy", Module: "configparser", Base: object}
	r.Types["configparser.Interpolation"] = interp
	r.Types["configparser.BasicInterpolation"] = basic
	members := starlark.StringDict{
		"ConfigParser": cp, "RawConfigParser": raw, "SafeConfigParser": safe,
		"Interpolation": interp, "BasicInterpolation": basic, "ExtendedInterpolation": ext,
		"SectionProxy": r.Types["configparser.SectionProxy"],
		"DEFAULTSECT":  starlark.String("DEFAULT"), "MAX_INTERPOLATION_DEPTH": starlark.MakeInt(cpMaxDepth),
	}
	for _, e := range []*pyrt.ExcType{excCPError, excCPNoSection, excCPDupSection, excCPDupOption, excCPNoOption, excCPInterp,
		excCPInterpMissing, excCPInterpSyntax, excCPInterpDepth, excCPParsing, excCPMissingSection} {
		members[e.TypeName] = e
	}
	return pyrt.NewModule("configparser", members)
}

// cpConstructor is ConfigParser(...) or RawConfigParser(...).
func cpConstructor(r *pyrt.Interp, cls *pyrt.PyType, configParser bool) func(*starlark.Thread, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return func(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var defaults, dictType, allowNoValue, converters starlark.Value = starlark.None, starlark.None, starlark.False, starlark.None
		var delimiters, comments, inline, strict, emptyLines, interpolation starlark.Value
		defaultSection := "DEFAULT"
		err := cpUnpack("RawConfigParser.__init__", args, kw, "defaults?", &defaults, "dict_type?", &dictType, "allow_no_value?", &allowNoValue,
			"delimiters?", &delimiters, "comment_prefixes?", &comments, "inline_comment_prefixes?", &inline,
			"strict?", &strict, "empty_lines_in_values?", &emptyLines, "default_section?", &defaultSection,
			"interpolation?", &interpolation, "converters?", &converters)
		if err != nil {
			return nil, err
		}
		if len(args) > 3 {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "RawConfigParser.__init__() takes from 1 to 4 positional arguments but %d were given", len(args)+1)
		}
		if converters != starlark.None {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "%s(converters=...) is not supported in this REPL; convert the values get() returns instead", cls.TypeName)
		}
		p := &cpParser{r: r, cls: cls, configParser: configParser, defaults: &cpSection{opts: newCPOptions()},
			sections: map[string]*cpSection{}, delimiters: []string{"=", ":"}, comments: []string{"#", ";"},
			strict: strict == nil || bool(strict.Truth()), allowNoValue: bool(allowNoValue.Truth()),
			emptyLines: emptyLines == nil || bool(emptyLines.Truth()), attrs: starlark.StringDict{}, thread: thread}
		p.attrs["default_section"] = starlark.String(defaultSection)
		if err := p.setPrefixes(delimiters, comments, inline); err != nil {
			return nil, err
		}
		if err := p.setInterpolation(interpolation); err != nil {
			return nil, err
		}
		if defaults != starlark.None && defaults.Truth() {
			if err := p.readDefaults(defaults); err != nil {
				return nil, err
			}
		}
		return p, nil
	}
}

func cpStrings(v starlark.Value, what string) ([]string, error) {
	if v == nil || v == starlark.None {
		return nil, nil
	}
	if s, ok := v.(starlark.String); ok {
		out := []string{}
		for _, c := range string(s) {
			out = append(out, string(c))
		}
		return out, nil
	}
	items, err := pyrt.ListOf(v)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(items))
	for i, x := range items {
		s, ok := x.(starlark.String)
		if !ok {
			return nil, pyrt.PyErrorf(pyrt.ExcTypeError, "%s must be strings, not %s", what, pyrt.PyTypeName(x))
		}
		out[i] = string(s)
	}
	return out, nil
}

func (p *cpParser) setPrefixes(delimiters, comments, inline starlark.Value) error {
	var err error
	if delimiters == starlark.None {
		return pyrt.PyErrorf(pyrt.ExcTypeError, "'NoneType' object is not iterable")
	}
	if delimiters != nil {
		if p.delimiters, err = cpStrings(delimiters, "delimiters"); err != nil {
			return err
		}
	}
	if comments != nil {
		if p.comments, err = cpStrings(comments, "comment_prefixes"); err != nil {
			return err
		}
	}
	p.inline, err = cpStrings(inline, "inline_comment_prefixes")
	return err
}

func (p *cpParser) setInterpolation(v starlark.Value) error {
	switch x := v.(type) {
	case nil:
		if p.configParser {
			p.interp = cpBasic
			p.interpVal = &cpInterpolation{cls: p.r.Types["configparser.BasicInterpolation"], kind: cpBasic}
		} else {
			p.interpVal = &cpInterpolation{cls: p.r.Types["configparser.Interpolation"], kind: cpNoInterp}
		}
	case starlark.NoneType:
		p.interpVal = &cpInterpolation{cls: p.r.Types["configparser.Interpolation"], kind: cpNoInterp}
	case *cpInterpolation:
		p.interp, p.interpVal = x.kind, x
	default:
		return pyrt.PyErrorf(pyrt.ExcTypeError, "interpolation= must be None or an instance of Interpolation; got an object of type %s (classes deriving from Interpolation are not supported in this REPL)", pyrt.PyRepr(p.r.TypeOf(v)))
	}
	return nil
}

// readDefaults stores ConfigParser(defaults=...): ConfigParser makes the
// values str (read_dict without interpolation checks), RawConfigParser
// keeps them as given.
func (p *cpParser) readDefaults(defaults starlark.Value) error {
	if p.configParser {
		hold := p.interp
		p.interp = cpNoInterp
		d := starlark.NewDict(1)
		_ = d.SetKey(starlark.String(p.defaultSection()), defaults)
		err := p.readDict(d, starlark.String("<dict>"))
		p.interp = hold
		return err
	}
	pairs, err := cpItemsOf(p.thread, defaults)
	if err != nil {
		return err
	}
	for _, kv := range pairs {
		k, err := p.xform(kv[0])
		if err != nil {
			return err
		}
		p.defaults.opts.Set(k, kv[1])
	}
	return nil
}

// cpItemsOf returns a mapping's (key, value) pairs, as m.items() gives them.
func cpItemsOf(thread *starlark.Thread, m starlark.Value) ([]starlark.Tuple, error) {
	if d, ok := m.(*starlark.Dict); ok {
		return d.Items(), nil
	}
	if p, ok := m.(*cpProxy); ok {
		return p.items()
	}
	v, err := pyrt.CallMethod(thread, m, "items", nil, nil)
	if err != nil {
		return nil, err
	}
	var out []starlark.Tuple
	err = pyrt.Iterate(v, func(kv starlark.Value) (bool, error) {
		pair, err := pyrt.ListOf(kv)
		if err != nil || len(pair) != 2 {
			return false, pyrt.PyErrorf(pyrt.ExcTypeError, "items() must give (key, value) pairs, not %s", pyrt.PyTypeName(kv))
		}
		out = append(out, starlark.Tuple{pair[0], pair[1]})
		return true, nil
	})
	return out, err
}

func (p *cpParser) defaultSection() string {
	if s, ok := p.attrs["default_section"].(starlark.String); ok {
		return string(s)
	}
	return pyrt.PyStr(p.attrs["default_section"])
}

// xform is optionxform(option): lower() unless the attribute was set.
func (p *cpParser) xform(option starlark.Value) (string, error) {
	f, set := p.attrs["optionxform"]
	if !set {
		s, ok := option.(starlark.String)
		if !ok {
			return "", pyrt.PyErrorf(pyrt.ExcAttribute, "'%s' object has no attribute 'lower'", pyrt.PyTypeName(option))
		}
		return strings.ToLower(string(s)), nil // str.lower
	}
	v, err := starlark.Call(p.thread, f, starlark.Tuple{option}, nil)
	if err != nil {
		return "", err
	}
	s, ok := v.(starlark.String)
	if !ok {
		return "", pyrt.PyErrorf(pyrt.ExcTypeError, "optionxform must return a str in this REPL, not %s", pyrt.PyTypeName(v))
	}
	return string(s), nil
}

// section returns the named section's options, the defaults for the
// default section; ok is false when there is no such section.
func (p *cpParser) section(name starlark.Value) (*cpSection, bool) {
	s, isStr := name.(starlark.String)
	if !isStr {
		return nil, false
	}
	if sec, ok := p.sections[string(s)]; ok {
		return sec, true
	}
	return nil, false
}

func (p *cpParser) isDefault(name starlark.Value) bool {
	s, ok := name.(starlark.String)
	return ok && string(s) == p.defaultSection()
}

// addSection is add_section without the checks: an empty section.
func (p *cpParser) newSection(name string) *cpSection {
	sec := &cpSection{opts: newCPOptions()}
	sec.proxy = &cpProxy{p: p, name: name}
	p.sections[name] = sec
	p.order = append(p.order, name)
	return sec
}

func (p *cpParser) addSection(name starlark.Value) error {
	s, ok := name.(starlark.String)
	if !ok {
		return pyrt.PyErrorf(pyrt.ExcTypeError, "section names must be strings")
	}
	if string(s) == p.defaultSection() {
		return pyrt.PyErrorf(pyrt.ExcValueError, "Invalid section name: %s", pyrt.PyRepr(s))
	}
	if _, dup := p.sections[string(s)]; dup {
		return errDupSection(string(s), starlark.None, 0)
	}
	p.newSection(string(s))
	return nil
}

func (p *cpParser) removeSection(name starlark.Value) bool {
	s, ok := name.(starlark.String)
	if !ok {
		return false
	}
	if _, ok := p.sections[string(s)]; !ok {
		return false
	}
	delete(p.sections, string(s))
	for i, x := range p.order {
		if x == string(s) {
			p.order = append(p.order[:i:i], p.order[i+1:]...)
			break
		}
	}
	return true
}

// options is options(section): the section's then the defaults' names.
func (p *cpParser) options(name starlark.Value) ([]string, error) {
	sec, ok := p.section(name)
	if !ok {
		return nil, errNoSection(name)
	}
	out := append([]string(nil), sec.opts.keys...)
	for _, k := range p.defaults.opts.keys {
		if _, dup := sec.opts.vals[k]; !dup {
			out = append(out, k)
		}
	}
	return out, nil
}

func (p *cpParser) hasOption(name, option starlark.Value) (bool, error) {
	if !bool(name.Truth()) || p.isDefault(name) {
		k, err := p.xform(option)
		_, ok := p.defaults.opts.get(k)
		return ok, err
	}
	sec, ok := p.section(name)
	if !ok {
		return false, nil
	}
	k, err := p.xform(option)
	if err != nil {
		return false, err
	}
	_, inSec := sec.opts.get(k)
	_, inDef := p.defaults.opts.get(k)
	return inSec || inDef, nil
}
