// compile(source, filename, mode): a program checking that the code it
// wrote or edited parses. The code object it returns cannot run (exec
// and eval are not in the REPL); with ast.PyCF_ONLY_AST it is the tree.

package pyrt

import "go.starlark.net/starlark"

const pyCFOnlyAST = 0x400 // ast.PyCF_ONLY_AST

// pyCompile is compile(): ast.parse's check and its SyntaxError.
func (r *Interp) pyCompile(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
	var source, dontInherit starlark.Value
	var filename, mode string
	flags, optimize := 0, -1
	if err := UnpackArgs("compile", args, kw, "source", &source, "filename", &filename, "mode", &mode,
		"flags?", &flags, "dont_inherit?", &dontInherit, "optimize?", &optimize); err != nil {
		return nil, err
	}
	if mode != "exec" && mode != "eval" && mode != "single" {
		return nil, PyErrorf(ExcValueError, "compile() mode must be 'exec', 'eval' or 'single'")
	}
	if mode == "single" {
		mode = "exec"
	}
	astMod, err := r.Module("ast")
	if err != nil {
		return nil, err
	}
	parse, err := astMod.(starlark.HasAttrs).Attr("parse")
	if err != nil {
		return nil, err
	}
	tree, err := starlark.Call(thread, parse, starlark.Tuple{source}, []starlark.Tuple{
		{starlark.String("filename"), starlark.String(filename)}, {starlark.String("mode"), starlark.String(mode)}})
	if err != nil {
		return nil, err
	}
	if flags&pyCFOnlyAST != 0 {
		return tree, nil
	}
	return &compiledCode{filename: filename}, nil
}

// compiledCode is compile()'s code object.
type compiledCode struct{ filename string }

var _ starlark.HasAttrs = (*compiledCode)(nil)

func (c *compiledCode) String() string {
	return "<code object <module>, file \"" + c.filename + "\", line 1>"
}
func (c *compiledCode) Type() string          { return "code" }
func (c *compiledCode) Freeze()               {}
func (c *compiledCode) Truth() starlark.Bool  { return true }
func (c *compiledCode) Hash() (uint32, error) { return 0, nil }
func (c *compiledCode) AttrNames() []string   { return []string{"co_filename", "co_name"} }
func (c *compiledCode) Attr(name string) (starlark.Value, error) {
	switch name {
	case "co_filename":
		return starlark.String(c.filename), nil
	case "co_name":
		return starlark.String("<module>"), nil
	}
	return nil, nil
}
