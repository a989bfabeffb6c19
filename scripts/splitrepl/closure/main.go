package main

import (
	"fmt"
	"go/ast"
	"go/types"
	"os"
	"path/filepath"
	"regexp"
	"sort"

	"golang.org/x/tools/go/packages"
)

var runtimeRE = regexp.MustCompile(`^(py[a-z_]*|re|re_[a-z]+|dictview|iterfail|driver|tryrun)\.go$`)

type decl struct {
	file  string
	node  ast.Decl
	lines int
	objs  []types.Object
	uses  map[types.Object]bool
}

func main() {
	dir := os.Args[1]
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: dir}
	pkgs, err := packages.Load(cfg, "./repl")
	if err != nil {
		panic(err)
	}
	p := pkgs[0]
	var decls []*decl
	owner := map[types.Object]*decl{}
	for _, f := range p.Syntax {
		name := filepath.Base(p.Fset.File(f.Pos()).Name())
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok.String() == "import" {
				continue
			}
			dd := &decl{file: name, node: d, uses: map[types.Object]bool{}}
			dd.lines = p.Fset.Position(d.End()).Line - p.Fset.Position(d.Pos()).Line + 1
			switch d := d.(type) {
			case *ast.FuncDecl:
				o := p.TypesInfo.Defs[d.Name]
				dd.objs = append(dd.objs, o)
				if d.Recv != nil {
					// method: depends on its receiver type
					t := d.Recv.List[0].Type
					if s, ok := t.(*ast.StarExpr); ok {
						t = s.X
					}
					if ix, ok := t.(*ast.IndexExpr); ok {
						t = ix.X
					}
					if id, ok := t.(*ast.Ident); ok {
						dd.uses[p.TypesInfo.Uses[id]] = true
					}
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						dd.objs = append(dd.objs, p.TypesInfo.Defs[s.Name])
					case *ast.ValueSpec:
						for _, n := range s.Names {
							dd.objs = append(dd.objs, p.TypesInfo.Defs[n])
						}
					}
				}
			}
			for _, o := range dd.objs {
				if o != nil {
					owner[o] = dd
				}
			}
			ast.Inspect(d, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok {
					if o := p.TypesInfo.Uses[id]; o != nil && o.Pkg() == p.Types {
						dd.uses[o] = true
					}
				}
				if se, ok := n.(*ast.SelectorExpr); ok {
					if sel := p.TypesInfo.Selections[se]; sel != nil && sel.Obj().Pkg() == p.Types {
						dd.uses[sel.Obj()] = true
					}
				}
				return true
			})
			decls = append(decls, dd)
		}
	}
	// methods & fields: map field/method objects to the decl of their type
	// methods are owned by FuncDecl already; fields: owned by type decl
	for _, dd := range decls {
		if g, ok := dd.node.(*ast.GenDecl); ok {
			ast.Inspect(g, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok {
					if o := p.TypesInfo.Defs[id]; o != nil {
						if _, seen := owner[o]; !seen {
							owner[o] = dd
						}
					}
				}
				return true
			})
		}
	}
	for _, dd := range decls {
		if fd, ok := dd.node.(*ast.FuncDecl); ok && fd.Recv != nil {
			for o := range dd.uses {
				if td := owner[o]; td != nil {
					if _, isT := o.(*types.TypeName); isT {
						td.uses[dd.objs[0]] = true
						break
					}
				}
			}
		}
	}
	stay := map[*decl]bool{}
	for _, dd := range decls {
		if !runtimeRE.MatchString(dd.file) {
			stay[dd] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for _, dd := range decls {
			if stay[dd] {
				continue
			}
			for o := range dd.uses {
				if od := owner[o]; od != nil && stay[od] {
					stay[dd] = true
					changed = true
					if len(os.Args) > 2 {
						fmt.Fprintln(os.Stderr, dd.file, dd.objs, "->", od.file, o.Name())
					}
					break
				}
			}
		}
	}
	if len(os.Args) > 2 && os.Args[2] == "moved" {
		for _, dd := range decls {
			if runtimeRE.MatchString(dd.file) && !stay[dd] {
				for _, o := range dd.objs {
					fmt.Println(dd.file, o.Name(), dd.lines)
				}
			}
		}
	}
	perFile := map[string][2]int{}
	for _, dd := range decls {
		if !runtimeRE.MatchString(dd.file) {
			continue
		}
		c := perFile[dd.file]
		if stay[dd] {
			c[1] += dd.lines
		} else {
			c[0] += dd.lines
		}
		perFile[dd.file] = c
	}
	var fs []string
	for f := range perFile {
		fs = append(fs, f)
	}
	sort.Strings(fs)
	tm, ts := 0, 0
	for _, f := range fs {
		fmt.Printf("%-28s move %5d stay %5d\n", f, perFile[f][0], perFile[f][1])
		tm += perFile[f][0]
		ts += perFile[f][1]
	}
	fmt.Println("total move", tm, "stay", ts)
}
