// The "Use instead" table: Python forms Starlark lacks, and what to use.

package repl

import "regexp"

// useInstead is one row. A failed call matches the row when its error
// message matches errRE and, when codeRE is set, its code matches codeRE.
// Rows with neither only appear in help().
type useInstead struct {
	name, alternative string
	codeRE, errRE     *regexp.Regexp
}

func (u useInstead) hint() string {
	return u.name + " is not available in this REPL; use " + u.alternative
}

func row(name, alt, code, err string) useInstead {
	u := useInstead{name: name, alternative: alt}
	if code != "" {
		u.codeRE = regexp.MustCompile(code)
	}
	if err != "" {
		u.errRE = regexp.MustCompile(err)
	}
	return u
}

// useInsteadTable is the one table behind help() and error hints. Order
// matters: the first matching row wins.
var useInsteadTable = []useInstead{
	row("f-strings", `"{} {}".format(a, b) or "%s: %d" % (name, n)`, `(^|[^A-Za-z0-9_])[fF][rR]?["']`, `got string literal`),
	row("import x / from x import y", `the predeclared modules json, math, time, struct and re without importing; Path for files and run() for commands`, ``, `got (import|from),`),
	row("try/except", `try_call(f, *args, **kwargs), which returns struct(value=..., error=None or "message")`, ``, `got (try|except|finally),`),
	row("raise", `fail("message"), which stops the call with that error`, ``, `got raise,`),
	row("class", `struct(name=value, ...) for records, dicts for mutable state, and plain functions`, ``, `got class,`),
	row("with open(...)", `Path(p).read_text() and Path(p).write_text(s)`, ``, `got with,`),
	row("open()", `Path(p).read_text(), Path(p).read_bytes(), Path(p).write_text(s)`, ``, `undefined: open$`),
	row("os.listdir / os.walk / glob.glob", `Path(p).iterdir(), Path(p).rglob("*.go") or the glob(pattern, path) helper`, `\b(os\.(listdir|walk|scandir)|glob\.glob)\b`, `undefined: (os|glob)$|has no \.glob field`),
	row("subprocess / os.system", `run(["cmd", "arg", ...]), which returns {"exit_code", "stdout", "stderr"}`, `\b(subprocess|os\.(system|popen))\b`, `undefined: (subprocess|os)$`),
	row("os.path.*", `Path(p): / to join, .name .stem .suffix .parent .exists() .is_dir() .resolve()`, `\bos\.path\b`, `undefined: os$`),
	row("os", `Path for files, chdir(p) and getcwd() for the working directory, run() for commands`, ``, `undefined: os$`),
	row("x is None / is not", `== and != (x == None)`, ``, `got is,`),
	row("del", `d.pop(key), xs.remove(value), xs.pop(i), or rebinding the name (x = None)`, ``, `got del,`),
	row("global / nonlocal", `return values, or mutate a dict or list created at top level (state = {}; state["n"] = 1)`, ``, `got (global|nonlocal),`),
	row("yield", `building and returning a list`, ``, `got yield,`),
	row("async / await", `plain function calls (the REPL runs one thing at a time)`, ``, `got (async|await),`),
	row("a < b < c", `a < b and b < c`, ``, `does not associate with`),
	row("iterating a string", `s.elems() for one-byte strings or s.codepoints() for characters (also s.split(), s.splitlines())`, ``, `string value is not iterable`),
	row("len() of text in characters", `len(list(s.codepoints())); len(s) counts UTF-8 bytes`, ``, ``),
	row("sum()", `a loop: total = 0, then for x in xs: total += x`, ``, `undefined: sum$`),
	row("map()", `a comprehension: [f(x) for x in xs]`, ``, `undefined: map$`),
	row("filter()", `a comprehension: [x for x in xs if cond(x)]`, ``, `undefined: filter$`),
	row("isinstance()", `type(x) == "int" (type() returns the type name: "string", "list", "dict", …)`, ``, `undefined: isinstance$`),
	row("x ** y", `math.pow(x, y) (a float) or a loop for exact integers`, ``, `got '\*\*'`),
	row("round()", `math.round(x) (no digits argument) or "%.2f" % x to format`, ``, `undefined: round$`),
	row("print(..., end=...)", `building the whole line first and printing it once; print(a, b, sep="")`, ``, `print: unexpected keyword argument "(end|file|flush)"`),
	row("list.sort()", `sorted(xs, key=..., reverse=...)`, ``, `has no \.sort field`),
	row("load()", `nothing: the replib helpers are already globals (lib_source(name) shows a file's text)`, ``, `load not implemented`),
	row("json.dumps / json.loads", `json.encode(x), json.indent(json.encode(x)) and json.decode(s)`, ``, `has no \.(dumps|loads|dump|load) field`),
}

// matchUseInstead finds the row explaining a failed call, if any.
func matchUseInstead(code string, err error) (useInstead, bool) {
	msg := errorMessage(err)
	for _, u := range useInsteadTable {
		if u.errRE == nil || !u.errRE.MatchString(msg) {
			continue
		}
		if u.codeRE != nil && !u.codeRE.MatchString(code) {
			continue
		}
		return u, true
	}
	return useInstead{}, false
}
