// Command split moves the REPL's Python runtime out of package repl into
// package repl/pyrt, in place, in the tree given by -dir (a checkout of
// harness). See /work/notes/split/README.
//
// Rules (generic, so files written later in the same style land too):
//   - every non-test file of repl whose name matches moveFiles moves whole;
//     declarations named in moveDecls move out of the files that stay;
//     declarations named in stayDecls stay although their file moves;
//   - host declarations the moved code needs and that reach no host state
//     (closure over interp, callState, Options) are pulled down with it;
//   - the interp struct is cut in two: the fields moved code uses (and
//     whose types pyrt can name) go to pyrt.Interp, which repl's interp
//     embeds; the rest stay;
//   - a host method of interp that moved code calls is reached as
//     r.Host.M(...), through the generated interface pyrt.Host;
//   - every name that crosses the boundary is exported (first letter up,
//     consistently for every method of that name), and repl's code
//     qualifies what moved with pyrt.
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/imports"
)

var (
	moveFiles = regexp.MustCompile(mustRead("movefiles.re"))
	// moveDecls: declarations of files that stay which move all the same.
	moveDecls = map[string][]string{
		"builtins.go": {"builtinFunc", "pathCtor", "chdir", "getcwd"},
	}
	// stayDecls: declarations of moved files that stay in repl.
	stayDecls = map[string][]string{}
	// hostFields: fields of interp that stay although moved code uses them
	// (it reaches them through Host).
	hostFields = map[string]bool{"opts": true, "call": true, "remote": true}
	// hostState: objects whose closure keeps a declaration in repl.
	hostState = map[string]bool{"interp": true, "callState": true, "Options": true}
)

const pyrtPath = "harness/repl/pyrt"

type decl struct {
	file  string
	node  ast.Decl
	objs  []types.Object
	uses  map[types.Object]bool
	move  bool
	recvI bool // a method of *interp
}

type tool struct {
	fset                        *token.FileSet
	pkg                         *packages.Package
	info                        *types.Info
	decls                       []*decl
	owner                       map[types.Object]*decl
	moved                       map[types.Object]bool // objects whose declaration moves
	rtField                     map[*types.Var]bool   // interp fields that go to pyrt.Interp
	export                      map[types.Object]string
	files                       map[string]*ast.File
	src                         map[string][]byte
	edits                       map[string][]edit
	interpT                     *types.TypeName
	hostM                       map[string]*types.Func // host methods of interp reached from pyrt
	errs                        []string
	bridges                     map[*types.TypeName]*bridge
	done                        map[*ast.Ident]bool
	interpFields, interpImports string
	impl                        bool                   // typeStr: repl code implementing pyrt's interfaces
	hostF                       map[string]*types.Func // host funcs of *interp reached from pyrt
	hostFld                     map[string]*types.Var  // host fields of interp read from pyrt
}

type edit struct {
	pos, end int
	text     string
}

func main() {
	dir := flag.String("dir", ".", "the harness tree to rewrite")
	fix := flag.Bool("imports", false, "only fix the imports of the files named")
	flag.Parse()
	if *fix {
		for _, p := range flag.Args() {
			b, err := os.ReadFile(p)
			if err == nil {
				b, err = imports.Process(p, b, nil)
			}
			if err == nil {
				err = os.WriteFile(p, b, 0o644)
			}
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
		return
	}
	t := &tool{}
	if err := t.load(*dir); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	t.collect()
	t.decide()
	t.rename()
	t.rewrite()
	if err := t.write(filepath.Join(*dir, "repl")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if len(t.errs) > 0 {
		sort.Strings(t.errs)
		for _, e := range dedup(t.errs) {
			fmt.Fprintln(os.Stderr, "split:", e)
		}
		os.Exit(2)
	}
}

func dedup(s []string) []string {
	var out []string
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}

func (t *tool) load(dir string) error {
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: dir, Tests: true}
	pkgs, err := packages.Load(cfg, "./repl")
	if err != nil {
		return err
	}
	for _, p := range pkgs {
		if p.PkgPath == "harness/repl" && strings.Contains(p.ID, ".test]") {
			t.pkg = p
		}
	}
	if t.pkg == nil {
		return fmt.Errorf("no test variant of harness/repl")
	}
	if len(t.pkg.Errors) > 0 {
		return fmt.Errorf("repl does not type-check: %v", t.pkg.Errors)
	}
	t.fset, t.info = t.pkg.Fset, t.pkg.TypesInfo
	t.files, t.src, t.edits = map[string]*ast.File{}, map[string][]byte{}, map[string][]edit{}
	for _, f := range t.pkg.Syntax {
		name := t.fset.File(f.Pos()).Name()
		t.files[name] = f
		b, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		t.src[name] = b
	}
	t.interpT, _ = t.pkg.Types.Scope().Lookup("interp").(*types.TypeName)
	if t.interpT == nil {
		return fmt.Errorf("no type interp in repl")
	}
	return nil
}

func base(name string) string { return filepath.Base(name) }

func isTest(name string) bool { return strings.HasSuffix(name, "_test.go") }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// collect records every top-level declaration, what it declares and what
// it uses.
func (t *tool) collect() {
	t.owner = map[types.Object]*decl{}
	for name, f := range t.files {
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
				continue
			}
			dd := &decl{file: name, node: d, uses: map[types.Object]bool{}}
			ast.Inspect(d, func(n ast.Node) bool {
				id, ok := n.(*ast.Ident)
				if !ok {
					return true
				}
				if o := t.info.Defs[id]; o != nil {
					if o.Parent() == t.pkg.Types.Scope() || isMember(o) {
						dd.objs = append(dd.objs, o)
						t.owner[o] = dd
					}
				}
				if o := t.info.Uses[id]; o != nil && o.Pkg() == t.pkg.Types {
					dd.uses[o] = true
				}
				return true
			})
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil {
				if tn := recvType(t.info, fd); tn != nil {
					dd.uses[tn] = true
					dd.recvI = tn == t.interpT
				}
			}
			t.decls = append(t.decls, dd)
		}
	}
	// A type goes where its methods go: the type's declaration uses them.
	for _, dd := range t.decls {
		if fd, ok := dd.node.(*ast.FuncDecl); ok && fd.Recv != nil && !dd.recvI {
			if tn := recvType(t.info, fd); tn != nil && t.owner[tn] != nil {
				t.owner[tn].uses[t.info.Defs[fd.Name]] = true
			}
		}
	}
}

