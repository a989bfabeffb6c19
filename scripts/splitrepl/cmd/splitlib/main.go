// Command splitlib moves pyrt's standard modules into packages of their
// own, in place, in the harness checkout given by -dir, as libs.rules says.
//
// Rules (generic, so modules written later in the same style move too):
//   - the files pymod_MODULE*.go of a module named on a "lib DIR" line move
//     to DIR, as MODULE*.go, in the package named after DIR's last element;
//   - every name of pyrt such a file uses is exported (first letter up; a
//     method's or an interface method's name for every method of that name
//     in pyrt, so that interfaces keep their implementations) and
//     qualified with pyrt;
//   - a method of *Interp in a moving file becomes a function whose first
//     parameter is the receiver: r.m(a) becomes m(r, a), (*Interp).m
//     becomes m, a method value r.m a function literal;
//   - the module's entry in pyrt.ModuleMakers moves to DIR/modules.go's
//     Modules, and repl/stdlib.go adds every lib package's Modules to
//     pyrt.ModuleMakers;
//   - what crosses a boundary against the layers (the runtime using a
//     moving declaration, one lib package using another's) stops the tool
//     with a list of the uses, to be settled by hand first.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

const pyrtPath = "harness/repl/pyrt"

type edit struct {
	start, end int
	text       string
}

type tool struct {
	dir      string
	fset     *token.FileSet
	pyrt     *packages.Package
	pkgs     []*packages.Package // every package with syntax, test variants included
	modLib   map[string]string   // module name -> lib dir
	core     map[string]bool     // modules that stay in pyrt
	libs     []string            // lib dirs in rules order
	dest     map[string]string   // pyrt file -> lib dir ("" stays)
	names    map[string]string   // rule overrides of exported names (NAME or TYPE.MEMBER)
	alias    map[string]string   // names the moved code says otherwise, pyrt keeping both
	aliasOf  map[types.Object]string
	owners   map[types.Object]*types.TypeName // fields and methods -> their type
	rename   map[types.Object]string
	fnize    map[*types.Func]bool // methods of *Interp in moving files
	interp   *types.TypeName
	edits    map[string]map[int]edit // file -> start -> edit
	imports  map[string]map[string]bool
	makers   map[string][][2]string // lib dir -> (module name, maker)
	errs     []string
	srcs     map[string][]byte
	files    map[string]*ast.File
	owner    map[string]*packages.Package // file -> a package that has it
	selOf    map[*ast.Ident]*ast.SelectorExpr
	callOf   map[*ast.SelectorExpr]*ast.CallExpr
	makerLit *ast.CompositeLit
	keyed    []keyIt
}

func main() {
	dir := flag.String("dir", ".", "the harness checkout to change in place")
	rulesPath := flag.String("rules", "libs.rules", "the rules file")
	flag.Parse()
	t := &tool{dir: *dir, modLib: map[string]string{}, core: map[string]bool{}, dest: map[string]string{}, names: map[string]string{},
		alias: map[string]string{}, aliasOf: map[types.Object]string{}, owners: map[types.Object]*types.TypeName{},
		rename: map[types.Object]string{}, fnize: map[*types.Func]bool{}, edits: map[string]map[int]edit{},
		imports: map[string]map[string]bool{}, makers: map[string][][2]string{}, srcs: map[string][]byte{},
		files: map[string]*ast.File{}, owner: map[string]*packages.Package{},
		selOf: map[*ast.Ident]*ast.SelectorExpr{}, callOf: map[*ast.SelectorExpr]*ast.CallExpr{}}
	must(t.readRules(*rulesPath))
	must(t.load())
	t.classify()
	t.decide()
	t.checkCollisions()
	if t.fail() {
		os.Exit(1)
	}
	t.editAll()
	if t.fail() {
		os.Exit(1)
	}
	must(t.write())
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "splitlib:", err)
		os.Exit(1)
	}
}

func (t *tool) fail() bool {
	if len(t.errs) == 0 {
		return false
	}
	sort.Strings(t.errs)
	for i, e := range t.errs {
		if i == 0 || t.errs[i-1] != e {
			fmt.Fprintln(os.Stderr, e)
		}
	}
	return true
}

