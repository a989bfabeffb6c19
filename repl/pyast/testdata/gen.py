# Regenerates cases.json: python3 gen.py (CPython 3.11).
import ast, json, hashlib, sys, os, glob
SNIPPETS = r'''
x = 1
x = y = [1, 2.5, 3j, 0x1F, 0o17, 0b101, 1_000, 1e10, 1.5e-7, .5, 10.]
a, *b = c
(a, b) = [c, d] = e
x: int = 5
(y): str
self.x: List[int] = []
x += 1; y //= 2; z **= 3; w @= m
del a, b[0], c.d
pass
def f(a, /, b=1, *c, d, e=2, **f) -> int:
    """Doc."""
    return a
async def g(x: int = 3, *, y: "str" = "a") -> None:
    await x
    async for i in y:
        pass
    async with a as b, c:
        pass
@decorator
@mod.deco(arg=1)
@(lambda f: f)
class C(Base, metaclass=M):
    x = 1
    def m(self): ...
if a:
    pass
elif b:
    pass
elif c:
    x
else:
    y
while x > 0:
    x -= 1
    if x: break
    continue
else:
    done()
for i, (j, k) in enumerate(zip(a, b)):
    print(i)
else:
    pass
for x in 1, 2, 3: pass
try:
    pass
except ValueError as e:
    raise RuntimeError("x") from e
except (KeyError, IndexError):
    raise
except:
    pass
else:
    ok()
finally:
    cleanup()
try:
    pass
except* ValueError:
    pass
with open("f") as f, open("g") as (a, b):
    pass
with (open("f") as f, open("g") as g,):
    pass
with (a, b):
    pass
import os, os.path as p, a.b.c
from . import x
from ..pkg.mod import (a as b, c,)
from .... import z
from os import *
global a, b
nonlocal c
assert x, "msg"
assert y
lambda: 0
lambda x, *y, z=1, **w: x
lambda *, k: k
x if y else z
a or b or c and d and not e
a < b <= c != d == e > f >= g is h is not i in j not in k
a | b ^ c & d << e >> f + g - h * i / j // k % l @ m ** -n ** ~o
+x
f(a, *b, c=d, **e)
f(x for x in y)
f(*a, *b, k=1, *c)
a.b.c[d][1:2, ::3, :][...]
a[1:2:3]
a[:]
a[b, c]
a[*b]
[x for x in y if x if z for w in x]
{x: y for x, y in z}
{x for x in y}
(x async for x in y)
{}
{1: 2, **d, 3: 4}
{1, 2, *s}
[]
()
(1,)
[*a, *b]
"abc" 'def'
u"uni"
b"bytes\x00\n" rb"\d"
r"raw\n"
"""triple
quoted"""
"esc\t\n\\\'\"\x41\u00e9\101"
f"hello {name}!"
f"{x!r} {y!s:>10} {z:{w}.{p}f} {{literal}}"
f"{x=} {y = !s} {z=:>5}"
f"a" "b" f"{c}"
f"""multi
{line} and {
  other
}"""
f"{'nested'} {f'{inner}'}"
f"{a['k']}" f'{b["k"]:x}'
x = yield
y = yield from z
def gen():
    x = yield 1
    yield
    yield a, b
(yield)
await x
x := 1
(x := 1)
if (n := len(a)) > 10: pass
[y for x in a if (y := f(x))]
f(a := 1)
print(*args, sep="", end="\n", file=sys.stderr)
a = b = c = d
x = *a, *b
return_ = 1
match = 1
match.x = 2
case = 3
match(x)
match x:
    case 1:
        pass
    case "s" | b"b" | -1 | 1+2j | -1.5-2j:
        pass
    case None | True | False:
        pass
    case [a, b, *rest]:
        pass
    case (a, b, *_):
        pass
    case {"k": v, 1: w, **kw}:
        pass
    case Point(x=0, y=0) | Point(1, 2, z=3):
        pass
    case a.b.c:
        pass
    case [x] if x > 0:
        pass
    case (x as y) | _ as z:
        pass
    case x, y:
        pass
    case *a, b:
        pass
    case ():
        pass
    case []:
        pass
    case _:
        pass
match a, b:
    case {}: pass
class A: pass
class B(): pass
def f(): return
def f(a, b): return a, b
def f(*args): pass
def f(**kw): pass
def f(a=1, /, b=2): pass
def f(a, /): pass
def f(*, a): pass
def f(*a: int, **k: str): pass
x = 1 if True else 2
x = not a
x = -1
x = 1 - -1
x = a.b(c).d[e]
x = "a" \
    "b"
x = (1 +
     2)
x = [
    1,
    2,
]
if x:
    # comment
    pass

    # another
    y
def outer():
    def inner():
        return 1
    return inner
x = {"a": [1, {"b": (2, 3)}], "c": None}
print(f"{x:,} {y:.2%} {z!a}")
raise
raise X
raise X from None
x[1] = 2
x.y = 3
x, y = y, x
i = j = 0
for x, in y: pass
[x for x, in y]
del (a), [b], (c, d)
0
0.0
0e0
1e400
123456789012345678901234567890
0xFFFFFFFFFFFFFFFFFFFF
1_0.0_1
'a\
b'
x = 'é' + "日本"
y = "\U0001F600"
z = f"{'é'} {x}é"
t = (1, 2) + (3,)
s = a if b else (c if d else e)
def f(
    a,
    b: int = 1,
) -> str:
    pass
'''
ERRORS = r'''
x = (1, 2
---
def f(:
---
x = = 1
---
if x
    pass
---
def f():
pass
---
  x = 1
---
f(a=1, b)
---
x = 'abc
---
1 = x
---
f() = 1
---
for x in y
---
class
---
x = [1, 2 3]
---
a + = 1
---
return x y
---
def f():
    x = 1
  y = 2
---
x = """abc
---
import
---
from x import
---
print "hello"
---
x = 1 +
---
f(**)
---
else:
    pass
---
lambda x: (yield)
---
)
---
x = (]
---
a, b += 1
---
del f()
---
x = 0777
---
x = 1_
---
try:
    pass
---
with a as 1: pass
---
@
def f(): pass
'''
def dump(src):
    return ast.dump(ast.parse(src), include_attributes=True)
