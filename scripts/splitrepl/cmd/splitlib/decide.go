package main

import (
	"go/ast"
	"go/token"
	"go/types"
	"unicode"
	"unicode/utf8"

	"golang.org/x/tools/go/packages"
)

// eachUse calls fn for every use of a pyrt object in the files each
// package owns.
func (t *tool) eachUse(fn func(p *packages.Package, id *ast.Ident, obj types.Object)) {
	for _, p := range t.pkgs {
		for id, obj := range p.TypesInfo.Uses {
			if obj.Pkg() == nil || obj.Pkg() != t.pyrt.Types {
				continue
			}
			if t.owner[t.fset.Position(id.Pos()).Filename] != p {
				continue
			}
			fn(p, id, obj)
		}
	}
}

// decide finds the methods that become functions, the names that must be
// exported and the uses against the layers.
func (t *tool) decide() {
	t.findMakers()
	t.findFnize()
	t.findOwners()
	methodNames := map[string]bool{}
	t.eachUse(func(p *packages.Package, id *ast.Ident, obj types.Object) {
		from, to := t.where(id.Pos()), t.where(obj.Pos())
		if from == to {
			return
		}
		switch {
		case to != "pyrt" && from == "pyrt":
			if !t.inMakers(id.Pos()) {
				t.errorf(id.Pos(), "the runtime uses %s of %s", obj.Name(), to)
			}
			return
		case to != "pyrt" && from != "pyrt" && !isExt(from):
			t.errorf(id.Pos(), "%s uses %s of %s", from, obj.Name(), to)
			return
		}
		if obj.Exported() {
			return
		}
		if fn, ok := obj.(*types.Func); ok && fn.Type().(*types.Signature).Recv() != nil {
			if !t.fnize[fn] {
				methodNames[fn.Name()] = true
			}
			return
		}
		if a, ok := t.alias[obj.Name()]; ok && obj.Parent() == t.pyrt.Types.Scope() {
			t.aliasOf[obj] = a
			return
		}
		t.rename[obj] = t.exportName(obj)
	})
	t.unkeyedLiterals()
	// Methods declared on both sides keep implementing each other's
	// interfaces: their names are exported on both.
	side := map[string]map[bool]bool{}
	ifaceMethods := map[string]bool{}
	for _, obj := range t.pyrt.TypesInfo.Defs {
		if fn, ok := obj.(*types.Func); ok && fn.Type().(*types.Signature).Recv() != nil {
			if types.IsInterface(fn.Type().(*types.Signature).Recv().Type()) {
				ifaceMethods[fn.Name()] = true
			}
		}
	}
	for id, obj := range t.pyrt.TypesInfo.Defs {
		if fn, ok := obj.(*types.Func); ok && fn.Type().(*types.Signature).Recv() != nil && !t.fnize[fn] && !fn.Exported() && ifaceMethods[fn.Name()] {
			if side[fn.Name()] == nil {
				side[fn.Name()] = map[bool]bool{}
			}
			side[fn.Name()][t.where(id.Pos()) == "pyrt"] = true
		}
	}
	for n, s := range side {
		if s[true] && s[false] {
			methodNames[n] = true
		}
	}
	for id, obj := range t.pyrt.TypesInfo.Defs {
		if fn, ok := obj.(*types.Func); ok && methodNames[fn.Name()] && fn.Type().(*types.Signature).Recv() != nil {
			if t.fnize[fn] {
				t.errorf(id.Pos(), "method %s of *Interp is also an interface's", fn.Name())
			}
			t.rename[fn] = t.exportName(fn)
		}
	}
	// An embedded field is named after its type.
	for _, obj := range t.pyrt.TypesInfo.Defs {
		if v, ok := obj.(*types.Var); ok && v.Embedded() {
			if tn := namedOf(v.Type()); tn != nil && t.rename[tn] != "" {
				t.rename[v] = t.rename[tn]
			}
		}
	}
}

func isExt(w string) bool { return len(w) > 4 && w[:4] == "ext:" }

func namedOf(typ types.Type) *types.TypeName {
	if p, ok := typ.(*types.Pointer); ok {
		typ = p.Elem()
	}
	if n, ok := typ.(*types.Named); ok {
		return n.Obj()
	}
	return nil
}

func (t *tool) exportName(obj types.Object) string {
	name := obj.Name()
	if tn := t.owners[obj]; tn != nil {
		if n, ok := t.names[tn.Name()+"."+name]; ok {
			return n
		}
	}
	if n, ok := t.names[name]; ok {
		return n
	}
	r, size := utf8.DecodeRuneInString(name)
	if r == '_' {
		return "X" + name
	}
	return string(unicode.ToUpper(r)) + name[size:]
}

// keyIt is an element of an unkeyed literal that gets its field's name.
type keyIt struct {
	file string
	elt  ast.Expr
	f    *types.Var
}

// unkeyedLiterals keys, and exports every field of, a pyrt struct that
// moving code builds with an unkeyed literal.
func (t *tool) unkeyedLiterals() {
	for file, lib := range t.dest {
		if lib == "" {
			continue
		}
		ast.Inspect(t.files[file], func(n ast.Node) bool {
			cl, ok := n.(*ast.CompositeLit)
			if !ok || len(cl.Elts) == 0 {
				return true
			}
			if _, keyed := cl.Elts[0].(*ast.KeyValueExpr); keyed {
				return true
			}
			tn := namedOf(t.pyrt.TypesInfo.Types[cl].Type)
			if tn == nil || tn.Pkg() != t.pyrt.Types || t.where(tn.Pos()) != "pyrt" {
				return true
			}
			st := tn.Type().Underlying().(*types.Struct)
			for i := 0; i < st.NumFields(); i++ {
				f := st.Field(i)
				if !f.Exported() {
					t.rename[f] = t.exportName(f)
				}
				t.keyed = append(t.keyed, keyIt{file, cl.Elts[i], f})
			}
			return true
		})
	}
}

