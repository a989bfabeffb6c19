"""fixrefs.py: run in a harness tree after a split, rewrites comments that
name a module file by its pyrt name (pymod_NAME.go) to the file's name now:
NAME.go when it sits in the same lib package, repl/lib/PKG/NAME.go when it
is in another, and leaves the name alone when no such file exists."""
import glob, os, re

where = {}  # NAME.go -> directory holding it
for d in glob.glob("repl/lib/*"):
    for f in glob.glob(d + "/*.go"):
        where.setdefault(os.path.basename(f), d)

def fix(path):
    here = os.path.dirname(path)
    src = open(path).read()
    def sub(m):
        name = m.group(1) + ".go"
        if os.path.exists(os.path.join("repl/pyrt", "pymod_" + name)):
            return m.group(0)  # still there
        if os.path.exists(os.path.join(here, name)):
            return name
        if name in where:
            return where[name] + "/" + name
        return m.group(0)
    out = re.sub(r"\bpymod_([a-z0-9_]+)\.go\b", sub, src)
    if out != src:
        open(path, "w").write(out)

for path in glob.glob("repl/pyrt/*.go") + glob.glob("repl/lib/*/*.go") + glob.glob("repl/*.go"):
    fix(path)
