// Command libgraph prints the edges between pyrt's standard modules: for
// each module (the files pymod_NAME*.go), the other modules whose
// declarations it uses, and the lines of each module. It is the analysis
// behind the grouping of modules into packages (libs.rules).
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

func modOf(f string) string {
	base := filepath.Base(f)
	if !strings.HasPrefix(base, "pymod_") {
		return ""
	}
	b := strings.TrimSuffix(strings.TrimPrefix(base, "pymod_"), ".go")
	b, _, _ = strings.Cut(b, "_")
	return b
}

func main() {
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: os.Args[1]}
	pkgs, err := packages.Load(cfg, "./repl/pyrt")
	if err != nil || len(pkgs) == 0 {
		panic(err)
	}
	p := pkgs[0]
	edges := map[string]map[string][]string{}
	for id, o := range p.TypesInfo.Uses {
		if o.Pkg() != p.Types {
			continue
		}
		from := modOf(p.Fset.Position(id.Pos()).Filename)
		to := modOf(p.Fset.Position(o.Pos()).Filename)
		if from == "" || to == "" || from == to {
			continue
		}
		if edges[from] == nil {
			edges[from] = map[string][]string{}
		}
		edges[from][to] = append(edges[from][to], o.Name())
	}
	lines := map[string]int{}
	for _, f := range p.CompiledGoFiles {
		if m := modOf(f); m != "" {
			b, _ := os.ReadFile(f)
			lines[m] += strings.Count(string(b), "\n")
		}
	}
	var mods []string
	for m := range lines {
		mods = append(mods, m)
	}
	sort.Strings(mods)
	for _, m := range mods {
		var tos []string
		for t, ns := range edges[m] {
			sort.Strings(ns)
			u := ns[:0]
			for i, n := range ns {
				if i == 0 || ns[i-1] != n {
					u = append(u, n)
				}
			}
			tos = append(tos, t+"("+strings.Join(u, ",")+")")
		}
		sort.Strings(tos)
		fmt.Printf("%-12s %5d  %s\n", m, lines[m], strings.Join(tos, " "))
	}
}