// findOwners records the type of each field and method of pyrt's types.
func (t *tool) findOwners() {
	for _, obj := range t.pyrt.TypesInfo.Defs {
		tn, ok := obj.(*types.TypeName)
		if !ok || tn.Pkg() != t.pyrt.Types {
			continue
		}
		if st, ok := tn.Type().Underlying().(*types.Struct); ok {
			for i := 0; i < st.NumFields(); i++ {
				t.owners[st.Field(i)] = tn
			}
		}
		if n, ok := tn.Type().(*types.Named); ok {
			for i := 0; i < n.NumMethods(); i++ {
				t.owners[n.Method(i)] = tn
			}
		}
	}
}

// findFnize marks the methods of *Interp declared in moving files.
func (t *tool) findFnize() {
	for file, lib := range t.dest {
		if lib == "" {
			continue
		}
		for _, d := range t.files[file].Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil {
				continue
			}
			fn := t.pyrt.TypesInfo.Defs[fd.Name].(*types.Func)
			recv := namedOf(fn.Type().(*types.Signature).Recv().Type())
			switch {
			case recv == t.interp:
				t.fnize[fn] = true
			case t.where(recv.Pos()) != lib:
				t.errorf(fd.Pos(), "method %s of %s, a type of %s", fn.Name(), recv.Name(), t.where(recv.Pos()))
			}
		}
	}
	for file, f := range t.files {
		if t.owner[file] != t.pyrt || t.dest[file] != "" {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil {
				fn := t.pyrt.TypesInfo.Defs[fd.Name].(*types.Func)
				if recv := namedOf(fn.Type().(*types.Signature).Recv().Type()); t.where(recv.Pos()) != "pyrt" {
					t.errorf(fd.Pos(), "method %s of %s, a type of %s", fn.Name(), recv.Name(), t.where(recv.Pos()))
				}
			}
		}
	}
}

// findMakers finds the composite literal assigned to ModuleMakers.
func (t *tool) findMakers() {
	obj := t.pyrt.Types.Scope().Lookup("ModuleMakers")
	for file, f := range t.files {
		if t.owner[file] != t.pyrt {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == 1 {
				if id, ok := as.Lhs[0].(*ast.Ident); ok && t.pyrt.TypesInfo.Uses[id] == obj {
					t.makerLit, _ = as.Rhs[0].(*ast.CompositeLit)
				}
			}
			return true
		})
	}
	if t.makerLit == nil {
		t.errs = append(t.errs, "no ModuleMakers = map...{...} assignment in pyrt")
	}
}

func (t *tool) inMakers(pos token.Pos) bool {
	return t.makerLit != nil && pos >= t.makerLit.Lbrace && pos < t.makerLit.Rbrace
}

// checkCollisions refuses a new name that is already taken where it lands.
func (t *tool) checkCollisions() {
	taken := map[string]map[string]types.Object{} // package -> name -> object
	claim := func(pkg, name string, obj types.Object) {
		if taken[pkg] == nil {
			taken[pkg] = map[string]types.Object{}
		}
		if o, ok := taken[pkg][name]; ok && o != obj {
			t.errorf(obj.Pos(), "%s: name %s of %s is taken by %s (add a name rule)", pkg, name, obj.Name(), o.Name())
		}
		taken[pkg][name] = obj
	}
	scope := t.pyrt.Types.Scope()
	for _, n := range scope.Names() {
		obj := scope.Lookup(n)
		claim(t.where(obj.Pos()), t.newName(obj), obj)
	}
	for fn := range t.fnize {
		claim(t.where(fn.Pos()), fn.Name(), fn)
	}
	for _, obj := range t.pyrt.TypesInfo.Defs {
		tn, ok := obj.(*types.TypeName)
		if !ok || tn.Pkg() != t.pyrt.Types {
			continue
		}
		t.checkMembers(tn)
	}
}

// checkMembers refuses two fields or methods of one type under one name.
func (t *tool) checkMembers(tn *types.TypeName) {
	seen := map[string]types.Object{}
	add := func(obj types.Object) {
		n := t.newName(obj)
		if o, ok := seen[n]; ok && o != obj {
			t.errorf(obj.Pos(), "type %s: %s and %s would both be %s", tn.Name(), o.Name(), obj.Name(), n)
		}
		seen[n] = obj
	}
	if st, ok := tn.Type().Underlying().(*types.Struct); ok {
		for i := 0; i < st.NumFields(); i++ {
			add(st.Field(i))
		}
	}
	if it, ok := tn.Type().Underlying().(*types.Interface); ok {
		for i := 0; i < it.NumMethods(); i++ {
			add(it.Method(i))
		}
	}
	if n, ok := tn.Type().(*types.Named); ok {
		for i := 0; i < n.NumMethods(); i++ {
			if !t.fnize[n.Method(i)] {
				add(n.Method(i))
			}
		}
	}
}

func (t *tool) newName(obj types.Object) string {
	if n := t.rename[obj]; n != "" {
		return n
	}
	return obj.Name()
}
