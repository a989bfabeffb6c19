// configparser's exception classes, each with CPython's __init__: the
// message (str(e), repr(e) and e.message), args and attributes are the
// same whether the module raises one or a program constructs it.

package pyrt

import (
	"fmt"

	"go.starlark.net/starlark"
)

func cpExc(name string, base *excType) *excType {
	return &excType{name: name, module: "configparser", base: base}
}

var (
	excCPError          = cpExc("Error", excException)
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
	excCPError.messageRepr = true // its __repr__ is its message
	excCPError.init = cpInit("Error", []string{"msg?"}, cpInitError)
	excCPNoSection.init = cpInit("NoSectionError", []string{"section"}, cpInitNoSection)
	excCPDupSection.init = cpInit("DuplicateSectionError", []string{"section", "source?", "lineno?"}, cpInitDupSection)
	excCPDupOption.init = cpInit("DuplicateOptionError", []string{"section", "option", "source?", "lineno?"}, cpInitDupOption)
	excCPNoOption.init = cpInit("NoOptionError", []string{"option", "section"}, cpInitNoOption)
	excCPInterp.init = cpInit("InterpolationError", []string{"option", "section", "msg"}, cpInitInterp)
	excCPInterpMissing.init = cpInit("InterpolationMissingOptionError", []string{"option", "section", "rawval", "reference"}, cpInitInterpMissing)
	excCPInterpDepth.init = cpInit("InterpolationDepthError", []string{"option", "section", "rawval"}, cpInitInterpDepth)
	excCPParsing.init = cpInit("ParsingError", []string{"source?", "filename?"}, cpInitParsing)
	excCPMissingSection.init = cpInit("MissingSectionHeaderError", []string{"filename", "lineno", "line"}, cpInitMissingSection)
}

