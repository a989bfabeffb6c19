// configparser's exception classes, each with CPython's __init__: the
// message (str(e), repr(e) and e.message), args and attributes are the
// same whether the module raises one or a program constructs it.

package pydata

import (
	"fmt"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

func cpExc(name string, base *pyrt.ExcType) *pyrt.ExcType {
	return &pyrt.ExcType{TypeName: name, Module: "configparser", Base: base}
}

var (
	excCPError          = cpExc("Error", pyrt.ExcException)
	excCPNoSection      = cpExc("NoSectionError", excCPError)
	excCPDupSection     = cpExc("DuplicateSectionError", excCPError)
	excCPDupOption      = cpExc("DuplicateOptionError", excCPError)
	excCPNoOption       = cpExc("NoOptionError", excCPError)
	excCPInterp         = cpExc("InterpolationError", excCPError)
	excCPInterpMissing  = cpExc("InterpolationMissingOptionError", excCPInterp)
	excCPInterpSyntax   = cpExc("InterpolationSyntaxError", excCPInterp)
	excCPInterpDepth    = cpExc("InterpolationDepthError", excCPInterp)
	excCPParsing        = cpExc("ParsingError", excCPError)
	excCPMissingSection = cpExc("MissingSectionHeaderError", excCPParsing)
)

// The __init__s are set at init: they reach the classes through repr.
func init() {
	excCPError.MessageRepr = true // its __repr__ is its message
	excCPError.Init = cpInit("Error", []string{"msg?"}, cpInitError)
	excCPNoSection.Init = cpInit("NoSectionError", []string{"section"}, cpInitNoSection)
	excCPDupSection.Init = cpInit("DuplicateSectionError", []string{"section", "source?", "lineno?"}, cpInitDupSection)
	excCPDupOption.Init = cpInit("DuplicateOptionError", []string{"section", "option", "source?", "lineno?"}, cpInitDupOption)
	excCPNoOption.Init = cpInit("NoOptionError", []string{"option", "section"}, cpInitNoOption)
	excCPInterp.Init = cpInit("InterpolationError", []string{"option", "section", "msg"}, cpInitInterp)
	excCPInterpMissing.Init = cpInit("InterpolationMissingOptionError", []string{"option", "section", "rawval", "reference"}, cpInitInterpMissing)
	excCPInterpDepth.Init = cpInit("InterpolationDepthError", []string{"option", "section", "rawval"}, cpInitInterpDepth)
	excCPParsing.Init = cpInit("ParsingError", []string{"source?", "filename?"}, cpInitParsing)
	excCPMissingSection.Init = cpInit("MissingSectionHeaderError", []string{"filename", "lineno", "line"}, cpInitMissingSection)
}

// cpInit unpacks the named parameters (name? is optional, None when not
// given) and runs body on them.
func cpInit(cls string, params []string, body func(e *pyrt.PyException, a []starlark.Value) error) func(*pyrt.PyException, starlark.Tuple, []starlark.Tuple) error {
	return func(e *pyrt.PyException, args starlark.Tuple, kw []starlark.Tuple) error {
		vals := make([]starlark.Value, len(params))
		pairs := make([]any, 0, 2*len(params))
		for i, name := range params {
			pairs = append(pairs, name, &vals[i])
		}
		if err := cpUnpack(cls+".__init__", args, kw, pairs...); err != nil {
			return err
		}
		for i := range vals {
			if vals[i] == nil {
				vals[i] = starlark.None
			}
		}
		return body(e, vals)
	}
}

// cpSetMsg is Error.__init__(msg): the message, and args (msg,) until the
// subclass sets its own.
func cpSetMsg(e *pyrt.PyException, msg starlark.Value, args starlark.Tuple, attrs ...any) {
	e.Text, e.Args = pyrt.PyStr(msg), args
	if e.Attrs == nil {
		e.Attrs = starlark.StringDict{}
	}
	e.Attrs["message"] = msg
	for i := 0; i+1 < len(attrs); i += 2 {
		e.Attrs[attrs[i].(string)] = attrs[i+1].(starlark.Value)
	}
}

func cpInitError(e *pyrt.PyException, a []starlark.Value) error {
	msg := a[0]
	if msg == starlark.None {
		msg = starlark.String("")
	}
	cpSetMsg(e, msg, starlark.Tuple{msg})
	return nil
}

func cpInitNoSection(e *pyrt.PyException, a []starlark.Value) error {
	cpSetMsg(e, starlark.String("No section: "+pyrt.PyRepr(a[0])), starlark.Tuple{a[0]}, "section", a[0])
	return nil
}

// cpWhere is "While reading from 'src' [line  n]: " for duplicate errors.
func cpWhere(source, lineno starlark.Value) string {
	s := "While reading from " + pyrt.PyRepr(source)
	if lineno != starlark.None {
		s += fmt.Sprintf(" [line %2s]", pyrt.PyStr(lineno))
	}
	return s + ": "
}

func cpInitDupSection(e *pyrt.PyException, a []starlark.Value) error {
	section, source, lineno := a[0], a[1], a[2]
	msg := "Section " + pyrt.PyRepr(section) + " already exists"
	if source != starlark.None {
		msg = cpWhere(source, lineno) + "section " + pyrt.PyRepr(section) + " already exists"
	}
	cpSetMsg(e, starlark.String(msg), starlark.Tuple{section, source, lineno}, "section", section, "source", source, "lineno", lineno)
	return nil
}

func cpInitDupOption(e *pyrt.PyException, a []starlark.Value) error {
	section, option, source, lineno := a[0], a[1], a[2], a[3]
	what := pyrt.PyRepr(option) + " in section " + pyrt.PyRepr(section) + " already exists"
	msg := "Option " + what
	if source != starlark.None {
		msg = cpWhere(source, lineno) + "option " + what
	}
	cpSetMsg(e, starlark.String(msg), starlark.Tuple{section, option, source, lineno},
		"section", section, "option", option, "source", source, "lineno", lineno)
	return nil
}

func cpInitNoOption(e *pyrt.PyException, a []starlark.Value) error {
	msg := fmt.Sprintf("No option %s in section: %s", pyrt.PyRepr(a[0]), pyrt.PyRepr(a[1]))
	cpSetMsg(e, starlark.String(msg), starlark.Tuple{a[0], a[1]}, "option", a[0], "section", a[1])
	return nil
}

func cpInitInterp(e *pyrt.PyException, a []starlark.Value) error {
	cpSetMsg(e, a[2], starlark.Tuple{a[0], a[1], a[2]}, "option", a[0], "section", a[1])
	return nil
}

func cpInitInterpMissing(e *pyrt.PyException, a []starlark.Value) error {
	option, section, rawval, ref := a[0], a[1], a[2], a[3]
	msg := fmt.Sprintf("Bad value substitution: option %s in section %s contains an interpolation key %s which is not a valid option name. Raw value: %s",
		pyrt.PyRepr(option), pyrt.PyRepr(section), pyrt.PyRepr(ref), pyrt.PyRepr(rawval))
	cpSetMsg(e, starlark.String(msg), starlark.Tuple{option, section, rawval, ref}, "option", option, "section", section, "reference", ref)
	return nil
}

func cpInitInterpDepth(e *pyrt.PyException, a []starlark.Value) error {
	option, section, rawval := a[0], a[1], a[2]
	msg := fmt.Sprintf("Recursion limit exceeded in value substitution: option %s in section %s contains an interpolation key which cannot be substituted in %d steps. Raw value: %s",
		pyrt.PyRepr(option), pyrt.PyRepr(section), cpMaxDepth, pyrt.PyRepr(rawval))
	cpSetMsg(e, starlark.String(msg), starlark.Tuple{option, section, rawval}, "option", option, "section", section)
	return nil
}

func cpInitParsing(e *pyrt.PyException, a []starlark.Value) error {
	source, filename := a[0], a[1]
	hasSource, hasFilename := bool(source.Truth()), bool(filename.Truth())
	switch {
	case hasFilename && hasSource:
		return pyrt.PyErrorf(pyrt.ExcValueError, "Cannot specify both `filename' and `source'. Use `source'.")
	case !hasFilename && !hasSource:
		return pyrt.PyErrorf(pyrt.ExcValueError, "Required argument `source' not given.")
	case hasFilename:
		source = filename
	}
	cpSetMsg(e, starlark.String("Source contains parsing errors: "+pyrt.PyRepr(source)), starlark.Tuple{source},
		"source", source, "errors", starlark.NewList(nil))
	return nil
}

func cpInitMissingSection(e *pyrt.PyException, a []starlark.Value) error {
	filename, lineno, line := a[0], a[1], a[2]
	n, err := starlark.AsInt32(lineno)
	if err != nil {
		return pyrt.PyErrorf(pyrt.ExcTypeError, "%%d format: a real number is required, not %s", pyrt.PyTypeName(lineno))
	}
	msg := fmt.Sprintf("File contains no section headers.\nfile: %s, line: %d\n%s", pyrt.PyRepr(filename), n, pyrt.PyRepr(line))
	cpSetMsg(e, starlark.String(msg), starlark.Tuple{filename, lineno, line}, "source", filename, "lineno", lineno, "line", line)
	return nil
}

// cpRaise is raise typ(*args), as the module raises its errors.
func cpRaise(typ *pyrt.ExcType, args ...starlark.Value) error {
	e := &pyrt.PyException{Typ: typ}
	if err := typ.InitOf()(e, args, nil); err != nil {
		return err
	}
	return &pyrt.PyError{Exc: e}
}

func errNoSection(section starlark.Value) error { return cpRaise(excCPNoSection, section) }

func errNoOption(option string, section starlark.Value) error {
	return cpRaise(excCPNoOption, starlark.String(option), section)
}

func cpLine(lineno int) starlark.Value {
	if lineno > 0 {
		return starlark.MakeInt(lineno)
	}
	return starlark.None
}

func errDupSection(section string, source starlark.Value, lineno int) error {
	return cpRaise(excCPDupSection, starlark.String(section), source, cpLine(lineno))
}

func errDupOption(section, option string, source starlark.Value, lineno int) error {
	return cpRaise(excCPDupOption, starlark.String(section), starlark.String(option), source, cpLine(lineno))
}

func errInterp(typ *pyrt.ExcType, option string, section starlark.Value, msg string) error {
	return cpRaise(typ, starlark.String(option), section, starlark.String(msg))
}

func errInterpMissing(option string, section, rawval starlark.Value, ref string) error {
	return cpRaise(excCPInterpMissing, starlark.String(option), section, rawval, starlark.String(ref))
}

func errInterpDepth(option string, section, rawval starlark.Value) error {
	return cpRaise(excCPInterpDepth, starlark.String(option), section, rawval)
}

// cpParsingAppend is ParsingError.append(lineno, repr(line)).
func cpParsingAppend(e *pyrt.PyException, lineno int, line string) {
	rl := starlark.String(pyrt.PyRepr(starlark.String(line)))
	_ = e.Attrs["errors"].(*starlark.List).Append(starlark.Tuple{starlark.MakeInt(lineno), rl})
	e.Text += fmt.Sprintf("\n\t[line %2d]: %s", lineno, string(rl))
	e.Attrs["message"] = starlark.String(e.Text)
}
