// Python exceptions: the class hierarchy, exception values, and the kind
// of every error a call can end with.

package pyrt

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"go.starlark.net/resolve"
	"go.starlark.net/starlark"
)

// excType is an exception class. Classes are shared by every REPL; they
// are immutable.
type ExcType struct {
	TypeName, Module string
	Base             *ExcType
	Also             []*ExcType // further bases (decimal.DivisionByZero is a ZeroDivisionError too)
	user             *UserClass // a class statement's exception class (pyclass.go)
	// init is a built-in class's own __init__ (configparser's classes),
	// run by the class's call and by super().__init__ in a subclass.
	Init func(e *PyException, args starlark.Tuple, kw []starlark.Tuple) error
	// messageRepr: repr(e) is e.message, for this class and those derived
	// from it (configparser.Error).
	MessageRepr bool
}

// reprIsMessage reports whether t or one of its bases has messageRepr.
func (t *ExcType) reprIsMessage() bool {
	for c := t; c != nil; c = c.Base {
		if c.MessageRepr {
			return true
		}
	}
	return false
}

// initOf returns the nearest built-in __init__ of t or its bases, nil for
// BaseException's.
func (t *ExcType) InitOf() func(*PyException, starlark.Tuple, []starlark.Tuple) error {
	for c := t; c != nil; c = c.Base {
		if c.Init != nil {
			return c.Init
		}
	}
	return nil
}

var (
	_ starlark.Callable    = (*ExcType)(nil)
	_ starlark.HasAttrs    = (*ExcType)(nil)
	_ starlark.HasSetField = (*ExcType)(nil)
)

func (t *ExcType) String() string        { return classRepr(t.Module, t.TypeName) }
func (t *ExcType) Type() string          { return "type" }
func (t *ExcType) Freeze()               {}
func (t *ExcType) Truth() starlark.Bool  { return true }
func (t *ExcType) Hash() (uint32, error) { return starlark.String(t.TypeName).Hash() }
func (t *ExcType) Name() string          { return t.TypeName }
func (t *ExcType) AttrNames() []string   { return []string{"__name__", "__qualname__"} }
func (t *ExcType) Attr(name string) (starlark.Value, error) {
	if v, ok := classNameAttr(t.Module, t.TypeName, name); ok {
		return v, nil
	}
	if v, _ := excClassLookup(t, name); v != nil {
		return classAttr(t, v), nil
	}
	return nil, nil
}

// SetField sets a class attribute of an exception class defined in the
// REPL; the built-in ones are immutable.
func (t *ExcType) SetField(name string, v starlark.Value) error {
	return setClassAttr(t.user, t.TypeName, name, v)
}

// userRoot returns the nearest user part of t or its bases.
func (t *ExcType) userRoot() *UserClass {
	for c := t; c != nil; c = c.Base {
		if c.user != nil {
			return c.user
		}
	}
	return nil
}

// isSubclass reports whether t is other or derives from it.
func (t *ExcType) IsSubclass(other *ExcType) bool {
	for c := t; c != nil; c = c.Base {
		if c == other {
			return true
		}
		for _, b := range c.Also {
			if b.IsSubclass(other) {
				return true
			}
		}
	}
	return false
}

// mro is t's method resolution order (C3 over base and also), without
// object.
func (t *ExcType) mro() []*ExcType {
	if len(t.Also) == 0 {
		var out []*ExcType
		for c := t; c != nil; c = c.Base {
			out = append(out, c)
		}
		return out
	}
	var seqs [][]*ExcType
	for _, b := range append([]*ExcType{t.Base}, t.Also...) {
		seqs = append(seqs, b.mro())
	}
	seqs = append(seqs, append([]*ExcType{t.Base}, t.Also...))
	out := []*ExcType{t}
	for {
		var next *ExcType
		for _, s := range seqs {
			if len(s) > 0 && !inTails(seqs, s[0]) {
				next = s[0]
				break
			}
		}
		if next == nil {
			return out // complete, unless the bases conflict (c3Conflict)
		}
		out = append(out, next)
		for i, s := range seqs {
			if len(s) > 0 && s[0] == next {
				seqs[i] = s[1:]
			}
		}
	}
}

// c3Conflict reports whether t's bases admit no consistent MRO.
func (t *ExcType) c3Conflict() bool {
	want := map[*ExcType]bool{t: true}
	for _, b := range append([]*ExcType{t.Base}, t.Also...) {
		for _, c := range b.mro() {
			want[c] = true
		}
	}
	return len(t.mro()) != len(want)
}

