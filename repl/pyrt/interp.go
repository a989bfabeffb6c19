// The runtime's state of one interpreter generation.

package pyrt

import (
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"harness/repl/modslots"
)

// Interp is one generation of the runtime's Starlark state: the thread,
// the globals and everything the runtime's builtins reach. package repl
// embeds it in its interpreter and fills in Host.
type Interp struct {
	FileOpts *syntax.FileOptions
	Thread   *starlark.Thread
	Globals  starlark.StringDict
	Gens     map[*PyGen]bool // generators started and not ended (pygen.go)
	// iterErr is the error of a lazy iterator's element that stopped
	// iterThread, Starlark's loop over it having no other way to fail
	// (iterfail.go).
	IterErr    error
	IterThread *starlark.Thread
	Cwd        string // virtual working directory, "/repository" at start
	AllocNoted int64  // bytes noteAlloc counted since its last memory check
	ReCache    *RegexpCache
	// Python habits (package rewrite, driver.go, py*.go).
	Types       map[string]*PyType                   // classes by Python name, for type()
	Modules     map[string]starlark.Value            // imported modules
	Slots       map[*starlark.Module]*modslots.Slots // the running call's chunk globals, for live reads
	Handling    []*PyException                       // exceptions being handled, for a bare raise
	StdRedirect [2]starlark.Value                    // redirect_stdout/redirect_stderr targets (repl/lib/pylang/contextlib.go)
	OpenFiles   []*PyFile                            // files open for writing, written at the end of each call
	syncing     bool                                 // a file's pending writes are being written (pyFile.flush)
	ReprErr     error                                // an error of __repr__ or __str__ while text was built (pyclass_ops.go)
	Dt          *DtClasses                           // the datetime module's classes
	subclasses  map[starlark.Value][]starlark.Value  // the classes a class statement derived from each class, in order
	qualnames   map[starlark.Value]string            // Class.method for the functions of class bodies
	annots      map[starlark.Value]*fnAnnots         // the annotations of the functions defined with them (pyintrospect_func.go)
	fnDicts     map[starlark.Value]*starlark.Dict    // the attributes set on functions (pyfuncattrs.go)
	// SetAttrNames are the attribute names the session's code assigned on
	// names, which later code reads through the runtime (package rewrite).
	SetAttrNames map[string]bool
	// ModState is the standard modules' own state in this interpreter,
	// by module name (the inspect module's classes, made once).
	ModState map[string]any

	// Host is the REPL around this runtime (package repl): the call in
	// progress, the memory limit, the host's own builtins.
	Host Host
}
