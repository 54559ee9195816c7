#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""include-graph.py [--dot] [--allow A,B]... [--leaf F]... LIBDIR - the include graph
between the folders of lib/ (core, mm, fs, fs/alloc, block, report, fio,
scenario, run, machine, defs): an edge A -> B for every #include "B/..."
in a file of folder A. Prints the edges with the files that make them,
then every circle (a strongly connected component of more than one
folder). Exit status 1 when there is a circle other than those --allow
names (exactly that set of folders: a circle that grows fails too), so
that one that comes back fails the test suite, and when a --leaf folder
(the neutral headers of lib/defs) includes another folder; 2 on usage.

Only quoted includes of the library's own headers count ("fs/bdi.h");
<wbsim/...> public headers belong to no folder.
"""
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from rooms import folder_of, report_circles  # noqa: E402

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def header_folder(folders, inc):
    """The folder an include "fs/alloc/extents.h" names, or None."""
    parts = inc.split("/")[:-1]
    while parts:
        name = "/".join(parts)
        if name in folders:
            return name
        parts.pop()
    return None


def graph(libdir):
    folders = set()
    files = []
    for root, _dirs, names in os.walk(libdir):
        for n in names:
            if n.endswith((".c", ".h")):
                files.append(os.path.join(root, n))
                folders.add(folder_of(libdir, os.path.join(root, n)))
    edges = {}
    for path in sorted(files):
        src = folder_of(libdir, path)
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for inc in INCLUDE.findall(text):
            dst = header_folder(folders, inc)
            if dst is None or dst == src:
                continue
            edges.setdefault((src, dst), []).append(
                "%s: %s" % (os.path.relpath(path, libdir), inc))
    return sorted(folders), edges


def main(argv):
    args, allowed, leaves, it = [], [], [], iter(argv[1:])
    for a in it:
        if a == "--allow":
            allowed.append(sorted(next(it, "").split(",")))
        elif a == "--leaf":
            leaves.append(next(it, ""))
        elif a != "--dot":
            args.append(a)
    if len(args) != 1 or not os.path.isdir(args[0]):
        print("usage: include-graph.py [--dot] [--allow A,B]... [--leaf F]... LIBDIR",
              file=sys.stderr)
        return 2
    folders, edges = graph(args[0])
    if "--dot" in argv:
        print("digraph lib {")
        for (s, d) in sorted(edges):
            print('  "%s" -> "%s";' % (s, d))
        print("}")
    else:
        for (s, d) in sorted(edges):
            print("%s -> %s  (%d: %s)" % (s, d, len(edges[(s, d)]),
                                          edges[(s, d)][0]))
    found, bad = report_circles(folders, edges, allowed, " ", "; ")
    leaky = [(s, d) for (s, d) in sorted(edges) if s in leaves]
    for (s, d) in leaky:
        print("%s includes %s, but includes no other folder (--leaf): %s" %
              (s, d, "; ".join(edges[(s, d)])), file=sys.stderr)
    if bad or leaky:
        return 1
    print("no circle between %d folders%s" % (
        len(folders), " but the %d allowed" % len(found) if found else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
