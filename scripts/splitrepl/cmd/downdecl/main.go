// Command downdecl moves top-level declarations between the files of
// package pyrt, in place, in the harness checkout given by -dir, as the
// "down" lines of the rules file say:
//
//	down FILE NAME...
//
// moves the declarations of each NAME (TYPE.METHOD names one method; a type brings its methods, a name
// of a grouped declaration brings its whole group; doc comments come
// along) into repl/pyrt/FILE, created when missing. It is the step before
// splitlib: what the runtime uses of a module's files moves down into the
// runtime's own files, so that the rest of the module can leave. Imports
// of every changed file are recomputed.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/imports"
)

type span struct{ start, end int }

func main() {
	dir := flag.String("dir", ".", "the harness checkout to change in place")
	rulesPath := flag.String("rules", "libs.rules", "the rules file")
	flag.Parse()
	rules, err := readRules(*rulesPath)
	must(err)
	if len(rules) == 0 {
		return
	}
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: *dir}
	pkgs, err := packages.Load(cfg, "./repl/pyrt")
	must(err)
	if len(pkgs) != 1 || len(pkgs[0].Errors) > 0 {
		must(fmt.Errorf("loading pyrt: %v", pkgs[0].Errors))
	}
	p := pkgs[0]
	pyrtDir := filepath.Join(*dir, "repl", "pyrt")
	srcs := map[string][]byte{}
	cut := map[string][]span{}
	added := map[string]*bytes.Buffer{}
	importsOf := map[string][]string{}
	taken := map[ast.Node]bool{}
	var order []string
	for _, r := range rules {
		dest := filepath.Join(pyrtDir, r.file)
		if added[dest] == nil {
			added[dest] = &bytes.Buffer{}
			order = append(order, dest)
		}
		for _, name := range r.names {
			nodes := declsOf(p, name)
			if len(nodes) == 0 {
				must(fmt.Errorf("no top-level declaration %s in pyrt", name))
			}
			for _, n := range nodes {
				if taken[n.node] {
					continue
				}
				taken[n.node] = true
				src, ok := srcs[n.file]
				if !ok {
					src, err = os.ReadFile(n.file)
					must(err)
					srcs[n.file] = src
				}
				if n.file == dest {
					continue
				}
				s := n.span(p.Fset)
				cut[n.file] = append(cut[n.file], s)
				added[dest].Write(src[s.start:s.end])
				added[dest].WriteString("\n\n")
				importsOf[dest] = append(importsOf[dest], importLines(p, n.file)...)
			}
		}
	}
	for file, spans := range cut {
		out := removeSpans(srcs[file], spans)
		writeFixed(file, out)
	}
	for _, dest := range order {
		var b bytes.Buffer
		old, err := os.ReadFile(dest)
		if err == nil {
			b.Write(old)
			b.WriteString("\n")
		} else {
			b.WriteString("package pyrt\n\n")
		}
		if len(importsOf[dest]) > 0 {
			b.WriteString("import (\n" + strings.Join(dedupe(importsOf[dest]), "\n") + "\n)\n\n")
		}
		b.Write(added[dest].Bytes())
		writeFixed(dest, b.Bytes())
	}
}

type rule struct {
	file  string
	names []string
}

func readRules(path string) ([]rule, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var rules []rule
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		w := strings.Fields(sc.Text())
		if len(w) > 2 && w[0] == "down" {
			rules = append(rules, rule{w[1], w[2:]})
		}
	}
	return rules, sc.Err()
}

type found struct {
	file string
	node ast.Node // *ast.FuncDecl or *ast.GenDecl
}

func (f found) span(fset *token.FileSet) span {
	start := f.node.Pos()
	switch d := f.node.(type) {
	case *ast.FuncDecl:
		if d.Doc != nil {
			start = d.Doc.Pos()
		}
	case *ast.GenDecl:
		if d.Doc != nil {
			start = d.Doc.Pos()
		}
	}
	return span{fset.Position(start).Offset, fset.Position(f.node.End()).Offset}
}

// declsOf finds the declaration of name and, for a type, its methods.
func declsOf(p *packages.Package, name string) []found {
	if typ, method, ok := strings.Cut(name, "."); ok {
		return methodOf(p, typ, method)
	}
	obj := p.Types.Scope().Lookup(name)
	if obj == nil {
		return nil
	}
	var out []found
	for i, f := range p.Syntax {
		file := p.CompiledGoFiles[i]
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && p.TypesInfo.Defs[d.Name] == obj {
					out = append(out, found{file, d})
				}
				if d.Recv != nil && recvName(d) == name {
					out = append(out, found{file, d})
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					var ids []*ast.Ident
					switch s := s.(type) {
					case *ast.TypeSpec:
						ids = []*ast.Ident{s.Name}
					case *ast.ValueSpec:
						ids = s.Names
					}
					for _, id := range ids {
						if p.TypesInfo.Defs[id] == obj {
							out = append(out, found{file, d})
						}
					}
				}
			}
		}
	}
	if _, ok := obj.(*types.TypeName); !ok {
		return out
	}
	sort.SliceStable(out, func(i, j int) bool { _, ok := out[i].node.(*ast.GenDecl); return ok && !isGen(out[j].node) })
	return out
}

// methodOf finds the method TYPE.METHOD alone.
func methodOf(p *packages.Package, typ, method string) []found {
	for i, f := range p.Syntax {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil && recvName(fd) == typ && fd.Name.Name == method {
				return []found{{p.CompiledGoFiles[i], fd}}
			}
		}
	}
	return nil
}

func isGen(n ast.Node) bool { _, ok := n.(*ast.GenDecl); return ok }

func recvName(d *ast.FuncDecl) string {
	t := d.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if ix, ok := t.(*ast.IndexExpr); ok {
		t = ix.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

func importLines(p *packages.Package, file string) []string {
	for i, f := range p.Syntax {
		if p.CompiledGoFiles[i] != file {
			continue
		}
		var out []string
		for _, im := range f.Imports {
			l := im.Path.Value
			if im.Name != nil {
				l = im.Name.Name + " " + l
			}
			out = append(out, "\t"+l)
		}
		return out
	}
	return nil
}

func removeSpans(src []byte, spans []span) []byte {
	sort.Slice(spans, func(i, j int) bool { return spans[i].start > spans[j].start })
	for _, s := range spans {
		end := s.end
		for end < len(src) && src[end] == '\n' {
			end++
		}
		src = append(src[:s.start:s.start], src[end:]...)
	}
	return src
}

func dedupe(xs []string) []string {
	sort.Strings(xs)
	var out []string
	for i, x := range xs {
		if i == 0 || xs[i-1] != x {
			out = append(out, x)
		}
	}
	return out
}

func writeFixed(file string, src []byte) {
	out, err := imports.Process(file, src, &imports.Options{Comments: true, TabIndent: true, TabWidth: 8, FormatOnly: false})
	if err != nil {
		must(fmt.Errorf("%s: %v", file, err))
	}
	must(os.WriteFile(file, out, 0o644))
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "downdecl:", err)
		os.Exit(1)
	}
}