cases = []
blocks = SNIPPETS.strip("\n").split("\n")
# each top-level statement (with its indented body) is one case, and the whole is one too
cur = []
chunks = []
for line in blocks:
    def ok(src):
        try:
            ast.parse(src)
            return True
        except SyntaxError:
            return False
    if cur and line and not line[0].isspace() and not line.startswith(("elif", "else", "except", "finally", "case")) and ok("\n".join(cur)):
        chunks.append("\n".join(cur) + "\n")
        cur = []
    cur.append(line)
chunks.append("\n".join(cur) + "\n")
for c in chunks:
    try:
        cases.append({"src": c, "dump": dump(c)})
    except SyntaxError as e:
        cases.append({"src": c, "error": [e.msg, e.lineno, e.offset]})
for c in ERRORS.strip("\n").split("\n---\n"):
    c += "\n"
    try:
        cases.append({"src": c, "dump": dump(c)})
    except SyntaxError as e:
        cases.append({"src": c, "error": [e.msg, e.lineno, e.offset]})
files = []
libdir = os.path.dirname(os.__file__)
for path in sorted(glob.glob(libdir + "/*.py")):
    name = os.path.basename(path)
    if os.path.getsize(path) > 30000:
        continue
    src = open(path, encoding="utf-8").read()
    if "\t" in src or "\\N{" in src:
        continue
    files.append({"name": name, "src": src, "sha256": hashlib.sha256(dump(src).encode()).hexdigest()})
    if len(files) >= 40:
        break
json.dump({"cases": cases, "files": files}, open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases.json"), "w"), indent=0, ensure_ascii=False)
print(len(cases), "cases", len(files), "files")
