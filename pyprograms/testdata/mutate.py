# Makes mutants of the corpus programs for TestDifferential: each mutant is
# one program with one change, parsed and written back by CPython's own ast
# module so that every mutant is valid Python 3.11.
#
# Usage: python3 mutate.py SEED N < programs.json > mutants.jsonl
#
# programs.json is a list of {"name", "source"}. The output has, for each
# program, its baseline ({"parent", "id": "NAME#0", "mutation": "none"}:
# the program as ast.unparse writes it, so that a difference the rewrite
# alone causes is the parent's, not a mutant's), then N mutants
# {"parent", "id", "mutation", "source"} drawn with random.Random(SEED):
# the same SEED and N give the same mutants.
#
# The changes:
#   literal    an int, float, bool or str constant changed in value or kind
#              (3 -> 4, 0, -3, 3.0, True, "3"; "ab" -> "", "AB", "abé")
#   iterator   an iterable (for, comprehension, or the argument of list,
#              sorted, sum, zip, enumerate, join, ...) given as another
#              kind: iter(x), list(x), tuple(x), a generator, map(), a
#              list of a dict view
#   container  a list display as a tuple or set, a dict display as dict()
#   operand    an operand of an arithmetic or comparison operator wrapped
#              in float(), int(), bool() or str()
#   except     an except clause naming a base class or a tuple instead
#              (KeyError -> LookupError, (KeyError, TypeError), Exception)
#   partial    an iterable consumed in part: zip(x, y) with a shorter
#              second argument, next(iter(x)) before a loop
import ast, copy, json, random, sys

ITER_CALLS = {"list", "tuple", "sorted", "sum", "min", "max", "set", "enumerate", "zip", "any", "all",
              "dict", "frozenset", "reversed", "map", "filter", "join", "Counter", "max", "extend"}
BASES = {
    "KeyError": ["LookupError", "Exception", "(KeyError, TypeError)"],
    "IndexError": ["LookupError", "Exception"],
    "ValueError": ["Exception", "(ValueError, TypeError)"],
    "TypeError": ["Exception", "(TypeError, ValueError)"],
    "FileNotFoundError": ["OSError", "Exception", "(FileNotFoundError, PermissionError)"],
    "OSError": ["Exception", "EnvironmentError"],
    "ZeroDivisionError": ["ArithmeticError", "Exception"],
    "StopIteration": ["Exception"],
    "json.JSONDecodeError": ["ValueError", "Exception"],
    "JSONDecodeError": ["ValueError"],
    "RuntimeError": ["Exception"],
    "AttributeError": ["Exception"],
    "UnicodeDecodeError": ["ValueError", "UnicodeError"],
}


def parents(tree):
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            child._parent = node


def in_format_spec(node):
    p = getattr(node, "_parent", None)
    while p is not None:
        if isinstance(p, ast.FormattedValue):
            return True
        p = getattr(p, "_parent", None)
    return False


def literal_variants(v):
    return [x for x in _variants(v) if not (type(x) is type(v) and x == v)]


def _variants(v):
    if isinstance(v, bool):
        return [not v, int(v), str(v)]
    if isinstance(v, int):
        return [v + 1, 0, -v, float(v), bool(v), str(v)] if v != 0 else [1, -1, 0.0, False, "0"]
    if isinstance(v, float):
        return [v + 0.5, int(v), -v, 0.0, str(v)]
    if isinstance(v, str) and len(v) < 40:
        return ["", v.upper(), v + "é", v[::-1], v + " "] if v else ["x", " "]
    return []