// isMember: a struct field or a method (declared inside a top-level decl).
func isMember(o types.Object) bool {
	switch o := o.(type) {
	case *types.Var:
		return o.IsField()
	case *types.Func:
		return o.Type().(*types.Signature).Recv() != nil
	}
	return false
}

func recvType(info *types.Info, fd *ast.FuncDecl) *types.TypeName {
	e := fd.Recv.List[0].Type
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	switch x := e.(type) {
	case *ast.IndexExpr:
		e = x.X
	case *ast.IndexListExpr:
		e = x.X
	}
	if id, ok := e.(*ast.Ident); ok {
		tn, _ := info.Uses[id].(*types.TypeName)
		return tn
	}
	return nil
}

// decide marks the declarations that move.
func (t *tool) decide() {
	for _, dd := range t.decls {
		b := base(dd.file)
		if isTest(b) {
			continue
		}
		names := declNames(dd)
		switch {
		case moveFiles.MatchString(b):
			dd.move = true
			for _, n := range names {
				if contains(stayDecls[b], n) {
					dd.move = false
				}
			}
		default:
			for _, n := range names {
				if contains(moveDecls[b], n) {
					dd.move = true
				}
			}
		}
	}
	// Pull down host declarations moved code needs that reach no host state.
	for changed := true; changed; {
		changed = false
		for _, dd := range t.decls {
			if !dd.move {
				continue
			}
			for o := range dd.uses {
				od := t.owner[o]
				if od == nil || od.move || isTest(od.file) || od.recvI || od.isHostState() {
					continue
				}
				if t.pure(od, map[*decl]bool{}) {
					od.move = true
					changed = true
				}
			}
		}
	}
	t.moved = map[types.Object]bool{}
	for _, dd := range t.decls {
		if dd.move {
			for _, o := range dd.objs {
				t.moved[o] = true
			}
		}
	}
	// interp's fields: to pyrt when moved code uses them, unless hostFields.
	t.rtField = map[*types.Var]bool{}
	st := t.interpT.Type().Underlying().(*types.Struct)
	for _, dd := range t.decls {
		if !dd.move {
			continue
		}
		for o := range dd.uses {
			if v, ok := o.(*types.Var); ok && v.IsField() && fieldOf(st, v) && !hostFields[v.Name()] {
				t.rtField[v] = true
			}
		}
	}
}

func fieldOf(st *types.Struct, v *types.Var) bool {
	for i := 0; i < st.NumFields(); i++ {
		if st.Field(i) == v {
			return true
		}
	}
	return false
}

func (dd *decl) isHostState() bool {
	for _, o := range dd.objs {
		if hostState[o.Name()] && o.Parent() != nil {
			return true
		}
	}
	return false
}

// pure: the declaration's closure reaches no host state.
func (t *tool) pure(dd *decl, seen map[*decl]bool) bool {
	if seen[dd] {
		return true
	}
	seen[dd] = true
	if dd.recvI || dd.isHostState() {
		return false
	}
	for o := range dd.uses {
		if hostState[o.Name()] && o.Parent() == t.pkg.Types.Scope() {
			return false
		}
		od := t.owner[o]
		if od == nil || od.move {
			continue
		}
		if !t.pure(od, seen) {
			return false
		}
	}
	// the file's imports: a host file importing jail etc. is not pure
	// unless only the moved code's allowed packages are used.
	return true
}

func declNames(dd *decl) []string {
	switch d := dd.node.(type) {
	case *ast.FuncDecl:
		return []string{d.Name.Name}
	case *ast.GenDecl:
		var names []string
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				names = append(names, s.Name.Name)
			case *ast.ValueSpec:
				for _, n := range s.Names {
					names = append(names, n.Name)
				}
			}
		}
		return names
	}
	return nil
}

// side is where an object is declared after the move: true for pyrt.
func (t *tool) side(o types.Object) bool {
	if v, ok := o.(*types.Var); ok && v.IsField() {
		if t.rtField[v] {
			return true
		}
	}
	if fn, ok := o.(*types.Func); ok {
		if sig := fn.Type().(*types.Signature); sig.Recv() != nil {
			return t.moved[o]
		}
	}
	return t.moved[o]
}

// declAt returns the declaration containing pos.
func (t *tool) declAt(file string, pos token.Pos) *decl {
	for _, dd := range t.decls {
		if dd.file == file && dd.node.Pos() <= pos && pos < dd.node.End() {
			return dd
		}
	}
	return nil
}

