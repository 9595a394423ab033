#!/usr/bin/env python3
"""Module import circles per crate: modules (by file) that reach each other through `crate::`/`super::`/`self::` paths.
Edges between a module and its own ancestor or descendant are ignored (a parent declares its children).
Exits with status 1 when there is a circle (`cargo xtask ci` runs it as `cargo xtask circles`)."""
import os, re, sys, itertools
root = sys.argv[1] if len(sys.argv) > 1 else '.'
def crates(root):
    for d, ds, fs in os.walk(root):
        ds[:] = [x for x in ds if x not in ('target', 'node_modules', '.git')]
        if 'Cargo.toml' in fs and os.path.isdir(os.path.join(d, 'src')):
            yield d
def modpath(src, f):
    rel = os.path.relpath(f, src)[:-3].split(os.sep)
    if rel[-1] in ('lib', 'main', 'mod'): rel = rel[:-1]
    return tuple(rel)
def strip_comments(s):
    s = re.sub(r'//[^\n]*', '', s)
    return s
out = []
for c in sorted(crates(root)):
    src = os.path.join(c, 'src')
    mods = {}
    for d, ds, fs in os.walk(src):
        for f in fs:
            if f.endswith('.rs'):
                p = os.path.join(d, f); mods[modpath(src, p)] = p
    if any(os.path.basename(p) == 'main.rs' for p in mods.values()) and any(os.path.basename(p)=='lib.rs' for p in mods.values()):
        pass
    edges = {m: set() for m in mods}
    for m, p in mods.items():
        s = strip_comments(open(p, encoding='utf-8', errors='replace').read())
        # drop #[cfg(test)] mod tests { ... } crudely: cut at '#[cfg(test)]\nmod tests'
        i = s.find('#[cfg(test)]\nmod tests')
        if i >= 0: s = s[:i]
        refs = []
        # expand use groups: use crate::{a::x, b}
        for um in re.finditer(r'\buse\s+((?:crate|super|self)(?:::\w+)*)::\{([^;]*)\};', s, re.S):
            base = um.group(1)
            for part in re.split(r',', re.sub(r'\{[^{}]*\}', '', um.group(2))):
                part = part.strip()
                if part: refs.append(base + '::' + part.split(' ')[0])
        for rm in re.finditer(r'\b((?:crate|super|self)(?:::\w+)+)', s):
            refs.append(rm.group(1))
        for r in refs:
            segs = r.split('::')
            if segs[0] == 'crate': cur = []
            else:
                cur = list(m) if os.path.basename(p) in ('mod.rs','lib.rs','main.rs') else list(m)
                # for a file module foo.rs, self = foo, super = parent
                while segs and segs[0] in ('super', 'self'):
                    if segs[0] == 'super': cur = cur[:-1]
                    segs = segs[1:]
                segs = ['x'] + segs
            path = cur + segs[1:]
            # longest existing module prefix
            best = None
            for k in range(len(path), -1, -1):
                if tuple(path[:k]) in mods: best = tuple(path[:k]); break
            if best is None or best == m: continue
            if best[:len(m)] == m or m[:len(best)] == best: continue
            edges[m].add(best)
    # SCCs (Tarjan)
    idx = {}; low = {}; st = []; on = set(); sccs = []; n = [0]
    sys.setrecursionlimit(10000)
    def sc(v):
        idx[v] = low[v] = n[0]; n[0] += 1; st.append(v); on.add(v)
        for w in edges[v]:
            if w not in idx: sc(w); low[v] = min(low[v], low[w])
            elif w in on: low[v] = min(low[v], idx[w])
        if low[v] == idx[v]:
            comp = []
            while True:
                w = st.pop(); on.discard(w); comp.append(w)
                if w == v: break
            if len(comp) > 1: sccs.append(comp)
    for v in edges:
        if v not in idx: sc(v)
    for comp in sccs:
        out.append(f"{os.path.relpath(c, root)}: " + ' <-> '.join(sorted('::'.join(x) or 'crate' for x in comp)))
print('\n'.join(out) if out else 'no import circles')
sys.exit(1 if out else 0)