func (t *tool) errorf(pos token.Pos, format string, args ...any) {
	p := t.fset.Position(pos)
	rel, _ := filepath.Rel(t.dir, p.Filename)
	t.errs = append(t.errs, fmt.Sprintf("%s:%d: %s", rel, p.Line, fmt.Sprintf(format, args...)))
}

func (t *tool) readRules(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		w := strings.Fields(sc.Text())
		if len(w) == 0 || strings.HasPrefix(w[0], "#") {
			continue
		}
		switch {
		case w[0] == "lib" && len(w) > 2:
			t.libs = append(t.libs, w[1])
			for _, m := range w[2:] {
				t.modLib[m] = w[1]
			}
		case w[0] == "down":
			// downdecl's lines, carried out before this tool runs
		case w[0] == "core":
			for _, m := range w[1:] {
				t.core[m] = true
			}
		case w[0] == "name" && len(w) == 3:
			t.names[w[1]] = w[2]
		case w[0] == "alias" && len(w) == 3:
			t.alias[w[1]] = w[2]
		default:
			return fmt.Errorf("%s: cannot read %q", path, sc.Text())
		}
	}
	return sc.Err()
}

func (t *tool) load() error {
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: t.dir, Tests: true}
	roots, err := packages.Load(cfg, "./...")
	if err != nil {
		return err
	}
	seen := map[*packages.Package]bool{}
	packages.Visit(roots, nil, func(p *packages.Package) {
		if seen[p] || len(p.Syntax) == 0 || !strings.HasPrefix(p.PkgPath, "harness") {
			return
		}
		seen[p] = true
		for _, e := range p.Errors {
			t.errs = append(t.errs, "load: "+e.Error())
		}
		t.pkgs = append(t.pkgs, p)
		if p.PkgPath == pyrtPath && t.pyrt == nil {
			t.pyrt = p
		}
		for i, f := range p.Syntax {
			name := p.CompiledGoFiles[i]
			if _, ok := t.files[name]; ok {
				continue
			}
			t.fset = p.Fset
			t.files[name], t.owner[name] = f, p
			src, err := os.ReadFile(name)
			if err != nil {
				t.errs = append(t.errs, err.Error())
			}
			t.srcs[name] = src
			indexSelectors(f, t.selOf, t.callOf)
		}
	})
	if t.pyrt == nil {
		return fmt.Errorf("no package %s under %s", pyrtPath, t.dir)
	}
	t.interp, _ = t.pyrt.Types.Scope().Lookup("Interp").(*types.TypeName)
	return nil
}

// indexSelectors records the selector of each selected name and the call
// of each called selector.
func indexSelectors(f *ast.File, selOf map[*ast.Ident]*ast.SelectorExpr, callOf map[*ast.SelectorExpr]*ast.CallExpr) {
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			selOf[n.Sel] = n
		case *ast.CallExpr:
			if s, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok {
				callOf[s] = n
			}
		}
		return true
	})
}

// modOf is the module of a pyrt file: pymod_zipfile_read.go -> zipfile.
func modOf(file string) string {
	base := filepath.Base(file)
	if !strings.HasPrefix(base, "pymod_") {
		return ""
	}
	m, _, _ := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(base, "pymod_"), ".go"), "_")
	return m
}

func (t *tool) classify() {
	for _, f := range t.pyrt.CompiledGoFiles {
		m := modOf(f)
		if lib, ok := t.modLib[m]; ok {
			t.dest[f] = lib
		} else if m != "" && !t.core[m] {
			t.errs = append(t.errs, fmt.Sprintf("%s: module %s is on no lib or core line of the rules", filepath.Base(f), m))
		}
	}
}

// where is the package a position's code lands in: a lib dir, "pyrt", or
// the import path of another package.
func (t *tool) where(pos token.Pos) string {
	file := t.fset.Position(pos).Filename
	if lib := t.dest[file]; lib != "" {
		return lib
	}
	if p := t.owner[file]; p != nil && p.PkgPath != pyrtPath {
		return "ext:" + p.PkgPath
	}
	return "pyrt"
}

func libName(dir string) string { return filepath.Base(dir) }
func libPath(dir string) string { return "harness/" + dir }
