package main

import (
	"bytes"
	"fmt"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/imports"
)

// write writes every changed file, the moved ones in their packages, and
// the Modules tables.
func (t *tool) write() error {
	var names []string
	for f := range t.edits {
		names = append(names, f)
	}
	for f, lib := range t.dest {
		if lib != "" && t.edits[f] == nil {
			names = append(names, f)
		}
	}
	sort.Strings(names)
	for _, file := range names {
		out := t.apply(file, 0, len(t.srcs[file]))
		path := file
		if lib := t.dest[file]; lib != "" {
			path = filepath.Join(t.dir, lib, strings.TrimPrefix(filepath.Base(file), "pymod_"))
			if err := os.Remove(file); err != nil {
				return err
			}
		}
		if err := t.writeGo(path, out, t.imports[file]); err != nil {
			return err
		}
	}
	if len(t.errs) > 0 {
		return fmt.Errorf("%s", strings.Join(t.errs, "\n"))
	}
	for _, lib := range t.libs {
		if err := t.writeModules(lib); err != nil {
			return err
		}
	}
	return t.writeStdlib()
}

// writeGo adds the imports to src, drops those no longer used and writes
// it formatted to path.
func (t *tool) writeGo(path string, src []byte, need map[string]bool) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.ParseComments)
	if err != nil {
		os.WriteFile(path, src, 0o644)
		return fmt.Errorf("%s: %v", path, err)
	}
	for p := range need {
		astutil.AddImport(fset, f, p)
	}
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, f); err != nil {
		return err
	}
	out, err := imports.Process(path, buf.Bytes(), &imports.Options{Comments: true, TabIndent: true, TabWidth: 8, FormatOnly: false})
	if err != nil {
		os.WriteFile(path, buf.Bytes(), 0o644)
		return fmt.Errorf("%s: %v", path, err)
	}
	return os.WriteFile(path, out, 0o644)
}

// writeModules writes lib's modules.go: the entries it has already (an
// earlier run of the tool), then those of the modules moving in.
func (t *tool) writeModules(lib string) error {
	entries := t.makers[lib]
	have := map[string]bool{}
	for _, e := range entries {
		have[e[0]] = true
	}
	old, _ := os.ReadFile(filepath.Join(t.dir, lib, "modules.go"))
	for _, line := range strings.Split(string(old), "\n") {
		name, maker, ok := strings.Cut(strings.TrimSpace(line), ":")
		if ok && strings.HasPrefix(name, `"`) && strings.HasSuffix(maker, ",") && !have[name] {
			entries = append(entries, [2]string{name, strings.TrimSuffix(strings.TrimSpace(maker), ",")})
		}
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i][0] < entries[j][0] })
	var b strings.Builder
	fmt.Fprintf(&b, "// The modules of this package, by the name a program imports; package\n")
	fmt.Fprintf(&b, "// repl adds them to pyrt.ModuleMakers (repl/stdlib.go).\n\npackage %s\n\n", libName(lib))
	b.WriteString("import (\n\t\"go.starlark.net/starlark\"\n\n\t\"harness/repl/pyrt\"\n)\n\n")
	b.WriteString("// Modules build this package's modules, once per interpreter, when first\n// imported.\n")
	b.WriteString("var Modules = map[string]func(r *pyrt.Interp) starlark.Value{\n")
	for _, e := range entries {
		fmt.Fprintf(&b, "\t%s: %s,\n", e[0], e[1])
	}
	b.WriteString("}\n")
	return t.writeGo(filepath.Join(t.dir, lib, "modules.go"), []byte(b.String()), nil)
}

// stdlibLibs are the lib packages repl/stdlib.go lists: those it lists
// already (an earlier run of the tool), then the ones of the rules.
func (t *tool) stdlibLibs() []string {
	var libs []string
	seen := map[string]bool{}
	old, _ := os.ReadFile(filepath.Join(t.dir, "repl", "stdlib.go"))
	for _, line := range strings.Split(string(old), "\n") {
		if p, ok := strings.CutPrefix(strings.TrimSpace(line), `"harness/`); ok && strings.HasPrefix(p, "repl/lib/") {
			lib := strings.TrimSuffix(p, `"`)
			libs, seen[lib] = append(libs, lib), true
		}
	}
	for _, lib := range t.libs {
		if !seen[lib] {
			libs, seen[lib] = append(libs, lib), true
		}
	}
	return libs
}

func (t *tool) writeStdlib() error {
	libs := t.stdlibLibs()
	var b strings.Builder
	b.WriteString("// The standard modules of the lib packages, added to the runtime's own.\n\npackage repl\n\nimport (\n")
	b.WriteString("\t\"go.starlark.net/starlark\"\n\n")
	for _, lib := range libs {
		fmt.Fprintf(&b, "\t%q\n", libPath(lib))
	}
	b.WriteString("\t\"harness/repl/pyrt\"\n)\n\n")
	b.WriteString("// libModules are the modules of the packages under repl/lib, each of which\n// depends on the runtime only.\n")
	b.WriteString("var libModules = []map[string]func(*pyrt.Interp) starlark.Value{\n")
	for _, lib := range libs {
		fmt.Fprintf(&b, "\t%s.Modules,\n", libName(lib))
	}
	b.WriteString("}\n\nfunc init() {\n\tfor _, mods := range libModules {\n\t\tfor name, make := range mods {\n")
	b.WriteString("\t\t\tpyrt.ModuleMakers[name] = make\n\t\t}\n\t}\n}\n")
	return t.writeGo(filepath.Join(t.dir, "repl", "stdlib.go"), []byte(b.String()), nil)
}
