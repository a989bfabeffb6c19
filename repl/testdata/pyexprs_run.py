# Runs each line of the sections of testdata/pyexprs.txtar with CPython as
# the REPL runs a call (statements, then the repr of a trailing expression
# when not None) and prints, per line, the JSON of what it printed, or
# "!Name" for the exception it raised (sys.exit(0) or sys.exit() ends
# the line silently, as it ends a script). Usage: pyexprs_run.py FILE (a
# section's lines) > wants.
import ast, contextlib, io, json, sys

def run(src, g):
    buf = io.StringIO()
    try:
        tree = ast.parse(src)
        last = None
        if tree.body and isinstance(tree.body[-1], ast.Expr):
            last = ast.Expression(tree.body.pop().value)
        with contextlib.redirect_stdout(buf):
            exec(compile(tree, "repl", "exec"), g)
            if last is not None:
                v = eval(compile(last, "repl", "eval"), g)
                if v is not None:
                    print(repr(v))
    except SystemExit as e:
        if e.code in (None, 0):
            return buf.getvalue()  # a script ends silently there
        return "!SystemExit"
    except Exception as e:
        return "!" + type(e).__name__
    return buf.getvalue()

if __name__ == "__main__":
    g = {"__name__": "__main__"}
    with open(sys.argv[1]) as f:
        for line in f.read().split("\n"):
            if line.strip() == "" or line.startswith("#"):
                continue
            print(json.dumps(run(line.replace("⏎", "\n"), g)))