// cpInit unpacks the named parameters (name? is optional, None when not
// given) and runs body on them.
func cpInit(cls string, params []string, body func(e *PyException, a []starlark.Value) error) func(*PyException, starlark.Tuple, []starlark.Tuple) error {
	return func(e *PyException, args starlark.Tuple, kw []starlark.Tuple) error {
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
func cpSetMsg(e *PyException, msg starlark.Value, args starlark.Tuple, attrs ...any) {
	e.text, e.args = pyStr(msg), args
	if e.attrs == nil {
		e.attrs = starlark.StringDict{}
	}
	e.attrs["message"] = msg
	for i := 0; i+1 < len(attrs); i += 2 {
		e.attrs[attrs[i].(string)] = attrs[i+1].(starlark.Value)
	}
}

func cpInitError(e *PyException, a []starlark.Value) error {
	msg := a[0]
	if msg == starlark.None {
		msg = starlark.String("")
	}
	cpSetMsg(e, msg, starlark.Tuple{msg})
	return nil
}

func cpInitNoSection(e *PyException, a []starlark.Value) error {
	cpSetMsg(e, starlark.String("No section: "+PyRepr(a[0])), starlark.Tuple{a[0]}, "section", a[0])
	return nil
}

// cpWhere is "While reading from 'src' [line  n]: " for duplicate errors.
func cpWhere(source, lineno starlark.Value) string {
	s := "While reading from " + PyRepr(source)
	if lineno != starlark.None {
		s += fmt.Sprintf(" [line %2s]", pyStr(lineno))
	}
	return s + ": "
}

func cpInitDupSection(e *PyException, a []starlark.Value) error {
	section, source, lineno := a[0], a[1], a[2]
	msg := "Section " + PyRepr(section) + " already exists"
	if source != starlark.None {
		msg = cpWhere(source, lineno) + "section " + PyRepr(section) + " already exists"
	}
	cpSetMsg(e, starlark.String(msg), starlark.Tuple{section, source, lineno}, "section", section, "source", source, "lineno", lineno)
	return nil
}

func cpInitDupOption(e *PyException, a []starlark.Value) error {
	section, option, source, lineno := a[0], a[1], a[2], a[3]
	what := PyRepr(option) + " in section " + PyRepr(section) + " already exists"
	msg := "Option " + what
	if source != starlark.None {
		msg = cpWhere(source, lineno) + "option " + what
	}
	cpSetMsg(e, starlark.String(msg), starlark.Tuple{section, option, source, lineno},
		"section", section, "option", option, "source", source, "lineno", lineno)
	return nil
}

func cpInitNoOption(e *PyException, a []starlark.Value) error {
	msg := fmt.Sprintf("No option %s in section: %s", PyRepr(a[0]), PyRepr(a[1]))
	cpSetMsg(e, starlark.String(msg), starlark.Tuple{a[0], a[1]}, "option", a[0], "section", a[1])
	return nil
}

func cpInitInterp(e *PyException, a []starlark.Value) error {
	cpSetMsg(e, a[2], starlark.Tuple{a[0], a[1], a[2]}, "option", a[0], "section", a[1])
	return nil
}

func cpInitInterpMissing(e *PyException, a []starlark.Value) error {
	option, section, rawval, ref := a[0], a[1], a[2], a[3]
	msg := fmt.Sprintf("Bad value substitution: option %s in section %s contains an interpolation key %s which is not a valid option name. Raw value: %s",
		PyRepr(option), PyRepr(section), PyRepr(ref), PyRepr(rawval))
	cpSetMsg(e, starlark.String(msg), starlark.Tuple{option, section, rawval, ref}, "option", option, "section", section, "reference", ref)
	return nil
}

func cpInitInterpDepth(e *PyException, a []starlark.Value) error {
	option, section, rawval := a[0], a[1], a[2]
	msg := fmt.Sprintf("Recursion limit exceeded in value substitution: option %s in section %s contains an interpolation key which cannot be substituted in %d steps. Raw value: %s",
		PyRepr(option), PyRepr(section), cpMaxDepth, PyRepr(rawval))
	cpSetMsg(e, starlark.String(msg), starlark.Tuple{option, section, rawval}, "option", option, "section", section)
	return nil
}

func cpInitParsing(e *PyException, a []starlark.Value) error {
	source, filename := a[0], a[1]
	hasSource, hasFilename := bool(source.Truth()), bool(filename.Truth())
	switch {
	case hasFilename && hasSource:
		return pyErrorf(excValueError, "Cannot specify both `filename' and `source'. Use `source'.")
	case !hasFilename && !hasSource:
		return pyErrorf(excValueError, "Required argument `source' not given.")
	case hasFilename:
		source = filename
	}
	cpSetMsg(e, starlark.String("Source contains parsing errors: "+PyRepr(source)), starlark.Tuple{source},
		"source", source, "errors", starlark.NewList(nil))
	return nil
}

func cpInitMissingSection(e *PyException, a []starlark.Value) error {
	filename, lineno, line := a[0], a[1], a[2]
	n, err := starlark.AsInt32(lineno)
	if err != nil {
		return pyErrorf(excTypeError, "%%d format: a real number is required, not %s", pyTypeName(lineno))
	}
	msg := fmt.Sprintf("File contains no section headers.\nfile: %s, line: %d\n%s", PyRepr(filename), n, PyRepr(line))
	cpSetMsg(e, starlark.String(msg), starlark.Tuple{filename, lineno, line}, "source", filename, "lineno", lineno, "line", line)
	return nil
}

// cpRaise is raise typ(*args), as the module raises its errors.
func cpRaise(typ *excType, args ...starlark.Value) error {
	e := &PyException{Typ: typ}
	if err := typ.initOf()(e, args, nil); err != nil {
		return err
	}
	return &pyError{e}
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

func errInterp(typ *excType, option string, section starlark.Value, msg string) error {
	return cpRaise(typ, starlark.String(option), section, starlark.String(msg))
}

func errInterpMissing(option string, section, rawval starlark.Value, ref string) error {
	return cpRaise(excCPInterpMissing, starlark.String(option), section, rawval, starlark.String(ref))
}

func errInterpDepth(option string, section, rawval starlark.Value) error {
	return cpRaise(excCPInterpDepth, starlark.String(option), section, rawval)
}

// cpParsingAppend is ParsingError.append(lineno, repr(line)).
func cpParsingAppend(e *PyException, lineno int, line string) {
	rl := starlark.String(PyRepr(starlark.String(line)))
	_ = e.attrs["errors"].(*starlark.List).Append(starlark.Tuple{starlark.MakeInt(lineno), rl})
	e.text += fmt.Sprintf("\n\t[line %2d]: %s", lineno, string(rl))
	e.attrs["message"] = starlark.String(e.text)
}
