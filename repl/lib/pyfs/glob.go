// glob, fnmatch and pathlib: Python's pattern matching over the mounts.

package pyfs

import (
	"regexp"
	"strings"
	"sync"

	"go.starlark.net/starlark"

	"harness/repl/pyrt"
)

func pathlibModule(r *pyrt.Interp) starlark.Value {
	p := r.Types["Path"]
	return pyrt.NewModule("pathlib", starlark.StringDict{"Path": p, "PosixPath": r.Types["PosixPath"], "PurePath": p, "PurePosixPath": p})
}

func fnmatchModule(r *pyrt.Interp) starlark.Value {
	match := func(name string, fold bool) *starlark.Builtin {
		return pyrt.Builtin("fnmatch."+name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var s, pat string
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 2, &s, &pat); err != nil {
				return nil, err
			}
			return starlark.Bool(fnmatchRE(pat).MatchString(s)), nil
		})
	}
	return pyrt.NewModule("fnmatch", starlark.StringDict{
		"fnmatch": match("fnmatch", false), "fnmatchcase": match("fnmatchcase", false),
		"filter": pyrt.Builtin("fnmatch.filter", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var names starlark.Value
			var pat string
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 2, &names, &pat); err != nil {
				return nil, err
			}
			re := fnmatchRE(pat)
			var out []starlark.Value
			err := pyrt.Iterate(names, func(v starlark.Value) (bool, error) {
				if s, ok := starlark.AsString(v); ok && re.MatchString(s) {
					out = append(out, v)
				}
				return true, nil
			})
			return starlark.NewList(out), err
		}),
		"translate": pyrt.Builtin("fnmatch.translate", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var pat string
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &pat); err != nil {
				return nil, err
			}
			return starlark.String("(?s:" + fnmatchSource(pat) + `)\Z`), nil
		}),
	})
}

var fnCache sync.Map

// fnmatchRE compiles a shell pattern as Python's fnmatch does: * and ?
// match any characters (slashes too), [seq] and [!seq] sets.
func fnmatchRE(pat string) *regexp.Regexp {
	if re, ok := fnCache.Load(pat); ok {
		return re.(*regexp.Regexp)
	}
	re := regexp.MustCompile(`(?s)\A(?:` + fnmatchSource(pat) + `)\z`)
	fnCache.Store(pat, re)
	return re
}

