package main

import (
	"bytes"
	"go/ast"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

func (t *tool) add(file string, start, end int, text string) {
	if t.edits[file] == nil {
		t.edits[file] = map[int]edit{}
	}
	key := start*2 + 1
	if start == end {
		key = start * 2 // inserts before the edit starting there
	}
	t.edits[file][key] = edit{start, end, text}
}

func (t *tool) offset(p ast.Node) (string, int, int) {
	s, e := t.fset.Position(p.Pos()), t.fset.Position(p.End())
	return s.Filename, s.Offset, e.Offset
}

func (t *tool) need(file, path string) {
	if t.imports[file] == nil {
		t.imports[file] = map[string]bool{}
	}
	t.imports[file][path] = true
}

// qual is how code landing in from names the package-level name of obj.
func (t *tool) qual(obj types.Object, from string) string {
	to, name := t.where(obj.Pos()), t.newName(obj)
	if a, ok := t.aliasOf[obj]; ok && to != from {
		name = a
	}
	switch {
	case to == from:
		return name
	case to == "pyrt":
		return "pyrt." + name
	}
	return libName(to) + "." + name
}

func (t *tool) editAll() {
	for _, p := range t.pkgs {
		t.renames(p, p.TypesInfo.Defs)
		t.renames(p, p.TypesInfo.Uses)
	}
	t.eachUse(t.qualify)
	t.fnizeDecls()
	t.fnizeUses()
	t.moveMakers()
	for _, k := range t.keyed {
		_, s, _ := t.offset(k.elt)
		t.add(k.file, s, s, t.newName(k.f)+": ")
	}
	for file, lib := range t.dest {
		if lib != "" {
			f := t.files[file]
			_, s, e := t.offset(f.Name)
			t.add(file, s, e, libName(lib))
			t.need(file, pyrtPath)
		}
	}
}

func (t *tool) renames(p *packages.Package, m map[*ast.Ident]types.Object) {
	for id, obj := range m {
		if n := t.rename[obj]; n != "" && t.owner[t.fset.Position(id.Pos()).Filename] == p {
			file, s, e := t.offset(id)
			t.add(file, s, e, n)
		}
	}
}

// qualify names what moved, or what it uses of pyrt, with its package.
func (t *tool) qualify(p *packages.Package, id *ast.Ident, obj types.Object) {
	if obj.Parent() != t.pyrt.Types.Scope() {
		return
	}
	from, to := t.where(id.Pos()), t.where(obj.Pos())
	if from == to || t.inMakers(id.Pos()) {
		return
	}
	file, s, e := t.offset(id)
	if from == "ext:"+libPath(to) {
		// a file of the package the declaration moves into: pyrt.X is X
		if sel := t.selOf[id]; sel != nil {
			file, s, e = t.offset(sel)
			t.add(file, s, e, t.newName(obj))
		}
		return
	}
	if isExt(from) {
		if to == "pyrt" {
			return
		}
		sel := t.selOf[id]
		file, s, e = t.offset(sel)
		t.need(file, libPath(to))
	} else if to == "pyrt" {
		t.need(file, pyrtPath)
	}
	t.add(file, s, e, t.qual(obj, from))
}

// fnizeDecls turns func (r *Interp) m(a A) into func m(r *pyrt.Interp, a A).
func (t *tool) fnizeDecls() {
	for fn := range t.fnize {
		file := t.fset.Position(fn.Pos()).Filename
		for _, d := range t.files[file].Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || t.pyrt.TypesInfo.Defs[fd.Name] != fn {
				continue
			}
			recv := "_"
			if names := fd.Recv.List[0].Names; len(names) > 0 {
				recv = names[0].Name
			}
			_, s, _ := t.offset(fd.Recv)
			_, e, _ := t.offset(fd.Name)
			t.add(file, s, e, "")
			open := t.fset.Position(fd.Type.Params.Opening).Offset + 1
			text := recv + " *pyrt.Interp"
			if fd.Type.Params.NumFields() > 0 {
				text += ", "
			}
			t.add(file, open, open, text)
		}
	}
}

type fnUse struct {
	p   *packages.Package
	sel *ast.SelectorExpr
	fn  *types.Func
}

// fnizeUses rewrites the calls, method values and method expressions of
// the methods that became functions, inner receivers first.
func (t *tool) fnizeUses() {
	var uses []fnUse
	t.eachUse(func(p *packages.Package, id *ast.Ident, obj types.Object) {
		if fn, ok := obj.(*types.Func); ok && t.fnize[fn] {
			uses = append(uses, fnUse{p, t.selOf[id], fn})
		}
	})
	sort.Slice(uses, func(i, j int) bool {
		return uses[i].sel.X.End()-uses[i].sel.X.Pos() < uses[j].sel.X.End()-uses[j].sel.X.Pos()
	})
	for _, u := range uses {
		t.fnizeUse(u)
	}
}

