# Runs one whole program with CPython 3.11 the way the harness REPL runs a
# call, and prints what the REPL should print for it.
#
# Usage: python3 run_cpython.py ROOT PROGRAM.py
#
# ROOT holds the fixture tree: ROOT/repository (the REPL's /repository,
# made the working directory, so relative paths start there) and
# ROOT/store (the REPL's /store). The program's absolute paths /repository
# and /store are rewritten to those directories before it runs, and the
# directories are written back as /repository and /store in what it
# prints, so os.getcwd(), Path.resolve() and error messages read as in
# the REPL.
#
# What is printed: the program's stdout and stderr in the order written
# (print(..., file=sys.stderr) and logging land in the REPL's one output
# too), then the repr of a trailing expression statement when it is not
# None, then, for an exception the program does not catch, the line
# "Traceback (most recent call last):" followed by Python's
# "Kind: message" line (traceback.format_exception_only; the frames are
# left out, as the REPL's differ). SystemExit with code None or 0 ends
# the program silently, as a script ends; another code is shown as an
# uncaught exception (the REPL cannot exit). Empty output is "(no output)".
import ast, io, os, re, sys, traceback

def rewrite_paths(src, root):
    src = re.sub(r"(?<![\w./-])/repository(?![\w.-])", lambda m: os.path.join(root, "repository"), src)
    return re.sub(r"(?<![\w./-])/store(?![\w.-])", lambda m: os.path.join(root, "store"), src)

def run(src, root):
    buf = io.StringIO()
    old = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = buf
    try:
        try:
            tree = ast.parse(src, "program.py")
            last = None
            if tree.body and isinstance(tree.body[-1], ast.Expr):
                last = ast.Expression(tree.body.pop().value)
            g = {"__name__": "__main__", "__builtins__": __builtins__}
            exec(compile(tree, "program.py", "exec"), g)
            if last is not None:
                v = eval(compile(last, "program.py", "eval"), g)
                if v is not None:
                    print(repr(v))
        except SystemExit as e:
            if e.code not in (None, 0):
                print("Traceback (most recent call last):")
                print("".join(traceback.format_exception_only(type(e), e)), end="")
        except BaseException as e:
            print("Traceback (most recent call last):")
            print("".join(traceback.format_exception_only(type(e), e)), end="")
    finally:
        sys.stdout, sys.stderr = old
    return buf.getvalue()

def main():
    root, program = os.path.abspath(sys.argv[1]), sys.argv[2]
    with open(program, encoding="utf-8") as f:
        src = rewrite_paths(f.read(), root)
    os.chdir(os.path.join(root, "repository"))
    out = run(src, root)
    for r in {root, os.path.realpath(root)}:
        out = out.replace(os.path.join(r, "repository"), "/repository")
        out = out.replace(os.path.join(r, "store"), "/store")
    out = out.rstrip("\n")
    sys.stdout.write((out or "(no output)") + "\n")

if __name__ == "__main__":
    main()