func fnmatchSource(pat string) string {
	var sb strings.Builder
	for i := 0; i < len(pat); i++ {
		switch c := pat[i]; c {
		case '*':
			sb.WriteString(".*")
		case '?':
			sb.WriteString(".")
		case '[':
			j := i + 1
			if j < len(pat) && pat[j] == '!' {
				j++
			}
			if j < len(pat) && pat[j] == ']' {
				j++
			}
			for j < len(pat) && pat[j] != ']' {
				j++
			}
			if j >= len(pat) {
				sb.WriteString(`\[`)
				continue
			}
			set := pat[i+1 : j]
			if strings.HasPrefix(set, "!") {
				set = "^" + set[1:]
			} else if strings.HasPrefix(set, "^") {
				set = `\` + set
			}
			sb.WriteString("[" + strings.ReplaceAll(set, `\`, `\\`) + "]")
			i = j
		default:
			sb.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	return sb.String()
}

func hasMagic(s string) bool { return strings.ContainsAny(s, "*?[") }

func globModule(r *pyrt.Interp) starlark.Value {
	return pyrt.NewModule("glob", starlark.StringDict{
		"glob":  pyrt.Builtin("glob.glob", pyGlob(r, false)),
		"iglob": pyrt.Builtin("glob.iglob", pyGlob(r, true)),
		"escape": pyrt.Builtin("glob.escape", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var s string
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &s); err != nil {
				return nil, err
			}
			return starlark.String(regexp.MustCompile(`([*?\[])`).ReplaceAllString(s, "[$1]")), nil
		}),
		"has_magic": pyrt.Builtin("glob.has_magic", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
			var s string
			if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &s); err != nil {
				return nil, err
			}
			return starlark.Bool(hasMagic(s)), nil
		}),
	})
}

// pyGlob is glob.glob(pattern, *, root_dir=None, recursive=False,
// include_hidden=False): Python's rules (** only with recursive=True,
// names starting with "." only matched by patterns starting with "."),
// results sorted.
func pyGlob(r *pyrt.Interp, lazy bool) pyrt.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var pv, rootV starlark.Value = nil, starlark.None
		recursive, hidden := false, false
		if err := pyrt.UnpackArgs(b.Name(), args, kw, "pathname", &pv, "root_dir?", &rootV, "recursive?", &recursive, "include_hidden?", &hidden, "dir_fd?", new(starlark.Value)); err != nil {
			return nil, err
		}
		pattern, err := r.PathText(b.Name(), pv)
		if err != nil {
			return nil, err
		}
		base := ""
		if rootV != starlark.None {
			if base, err = r.PathText(b.Name(), rootV); err != nil {
				return nil, err
			}
		}
		g := &pyGlobber{r: r, recursive: recursive, hidden: hidden, c: r.Host.CallOf()}
		if err := g.run(base, pattern); err != nil {
			return nil, err
		}
		out := make([]starlark.Value, len(g.found))
		for i, f := range pyrt.SortedStrings(g.found) {
			out[i] = starlark.String(f)
		}
		if lazy {
			return pyrt.NewListIter("generator", out), nil
		}
		return starlark.NewList(out), nil
	}
}

type pyGlobber struct {
	r                 *pyrt.Interp
	c                 pyrt.CallState
	recursive, hidden bool
	found             []string
	seen              map[string]bool
}

func (g *pyGlobber) add(p string) {
	if g.seen == nil {
		g.seen = map[string]bool{}
	}
	if !g.seen[p] {
		g.seen[p] = true
		g.found = append(g.found, p)
	}
}

// fsPath returns where a result path is on the mounts.
func (g *pyGlobber) fsPath(base, p string) string {
	if base == "" {
		if p == "" {
			return "."
		}
		return p
	}
	return joinPath(base, p)
}

func (g *pyGlobber) run(base, pattern string) error {
	if pattern == "" {
		return nil
	}
	prefix := ""
	rest := pattern
	if strings.HasPrefix(pattern, "/") {
		prefix, rest = "/", strings.TrimLeft(pattern, "/")
	}
	comps := strings.Split(rest, "/")
	dirOnly := comps[len(comps)-1] == ""
	if dirOnly {
		comps = comps[:len(comps)-1]
	}
	return g.walk(base, prefix, comps, dirOnly)
}

// walk matches comps below the result path p (which ends in "/" or is "").
func (g *pyGlobber) walk(base, p string, comps []string, dirOnly bool) error {
	if err := g.c.Ctx().Err(); err != nil {
		return err
	}
	if len(comps) == 0 {
		return nil
	}
	comp, rest := comps[0], comps[1:]
	last := len(rest) == 0
	emit := func(q string, isDir bool) error {
		if last {
			if !dirOnly || isDir {
				if dirOnly {
					q += "/"
				}
				g.add(q)
			}
			return nil
		}
		if isDir {
			return g.walk(base, q+"/", rest, dirOnly)
		}
		return nil
	}
	if comp == "**" && g.recursive {
		if last {
			return g.all(base, p, dirOnly)
		}
		if err := g.walk(base, p, rest, dirOnly); err != nil {
			return err
		}
		names, dirs := g.list(base, p)
		for i, n := range names {
			if dirs[i] && (g.hidden || !strings.HasPrefix(n, ".")) {
				if err := g.walk(base, p+n+"/", comps, dirOnly); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if !hasMagic(comp) {
		q := p + comp
		if comp == "" {
			return g.walk(base, p, rest, dirOnly)
		}
		exists, isDir := statTest(g.r, g.fsPath(base, q), true)
		if !exists {
			exists, _ = statTest(g.r, g.fsPath(base, q), false)
		}
		if exists {
			return emit(q, isDir)
		}
		return nil
	}
	re := fnmatchRE(comp)
	names, dirs := g.list(base, p)
	for i, n := range names {
		if strings.HasPrefix(n, ".") && !strings.HasPrefix(comp, ".") && !g.hidden {
			continue
		}
		if re.MatchString(n) {
			if err := emit(p+n, dirs[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// all adds p and everything below it (a final **).
func (g *pyGlobber) all(base, p string, dirOnly bool) error {
	if p != "" {
		g.add(p)
	}
	return g.below(base, p, dirOnly)
}

func (g *pyGlobber) below(base, p string, dirOnly bool) error {
	names, dirs := g.list(base, p)
	for i, n := range names {
		if strings.HasPrefix(n, ".") && !g.hidden {
			continue
		}
		if dirs[i] || !dirOnly {
			g.add(p + n)
		}
		if dirs[i] {
			if err := g.below(base, p+n+"/", dirOnly); err != nil {
				return err
			}
		}
	}
	return nil
}

// list reads the directory of result path p; errors read as empty, as in
// Python's glob.
func (g *pyGlobber) list(base, p string) ([]string, []bool) {
	dir := strings.TrimSuffix(p, "/")
	if p == "/" {
		dir = "/"
	}
	names, dirs, _, err := entries(g.r, "glob", g.fsPath(base, dir))
	if err != nil {
		return nil, nil
	}
	return names, dirs
}