func upper(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		if strings.HasPrefix(s, "_") {
			return "X" + s
		}
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// rename decides the exported name of every object that crosses.
func (t *tool) rename() {
	t.export = map[types.Object]string{}
	t.hostM = map[string]*types.Func{}
	methods := map[string]bool{} // method names to export everywhere
	for id, o := range t.info.Uses {
		if o.Pkg() != t.pkg.Types || token.IsExported(o.Name()) || o.Name() == "_" {
			continue
		}
		file := t.fset.File(id.Pos()).Name()
		dd := t.declAt(file, id.Pos())
		if dd == nil {
			continue
		}
		useSide := dd.move
		if _, isPkgName := o.(*types.PkgName); isPkgName {
			continue
		}
		if o.Parent() != t.pkg.Types.Scope() && !isMember(o) {
			continue // local
		}
		declSide := t.side(o)
		if o == types.Object(t.interpT) {
			continue
		}
		if useSide == declSide {
			continue
		}
		if fn, ok := o.(*types.Func); ok && fn.Type().(*types.Signature).Recv() != nil {
			if useSide && !declSide && isInterpMethod(fn, t.interpT) {
				continue // reached through the Host adapter
			}
			if useSide && !declSide && t.hostType(fn.Type().(*types.Signature).Recv().Type()) != nil {
				continue // reached through a bridge interface
			}
			methods[o.Name()] = true
			if useSide && !declSide {
				if false {
				} else if t.hostType(fn.Type().(*types.Signature).Recv().Type()) != nil {
					// a bridged host type: its interface names it exported
				} else {
					t.errs = append(t.errs, fmt.Sprintf("%s: pyrt code calls method %s of a host type", t.fset.Position(id.Pos()), o.Name()))
				}
			}
			continue
		}
		if useSide && !declSide && t.hostInterpFunc(o) {
			continue // reached through Host
		}
		if v, ok := o.(*types.Var); ok && v.IsField() && useSide && !declSide {
			continue // a getter reaches it
		}
		if tn, ok := o.(*types.TypeName); ok && useSide && !declSide && t.hostType(tn.Type()) != nil {
			continue // bridged
		}
		t.export[o] = upper(o.Name())
	}
	// every method (and interface method) of a name that crosses
	for _, dd := range t.decls {
		for _, o := range dd.objs {
			if fn, ok := o.(*types.Func); ok && methods[fn.Name()] {
				t.export[o] = upper(o.Name())
			}
		}
		ast.Inspect(dd.node, func(n ast.Node) bool {
			if it, ok := n.(*ast.InterfaceType); ok {
				for _, m := range it.Methods.List {
					for _, nm := range m.Names {
						if methods[nm.Name] {
							t.export[t.info.Defs[nm]] = upper(nm.Name)
						}
					}
				}
			}
			return true
		})
	}
	for _, dd := range t.decls {
		ast.Inspect(dd.node, func(n ast.Node) bool {
			if st, ok := n.(*ast.StructType); ok {
				for _, f := range st.Fields.List {
					if len(f.Names) == 0 {
						if v, ok := t.info.Defs[embeddedIdent(f.Type)].(*types.Var); ok {
							if tn := t.namedObj(v.Type()); tn != nil {
								if n, ok := t.export[tn]; ok {
									t.export[v] = n
								} else if n, ok := t.export[v]; ok {
									t.export[tn] = n
								}
							}
						}
					}
				}
			}
			return true
		})
	}
	// uses of interface methods resolve to the interface's *types.Func,
	// which Defs gave us; concrete methods likewise.
	t.checkCollisions()
}

func isInterpMethod(fn *types.Func, interpT *types.TypeName) bool {
	r := fn.Type().(*types.Signature).Recv().Type()
	if p, ok := r.(*types.Pointer); ok {
		r = p.Elem()
	}
	n, ok := r.(*types.Named)
	return ok && n.Obj() == interpT
}

// checkCollisions reports an exported name that is taken already.
func (t *tool) checkCollisions() {
	pyrtScope := map[string]types.Object{}
	for o := range t.moved {
		if o.Parent() == t.pkg.Types.Scope() {
			pyrtScope[o.Name()] = o
		}
	}
	for o, n := range t.export {
		if o.Parent() == t.pkg.Types.Scope() {
			if other, ok := pyrtScope[n]; ok && other != o && t.moved[o] {
				t.errs = append(t.errs, fmt.Sprintf("export %s as %s: taken by %s", o.Name(), n, t.fset.Position(other.Pos())))
			}
		}
	}
	// members: a type with both m and M
	for _, dd := range t.decls {
		for _, o := range dd.objs {
			tn, ok := o.(*types.TypeName)
			if !ok {
				continue
			}
			names := map[string]types.Object{}
			ms := types.NewMethodSet(types.NewPointer(tn.Type()))
			for i := 0; i < ms.Len(); i++ {
				m := ms.At(i).Obj()
				names[m.Name()] = m
			}
			if st, ok := tn.Type().Underlying().(*types.Struct); ok {
				for i := 0; i < st.NumFields(); i++ {
					names[st.Field(i).Name()] = st.Field(i)
				}
			}
			for _, m := range names {
				if n, ok := t.export[m]; ok {
					if other, ok := names[n]; ok && other != m {
						t.errs = append(t.errs, fmt.Sprintf("export %s.%s as %s: taken", tn.Name(), m.Name(), n))
					}
				}
			}
		}
	}
}

func (t *tool) add(file string, pos, end token.Pos, text string) {
	p, e := t.fset.Position(pos).Offset, t.fset.Position(end).Offset
	t.edits[file] = append(t.edits[file], edit{p, e, text})
}

// bridged: host types pyrt code names, reached as interfaces of pyrt.
type bridge struct {
	name    string
	tn      *types.TypeName
	methods map[string]*types.Func
	fields  map[string]*types.Var
}

func (t *tool) isInterpPtr(tp types.Type) bool {
	if p, ok := tp.(*types.Pointer); ok {
		if n, ok := p.Elem().(*types.Named); ok && n.Obj() == t.interpT {
			return true
		}
	}
	return false
}

// hostType: a named type declared in repl that stays, other than interp.
func (t *tool) hostType(tp types.Type) *types.TypeName {
	if p, ok := tp.(*types.Pointer); ok {
		tp = p.Elem()
	}
	n, ok := tp.(*types.Named)
	if !ok || n.Obj().Pkg() != t.pkg.Types || n.Obj() == t.interpT || t.moved[n.Obj()] || n.Obj().Parent() != t.pkg.Types.Scope() {
		return nil
	}
	return n.Obj()
}

func (t *tool) rewrite() {
	t.bridges = map[*types.TypeName]*bridge{}
	t.done = map[*ast.Ident]bool{}
	t.hostF, t.hostFld = map[string]*types.Func{}, map[string]*types.Var{}
	for file, f := range t.files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.File:
				if !isTest(file) && t.wholeMoves(file) {
					t.add(file, n.Name.Pos(), n.Name.End(), "pyrt")
				}
			case *ast.SelectorExpr:
				t.selector(file, n)
			case *ast.StarExpr:
				// *hostType in pyrt code: the bridge interface
				if dd := t.declAt(file, n.Pos()); dd != nil && dd.move {
					if tv, ok := t.info.Types[n]; ok && tv.IsType() {
						if tn := t.hostType(tv.Type); tn != nil {
							t.add(file, n.Pos(), n.End(), t.bridgeOf(tn).name)
							return false
						}
					}
				}
			case *ast.CallExpr:
				t.interpArgs(file, n)
			case *ast.Ident:
				t.ident(file, n)
			}
			return true
		})
	}
	// second pass: the rewrites that render what the first pass edited
	for file, f := range t.files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				t.hostFuncCall(file, n)
			case *ast.CompositeLit:
				t.interpLit(file, n)
			}
			return true
		})
	}
}

