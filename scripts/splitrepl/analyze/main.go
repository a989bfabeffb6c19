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

func main() {
	dir := os.Args[1]
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: dir}
	pkgs, err := packages.Load(cfg, "./repl")
	if err != nil {
		panic(err)
	}
	p := pkgs[0]
	fileOf := func(pos interface{ IsValid() bool }) string { return "" }
	_ = fileOf
	// map objects -> file
	objFile := map[types.Object]string{}
	for _, f := range p.Syntax {
		name := filepath.Base(p.Fset.File(f.Pos()).Name())
		for _, d := range f.Decls {
			ast.Inspect(d, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok {
					if o := p.TypesInfo.Defs[id]; o != nil {
						objFile[o] = name
					}
				}
				return true
			})
		}
	}
	// fields of interp
	counts := map[string]map[string]int{}
	for id, o := range p.TypesInfo.Uses {
		from := filepath.Base(p.Fset.File(id.Pos()).Name())
		if !runtimeRE.MatchString(from) {
			continue
		}
		to, ok := objFile[o]
		if !ok || runtimeRE.MatchString(to) {
			continue
		}
		if o.Parent() != nil && o.Parent() != p.Types.Scope() {
			// local
			if _, isVar := o.(*types.Var); isVar && !o.(*types.Var).IsField() {
				continue
			}
		}
		key := to + ":" + o.Name()
		if counts[key] == nil {
			counts[key] = map[string]int{}
		}
		counts[key][from]++
	}
	var keys []string
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Println(k, counts[k])
	}
}