def sites(tree):
    """Every place a change can be made, as (kind, node, field-ish info)."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and not isinstance(getattr(node, "_parent", None), ast.Expr):
            if literal_variants(node.value) and not in_format_spec(node) and not isinstance(getattr(node, "_parent", None), ast.JoinedStr):
                out.append(("literal", node))
        if isinstance(node, (ast.For, ast.comprehension)):
            out.append(("iterator", node))
        if isinstance(node, ast.Call):
            fname = node.func.id if isinstance(node.func, ast.Name) else node.func.attr if isinstance(node.func, ast.Attribute) else None
            if fname in ITER_CALLS and node.args and not isinstance(node.args[-1], ast.Starred):
                out.append(("iterator", node))
            if fname == "zip" and len(node.args) >= 2:
                out.append(("partial", node))
        if isinstance(node, ast.List) and isinstance(node.ctx, ast.Load) and node.elts:
            out.append(("container", node))
        if isinstance(node, ast.Dict) and node.keys and all(isinstance(k, ast.Constant) and isinstance(k.value, str) and k.value.isidentifier() for k in node.keys):
            out.append(("container", node))
        if isinstance(node, (ast.BinOp, ast.Compare)):
            out.append(("operand", node))
        if isinstance(node, ast.ExceptHandler) and node.type is not None and ast.unparse(node.type) in BASES:
            out.append(("except", node))
    return out


def wrap_iter(rng, expr):
    forms = ["iter({})", "list({})", "tuple({})", "(v for v in {})", "map(lambda v: v, {})"]
    src = ast.unparse(expr)
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr in ("items", "keys", "values"):
        forms += ["list({})", "iter({})"]
    form = rng.choice(forms)
    return ast.parse(form.format(src), mode="eval").body, form.format("x")


def mutate(rng, tree):
    parents(tree)
    candidates = sites(tree)
    if not candidates:
        return None
    kinds = sorted({k for k, _ in candidates})
    pick = rng.choice(kinds)
    kind, node = rng.choice([c for c in candidates if c[0] == pick])
    at = node
    while not hasattr(at, "lineno") and hasattr(at, "_parent"):
        at = at._parent
    line = getattr(at, "lineno", 0)
    if kind == "literal":
        new = rng.choice(literal_variants(node.value))
        desc = f"{node.value!r} -> {new!r}"
        node.value = new
    elif kind == "iterator":
        if isinstance(node, (ast.For, ast.comprehension)):
            node.iter, form = wrap_iter(rng, node.iter)
        else:
            node.args[-1], form = wrap_iter(rng, node.args[-1])
        desc = f"iterable as {form}"
    elif kind == "partial":
        last = node.args[-1]
        node.args[-1] = ast.parse(f"list({ast.unparse(last)})[:1]", mode="eval").body
        desc = "zip's last argument cut to one element"
    elif kind == "container":
        p = node._parent
        if isinstance(node, ast.List):
            # A set only of ints: CPython iterates a set of strings in hash
            # order, which no program relies on, and small ints in their
            # own order, which programs do see.
            ints = all(isinstance(e, ast.Constant) and type(e.value) is int for e in node.elts)
            choice = rng.choice(["tuple", "set"]) if ints else "tuple"
            new = ast.Tuple(elts=node.elts, ctx=ast.Load()) if choice == "tuple" else ast.Set(elts=node.elts)
            desc = f"list display as a {choice}"
        else:
            new = ast.Call(func=ast.Name("dict", ast.Load()), args=[], keywords=[ast.keyword(arg=k.value, value=v) for k, v in zip(node.keys, node.values)])
            desc = "dict display as dict(...)"
        replace(p, node, new)
    elif kind == "operand":
        wrapper = rng.choice(["float", "int", "bool", "str"])
        if isinstance(node, ast.BinOp):
            side = rng.choice(["left", "right"])
            setattr(node, side, ast.Call(ast.Name(wrapper, ast.Load()), [getattr(node, side)], []))
        else:
            side = rng.choice(["left", "comparator"])
            if side == "left":
                node.left = ast.Call(ast.Name(wrapper, ast.Load()), [node.left], [])
            else:
                i = rng.randrange(len(node.comparators))
                node.comparators[i] = ast.Call(ast.Name(wrapper, ast.Load()), [node.comparators[i]], [])
        desc = f"{side} operand as {wrapper}(...)"
    elif kind == "except":
        old = ast.unparse(node.type)
        new = rng.choice(BASES[old])
        node.type = ast.parse(new, mode="eval").body
        desc = f"except {old} -> except {new}"
    return f"line {line}: {kind}: {desc}"


def replace(parent, old, new):
    for field, value in ast.iter_fields(parent):
        if value is old:
            setattr(parent, field, new)
            return
        if isinstance(value, list):
            for i, v in enumerate(value):
                if v is old:
                    value[i] = new
                    return


def main():
    seed, n = int(sys.argv[1]), int(sys.argv[2])
    programs = json.load(sys.stdin)
    rng = random.Random(seed)
    trees = {}
    for p in programs:
        tree = ast.parse(p["source"])
        trees[p["name"]] = tree
        print(json.dumps({"parent": p["name"], "id": p["name"] + "#0", "mutation": "none", "source": ast.unparse(tree) + "\n"}))
    names = [p["name"] for p in programs]
    made = 0
    attempts = 0
    while made < n and attempts < n * 20:
        attempts += 1
        name = names[rng.randrange(len(names))]
        tree = copy.deepcopy(trees[name])
        desc = mutate(rng, tree)
        if desc is None:
            continue
        try:
            src = ast.unparse(ast.fix_missing_locations(tree)) + "\n"
            compile(src, "mutant", "exec")
        except (SyntaxError, ValueError, TypeError):
            continue
        made += 1
        print(json.dumps({"parent": name, "id": f"{name}#{made}", "mutation": desc, "source": src}))


if __name__ == "__main__":
    main()
