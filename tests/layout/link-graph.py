#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""link-graph.py [--nm NM] [--allow A,B]... [--forbid A,B]... BUILDDIR LIBDIR - the call graph
between the folders of lib/ (the rooms: core, mm, fs, fs/alloc, block,
machine, report, fio, scenario, run), read from the objects the build made: an edge
A -> B for every global symbol that an object of folder A uses (nm: U) and
an object of folder B defines. Where include-graph.py sees who includes
whom, this sees who calls whom (or reads whose data), also through a
neutral header of lib/defs that declares a function another room defines.

Prints the edges with their number of symbols and the first, then every
circle (a strongly connected component of more than one room) with each of
its edges and the symbols that make it ("fio/job.c uses wbsim_run_x of
run/run.c"). Exit status 1 when there is a circle other than those --allow
names (exactly that set of rooms: a circle that grows fails too, and one
that shrinks or opens is reported so that the list is kept exact), and
when an edge that a --forbid A,B names is there (A calls B directly:
the fio job must reach the model rooms through lib/machine's door, not
around it), printed with its symbols; 2 on usage, on a --forbid that
names a room LIBDIR has not, or when an object cannot be read.

The objects are those of BUILDDIR/compile_commands.json whose source is in
LIBDIR, or generated into the same folder of the build tree (lib/core's
host profile): the library's, built once.
"""
import json
import os
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from rooms import folder_of, report_circles  # noqa: E402

DEFINED = set("TDRBCGSVW")	# nm -P types of a global definition


def objects(builddir, libdir):
    """(room, source file relative to lib/, object path) of each library
    object, one per source."""
    libdir = os.path.realpath(libdir)
    build = os.path.realpath(builddir)
    with open(os.path.join(builddir, "compile_commands.json"), encoding="utf-8") as f:
        commands = json.load(f)
    sources = [os.path.realpath(os.path.join(c["directory"], c["file"]))
               for c in commands]
    # generated sources of LIBDIR are in the same folder of the build tree
    top = os.path.commonpath([s for s in sources if not s.startswith(build + os.sep)]
                             or [libdir])
    genlib = os.path.join(build, os.path.relpath(libdir, top))
    out, seen = [], set()
    for c, src in zip(commands, sources):
        for top in (libdir, genlib):
            if src.startswith(top + os.sep):
                break
        else:
            continue
        if src in seen or "output" not in c:
            continue
        seen.add(src)
        out.append((folder_of(top, src), os.path.relpath(src, top),
                    os.path.join(c["directory"], c["output"])))
    return sorted(out)


def symbols(nm, objs):
    """{object: (the global symbols it defines, the ones it uses)}, from
    one nm run over all of them."""
    res = subprocess.run([nm, "-P", "-A"] + objs, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, universal_newlines=True)
    if res.returncode:
        raise OSError("%s -P -A: %s" % (nm, res.stderr.strip()))
    out = {o: (set(), set()) for o in objs}
    for line in res.stdout.splitlines():
        obj, sep, rest = line.partition(": ")
        parts = rest.split()
        if not sep or obj not in out or len(parts) < 2:
            continue
        if parts[1] == "U":
            out[obj][1].add(parts[0])
        elif parts[1] in DEFINED:
            out[obj][0].add(parts[0])
    return out


def graph(nm, builddir, libdir):
    objs = objects(builddir, libdir)
    syms = symbols(nm, [o for _r, _s, o in objs]) if objs else {}
    where = {}
    for room, src, obj in objs:
        for s in syms[obj][0]:
            where[s] = (room, src)
    edges = {}
    for room, src, obj in objs:
        for s in sorted(syms[obj][1]):
            if s not in where or where[s][0] == room:
                continue
            edges.setdefault((room, where[s][0]), []).append(
                "%s uses %s of %s" % (src, s, where[s][1]))
    return sorted({room for room, _s, _o in objs}), edges, len(objs)


USAGE = "usage: link-graph.py [--nm NM] [--allow A,B]... [--forbid A,B]... BUILDDIR LIBDIR"


def main(argv):
    args, allowed, forbidden, nm, it = [], [], [], "nm", iter(argv[1:])
    for a in it:
        if a == "--allow":
            allowed.append(sorted(next(it, "").split(",")))
        elif a == "--forbid":
            pair = next(it, "").split(",")
            if len(pair) != 2 or not all(pair):
                print(USAGE, file=sys.stderr)
                return 2
            forbidden.append(tuple(pair))
        elif a == "--nm":
            nm = next(it, "nm")
        else:
            args.append(a)
    if len(args) != 2 or not os.path.isdir(args[1]) or \
       not os.path.isfile(os.path.join(args[0], "compile_commands.json")):
        print(USAGE, file=sys.stderr)
        return 2
    try:
        rooms, edges, nobj = graph(nm, args[0], args[1])
    except OSError as e:
        print("link-graph.py: %s" % e, file=sys.stderr)
        return 2
    if not nobj:
        print("link-graph.py: no object of %s in %s/compile_commands.json"
              % (args[1], args[0]), file=sys.stderr)
        return 2
    for pair in forbidden:
        unknown = [r for r in pair if r not in rooms]
        if unknown:
            print("link-graph.py: --forbid %s: no room %s in %s (rooms: %s)" % (
                ",".join(pair), unknown[0], args[1], ", ".join(rooms)), file=sys.stderr)
            return 2
    for (s, d) in sorted(edges):
        print("%s -> %s  (%d: %s)" % (s, d, len(edges[(s, d)]), edges[(s, d)][0]))
    found, bad = report_circles(rooms, edges, allowed, "\n    ", "\n    ")
    gone = [c for c in allowed if c not in found]
    for comp in gone:
        print("no circle %s any more: take it out of --allow" % " <-> ".join(comp),
              file=sys.stderr)
    calls = [p for p in forbidden if p in edges]
    for (s, d) in calls:
        print("forbidden edge (--forbid): %s -> %s\n    %s" % (
            s, d, "\n    ".join(edges[(s, d)])), file=sys.stderr)
    if bad or gone or calls:
        return 1
    print("no circle between %d rooms (%d objects)%s" % (
        len(rooms), nobj, " but the %d allowed" % len(found) if found else ""))
    if forbidden:
        print("no forbidden edge (%s)" % ", ".join("%s -> %s" % p for p in forbidden))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
