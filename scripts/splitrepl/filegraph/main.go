// Command filegraph prints, for the runtime's files of pyrt (not the
// modules), the files each one uses, and what the roots given after the
// tree reach: the files that cannot leave the runtime without a hook.
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
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: os.Args[1]}
	pkgs, err := packages.Load(cfg, "./repl/pyrt")
	if err != nil || len(pkgs) == 0 {
		panic(err)
	}
	p := pkgs[0]
	out := map[string]map[string][]string{}
	lines := map[string]int{}
	for _, f := range p.CompiledGoFiles {
		b, _ := os.ReadFile(f)
		lines[filepath.Base(f)] = strings.Count(string(b), "\n")
	}
	for id, o := range p.TypesInfo.Uses {
		if o.Pkg() != p.Types {
			continue
		}
		from := filepath.Base(p.Fset.Position(id.Pos()).Filename)
		to := filepath.Base(p.Fset.Position(o.Pos()).Filename)
		if from == to {
			continue
		}
		if out[from] == nil {
			out[from] = map[string][]string{}
		}
		out[from][to] = append(out[from][to], o.Name())
	}
	reach := map[string]bool{}
	var walk func(string)
	walk = func(f string) {
		if reach[f] {
			return
		}
		reach[f] = true
		for t := range out[f] {
			walk(t)
		}
	}
	for _, r := range os.Args[2:] {
		walk(r)
	}
	var files []string
	for f := range lines {
		files = append(files, f)
	}
	sort.Strings(files)
	total, kept := 0, 0
	for _, f := range files {
		total += lines[f]
		mark := " "
		if reach[f] {
			mark = "*"
			kept += lines[f]
		}
		var tos []string
		for t, ns := range out[f] {
			sort.Strings(ns)
			if len(ns) > 4 {
				ns = append(ns[:4], "...")
			}
			tos = append(tos, t+"("+strings.Join(ns, ",")+")")
		}
		sort.Strings(tos)
		fmt.Printf("%s %-28s %5d  %s\n", mark, f, lines[f], strings.Join(tos, " "))
	}
	fmt.Printf("reached from %v: %d of %d lines\n", os.Args[2:], kept, total)
}