// hostInterpFunc: a package function of repl that stays and takes the
// interpreter first (reached from pyrt as r.Host.F).
func (t *tool) hostInterpFunc(o types.Object) bool {
	fn, ok := o.(*types.Func)
	if !ok || fn.Pkg() != t.pkg.Types || t.moved[fn] || fn.Parent() != t.pkg.Types.Scope() {
		return false
	}
	sig := fn.Type().(*types.Signature)
	return sig.Params().Len() > 0 && t.isInterpPtr(sig.Params().At(0).Type())
}

// interpArgs: repl code passing its *interp to a pyrt function passes the
// embedded *pyrt.Interp.
func (t *tool) interpArgs(file string, call *ast.CallExpr) {
	dd := t.declAt(file, call.Pos())
	if dd == nil || dd.move {
		return
	}
	sig, ok := t.info.TypeOf(call.Fun).(*types.Signature)
	if !ok {
		return
	}
	var callee types.Object
	switch fn := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		callee = t.info.Uses[fn]
	case *ast.SelectorExpr:
		callee = t.info.Uses[fn.Sel]
	}
	switch fn := ast.Unparen(call.Fun).(type) {
	case *ast.IndexExpr:
		if id, ok := fn.X.(*ast.Ident); ok {
			callee = t.info.Uses[id]
		}
	case *ast.IndexListExpr:
		if id, ok := fn.X.(*ast.Ident); ok {
			callee = t.info.Uses[id]
		}
	}
	if callee == nil || callee.Pkg() != t.pkg.Types || !t.side(callee) {
		return
	}
	_ = sig
	for _, a := range call.Args {
		if t.isInterpPtr(t.info.TypeOf(a)) {
			t.add(file, a.End(), a.End(), ".Interp")
		}
	}
}

func (t *tool) interpLit(file string, lit *ast.CompositeLit) {
	dd := t.declAt(file, lit.Pos())
	if dd == nil || dd.move {
		return
	}
	tp := t.info.TypeOf(lit)
	n, ok := tp.(*types.Named)
	if !ok {
		return
	}
	if n.Obj() == t.interpT {
		t.splitInterpLit(file, lit)
		return
	}
	if !t.moved[n.Obj()] {
		return
	}
	for _, e := range lit.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok && t.isInterpPtr(t.info.TypeOf(kv.Value)) {
			t.add(file, kv.Value.End(), kv.Value.End(), ".Interp")
		}
	}
}

// splitInterpLit: &interp{opts: o, fileOpts: x} becomes
// &interp{opts: o, Interp: &pyrt.Interp{FileOpts: x}}.
func (t *tool) splitInterpLit(file string, lit *ast.CompositeLit) {
	var rt, keep []string
	for _, e := range lit.Elts {
		text := t.render(file, e.Pos(), e.End())
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			if v, _ := t.info.Uses[kv.Key.(*ast.Ident)].(*types.Var); v != nil && t.rtField[v] {
				rt = append(rt, text)
				continue
			}
		}
		keep = append(keep, text)
	}
	if len(rt) == 0 {
		return
	}
	keep = append(keep, "Interp: &pyrt.Interp{"+strings.Join(rt, ", ")+"}")
	p, e := t.fset.Position(lit.Lbrace).Offset+1, t.fset.Position(lit.Rbrace).Offset
	t.dropInside(file, p, e)
	t.edits[file] = append(t.edits[file], edit{p, e, strings.Join(keep, ", ")})
}

// dropInside removes edits strictly inside [p, e) other than a deletion of
// exactly that range.
func (t *tool) dropInside(file string, p, e int) {
	var keep []edit
	for _, x := range t.edits[file] {
		if x.pos >= p && x.end <= e && !(x.pos == p && x.end == e && x.text == "") {
			continue
		}
		keep = append(keep, x)
	}
	t.edits[file] = keep
}

func (t *tool) bridgeOf(tn *types.TypeName) *bridge {
	b := t.bridges[tn]
	if b == nil {
		b = &bridge{name: upper(tn.Name()), tn: tn, methods: map[string]*types.Func{}, fields: map[string]*types.Var{}}
		if b.name == tn.Name() {
			b.name = tn.Name() + "Host"
		}
		t.bridges[tn] = b
	}
	return b
}

