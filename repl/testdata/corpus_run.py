# Runs REPL snippets with CPython the way the harness REPL runs them: the
# code runs in a fresh copy of the fixture repository (the working
# directory), and a trailing expression's repr is printed when not None.
import ast, contextlib, io, os, shutil, sys, tempfile

def run(src, repo):
    tmp = tempfile.mkdtemp()
    work = os.path.join(tmp, "repository")
    shutil.copytree(repo, work)
    old = os.getcwd()
    os.chdir(work)
    buf = io.StringIO()
    try:
        tree = ast.parse(src)
        last = None
        if tree.body and isinstance(tree.body[-1], ast.Expr):
            last = ast.Expression(tree.body.pop().value)
        g = {"__name__": "__main__"}
        with contextlib.redirect_stdout(buf):
            exec(compile(tree, "repl", "exec"), g)
            if last is not None:
                v = eval(compile(last, "repl", "eval"), g)
                if v is not None:
                    print(repr(v))
    finally:
        os.chdir(old)
        shutil.rmtree(tmp)
    return buf.getvalue()

if __name__ == "__main__":
    repo, out = sys.argv[1], sys.argv[2]
    for path in sys.argv[3:]:
        name = os.path.basename(path)[:-3]
        with open(path) as f:
            text = run(f.read(), repo)
        with open(os.path.join(out, name + ".want"), "w") as f:
            f.write(text)