func inTails(seqs [][]*ExcType, c *ExcType) bool {
	for _, s := range seqs {
		for _, x := range s[min(1, len(s)):] {
			if x == c {
				return true
			}
		}
	}
	return false
}

func (t *ExcType) CallInternal(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	e := &PyException{Typ: t, Args: args}
	if init, _ := excClassLookup(t, "__init__"); init != nil {
		res, err := CallBound(thread, init, e, args, kw)
		if err != nil {
			return nil, err
		}
		if res != starlark.None {
			return nil, PyErrorf(ExcTypeError, "__init__() should return None, not '%s'", PyTypeName(res))
		}
		return e, nil
	}
	if init := t.InitOf(); init != nil {
		if err := init(e, args, kw); err != nil {
			return nil, err
		}
		return e, nil
	}
	for _, kv := range kw {
		if e.Attrs == nil {
			e.Attrs = starlark.StringDict{}
		}
		e.Attrs[string(kv[0].(starlark.String))] = kv[1]
	}
	if t.IsSubclass(ExcOSError) && len(args) >= 2 {
		e.setOSError(args)
	}
	return e, nil
}

func newExc(name string, base *ExcType) *ExcType { return &ExcType{TypeName: name, Base: base} }

var (
	excBase           = newExc("BaseException", nil)
	ExcSystemExit     = newExc("SystemExit", excBase)
	excKeyboard       = newExc("KeyboardInterrupt", excBase)
	ExcException      = newExc("Exception", excBase)
	ExcArithmetic     = newExc("ArithmeticError", ExcException)
	ExcZeroDivision   = newExc("ZeroDivisionError", ExcArithmetic)
	ExcOverflow       = newExc("OverflowError", ExcArithmetic)
	ExcAssertion      = newExc("AssertionError", ExcException)
	ExcAttribute      = newExc("AttributeError", ExcException)
	ExcEOF            = newExc("EOFError", ExcException)
	excImport         = newExc("ImportError", ExcException)
	excModuleNotFound = newExc("ModuleNotFoundError", excImport)
	excLookup         = newExc("LookupError", ExcException)
	ExcIndexError     = newExc("IndexError", excLookup)
	ExcKeyError       = newExc("KeyError", excLookup)
	excNameError      = newExc("NameError", ExcException)
	excUnboundLocal   = newExc("UnboundLocalError", excNameError)
	ExcOSError        = newExc("OSError", ExcException)
	ExcFileNotFound   = newExc("FileNotFoundError", ExcOSError)
	ExcFileExists     = newExc("FileExistsError", ExcOSError)
	excPermission     = newExc("PermissionError", ExcOSError)
	excIsADirectory   = newExc("IsADirectoryError", ExcOSError)
	ExcNotADirectory  = newExc("NotADirectoryError", ExcOSError)
	excTimeout        = newExc("TimeoutError", ExcOSError)
	excConnection     = newExc("ConnectionError", ExcOSError)
	excBrokenPipe     = newExc("BrokenPipeError", excConnection)
	excConnRefused    = newExc("ConnectionRefusedError", excConnection)
	excConnReset      = newExc("ConnectionResetError", excConnection)
	excConnAborted    = newExc("ConnectionAbortedError", excConnection)
	excProcessLookup  = newExc("ProcessLookupError", ExcOSError)
	excInterrupted    = newExc("InterruptedError", ExcOSError)
	ExcMemory         = newExc("MemoryError", ExcException)
	ExcSyntax         = newExc("SyntaxError", ExcException)
	ExcWarning        = newExc("Warning", ExcException)
	ExcUserWarning    = newExc("UserWarning", ExcWarning)
	ExcDeprecation    = newExc("DeprecationWarning", ExcWarning)
	ExcRuntimeWarning = newExc("RuntimeWarning", ExcWarning)
	excUnsupportedOp  = &ExcType{TypeName: "UnsupportedOperation", Module: "io", Base: ExcOSError}
	ExcRuntime        = newExc("RuntimeError", ExcException)
	ExcRecursion      = newExc("RecursionError", ExcRuntime)
	ExcNotImplemented = newExc("NotImplementedError", ExcRuntime)
	excStopIteration  = newExc("StopIteration", ExcException)
	excGeneratorExit  = newExc("GeneratorExit", excBase)
	ExcTypeError      = newExc("TypeError", ExcException)
	ExcValueError     = newExc("ValueError", ExcException)
	excUnicode        = newExc("UnicodeError", ExcValueError)
	excUnicodeDecode  = newExc("UnicodeDecodeError", excUnicode)
	excUnicodeEncode  = newExc("UnicodeEncodeError", excUnicode)
	ExcJSONDecode     = &ExcType{TypeName: "JSONDecodeError", Module: "json.decoder", Base: ExcValueError}
	ExcSubprocess     = &ExcType{TypeName: "SubprocessError", Module: "subprocess", Base: ExcException}
	ExcCalledProcess  = &ExcType{TypeName: "CalledProcessError", Module: "subprocess", Base: ExcSubprocess}
	ExcTimeoutExpired = &ExcType{TypeName: "TimeoutExpired", Module: "subprocess", Base: ExcSubprocess}
	ExcCSV            = &ExcType{TypeName: "Error", Module: "csv", Base: ExcException}
	builtinExceptions = []*ExcType{excBase, ExcSystemExit, excKeyboard, ExcException, ExcArithmetic, ExcZeroDivision, ExcOverflow, ExcAssertion, ExcAttribute, ExcEOF, excImport, excModuleNotFound, excLookup, ExcIndexError, ExcKeyError, excNameError, excUnboundLocal, ExcOSError, ExcFileNotFound, ExcFileExists, excPermission, excIsADirectory, ExcNotADirectory, excTimeout, excConnection, excBrokenPipe, excConnRefused, excConnReset, excConnAborted, excProcessLookup, excInterrupted, ExcMemory, ExcSyntax, ExcWarning, ExcUserWarning, ExcDeprecation, ExcRuntimeWarning, ExcRuntime, ExcRecursion, ExcNotImplemented, excStopIteration, excGeneratorExit, ExcTypeError, ExcValueError, excUnicode, excUnicodeDecode, excUnicodeEncode}
	exceptionAliases  = map[string]*ExcType{"IOError": ExcOSError, "EnvironmentError": ExcOSError}
)