func (t *tool) fnizeUse(u fnUse) {
	from := t.where(u.sel.Pos())
	if from == "ext:"+libPath(t.where(u.fn.Pos())) {
		from = t.where(u.fn.Pos()) // a file of the package the method moves into
	}
	name := t.qual(u.fn, from)
	if !strings.HasPrefix(from, "ext:") && t.where(u.fn.Pos()) != from && !t.inMakers(u.sel.Pos()) {
		t.errorf(u.sel.Pos(), "%s calls %s of %s", from, u.fn.Name(), t.where(u.fn.Pos()))
	}
	file, s, e := t.offset(u.sel)
	if isExt(from) {
		t.need(file, libPath(t.where(u.fn.Pos())))
	}
	selection := u.p.TypesInfo.Selections[u.sel]
	if selection.Kind() == types.MethodExpr {
		t.add(file, s, e, name)
		return
	}
	recv, typ := t.render(u.sel.X), u.p.TypesInfo.Types[u.sel.X].Type
	for _, i := range selection.Index()[:len(selection.Index())-1] { // through embedded fields
		if p, ok := typ.(*types.Pointer); ok {
			typ = p.Elem()
		}
		f := typ.Underlying().(*types.Struct).Field(i)
		recv, typ = recv+"."+f.Name(), f.Type()
	}
	if _, ptr := typ.(*types.Pointer); !ptr {
		recv = "&" + recv
	}
	if call := t.callOf[u.sel]; call != nil && ast.Unparen(call.Fun) == u.sel {
		text := name + "(" + recv
		if len(call.Args) > 0 {
			text += ", "
		}
		t.add(file, s, t.fset.Position(call.Lparen).Offset+1, text)
		return
	}
	t.add(file, s, e, t.closure(u.fn, name, recv, from))
}

// closure is a function literal calling name with recv first.
func (t *tool) closure(fn *types.Func, name, recv, from string) string {
	sig := fn.Type().(*types.Signature)
	q := func(p *types.Package) string {
		if p == t.pyrt.Types {
			return "pyrt"
		}
		return p.Name()
	}
	var params, args []string
	for i := 0; i < sig.Params().Len(); i++ {
		v := sig.Params().At(i)
		ts := types.TypeString(v.Type(), q)
		a := "p" + string(rune('0'+i))
		if sig.Variadic() && i == sig.Params().Len()-1 {
			ts = "..." + strings.TrimPrefix(ts, "[]")
			a += "..."
		}
		params = append(params, "p"+string(rune('0'+i))+" "+ts)
		args = append(args, a)
	}
	res := types.TypeString(sig.Results(), q)
	if sig.Results().Len() == 1 {
		res = strings.Trim(res, "()")
	}
	call := name + "(" + strings.Join(append([]string{recv}, args...), ", ") + ")"
	if sig.Results().Len() > 0 {
		call = "return " + call
	}
	return "func(" + strings.Join(params, ", ") + ") " + res + " { " + call + " }"
}

// moveMakers takes the entries of the modules that moved out of
// ModuleMakers, for their packages' Modules.
func (t *tool) moveMakers() {
	if t.makerLit == nil {
		return
	}
	for _, elt := range t.makerLit.Elts {
		kv := elt.(*ast.KeyValueExpr)
		var id *ast.Ident
		switch v := kv.Value.(type) {
		case *ast.SelectorExpr:
			id = v.Sel
		case *ast.Ident:
			id = v
		default:
			continue
		}
		obj := t.pyrt.TypesInfo.Uses[id]
		lib := t.where(obj.Pos())
		if lib == "pyrt" {
			continue
		}
		file, s, e := t.offset(kv)
		src := t.srcs[file]
		for s > 0 && src[s-1] != '\n' {
			s--
		}
		for e < len(src) && src[e-1] != '\n' {
			e++
		}
		t.add(file, s, e, "")
		key := string(src[t.fset.Position(kv.Key.Pos()).Offset:t.fset.Position(kv.Key.End()).Offset])
		t.makers[lib] = append(t.makers[lib], [2]string{key, t.newName(obj)})
	}
}

// render is the source of n with the edits inside it made.
func (t *tool) render(n ast.Node) string {
	file, s, e := t.offset(n)
	return string(t.apply(file, s, e))
}

// apply is src[s:e] of file with the edits inside it made; an edit inside
// another is the outer's business.
func (t *tool) apply(file string, s, e int) []byte {
	var keys []int
	for k, ed := range t.edits[file] {
		if ed.start >= s && ed.end <= e {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := t.edits[file][keys[i]], t.edits[file][keys[j]]
		if a.start != b.start {
			return a.start < b.start
		}
		if (a.end == a.start) != (b.end == b.start) {
			return a.end == a.start // an insert goes before what starts there
		}
		return a.end-a.start > b.end-b.start
	})
	src := t.srcs[file]
	var out bytes.Buffer
	at := s
	for _, k := range keys {
		ed := t.edits[file][k]
		if ed.start < at {
			if ed.end > at {
				t.errs = append(t.errs, "overlapping edits in "+file)
			}
			continue // inside an edit already made
		}
		out.Write(src[at:ed.start])
		out.WriteString(ed.text)
		at = ed.end
	}
	out.Write(src[at:e])
	return out.Bytes()
}