func (t *tool) selector(file string, se *ast.SelectorExpr) {
	dd := t.declAt(file, se.Pos())
	if dd == nil || !dd.move {
		return
	}
	sel := t.info.Selections[se]
	if sel == nil {
		return
	}
	o := sel.Obj()
	if o.Pkg() != t.pkg.Types {
		return
	}
	recv := sel.Recv()
	if t.isInterpPtr(recv) || isNamed(recv, t.interpT) {
		if fn, ok := o.(*types.Func); ok && !t.moved[fn] {
			t.hostM[upper(fn.Name())] = fn
			t.add(file, se.Sel.Pos(), se.Sel.End(), "Host."+upper(fn.Name()))
			t.done[se.Sel] = true
		}
		if v, ok := o.(*types.Var); ok && !t.rtField[v] {
			g := upper(v.Name())
			t.hostFld[g] = v
			t.add(file, se.Sel.Pos(), se.Sel.End(), "Host."+g+"()")
			t.done[se.Sel] = true
		}
		return
	}
	if tn := t.hostType(recv); tn != nil {
		b := t.bridgeOf(tn)
		switch o := o.(type) {
		case *types.Func:
			b.methods[upper(o.Name())] = o
			t.add(file, se.Sel.Pos(), se.Sel.End(), upper(o.Name()))
			t.done[se.Sel] = true
		case *types.Var:
			g := upper(o.Name())
			if g == o.Name() {
				g = "Get" + g
			}
			b.fields[g] = o
			t.add(file, se.Sel.Pos(), se.Sel.End(), g+"()")
			t.done[se.Sel] = true
		}
	}
}

func isNamed(tp types.Type, tn *types.TypeName) bool {
	n, ok := tp.(*types.Named)
	return ok && n.Obj() == tn
}

func (t *tool) ident(file string, id *ast.Ident) {
	if t.done[id] {
		return
	}
	o := t.info.Uses[id]
	def := false
	if o == nil {
		o = t.info.Defs[id]
		def = true
	}
	if o == nil || o.Pkg() != t.pkg.Types {
		return
	}
	dd := t.declAt(file, id.Pos())
	if dd == nil {
		return
	}
	useSide := dd.move
	if o == types.Object(t.interpT) {
		if useSide {
			t.add(file, id.Pos(), id.End(), "Interp")
		}
		return
	}
	if _, ok := o.(*types.PkgName); ok {
		return
	}
	name := o.Name()
	if n, ok := t.export[o]; ok {
		name = n
	}
	if o.Parent() == t.pkg.Types.Scope() {
		declSide := t.moved[o]
		switch {
		case !def && !useSide && declSide:
			t.add(file, id.Pos(), id.End(), "pyrt."+name)
			return
		case !def && useSide && !declSide && t.hostInterpFunc(o):
			return // hostFuncCall
		case !def && useSide && !declSide:
			if tn, ok := o.(*types.TypeName); ok {
				t.add(file, id.Pos(), id.End(), t.bridgeOf(tn).name)
				return
			}
			t.errs = append(t.errs, fmt.Sprintf("%s: pyrt code uses host %s (add a pre-rewrite or a moveDecls entry)", t.fset.Position(id.Pos()), o.Name()))
			return
		}
	}
	if name != o.Name() {
		t.add(file, id.Pos(), id.End(), name)
	}
}

func (t *tool) wholeMoves(file string) bool {
	any := false
	for _, dd := range t.decls {
		if dd.file == file {
			if !dd.move {
				return false
			}
			any = true
		}
	}
	return any || moveFiles.MatchString(base(file))
}

// render returns the source of [pos, end) with the edits inside it.
func (t *tool) render(file string, pos, end token.Pos) string {
	return t.renderOff(file, t.fset.Position(pos).Offset, t.fset.Position(end).Offset)
}

func (t *tool) renderOff(file string, p, e int) string {
	src := t.src[file]
	var in []edit
	for _, x := range t.edits[file] {
		if x.pos >= p && x.end <= e {
			in = append(in, x)
		}
	}
	sort.SliceStable(in, func(i, j int) bool {
		if in[i].pos != in[j].pos {
			return in[i].pos < in[j].pos
		}
		return in[i].end < in[j].end
	})
	var sb strings.Builder
	at := p
	for _, x := range in {
		if x.pos < at {
			continue // overlapped by a wider edit
		}
		sb.Write(src[at:x.pos])
		sb.WriteString(x.text)
		at = x.end
	}
	sb.Write(src[at:e])
	return sb.String()
}

// declRange is a declaration with its doc comment, through the end of its
// last line.
func (t *tool) declRange(file string, d ast.Decl) (int, int) {
	pos := d.Pos()
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Doc != nil {
			pos = d.Doc.Pos()
		}
	case *ast.GenDecl:
		if d.Doc != nil {
			pos = d.Doc.Pos()
		}
	}
	p, e := t.fset.Position(pos).Offset, t.fset.Position(d.End()).Offset
	src := t.src[file]
	for e < len(src) && src[e] != '\n' {
		e++
	}
	if e < len(src) {
		e++
	}
	return p, e
}

func (t *tool) importText(file string) string {
	f := t.files[file]
	var sb strings.Builder
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			sb.WriteString(t.render(file, g.Pos(), g.End()))
			sb.WriteString("\n")
		}
	}
	return sb.String()
}