// pyException is an exception value: what except binds and raise raises.
type PyException struct {
	Typ   *ExcType
	Args  starlark.Tuple
	Text  string // str(e) when set; otherwise computed from args
	Attrs starlark.StringDict
	Cause starlark.Value
	// context is the exception being handled when this one was raised
	// (__context__); suppress is __suppress_context__ (raise ... from).
	Context  *PyException
	Suppress bool
}

var (
	_ starlark.HasAttrs    = (*PyException)(nil)
	_ starlark.HasSetField = (*PyException)(nil)
)

func (e *PyException) String() string        { return e.Typ.TypeName + PyRepr(e.Args) }
func (e *PyException) Type() string          { return e.Typ.TypeName }
func (e *PyException) Freeze()               {}
func (e *PyException) Truth() starlark.Bool  { return true }
func (e *PyException) Hash() (uint32, error) { return starlark.String(e.Typ.TypeName).Hash() }

func (e *PyException) ReprPy() string {
	if s, ok := e.textMethod("__repr__"); ok {
		return s
	}
	if m, ok := e.Attrs["message"].(starlark.String); ok && e.Typ.reprIsMessage() {
		return string(m) // configparser.Error's __repr__ is its message
	}
	if len(e.Args) == 1 {
		return e.Typ.TypeName + "(" + PyRepr(e.Args[0]) + ")"
	}
	return e.Typ.TypeName + PyRepr(e.Args)
}

// str is str(e).
func (e *PyException) Str() string {
	if e.Text != "" {
		return e.Text
	}
	if s, ok := e.textMethod("__str__"); ok {
		return s
	}
	return e.defaultStr()
}

// defaultStr is BaseException's str(e).
func (e *PyException) defaultStr() string {
	if e.Text != "" {
		return e.Text
	}
	switch len(e.Args) {
	case 0:
		return ""
	case 1:
		if e.Typ.IsSubclass(ExcKeyError) {
			return PyRepr(e.Args[0])
		}
		return PyStr(e.Args[0])
	}
	return PyRepr(e.Args)
}

func (e *PyException) AttrNames() []string {
	names := []string{"__cause__", "__class__", "__context__", "__suppress_context__", "__traceback__", "args"}
	for k := range e.Attrs {
		names = append(names, k)
	}
	return names
}

