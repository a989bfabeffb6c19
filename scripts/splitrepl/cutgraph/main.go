// Command cutgraph weighs a cut of package pyrt in two: given the tree and
// glob patterns naming the files of the lower half (or, each starting
// with !, of the upper half), it prints the lines of
// each half and every name the lower half uses of the upper one (the edges
// that would need a hook), with how many uses and from which files.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"go/types"

	"golang.org/x/tools/go/packages"
)

func main() {
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: os.Args[1]}
	pkgs, err := packages.Load(cfg, "./repl/pyrt")
	if err != nil || len(pkgs) == 0 {
		panic(err)
	}
	p := pkgs[0]
	// A pattern starting with ! names files of the upper half instead:
	// the lower half is then every other file.
	pats, invert := os.Args[2:], false
	if len(pats) > 0 && strings.HasPrefix(pats[0], "!") {
		invert = true
	}
	lower := func(f string) bool {
		for _, g := range pats {
			if ok, _ := filepath.Match(strings.TrimPrefix(g, "!"), f); ok {
				return !invert
			}
		}
		return invert
	}
	lo, hi := 0, 0
	for _, f := range p.CompiledGoFiles {
		b, _ := os.ReadFile(f)
		n := strings.Count(string(b), "\n")
		if lower(filepath.Base(f)) {
			lo += n
		} else {
			hi += n
		}
	}
	type use struct {
		n     int
		files map[string]bool
	}
	back := map[string]*use{}
	for id, o := range p.TypesInfo.Uses {
		if o.Pkg() != p.Types || o.Parent() != nil && o.Parent() != p.Types.Scope() && !isMember(o) {
			continue
		}
		from := filepath.Base(p.Fset.Position(id.Pos()).Filename)
		to := filepath.Base(p.Fset.Position(o.Pos()).Filename)
		if !lower(from) || lower(to) {
			continue
		}
		k := to + ":" + o.Name()
		if back[k] == nil {
			back[k] = &use{files: map[string]bool{}}
		}
		back[k].n++
		back[k].files[from] = true
	}
	var ks []string
	for k := range back {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	for _, k := range ks {
		var fs []string
		for f := range back[k].files {
			fs = append(fs, f)
		}
		sort.Strings(fs)
		fmt.Printf("%-45s %3d  %s\n", k, back[k].n, strings.Join(fs, " "))
	}
	fmt.Printf("lower %d lines, upper %d lines, %d names cross upward\n", lo, hi, len(ks))
}

// isMember reports whether o is a method or field (whose parent scope is nil).
func isMember(o types.Object) bool { return o.Parent() == nil }