// write writes the new tree under dir (the repl directory).
func (t *tool) write(dir string) error {
	out := map[string]string{} // path relative to dir -> source
	t.cutInterp()
	for file := range t.files {
		b := base(file)
		if isTest(b) {
			out[b] = t.renderOff(file, 0, len(t.src[file]))
			continue
		}
		var moved []*decl
		for _, dd := range t.decls {
			if dd.file == file && dd.move {
				moved = append(moved, dd)
			}
		}
		if len(moved) == 0 {
			out[b] = t.renderOff(file, 0, len(t.src[file]))
			continue
		}
		if t.wholeMoves(file) {
			out["pyrt/"+b] = t.renderOff(file, 0, len(t.src[file]))
			out[b] = "" // removed
			continue
		}
		sort.Slice(moved, func(i, j int) bool { return moved[i].node.Pos() < moved[j].node.Pos() })
		var keep, take strings.Builder
		at := 0
		take.WriteString("// Moved from repl/" + b + " by the split.\n\npackage pyrt\n\n" + t.importText(file) + "\n")
		for _, dd := range moved {
			p, e := t.declRange(file, dd.node)
			keep.WriteString(t.renderOff(file, at, p))
			take.WriteString(t.renderOff(file, p, e) + "\n")
			at = e
		}
		keep.WriteString(t.renderOff(file, at, len(t.src[file])))
		out[b] = keep.String()
		out["pyrt/"+b] = take.String()
	}
	for name, src := range t.generated() {
		out[name] = src
	}
	if err := os.MkdirAll(filepath.Join(dir, "pyrt"), 0o755); err != nil {
		return err
	}
	for name, src := range out {
		p := filepath.Join(dir, name)
		if src == "" {
			if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
				return err
			}
			continue
		}
		if !strings.HasPrefix(name, "pyrt/") && strings.Contains(src, "pyrt.") {
			src = addImport(src, pyrtPath)
		}
		res, err := imports.Process(p, []byte(src), &imports.Options{Comments: true, TabIndent: true, TabWidth: 8, FormatOnly: false})
		if err != nil {
			os.WriteFile(p+".broken", []byte(src), 0o644)
			t.errs = append(t.errs, fmt.Sprintf("%s: %v", name, err))
			continue
		}
		if err := os.WriteFile(p, res, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func addImport(src, path string) string {
	if i := strings.Index(src, "\nimport (\n"); i >= 0 {
		return src[:i] + "\nimport (\n\t\"" + path + "\"\n" + src[i+len("\nimport (\n"):]
	}
	if i := strings.Index(src, "\nimport \""); i >= 0 {
		return src[:i] + "\nimport \"" + path + "\"" + src[i:]
	}
	// after the package clause
	i := strings.Index(src, "\npackage ")
	if strings.HasPrefix(src, "package ") {
		i = 0
	}
	j := strings.Index(src[i+1:], "\n") + i + 1
	return src[:j+1] + "\nimport \"" + path + "\"\n" + src[j+1:]
}

// cutInterp takes the runtime's fields out of repl's interp struct (they
// go to pyrt.Interp) and embeds *pyrt.Interp in their place.
func (t *tool) cutInterp() {
	file := t.fset.File(t.interpT.Pos()).Name()
	var st *ast.StructType
	ast.Inspect(t.files[file], func(n ast.Node) bool {
		if ts, ok := n.(*ast.TypeSpec); ok && ts.Name.Name == "interp" {
			st, _ = ts.Type.(*ast.StructType)
		}
		return st == nil
	})
	var sb strings.Builder
	src := t.src[file]
	for _, f := range st.Fields.List {
		rt, host := 0, 0
		for _, n := range f.Names {
			if t.rtField[t.info.Defs[n].(*types.Var)] {
				rt++
			} else {
				host++
			}
		}
		if rt == 0 {
			continue
		}
		if host > 0 {
			t.errs = append(t.errs, fmt.Sprintf("interp field group %v mixes runtime and host fields", f.Names))
		}
		pos := f.Pos()
		if f.Doc != nil {
			pos = f.Doc.Pos()
		}
		p := t.fset.Position(pos).Offset
		for p > 0 && src[p-1] != '\n' {
			p--
		}
		e := t.fset.Position(f.End()).Offset
		for e < len(src) && src[e] != '\n' {
			e++
		}
		e++
		sb.WriteString(t.renderOff(file, p, e))
		t.edits[file] = append(t.edits[file], edit{p, e, ""})
		t.dropInside(file, p, e)
	}
	open := t.fset.Position(st.Fields.Opening).Offset + 1
	t.edits[file] = append(t.edits[file], edit{open, open, "\n\t*pyrt.Interp // the runtime's state (package pyrt)\n"})
	t.interpFields = strings.ReplaceAll(sb.String(), "pyrt.", "")
	t.interpImports = t.importText(file)
}

// typeStr prints tp as pyrt's code (pyrt true) or repl's names it.
func (t *tool) typeStr(tp types.Type, pyrt bool) string {
	switch x := tp.(type) {
	case *types.Basic:
		return x.Name()
	case *types.Alias:
		o := x.Obj()
		if o.Pkg() == nil {
			return o.Name()
		}
		return t.namedStr(o, pyrt, false)
	case *types.Named:
		s := t.namedStr(x.Obj(), pyrt, false)
		if ta := x.TypeArgs(); ta != nil && ta.Len() > 0 {
			var args []string
			for i := 0; i < ta.Len(); i++ {
				args = append(args, t.typeStr(ta.At(i), pyrt))
			}
			s += "[" + strings.Join(args, ", ") + "]"
		}
		return s
	case *types.Pointer:
		if n, ok := x.Elem().(*types.Named); ok && pyrt && t.hostType(n) != nil {
			return t.bridgeOf(n.Obj()).name
		}
		if n, ok := x.Elem().(*types.Named); ok && t.impl && t.hostType(n) != nil {
			return "pyrt." + t.bridgeOf(n.Obj()).name
		}
		return "*" + t.typeStr(x.Elem(), pyrt)
	case *types.Slice:
		return "[]" + t.typeStr(x.Elem(), pyrt)
	case *types.Array:
		return fmt.Sprintf("[%d]%s", x.Len(), t.typeStr(x.Elem(), pyrt))
	case *types.Map:
		return "map[" + t.typeStr(x.Key(), pyrt) + "]" + t.typeStr(x.Elem(), pyrt)
	case *types.Chan:
		switch x.Dir() {
		case types.SendOnly:
			return "chan<- " + t.typeStr(x.Elem(), pyrt)
		case types.RecvOnly:
			return "<-chan " + t.typeStr(x.Elem(), pyrt)
		}
		return "chan " + t.typeStr(x.Elem(), pyrt)
	case *types.Signature:
		return "func" + t.sigStr(x, pyrt, nil)
	case *types.Interface:
		if x.Empty() {
			return "any"
		}
	}
	return types.TypeString(tp, func(p *types.Package) string { return p.Name() })
}

func (t *tool) namedStr(o *types.TypeName, pyrt, _ bool) string {
	if o.Pkg() == nil {
		return o.Name()
	}
	if o.Pkg() != t.pkg.Types {
		return o.Pkg().Name() + "." + o.Name()
	}
	if o == t.interpT {
		if pyrt {
			return "Interp"
		}
		return "pyrt.Interp"
	}
	name := o.Name()
	if n, ok := t.export[o]; ok {
		name = n
	}
	switch {
	case t.moved[o] && pyrt:
		return name
	case t.impl && !t.moved[o]:
		return "pyrt." + t.bridgeOf(o).name
	case t.moved[o]:
		if !token.IsExported(name) {
			t.export[o] = upper(name)
			name = upper(name)
		}
		return "pyrt." + name
	case pyrt:
		return t.bridgeOf(o).name
	}
	return name
}

// sigStr prints "(p0 T0, p1 ...T1) (R0, R1)"; names, when given, are the
// parameter names.
func (t *tool) sigStr(sig *types.Signature, pyrt bool, names []string) string {
	var ps []string
	for i := 0; i < sig.Params().Len(); i++ {
		tp := sig.Params().At(i).Type()
		s := t.typeStr(tp, pyrt)
		if sig.Variadic() && i == sig.Params().Len()-1 {
			s = "..." + t.typeStr(tp.(*types.Slice).Elem(), pyrt)
		}
		if names != nil {
			s = names[i] + " " + s
		}
		ps = append(ps, s)
	}
	var rs []string
	for i := 0; i < sig.Results().Len(); i++ {
		rs = append(rs, t.typeStr(sig.Results().At(i).Type(), pyrt))
	}
	s := "(" + strings.Join(ps, ", ") + ")"
	switch len(rs) {
	case 0:
	case 1:
		s += " " + rs[0]
	default:
		s += " (" + strings.Join(rs, ", ") + ")"
	}
	return s
}

// generated: pyrt/interp.go, pyrt/host_gen.go and repl/host_pyrt_gen.go.
func (t *tool) generated() map[string]string {
	out := map[string]string{}
	out["pyrt/interp.go"] = "// The runtime's state of one interpreter generation.\n\npackage pyrt\n\n" + t.interpImports +
		"\n// Interp is one generation of the runtime's Starlark state: the thread,\n" +
		"// the globals and everything the runtime's builtins reach. package repl\n" +
		"// embeds it in its interpreter and fills in Host.\n" +
		"type Interp struct {\n" + t.interpFields +
		"\n\t// Host is the REPL around this runtime (package repl): the call in\n\t// progress, the memory limit, the host's own builtins.\n\tHost Host\n}\n"

	var hb, rb strings.Builder
	hb.WriteString("// Code generated by the split tool (/work/notes/split); DO NOT EDIT.\n\npackage pyrt\n\n")
	rb.WriteString("// Code generated by the split tool (/work/notes/split); DO NOT EDIT.\n\npackage repl\n\n")
	hb.WriteString("// Host is what the runtime asks of the REPL around it (package repl);\n// repl's pyrtHost implements it.\ntype Host interface {\n")
	rb.WriteString("// pyrtHost is the runtime's Host: its interp.\ntype pyrtHost struct{ r *interp }\n\n")
	for _, name := range sortedKeys(t.hostM) {
		fn := t.hostM[name]
		sig := fn.Type().(*types.Signature)
		hb.WriteString("\t" + name + t.sigStr(sig, true, nil) + "\n")
		t.forward(&rb, "h pyrtHost", "h.r."+fn.Name(), name, sig)
	}
	for _, name := range sortedKeys(t.hostF) {
		fn := t.hostF[name]
		sig := fn.Type().(*types.Signature)
		rest := types.NewSignatureType(nil, nil, nil, types.NewTuple(tupleVars(sig.Params())[1:]...), sig.Results(), sig.Variadic())
		hb.WriteString("\t" + name + t.sigStr(rest, true, nil) + "\n")
		t.forward(&rb, "h pyrtHost", fn.Name()+"(h.r, ", name, rest)
	}
	for _, name := range sortedKeys(t.hostFld) {
		v := t.hostFld[name]
		sig := types.NewSignatureType(nil, nil, nil, nil, types.NewTuple(types.NewVar(0, nil, "", v.Type())), false)
		hb.WriteString("\t" + name + t.sigStr(sig, true, nil) + "\n")
		t.forward(&rb, "h pyrtHost", "h.r."+v.Name(), name, sig)
	}
	hb.WriteString("}\n")
	for _, tn := range sortedBridges(t.bridges) {
		b := t.bridges[tn]
		hb.WriteString("\n// " + b.name + " is the REPL's " + tn.Name() + " as the runtime sees it.\ntype " + b.name + " interface {\n")
		for _, m := range sortedKeys(b.methods) {
			fn := b.methods[m]
			sig := fn.Type().(*types.Signature)
			hb.WriteString("\t" + m + t.sigStr(sig, true, nil) + "\n")
			if m != fn.Name() {
				t.forward(&rb, "x *"+tn.Name(), "x."+fn.Name(), m, sig)
			}
		}
		for _, g := range sortedKeys(b.fields) {
			v := b.fields[g]
			sig := types.NewSignatureType(nil, nil, nil, nil, types.NewTuple(types.NewVar(0, nil, "", v.Type())), false)
			hb.WriteString("\t" + g + "() " + t.typeStr(v.Type(), true) + "\n")
			val := "x." + v.Name()
			if t.hostType(v.Type()) != nil {
				if _, ptr := v.Type().(*types.Pointer); !ptr {
					val = "&" + val
				}
			}
			t.forward(&rb, "x *"+tn.Name(), val, g, sig)
		}
		hb.WriteString("}\n")
	}
	out["pyrt/host_gen.go"] = hb.String()
	out["host_pyrt_gen.go"] = rb.String()
	return out
}

// forward writes a method of recv named name calling target, converting a
// bridged pointer result to its interface (nil stays nil).
func (t *tool) forward(sb *strings.Builder, recv, target, name string, sig *types.Signature) {
	var names, args []string
	for i := 0; i < sig.Params().Len(); i++ {
		names = append(names, fmt.Sprintf("p%d", i))
		a := names[i]
		if sig.Variadic() && i == sig.Params().Len()-1 {
			a += "..."
		}
		if t.isInterpPtr(sig.Params().At(i).Type()) {
			a += ".Host.(pyrtHost).r"
		}
		if tn := t.hostType(sig.Params().At(i).Type()); tn != nil {
			a += ".(*" + tn.Name() + ")"
		}
		args = append(args, a)
	}
	t.impl = true
	fmt.Fprintf(sb, "func (%s) %s%s {\n", recv, name, t.sigStr(sig, false, names))
	t.impl = false
	call := target + "(" + strings.Join(args, ", ") + ")"
	if strings.HasSuffix(target, ", ") {
		call = strings.TrimSuffix(target, ", ") + ")"
		if len(args) > 0 {
			call = target + strings.Join(args, ", ") + ")"
		}
	} else if sig.Params().Len() == 0 && sig.Results().Len() == 1 && (strings.HasPrefix(target, "h.r.") && t.isField(target) || strings.HasPrefix(target, "&") || strings.HasPrefix(target, "x.") && !t.isMethodTarget(target)) {
		call = target
	}
	res := sig.Results()
	switch {
	case res.Len() == 0:
		sb.WriteString("\t" + call + "\n")
	case res.Len() == 1 && t.hostType(res.At(0).Type()) != nil:
		if _, ptr := res.At(0).Type().(*types.Pointer); ptr {
			sb.WriteString("\tif v := " + call + "; v != nil {\n\t\treturn v\n\t}\n\treturn nil\n")
		} else {
			sb.WriteString("\treturn " + call + "\n")
		}
	default:
		sb.WriteString("\treturn " + call + "\n")
	}
	sb.WriteString("}\n\n")
}

func sortedKeys[V any](m map[string]V) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func sortedBridges(m map[*types.TypeName]*bridge) []*types.TypeName {
	var ks []*types.TypeName
	for k := range m {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool { return ks[i].Name() < ks[j].Name() })
	return ks
}

func tupleVars(t *types.Tuple) []*types.Var {
	var vs []*types.Var
	for i := 0; i < t.Len(); i++ {
		vs = append(vs, t.At(i))
	}
	return vs
}

func (t *tool) isField(target string) bool {
	for _, v := range t.hostFld {
		if target == "h.r."+v.Name() {
			return true
		}
	}
	return false
}

// hostFuncCall: pyrt code calling a host function f(r, args) whose first
// parameter is the interpreter calls r.Host.F(args).
func (t *tool) hostFuncCall(file string, call *ast.CallExpr) {
	dd := t.declAt(file, call.Pos())
	if dd == nil || !dd.move || len(call.Args) == 0 {
		return
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return
	}
	fn, ok := t.info.Uses[id].(*types.Func)
	if !ok || fn.Pkg() != t.pkg.Types || t.moved[fn] || fn.Parent() != t.pkg.Types.Scope() {
		return
	}
	sig := fn.Type().(*types.Signature)
	if sig.Params().Len() == 0 || !t.isInterpPtr(sig.Params().At(0).Type()) {
		return
	}
	name := upper(fn.Name())
	t.hostF[name] = fn
	first := t.render(file, call.Args[0].Pos(), call.Args[0].End())
	end := call.Args[0].End()
	if len(call.Args) > 1 {
		end = call.Args[1].Pos()
	}
	p, e := t.fset.Position(call.Fun.Pos()).Offset, t.fset.Position(end).Offset
	t.dropInside(file, p, e)
	t.edits[file] = append(t.edits[file], edit{p, e, first + ".Host." + name + "("})
	t.done[id] = true
}

// mustRead reads a file of the tool's directory (the one run.sh is in).
func mustRead(name string) string {
	exe, _ := os.Getwd()
	for _, dir := range []string{os.Getenv("SPLIT_HOME"), exe, "/work/notes/split"} {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
			return strings.TrimSpace(string(b))
		}
	}
	panic("no " + name)
}

// isMethodTarget: "x.name" names a method of a bridged type.
func (t *tool) isMethodTarget(target string) bool {
	name := strings.TrimPrefix(target, "x.")
	for _, b := range t.bridges {
		for _, m := range b.methods {
			if m.Name() == name {
				return true
			}
		}
	}
	return false
}

func embeddedIdent(e ast.Expr) *ast.Ident {
	switch x := e.(type) {
	case *ast.StarExpr:
		return embeddedIdent(x.X)
	case *ast.Ident:
		return x
	case *ast.SelectorExpr:
		return x.Sel
	case *ast.IndexExpr:
		return embeddedIdent(x.X)
	}
	return nil
}

func (t *tool) namedObj(tp types.Type) *types.TypeName {
	if p, ok := tp.(*types.Pointer); ok {
		tp = p.Elem()
	}
	if n, ok := tp.(*types.Named); ok && n.Obj().Pkg() == t.pkg.Types {
		return n.Obj()
	}
	return nil
}