func (e *PyException) Attr(name string) (starlark.Value, error) {
	switch name {
	case "args":
		return e.Args, nil
	case "__class__":
		return e.Typ, nil
	case "__cause__":
		if e.Cause == nil {
			return starlark.None, nil
		}
		return e.Cause, nil
	case "__context__":
		if e.Context == nil {
			return starlark.None, nil
		}
		return e.Context, nil
	case "__suppress_context__":
		return starlark.Bool(e.Suppress), nil
	case "__traceback__":
		return starlark.None, nil // the REPL keeps no frames
	}
	if v, ok := e.Attrs[name]; ok {
		return v, nil
	}
	if v, _ := excClassLookup(e.Typ, name); v != nil {
		if u := e.Typ.userRoot(); u != nil {
			return bindAttr(u.R.Thread, v, e)
		}
	}
	if name == "code" && e.Typ.IsSubclass(ExcSystemExit) {
		return e.exitCode(), nil
	}
	if name == "value" && e.Typ.IsSubclass(excStopIteration) {
		if len(e.Args) > 0 {
			return e.Args[0], nil
		}
		return starlark.None, nil
	}
	if e.Typ.IsSubclass(ExcOSError) {
		switch name {
		case "errno", "strerror", "filename", "filename2":
			return starlark.None, nil
		}
	}
	return nil, nil
}

// SetField sets an attribute (self.field = ... in an exception class's
// __init__).
func (e *PyException) SetField(name string, v starlark.Value) error {
	if name == "args" {
		t, err := ListOf(v)
		if err != nil {
			return err
		}
		e.Args, e.Text = starlark.Tuple(t), ""
		return nil
	}
	if e.Attrs == nil {
		e.Attrs = starlark.StringDict{}
	}
	e.Attrs[name] = v
	return nil
}

// textMethod calls __str__ or __repr__ when an exception class defined in
// the REPL has one.
func (e *PyException) textMethod(name string) (string, bool) {
	m, _ := excClassLookup(e.Typ, name)
	u := e.Typ.userRoot()
	if m == nil || u == nil {
		return "", false
	}
	v, err := CallBound(u.R.Thread, m, e, nil, nil)
	if err == nil {
		if s, isStr := v.(starlark.String); isStr {
			return string(s), true
		}
		err = PyErrorf(ExcTypeError, "%s returned non-string (type %s)", name, PyTypeName(v))
	}
	u.R.noteReprErr(err)
	return "", true
}

// setOSError fills errno, strerror and filename from OSError(errno,
// strerror[, filename]).
func (e *PyException) setOSError(args starlark.Tuple) {
	if e.Attrs == nil {
		e.Attrs = starlark.StringDict{}
	}
	e.Attrs["errno"], e.Attrs["strerror"] = args[0], args[1]
	e.Text = fmt.Sprintf("[Errno %s] %s", PyStr(args[0]), PyStr(args[1]))
	if len(args) >= 3 {
		e.Attrs["filename"] = args[2]
		e.Text += ": " + PyRepr(args[2])
	}
	if len(args) >= 5 && args[4] != starlark.None {
		e.Attrs["filename2"] = args[4] // OSError(errno, strerror, filename, winerror, filename2)
		e.Text += " -> " + PyRepr(args[4])
	}
}

// pyError is an error carrying an exception.
type PyError struct{ Exc *PyException }

func (e *PyError) Error() string {
	name := e.Exc.Typ.TypeName
	if m := e.Exc.Typ.Module; m != "" && m != "__main__" && m != "builtins" {
		name = m + "." + name // as Python's traceback names re.error
	}
	if s := e.Exc.Str(); s != "" {
		return name + ": " + s
	}
	return name
}

// pyErrorf returns an error raising typ with a formatted message.
func PyErrorf(typ *ExcType, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	return &PyError{&PyException{Typ: typ, Args: starlark.Tuple{starlark.String(msg)}}}
}

// keyError is KeyError(key).
func KeyError(key starlark.Value) error {
	return &PyError{&PyException{Typ: ExcKeyError, Args: starlark.Tuple{key}}}
}

// osErrors maps a jail kind to Python's class, errno and strerror.
var osErrors = map[fsKind]struct {
	typ      *ExcType
	errno    int
	strerror string
}{
	fsNotFound:   {ExcFileNotFound, 2, "No such file or directory"},
	fsExists:     {ExcFileExists, 17, "File exists"},
	fsPermission: {excPermission, 13, "Permission denied"},
	fsEscape:     {excPermission, 13, "Permission denied"},
	fsNotDir:     {ExcNotADirectory, 20, "Not a directory"},
	fsIsDir:      {excIsADirectory, 21, "Is a directory"},
}

// notEmptyReason is the reason the roots give a directory that could not
// be removed for what it holds (jail and repl's mounts; their kind is
// FsOther): Python's OSError with errno 39.
const notEmptyReason = "the directory is not empty"

var notEmptyError = struct {
	typ      *ExcType
	errno    int
	strerror string
}{ExcOSError, 39, "Directory not empty"}

