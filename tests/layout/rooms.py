# SPDX-License-Identifier: MIT
"""rooms.py - what include-graph.py and link-graph.py share: the folder
of lib/ (the room) a file belongs to, the circles of a graph between
rooms (its strongly connected components of more than one room), and
their report."""
import os
import sys


def folder_of(libdir, path):
    """The lib/ folder a file lives in: "fs/alloc" for lib/fs/alloc/x.c."""
    rel = os.path.relpath(os.path.dirname(path), libdir)
    return rel.replace(os.sep, "/")


def circles(folders, edges):
    """Tarjan's strongly connected components with more than one folder;
    @edges: a dict keyed by (from, to)."""
    succ = {f: sorted({d for (s, d) in edges if s == f}) for f in folders}
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in succ[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for f in folders:
        if f not in index:
            visit(f)
    return sorted(out)


def report_circles(rooms, edges, allowed, lead, sep):
    """Print each circle with its edges and what makes each ("A -> B:",
    @lead, then the items of the edge joined by @sep): an allowed one on
    stdout, another on stderr. Return (the circles, those not allowed)."""
    found = circles(rooms, edges)
    bad = [c for c in found if c not in allowed]
    for comp in found:
        inner = ["%s -> %s:%s%s" % (s, d, lead, sep.join(edges[(s, d)]))
                 for (s, d) in sorted(edges) if s in comp and d in comp]
        print("%s: %s\n  %s" % ("circle" if comp in bad else "known circle (--allow)",
                                 " <-> ".join(comp), "\n  ".join(inner)),
              file=sys.stderr if comp in bad else sys.stdout)
    return found, bad
