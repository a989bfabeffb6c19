// Command extuse prints, for the pyrt files matching the patterns, every
// name of theirs the other packages of harness use, and how often each
// package does: what a cut of pyrt would have to requalify outside it.
//
//	go run ./extuse TREE driver.go 'pybuiltins*'
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

func main() {
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: os.Args[1], Tests: true}
	pkgs, _ := packages.Load(cfg, "./...")
	upper := func(f string) bool {
		for _, g := range os.Args[2:] {
			if ok, _ := filepath.Match(g, filepath.Base(f)); ok && strings.Contains(f, "/repl/pyrt/") {
				return true
			}
		}
		return false
	}
	cnt := map[string]map[string]int{}
	seen := map[string]bool{}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if p.PkgPath == "harness/repl/pyrt" || p.TypesInfo == nil {
			return
		}
		for id, o := range p.TypesInfo.Uses {
			if o.Pkg() == nil || o.Pkg().Path() != "harness/repl/pyrt" {
				continue
			}
			pos := p.Fset.Position(id.Pos())
			key := pos.String()
			if seen[key] {
				continue
			}
			seen[key] = true
			to := p.Fset.Position(o.Pos()).Filename
			if !upper(to) {
				continue
			}
			k := filepath.Base(to) + ":" + o.Name()
			if cnt[k] == nil {
				cnt[k] = map[string]int{}
			}
			cnt[k][strings.TrimPrefix(p.PkgPath, "harness/")]++
		}
	})
	var ks []string
	for k := range cnt {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	for _, k := range ks {
		fmt.Println(k, cnt[k])
	}
	fmt.Println(len(ks), "names")
}
