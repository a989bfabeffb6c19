package main

import (
	"fmt"
	"go/ast"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

var runtimeRE = regexp.MustCompile(`^(py[a-z_]*|re|re_[a-z]+|dictview|iterfail|driver|tryrun)\.go$`)

func main() {
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax, Dir: os.Args[1]}, "./repl")
	if err != nil {
		panic(err)
	}
	p := pkgs[0]
	seen := map[string]int{}
	for _, f := range p.Syntax {
		name := filepath.Base(p.Fset.File(f.Pos()).Name())
		if !runtimeRE.MatchString(name) {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			se, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			sel := p.TypesInfo.Selections[se]
			if sel == nil {
				if o := p.TypesInfo.Uses[se.Sel]; o != nil && o.Pkg() != nil && o.Pkg() != p.Types {
					seen["pkg "+o.Pkg().Path()+"."+o.Name()]++
				}
				return true
			}
			if o := sel.Obj(); o.Pkg() != nil && o.Pkg() != p.Types && strings.HasPrefix(o.Pkg().Path(), "harness") {
				seen[fmt.Sprintf("%s %s", sel.Recv(), o.Name())]++
			}
			return true
		})
	}
	var ks []string
	for k := range seen {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	for _, k := range ks {
		if regexp.MustCompile(`harness`).MatchString(k) {
			fmt.Println(k, seen[k])
		}
	}
}
