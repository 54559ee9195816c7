# SPDX-License-Identifier: MIT
"""rooms.py - what include-graph.py and link-graph.py share: the folder
of lib/ (the room) a file belongs to, and the circles of a graph between
rooms (its strongly connected components of more than one room)."""
import os


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