// osError converts a file error into its exception. str(e) reads like
// Python's ("[Errno 2] No such file or directory: 'notes.txt'", the path
// relative to the working directory when below it); a denial adds why.
func (r *Interp) osError(fe *FsError) *PyException { return r.osErrorAs(fe, r.displayPath(fe.Vpath)) }

// osErrorAs is osError with the file named as given.
func (r *Interp) osErrorAs(fe *FsError, given string) *PyException {
	info, ok := osErrors[fe.Kind]
	if fe.Kind == FsOther && fe.Reason == notEmptyReason {
		info, ok = notEmptyError, true
	}
	if !ok {
		return &PyException{Typ: ExcOSError, Args: starlark.Tuple{starlark.String(fe.Error())}}
	}
	name := starlark.String(given)
	e := &PyException{Typ: info.typ, Args: starlark.Tuple{starlark.MakeInt(info.errno), starlark.String(info.strerror)}}
	e.setOSError(starlark.Tuple{starlark.MakeInt(info.errno), starlark.String(info.strerror), name})
	if fe.Kind == fsEscape || fe.Kind == fsPermission {
		if fe.Reason != "" {
			e.Text += " (" + fe.Kind.String() + ": " + fe.Reason + ")"
		}
	}
	return e
}

// displayPath shows a virtual path relative to the working directory when
// it is below it, as the user most likely wrote it.
func (r *Interp) displayPath(v string) string {
	if rest, ok := strings.CutPrefix(v, r.Cwd+"/"); ok {
		return rest
	}
	if v == r.Cwd && v != "" {
		return "." // Path('') and Path('.') are the working directory
	}
	return v
}

// exceptionOf returns the exception an error raises: its own for errors
// the REPL's Python builtins return, the matching OSError for file errors,
// and for Starlark's own errors the class their message names.
func (r *Interp) ExceptionOf(err error) *PyException {
	var pe *PyError
	if errors.As(err, &pe) {
		return pe.Exc
	}
	var gp *GivenPathError
	if errors.As(err, &gp) {
		e := r.osErrorAs(gp.FsError, gp.Given)
		if gp.Given2 != "" && e.Attrs != nil && e.Attrs["filename"] != nil {
			e.setOSError(starlark.Tuple{e.Attrs["errno"], e.Attrs["strerror"], e.Attrs["filename"], starlark.None, starlark.String(gp.Given2)})
		}
		return e
	}
	var fe *FsError
	if errors.As(err, &fe) {
		return r.osError(fe)
	}
	var rl resolve.ErrorList
	if errors.As(err, &rl) && len(rl) > 0 {
		err = errors.New(rl[0].Msg)
	}
	text := ErrorMessage(err)
	if m := keyRule.FindStringSubmatch(text); m != nil {
		if k := m[1]; len(k) >= 2 && k[0] == '"' && k[len(k)-1] == '"' && !strings.ContainsAny(k[1:len(k)-1], `"\\`) {
			return &PyException{Typ: ExcKeyError, Args: starlark.Tuple{starlark.String(k[1 : len(k)-1])}}
		}
		if n, err := strconv.Atoi(m[1]); err == nil {
			return &PyException{Typ: ExcKeyError, Args: starlark.Tuple{starlark.MakeInt(n)}}
		}
	}
	typ, msg := classifyMessage(text)
	return &PyException{Typ: typ, Args: starlark.Tuple{starlark.String(msg)}}
}

func Plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

var RunKinds = map[string]*ExcType{"PermissionError": excPermission, "FileNotFoundError": ExcFileNotFound, "NotADirectoryError": ExcNotADirectory}

// exitCode is a SystemExit's code: None without arguments, the argument
// when there is one, else the arguments' tuple (CPython's rule).
func (e *PyException) exitCode() starlark.Value {
	switch len(e.Args) {
	case 0:
		return starlark.None
	case 1:
		return e.Args[0]
	}
	return e.Args
}

// QuietExit reports whether err is a SystemExit whose code is None or 0
// (False too, as 0 == False): a script ends silently there, as
// sys.exit(main()) ends it, so the call shows what it printed and no
// error. Another code is shown as the uncaught exception it is
// ("SystemExit: 3"), as pyprograms' CPython runner records it.
func QuietExit(err error) bool {
	var pe *PyError
	if !errors.As(err, &pe) || !pe.Exc.Typ.IsSubclass(ExcSystemExit) {
		return false
	}
	switch c := pe.Exc.exitCode().(type) {
	case starlark.NoneType:
		return true
	case starlark.Bool:
		return !bool(c)
	case starlark.Int:
		return c.Sign() == 0
	}
	return false
}
