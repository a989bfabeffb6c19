// Command downset prints what must stay in pyrt when the files matching
// the patterns (the module files) leave it: the top-level declarations of
// those files the other files use, and everything those use of the module
// files in turn (a type brings its methods), with the lines of each.
//
//	go run ./downset TREE 'pymod_*' 're*.go'
package main

import (
	"fmt"
	"go/ast"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

func main() {
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: os.Args[1]}
	pkgs, err := packages.Load(cfg, "./repl/pyrt")
	if err != nil || len(pkgs) == 0 {
		panic(err)
	}
	p := pkgs[0]
	upper := func(f string) bool {
		for _, g := range os.Args[2:] {
			if ok, _ := filepath.Match(g, filepath.Base(f)); ok {
				return true
			}
		}
		return false
	}
	// decls: each top-level declaration of the module files, keyed by the
	// object it declares (a method is keyed under its receiver type).
	type decl struct {
		file  string
		lines int
		node  ast.Node
	}
	decls := map[types.Object]*decl{}
	methodsOf := map[types.Object][]types.Object{}
	for i, f := range p.Syntax {
		name := p.CompiledGoFiles[i]
		if !upper(name) {
			continue
		}
		for _, d := range f.Decls {
			n := p.Fset.Position(d.End()).Line - p.Fset.Position(d.Pos()).Line + 1
			switch d := d.(type) {
			case *ast.FuncDecl:
				obj := p.TypesInfo.Defs[d.Name]
				decls[obj] = &decl{filepath.Base(name), n, d}
				if d.Recv != nil {
					if tn := recvType(obj); tn != nil {
						methodsOf[tn] = append(methodsOf[tn], obj)
					}
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						decls[p.TypesInfo.Defs[s.Name]] = &decl{filepath.Base(name), n, s}
					case *ast.ValueSpec:
						for _, id := range s.Names {
							decls[p.TypesInfo.Defs[id]] = &decl{filepath.Base(name), n, s}
						}
					}
				}
			}
		}
	}
	// topOf maps a used object to the top-level declaration holding it.
	topOf := func(o types.Object) types.Object {
		if _, ok := decls[o]; ok {
			if fn, ok := o.(*types.Func); ok && fn.Type().(*types.Signature).Recv() != nil {
				if tn := recvType(o); tn != nil && decls[tn] != nil {
					return tn
				}
			}
			return o
		}
		return nil
	}
	keep := map[types.Object]string{}
	var queue []types.Object
	add := func(o types.Object, why string) {
		if o == nil || keep[o] != "" {
			return
		}
		keep[o] = why
		queue = append(queue, o)
	}
	for id, o := range p.TypesInfo.Uses {
		from := p.Fset.Position(id.Pos()).Filename
		if upper(from) || o.Pkg() != p.Types {
			continue
		}
		if filepath.Base(from) == "pymodules.go" && strings.HasSuffix(o.Name(), "Module") {
			continue
		}
		add(topOf(o), filepath.Base(from))
	}
	for len(queue) > 0 {
		o := queue[0]
		queue = queue[1:]
		nodes := []ast.Node{decls[o].node}
		for _, m := range methodsOf[o] {
			nodes = append(nodes, decls[m].node)
		}
		for _, n := range nodes {
			ast.Inspect(n, func(x ast.Node) bool {
				if id, ok := x.(*ast.Ident); ok {
					if u := p.TypesInfo.Uses[id]; u != nil && u.Pkg() == p.Types {
						add(topOf(u), o.Name())
					}
				}
				return true
			})
		}
	}
	var ks []types.Object
	for o := range keep {
		ks = append(ks, o)
	}
	sort.Slice(ks, func(i, j int) bool {
		a, b := decls[ks[i]], decls[ks[j]]
		if a.file != b.file {
			return a.file < b.file
		}
		return ks[i].Name() < ks[j].Name()
	})
	total := 0
	for _, o := range ks {
		n := decls[o].lines
		for _, m := range methodsOf[o] {
			n += decls[m].lines
		}
		total += n
		fmt.Printf("%-26s %-24s %4d  (for %s)\n", decls[o].file, o.Name(), n, keep[o])
	}
	fmt.Printf("%d declarations, %d lines stay\n", len(ks), total)
}

func recvType(o types.Object) types.Object {
	r := o.Type().(*types.Signature).Recv()
	if r == nil {
		return nil
	}
	t := r.Type()
	if pt, ok := t.(*types.Pointer); ok {
		t = pt.Elem()
	}
	if n, ok := t.(*types.Named); ok {
		return n.Obj()
	}
	return nil
}
