// Python exceptions: the class hierarchy, exception values, and the kind
// of every error a call can end with.

package pyrt

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"go.starlark.net/resolve"
	"go.starlark.net/starlark"
)

// excType is an exception class. Classes are shared by every REPL; they
// are immutable.
type excType struct {
	name, module string
	base         *excType
	also         []*excType // further bases (decimal.DivisionByZero is a ZeroDivisionError too)
	user         *userClass // a class statement's exception class (pyclass.go)
	// init is a built-in class's own __init__ (configparser's classes),
	// run by the class's call and by super().__init__ in a subclass.
	init func(e *PyException, args starlark.Tuple, kw []starlark.Tuple) error
	// messageRepr: repr(e) is e.message, for this class and those derived
	// from it (configparser.Error).
	messageRepr bool
}

// reprIsMessage reports whether t or one of its bases has messageRepr.
func (t *excType) reprIsMessage() bool {
	for c := t; c != nil; c = c.base {
		if c.messageRepr {
			return true
		}
	}
	return false
}

// initOf returns the nearest built-in __init__ of t or its bases, nil for
// BaseException's.
func (t *excType) initOf() func(*PyException, starlark.Tuple, []starlark.Tuple) error {
	for c := t; c != nil; c = c.base {
		if c.init != nil {
			return c.init
		}
	}
	return nil
}

var (
	_ starlark.Callable    = (*excType)(nil)
	_ starlark.HasAttrs    = (*excType)(nil)
	_ starlark.HasSetField = (*excType)(nil)
)

func (t *excType) String() string        { return classRepr(t.module, t.name) }
func (t *excType) Type() string          { return "type" }
func (t *excType) Freeze()               {}
func (t *excType) Truth() starlark.Bool  { return true }
func (t *excType) Hash() (uint32, error) { return starlark.String(t.name).Hash() }
func (t *excType) Name() string          { return t.name }
func (t *excType) AttrNames() []string   { return []string{"__name__", "__qualname__"} }
func (t *excType) Attr(name string) (starlark.Value, error) {
	if v, ok := classNameAttr(t.module, t.name, name); ok {
		return v, nil
	}
	if v, _ := excClassLookup(t, name); v != nil {
		return classAttr(t, v), nil
	}
	return nil, nil
}

// SetField sets a class attribute of an exception class defined in the
// REPL; the built-in ones are immutable.
func (t *excType) SetField(name string, v starlark.Value) error {
	return setClassAttr(t.user, t.name, name, v)
}

// userRoot returns the nearest user part of t or its bases.
func (t *excType) userRoot() *userClass {
	for c := t; c != nil; c = c.base {
		if c.user != nil {
			return c.user
		}
	}
	return nil
}

// isSubclass reports whether t is other or derives from it.
func (t *excType) isSubclass(other *excType) bool {
	for c := t; c != nil; c = c.base {
		if c == other {
			return true
		}
		for _, b := range c.also {
			if b.isSubclass(other) {
				return true
			}
		}
	}
	return false
}

