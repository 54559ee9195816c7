#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""test-link-graph.py NM BUILDDIR FIXTUREDIR - link-graph.py on rooms of
its own (tests/layout/link-fixture: a and b call each other, c calls a):
the edges and their symbols, the circle a <-> b failing unless allowed,
and an allowed circle that is not there (a, b, c) failing too; a
--forbid edge that is there (c -> a) failing with its symbols, one that
is not (a -> c) passing, one naming no room a usage error; each with
its exit status and message."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def run(nm, builddir, fixture, *allow, forbid=()):
    args = [sys.executable, os.path.join(HERE, "link-graph.py"), "--nm", nm]
    for a in allow:
        args += ["--allow", a]
    for f in forbid:
        args += ["--forbid", f]
    res = subprocess.run(args + [builddir, fixture], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, universal_newlines=True)
    return res.returncode, res.stdout, res.stderr


def expect(what, cond, out=""):
    if not cond:
        print("FAIL: %s\n%s" % (what, out), file=sys.stderr)
        sys.exit(1)
    print("ok: %s" % what)


def main(argv):
    if len(argv) != 4:
        print("usage: test-link-graph.py NM BUILDDIR FIXTUREDIR", file=sys.stderr)
        return 2
    nm, builddir, fixture = argv[1:]

    rc, out, err = run(nm, builddir, fixture)
    both = out + err
    expect("a circle not allowed: exit status 1", rc == 1, both)
    expect("the edges, counted, with a symbol",
           "a -> b  (1: a/a.c uses fixture_b of b/b.c)\n" in out and
           "b -> a  (1: b/b.c uses fixture_a of a/a.c)\n" in out and
           "c -> a  (1: c/c.c uses fixture_a of a/a.c)\n" in out, both)
    expect("the circle on stderr with the symbol of each edge",
           "circle: a <-> b\n  a -> b:\n    a/a.c uses fixture_b of b/b.c\n"
           "  b -> a:\n    b/b.c uses fixture_a of a/a.c\n" in err, both)

    rc, out, err = run(nm, builddir, fixture, "a,b")
    both = out + err
    expect("the circle allowed: exit status 0", rc == 0, both)
    expect("reported as known", "known circle (--allow): a <-> b\n" in out and
           "no circle between 3 rooms (3 objects) but the 1 allowed\n" in out, both)

    rc, out, err = run(nm, builddir, fixture, "a,b,c")
    both = out + err
    expect("an allowed circle that is not there: exit status 1", rc == 1, both)
    expect("both named", "circle: a <-> b\n" in err and
           "no circle a <-> b <-> c any more: take it out of --allow\n" in err, both)

    rc, out, err = run(nm, builddir, fixture, "a,b", forbid=["c,a"])
    both = out + err
    expect("a forbidden edge that is there: exit status 1", rc == 1, both)
    expect("named with its symbols on stderr",
           "forbidden edge (--forbid): c -> a\n    c/c.c uses fixture_a of a/a.c\n" in err,
           both)

    rc, out, err = run(nm, builddir, fixture, "a,b", forbid=["a,c", "c,b"])
    both = out + err
    expect("forbidden edges that are not there: exit status 0", rc == 0, both)
    expect("reported as absent", "no forbidden edge (a -> c, c -> b)\n" in out, both)

    rc, out, err = run(nm, builddir, fixture, "a,b", forbid=["c,x"])
    both = out + err
    expect("a forbidden edge to no room: exit status 2", rc == 2, both)
    expect("the room named",
           "link-graph.py: --forbid c,x: no room x in %s (rooms: a, b, c)\n" % fixture in err,
           both)

    rc, out, err = run(nm, builddir, fixture, forbid=["c"])
    expect("--forbid without a pair: usage, exit status 2",
           rc == 2 and "usage: link-graph.py" in err, out + err)

    rc, out, err = run(nm, builddir, os.path.join(fixture, "a"))
    expect("one room alone: no circle, exit status 0",
           rc == 0 and "no circle between 1 rooms (1 objects)\n" in out, out + err)

    rc, out, err = run(nm, os.path.join(fixture, "a"), fixture)
    expect("no compile_commands.json: usage, exit status 2",
           rc == 2 and "usage: link-graph.py" in err, out + err)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
