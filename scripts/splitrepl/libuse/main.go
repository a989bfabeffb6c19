// Command libuse measures the edges between pyrt's module files
// (pymod_*.go) and its runtime files: what each side uses of the other.
package main

import (
	"fmt"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

// modOf is the module a file belongs to: pymod_zipfile_read.go -> zipfile.
func modOf(f string) string {
	b := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "pymod_"), ".go")
	b, _, _ = strings.Cut(b, "_")
	return b
}

func isMod(f string) bool { return strings.HasPrefix(filepath.Base(f), "pymod") }

func main() {
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: os.Args[1]}
	pkgs, err := packages.Load(cfg, "./repl/pyrt")
	if err != nil || len(pkgs) == 0 {
		panic(err)
	}
	p := pkgs[0]
	declFile := func(o types.Object) string { return p.Fset.Position(o.Pos()).Filename }
	m2r := map[string]int{} // runtime objects used by modules
	perFile := map[string]int{}
	r2m := map[string]int{}
	for id, o := range p.TypesInfo.Uses {
		if o.Pkg() != p.Types {
			continue
		}
		if o.Parent() != p.Types.Scope() {
			if _, ok := o.(*types.Func); !ok {
				if _, ok := o.(*types.Var); !ok || !o.(*types.Var).IsField() {
					continue
				}
			}
		}
		use := p.Fset.Position(id.Pos()).Filename
		def := declFile(o)
		name := o.Name()
		if fn, ok := o.(*types.Func); ok {
			if r := fn.Type().(*types.Signature).Recv(); r != nil {
				name = types.TypeString(r.Type(), func(*types.Package) string { return "" }) + "." + name
			}
		}
		switch {
		case isMod(use) && !isMod(def):
			m2r[name]++
			perFile[modOf(use)+" "+name]++
		case !isMod(use) && isMod(def):
			r2m[name+" ("+filepath.Base(def)+" used in "+filepath.Base(use)+")"]++
		}
	}
	show := func(title string, m map[string]int) {
		var ks []string
		for k := range m {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		fmt.Printf("== %s: %d\n", title, len(ks))
		for _, k := range ks {
			fmt.Printf("%5d %s\n", m[k], k)
		}
	}
	show("runtime names modules use", m2r)
	show("module names runtime uses", r2m)
	names := map[string]int{}
	for k := range perFile {
		names[strings.Fields(k)[0]]++
	}
	show("runtime names used, per module", names)
}
