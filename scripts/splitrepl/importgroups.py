"""importgroups.py FILE...: rewrites each Go file's import block in three groups,
the standard library, other modules, then harness's own packages, as the
project writes them (splitlib adds imports to whatever block a file has)."""
import re, sys
for p in sys.argv[1:]:
    s = open(p).read()
    m = re.search(r'\nimport \(\n(.*?)\n\)\n', s, re.S)
    if not m: continue
    lines = [l.strip() for l in m.group(1).split('\n') if l.strip()]
    if any(l.startswith('//') for l in lines): continue
    def path(l): return l.split()[-1].strip('"')
    std = [l for l in lines if '.' not in path(l).split('/')[0] and not path(l).startswith('harness')]
    own = [l for l in lines if path(l).startswith('harness')]
    ext = [l for l in lines if l not in std and l not in own]
    groups = [g for g in (std, ext, own) if g]
    body = '\n\n'.join('\n'.join('\t' + l for l in sorted(g, key=path)) for g in groups)
    new = s[:m.start()] + '\nimport (\n' + body + '\n)\n' + s[m.end():]
    if new != s:
        open(p, 'w').write(new)
        print(p)