// mro is t's method resolution order (C3 over base and also), without
// object.
func (t *excType) mro() []*excType {
	if len(t.also) == 0 {
		var out []*excType
		for c := t; c != nil; c = c.base {
			out = append(out, c)
		}
		return out
	}
	var seqs [][]*excType
	for _, b := range append([]*excType{t.base}, t.also...) {
		seqs = append(seqs, b.mro())
	}
	seqs = append(seqs, append([]*excType{t.base}, t.also...))
	out := []*excType{t}
	for {
		var next *excType
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
func (t *excType) c3Conflict() bool {
	want := map[*excType]bool{t: true}
	for _, b := range append([]*excType{t.base}, t.also...) {
		for _, c := range b.mro() {
			want[c] = true
		}
	}
	return len(t.mro()) != len(want)
}

func inTails(seqs [][]*excType, c *excType) bool {
	for _, s := range seqs {
		for _, x := range s[min(1, len(s)):] {
			if x == c {
				return true
			}
		}
	}
	return false
}

func (t *excType) CallInternal(thread *starlark.Thread, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	e := &PyException{Typ: t, args: args}
	if init, _ := excClassLookup(t, "__init__"); init != nil {
		res, err := callBound(thread, init, e, args, kw)
		if err != nil {
			return nil, err
		}
		if res != starlark.None {
			return nil, pyErrorf(excTypeError, "__init__() should return None, not '%s'", pyTypeName(res))
		}
		return e, nil
	}
	if init := t.initOf(); init != nil {
		if err := init(e, args, kw); err != nil {
			return nil, err
		}
		return e, nil
	}
	for _, kv := range kw {
		if e.attrs == nil {
			e.attrs = starlark.StringDict{}
		}
		e.attrs[string(kv[0].(starlark.String))] = kv[1]
	}
	if t.isSubclass(excOSError) && len(args) >= 2 {
		e.setOSError(args)
	}
	return e, nil
}

func newExc(name string, base *excType) *excType { return &excType{name: name, base: base} }

var (
	excBase           = newExc("BaseException", nil)
	excSystemExit     = newExc("SystemExit", excBase)
	excKeyboard       = newExc("KeyboardInterrupt", excBase)
	excException      = newExc("Exception", excBase)
	excArithmetic     = newExc("ArithmeticError", excException)
	excZeroDivision   = newExc("ZeroDivisionError", excArithmetic)
	excOverflow       = newExc("OverflowError", excArithmetic)
	excAssertion      = newExc("AssertionError", excException)
	ExcAttribute      = newExc("AttributeError", excException)
	excEOF            = newExc("EOFError", excException)
	excImport         = newExc("ImportError", excException)
	excModuleNotFound = newExc("ModuleNotFoundError", excImport)
	excLookup         = newExc("LookupError", excException)
	excIndexError     = newExc("IndexError", excLookup)
	excKeyError       = newExc("KeyError", excLookup)
	excNameError      = newExc("NameError", excException)
	excUnboundLocal   = newExc("UnboundLocalError", excNameError)
	excOSError        = newExc("OSError", excException)
	excFileNotFound   = newExc("FileNotFoundError", excOSError)
	excFileExists     = newExc("FileExistsError", excOSError)
	excPermission     = newExc("PermissionError", excOSError)
	excIsADirectory   = newExc("IsADirectoryError", excOSError)
	excNotADirectory  = newExc("NotADirectoryError", excOSError)
	excTimeout        = newExc("TimeoutError", excOSError)
	excConnection     = newExc("ConnectionError", excOSError)
	excBrokenPipe     = newExc("BrokenPipeError", excConnection)
	excConnRefused    = newExc("ConnectionRefusedError", excConnection)
	excConnReset      = newExc("ConnectionResetError", excConnection)
	excConnAborted    = newExc("ConnectionAbortedError", excConnection)
	excProcessLookup  = newExc("ProcessLookupError", excOSError)
	excInterrupted    = newExc("InterruptedError", excOSError)
	excMemory         = newExc("MemoryError", excException)
	excSyntax         = newExc("SyntaxError", excException)
	excWarning        = newExc("Warning", excException)
	excUserWarning    = newExc("UserWarning", excWarning)
	excDeprecation    = newExc("DeprecationWarning", excWarning)
	excRuntimeWarning = newExc("RuntimeWarning", excWarning)
	excUnsupportedOp  = &excType{name: "UnsupportedOperation", module: "io", base: excOSError}
	excRuntime        = newExc("RuntimeError", excException)
	excRecursion      = newExc("RecursionError", excRuntime)
	excNotImplemented = newExc("NotImplementedError", excRuntime)
	excStopIteration  = newExc("StopIteration", excException)
	excGeneratorExit  = newExc("GeneratorExit", excBase)
	excTypeError      = newExc("TypeError", excException)
	excValueError     = newExc("ValueError", excException)
	excUnicode        = newExc("UnicodeError", excValueError)
	excUnicodeDecode  = newExc("UnicodeDecodeError", excUnicode)
	excUnicodeEncode  = newExc("UnicodeEncodeError", excUnicode)
	excJSONDecode     = &excType{name: "JSONDecodeError", module: "json.decoder", base: excValueError}
	excSubprocess     = &excType{name: "SubprocessError", module: "subprocess", base: excException}
	excCalledProcess  = &excType{name: "CalledProcessError", module: "subprocess", base: excSubprocess}
	excTimeoutExpired = &excType{name: "TimeoutExpired", module: "subprocess", base: excSubprocess}
	excCSV            = &excType{name: "Error", module: "csv", base: excException}
	builtinExceptions = []*excType{excBase, excSystemExit, excKeyboard, excException, excArithmetic, excZeroDivision, excOverflow, excAssertion, ExcAttribute, excEOF, excImport, excModuleNotFound, excLookup, excIndexError, excKeyError, excNameError, excUnboundLocal, excOSError, excFileNotFound, excFileExists, excPermission, excIsADirectory, excNotADirectory, excTimeout, excConnection, excBrokenPipe, excConnRefused, excConnReset, excConnAborted, excProcessLookup, excInterrupted, excMemory, excSyntax, excWarning, excUserWarning, excDeprecation, excRuntimeWarning, excRuntime, excRecursion, excNotImplemented, excStopIteration, excGeneratorExit, excTypeError, excValueError, excUnicode, excUnicodeDecode, excUnicodeEncode}
	exceptionAliases  = map[string]*excType{"IOError": excOSError, "EnvironmentError": excOSError}
)

// pyException is an exception value: what except binds and raise raises.
type PyException struct {
	Typ   *excType
	args  starlark.Tuple
	text  string // str(e) when set; otherwise computed from args
	attrs starlark.StringDict
	cause starlark.Value
	// context is the exception being handled when this one was raised
	// (__context__); suppress is __suppress_context__ (raise ... from).
	context  *PyException
	suppress bool
}

var (
	_ starlark.HasAttrs    = (*PyException)(nil)
	_ starlark.HasSetField = (*PyException)(nil)
)

func (e *PyException) String() string        { return e.Typ.name + PyRepr(e.args) }
func (e *PyException) Type() string          { return e.Typ.name }
func (e *PyException) Freeze()               {}
func (e *PyException) Truth() starlark.Bool  { return true }
func (e *PyException) Hash() (uint32, error) { return starlark.String(e.Typ.name).Hash() }

func (e *PyException) reprPy() string {
	if s, ok := e.textMethod("__repr__"); ok {
		return s
	}
	if m, ok := e.attrs["message"].(starlark.String); ok && e.Typ.reprIsMessage() {
		return string(m) // configparser.Error's __repr__ is its message
	}
	if len(e.args) == 1 {
		return e.Typ.name + "(" + PyRepr(e.args[0]) + ")"
	}
	return e.Typ.name + PyRepr(e.args)
}

// str is str(e).
func (e *PyException) Str() string {
	if e.text != "" {
		return e.text
	}
	if s, ok := e.textMethod("__str__"); ok {
		return s
	}
	return e.defaultStr()
}

// defaultStr is BaseException's str(e).
func (e *PyException) defaultStr() string {
	if e.text != "" {
		return e.text
	}
	switch len(e.args) {
	case 0:
		return ""
	case 1:
		if e.Typ.isSubclass(excKeyError) {
			return PyRepr(e.args[0])
		}
		return pyStr(e.args[0])
	}
	return PyRepr(e.args)
}

func (e *PyException) AttrNames() []string {
	names := []string{"__cause__", "__class__", "__context__", "__suppress_context__", "__traceback__", "args"}
	for k := range e.attrs {
		names = append(names, k)
	}
	return names
}

func (e *PyException) Attr(name string) (starlark.Value, error) {
	switch name {
	case "args":
		return e.args, nil
	case "__class__":
		return e.Typ, nil
	case "__cause__":
		if e.cause == nil {
			return starlark.None, nil
		}
		return e.cause, nil
	case "__context__":
		if e.context == nil {
			return starlark.None, nil
		}
		return e.context, nil
	case "__suppress_context__":
		return starlark.Bool(e.suppress), nil
	case "__traceback__":
		return starlark.None, nil // the REPL keeps no frames
	}
	if v, ok := e.attrs[name]; ok {
		return v, nil
	}
	if v, _ := excClassLookup(e.Typ, name); v != nil {
		if u := e.Typ.userRoot(); u != nil {
			return bindAttr(u.r.Thread, v, e)
		}
	}
	if name == "code" && e.Typ.isSubclass(excSystemExit) {
		return e.exitCode(), nil
	}
	if name == "value" && e.Typ.isSubclass(excStopIteration) {
		if len(e.args) > 0 {
			return e.args[0], nil
		}
		return starlark.None, nil
	}
	if e.Typ.isSubclass(excOSError) {
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
		t, err := listOf(v)
		if err != nil {
			return err
		}
		e.args, e.text = starlark.Tuple(t), ""
		return nil
	}
	if e.attrs == nil {
		e.attrs = starlark.StringDict{}
	}
	e.attrs[name] = v
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
	v, err := callBound(u.r.Thread, m, e, nil, nil)
	if err == nil {
		if s, isStr := v.(starlark.String); isStr {
			return string(s), true
		}
		err = pyErrorf(excTypeError, "%s returned non-string (type %s)", name, pyTypeName(v))
	}
	u.r.noteReprErr(err)
	return "", true
}

// setOSError fills errno, strerror and filename from OSError(errno,
// strerror[, filename]).
func (e *PyException) setOSError(args starlark.Tuple) {
	if e.attrs == nil {
		e.attrs = starlark.StringDict{}
	}
	e.attrs["errno"], e.attrs["strerror"] = args[0], args[1]
	e.text = fmt.Sprintf("[Errno %s] %s", pyStr(args[0]), pyStr(args[1]))
	if len(args) >= 3 {
		e.attrs["filename"] = args[2]
		e.text += ": " + PyRepr(args[2])
	}
}

// pyError is an error carrying an exception.
type pyError struct{ exc *PyException }

func (e *pyError) Error() string {
	name := e.exc.Typ.name
	if m := e.exc.Typ.module; m != "" && m != "__main__" && m != "builtins" {
		name = m + "." + name // as Python's traceback names re.error
	}
	if s := e.exc.Str(); s != "" {
		return name + ": " + s
	}
	return name
}

// pyErrorf returns an error raising typ with a formatted message.
func pyErrorf(typ *excType, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	return &pyError{&PyException{Typ: typ, args: starlark.Tuple{starlark.String(msg)}}}
}

// keyError is KeyError(key).
func keyError(key starlark.Value) error {
	return &pyError{&PyException{Typ: excKeyError, args: starlark.Tuple{key}}}
}

// osErrors maps a jail kind to Python's class, errno and strerror.
var osErrors = map[fsKind]struct {
	typ      *excType
	errno    int
	strerror string
}{
	fsNotFound:   {excFileNotFound, 2, "No such file or directory"},
	fsExists:     {excFileExists, 17, "File exists"},
	fsPermission: {excPermission, 13, "Permission denied"},
	fsEscape:     {excPermission, 13, "Permission denied"},
	fsNotDir:     {excNotADirectory, 20, "Not a directory"},
	fsIsDir:      {excIsADirectory, 21, "Is a directory"},
}

// notEmptyReason is the reason the roots give a directory that could not
// be removed for what it holds (jail and repl's mounts; their kind is
// FsOther): Python's OSError with errno 39.
const notEmptyReason = "the directory is not empty"

var notEmptyError = struct {
	typ      *excType
	errno    int
	strerror string
}{excOSError, 39, "Directory not empty"}

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
		return &PyException{Typ: excOSError, args: starlark.Tuple{starlark.String(fe.Error())}}
	}
	name := starlark.String(given)
	e := &PyException{Typ: info.typ, args: starlark.Tuple{starlark.MakeInt(info.errno), starlark.String(info.strerror)}}
	e.setOSError(starlark.Tuple{starlark.MakeInt(info.errno), starlark.String(info.strerror), name})
	if fe.Kind == fsEscape || fe.Kind == fsPermission {
		if fe.Reason != "" {
			e.text += " (" + fe.Kind.String() + ": " + fe.Reason + ")"
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
	return v
}

// exceptionOf returns the exception an error raises: its own for errors
// the REPL's Python builtins return, the matching OSError for file errors,
// and for Starlark's own errors the class their message names.
func (r *Interp) ExceptionOf(err error) *PyException {
	var pe *pyError
	if errors.As(err, &pe) {
		return pe.exc
	}
	var gp *givenPathError
	if errors.As(err, &gp) {
		return r.osErrorAs(gp.FsError, gp.given)
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
			return &PyException{Typ: excKeyError, args: starlark.Tuple{starlark.String(k[1 : len(k)-1])}}
		}
		if n, err := strconv.Atoi(m[1]); err == nil {
			return &PyException{Typ: excKeyError, args: starlark.Tuple{starlark.MakeInt(n)}}
		}
	}
	typ, msg := classifyMessage(text)
	return &PyException{Typ: typ, args: starlark.Tuple{starlark.String(msg)}}
}

// keyRule reads Starlark's missing-key message, to give KeyError its key.
var keyRule = regexp.MustCompile(`^key (.+) not in \w+$`)

type msgRule struct {
	re  *regexp.Regexp
	typ *excType
	fix func(m []string) string // Python's message, or nil to keep the text
}

func rule(re string, typ *excType, fix func([]string) string) msgRule {
	return msgRule{regexp.MustCompile(re), typ, fix}
}

// starlarkTypeNames maps Starlark's type names to Python's.
var starlarkTypeNames = map[string]string{"string": "str", "NoneType": "NoneType", "builtin_function_or_method": "builtin_function_or_method", "Path": "PosixPath"}

func pyTypeOf(starlarkName string) string {
	if n, ok := starlarkTypeNames[starlarkName]; ok {
		return n
	}
	return starlarkName
}

var msgRules = []msgRule{
	rule(`^(?:\w+: )?run: (PermissionError|FileNotFoundError|NotADirectoryError): (.*)$`, nil, nil),
	rule(`^fail: (.*)$`, excException, func(m []string) string { return m[1] }),
	rule(`^chr: Unicode code point .* out of range`, excValueError, func([]string) string { return "chr() arg not in range(0x110000)" }),
	rule(`^pop: empty set$`, excKeyError, func([]string) string { return "pop from an empty set" }),
	rule(`^function (\S+) missing (\d+) arguments? \((.*)\)$`, excTypeError, func(m []string) string {
		names := strings.Split(m[3], ", ")
		for i, n := range names {
			names[i] = "'" + n + "'"
		}
		list := strings.Join(names, ", ")
		if len(names) > 1 {
			list = strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
		}
		return fmt.Sprintf("%s() missing %s required positional argument%s: %s", funcName(m[1]), m[2], plural(len(names)), list)
	}),
	rule(`^function (\S+) accepts (?:at most )?(\d+) positional arguments? \((\d+) given\)$`, excTypeError, func(m []string) string {
		n, _ := strconv.Atoi(m[2])
		given, _ := strconv.Atoi(m[3])
		return fmt.Sprintf("%s() takes %d positional argument%s but %d %s given", funcName(m[1]), n, plural(n), given, map[bool]string{true: "was", false: "were"}[given == 1])
	}),
	rule(`^function (\S+) accepts no arguments \((\d+) given\)$`, excTypeError, func(m []string) string {
		return fmt.Sprintf("%s() takes 0 positional arguments but %s %s given", funcName(m[1]), m[2], map[bool]string{true: "was", false: "were"}[m[2] == "1"])
	}),
	rule(`^function (\S+) got an unexpected keyword argument (\S+)$`, excTypeError, func(m []string) string {
		return fmt.Sprintf("%s() got an unexpected keyword argument '%s'", funcName(m[1]), m[2])
	}),
	rule(`^function (\S+) got multiple values for parameter (\S+)$`, excTypeError, func(m []string) string {
		return fmt.Sprintf("%s() got multiple values for argument '%s'", funcName(m[1]), m[2])
	}),
	rule(`key (.+) not in \w+`, excKeyError, func(m []string) string { return pyReprFromStarlark(m[1]) }),
	rule(`missing key`, excKeyError, nil),
	rule(`pop from empty|empty list`, excIndexError, func([]string) string { return "pop from empty list" }),
	// Starlark's own x[i] = v (reads of x[i] are the runtime's, with Python's words)
	rule(`^list index -?\d+ out of range \[-?\d+:-?\d+\]$`, excIndexError, func([]string) string { return "list assignment index out of range" }),
	rule(`^pop: list index -?\d+ out of range`, excIndexError, func([]string) string { return "pop index out of range" }),
	rule(`index -?\d+ out of range|out of range`, excIndexError, nil),
	rule(`floating-point division by zero|float division by zero`, excZeroDivision, func([]string) string { return "division by zero" }),
	rule(`floored division by zero|integer division by zero`, excZeroDivision, func([]string) string { return "integer division or modulo by zero" }),
	rule(`modulo by zero`, excZeroDivision, func([]string) string { return "integer modulo by zero" }),
	rule(`division by zero`, excZeroDivision, nil),
	rule(`^(?:\w+: )?(\S+) has no \.(\w+) field or method`, ExcAttribute, func(m []string) string {
		return fmt.Sprintf("'%s' object has no attribute '%s'", pyTypeOf(m[1]), m[2])
	}),
	rule(`has no \.(\w+) field or method`, ExcAttribute, nil),
	rule(`substring not found`, excValueError, func([]string) string { return "substring not found" }),
	rule(`remove: element not found`, excValueError, func([]string) string { return "list.remove(x): x not in list" }),
	rule(`value not found|not in list|element not found`, excValueError, nil),
	rule(`too few values to unpack \(got (\d+), want (\d+)\)`, excValueError, func(m []string) string {
		return fmt.Sprintf("not enough values to unpack (expected %s, got %s)", m[2], m[1])
	}),
	rule(`too many values to unpack \(got (\d+), want (\d+)\)`, excValueError, func(m []string) string {
		return fmt.Sprintf("too many values to unpack (expected %s)", m[2])
	}),
	rule(`too many values to unpack|too few values to unpack|not enough values`, excValueError, nil),
	rule(`invalid literal|invalid syntax|invalid base|not a valid|could not convert`, excValueError, nil),
	rule(`^json\.|json: `, excJSONDecode, nil),
	rule(`local variable (\w+) referenced before assignment`, excUnboundLocal, func(m []string) string {
		return fmt.Sprintf("cannot access local variable '%s' where it is not associated with a value", m[1])
	}),
	rule(`global variable (\w+) referenced before assignment`, excNameError, func(m []string) string {
		return fmt.Sprintf("name '%s' is not defined", m[1])
	}),
	rule(`^undefined: (\w+)`, excNameError, func(m []string) string { return fmt.Sprintf("name '%s' is not defined", m[1]) }),
	rule(`unknown binary op: string \+ (\S+)`, excTypeError, func(m []string) string {
		return fmt.Sprintf(`can only concatenate str (not "%s") to str`, pyTypeOf(m[1]))
	}),
	rule(`unknown binary op: (list|tuple) \+ (\S+)`, excTypeError, func(m []string) string {
		return fmt.Sprintf(`can only concatenate %s (not "%s") to %s`, m[1], pyTypeOf(m[2]), m[1])
	}),
	rule(`unknown binary op: (string|list|tuple|bytes) \* (string|list|tuple|bytes|float|dict|NoneType|set)$`, excTypeError, func(m []string) string {
		return fmt.Sprintf("can't multiply sequence by non-int of type '%s'", pyTypeOf(m[2]))
	}),
	rule(`unknown binary op: (float|dict|NoneType|set) \* (string|list|tuple|bytes)$`, excTypeError, func(m []string) string {
		return fmt.Sprintf("can't multiply sequence by non-int of type '%s'", pyTypeOf(m[1]))
	}),
	rule(`^(?:[\w.]+: )?(?:for parameter \S+: )?got (float|string|NoneType|list|tuple|dict), want int$`, excTypeError, func(m []string) string {
		return fmt.Sprintf("'%s' object cannot be interpreted as an integer", pyTypeOf(m[1]))
	}),
	rule(`unknown binary op: (\S+) (?:not )?in (\S+)$`, excTypeError, func(m []string) string {
		return fmt.Sprintf("argument of type '%s' is not iterable", pyTypeOf(m[2]))
	}),
	rule(`^(\S+) value does not support item assignment$`, excTypeError, func(m []string) string {
		return fmt.Sprintf("'%s' object does not support item assignment", pyTypeOf(m[1]))
	}),
	rule(`unknown binary op: (\S+) (\S+) (\S+)`, excTypeError, func(m []string) string {
		return fmt.Sprintf("unsupported operand type(s) for %s: '%s' and '%s'", m[2], pyTypeOf(m[1]), pyTypeOf(m[3]))
	}),
	rule(`during iteration`, excRuntime, nil),
	rule(`^(?:\w+: )?(tuple|list) index: got (\S+), want int$`, excTypeError, func(m []string) string {
		return fmt.Sprintf("%s indices must be integers or slices, not %s", m[1], pyTypeOf(m[2]))
	}),
	rule(`^unhandled index operation (\S+)\[`, excTypeError, func(m []string) string {
		return fmt.Sprintf("'%s' object is not subscriptable", pyTypeOf(m[1]))
	}),
	rule(`^invalid call of non-function \((\S+)\)`, excTypeError, func(m []string) string {
		return fmt.Sprintf("'%s' object is not callable", pyTypeOf(m[1]))
	}),
	rule(`^(\S+) (<|<=|>|>=) (\S+) not implemented$`, excTypeError, func(m []string) string {
		return fmt.Sprintf("'%s' not supported between instances of '%s' and '%s'", m[2], pyTypeOf(m[1]), pyTypeOf(m[3]))
	}),
	rule(`unhashable type: (\w+)$`, excTypeError, func(m []string) string {
		return fmt.Sprintf("unhashable type: '%s'", pyTypeOf(m[1]))
	}),
	rule(`(?:^\w+: )?dictionary update sequence element #(\d+) has length (\d+), want 2`, excValueError, func(m []string) string {
		return fmt.Sprintf("dictionary update sequence element #%s has length %s; 2 is required", m[1], m[2])
	}),
	rule(`for parameter \d+: got (\S+), want iterable$`, excTypeError, func(m []string) string {
		return fmt.Sprintf("'%s' object is not iterable", pyTypeOf(m[1]))
	}),
	rule(`unsupported|unknown (binary|unary) op|not callable|got \S+, want|missing argument|unexpected keyword|positional argument|for parameter|not iterable|unhashable|not supported|cannot compare|not comparable|does not support|invalid call|frozen`, excTypeError, nil),
}

// funcName is a function's name as Python's messages show it.
func funcName(n string) string {
	if n == "lambda" {
		return "<lambda>"
	}
	return n
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

var runKinds = map[string]*excType{"PermissionError": excPermission, "FileNotFoundError": excFileNotFound, "NotADirectoryError": excNotADirectory}

// classifyMessage names the class of a Starlark error message and gives
// Python's wording where it differs.
func classifyMessage(msg string) (*excType, string) {
	for i, r := range msgRules {
		m := r.re.FindStringSubmatch(msg)
		if m == nil {
			continue
		}
		if i == 0 {
			return runKinds[m[1]], "run: " + m[2]
		}
		if r.fix != nil {
			return r.typ, r.fix(m)
		}
		return r.typ, msg
	}
	return excException, msg
}

// pyReprFromStarlark turns a simple Starlark string repr ("a") into
// Python's ('a'); other text is kept.
func pyReprFromStarlark(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' && !strings.ContainsAny(s[1:len(s)-1], `"'\`) {
		return "'" + s[1:len(s)-1] + "'"
	}
	return s
}

// exitCode is a SystemExit's code: None without arguments, the argument
// when there is one, else the arguments' tuple (CPython's rule).
func (e *PyException) exitCode() starlark.Value {
	switch len(e.args) {
	case 0:
		return starlark.None
	case 1:
		return e.args[0]
	}
	return e.args
}

// QuietExit reports whether err is a SystemExit whose code is None or 0
// (False too, as 0 == False): a script ends silently there, as
// sys.exit(main()) ends it, so the call shows what it printed and no
// error. Another code is shown as the uncaught exception it is
// ("SystemExit: 3"), as pyprograms' CPython runner records it.
func QuietExit(err error) bool {
	var pe *pyError
	if !errors.As(err, &pe) || !pe.exc.Typ.isSubclass(excSystemExit) {
		return false
	}
	switch c := pe.exc.exitCode().(type) {
	case starlark.NoneType:
		return true
	case starlark.Bool:
		return !bool(c)
	case starlark.Int:
		return c.Sign() == 0
	}
	return false
}
