# SPDX-License-Identifier: MIT
"""A scenario as sim-writeback resolves it (--dump-config), read as data.

The lab never parses scenario files itself: the simulator's own loader
resolves includes, presets, defaults and the fio file, and --dump-config
prints the result as one INI text with the fio jobs inline ([fio:global],
[fio:NAME]). Keys may repeat ([events] at, [measure] extents), so this is
a small reader of its own, not configparser.
"""
import os
import posixpath
import re
import subprocess

SIZE_SUFFIX = {"": 1, "b": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30,
               "t": 1 << 40, "p": 1 << 50}


class ScenarioError(Exception):
    pass


def parse_size(text):
    """A size as --dump-config prints it: 4k, 16g, 6442450944B."""
    m = re.fullmatch(r"\s*(\d+)\s*([kmgtp]?)(i?b)?\s*", text, re.I)
    if not m:
        raise ScenarioError(f"not a size: {text!r}")
    return int(m.group(1)) * SIZE_SUFFIX[m.group(2).lower()]


def parse_time_ns(text):
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(ns|us|ms|s|m|h)?\s*", text)
    if not m:
        raise ScenarioError(f"not a time: {text!r}")
    unit = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9, "m": 60e9, "h": 3600e9,
            None: 1e9}[m.group(2)]
    return int(float(m.group(1)) * unit)


class Scenario:
    """Sections in file order; each a list of (key, value) pairs."""

    def __init__(self, path, text):
        self.path = path
        self.sections = []
        cur = None
        for raw in text.splitlines():
            line = raw.strip()
            if not line or line[0] in "#;":
                continue
            if line.startswith("[") and line.endswith("]"):
                cur = (line[1:-1], [])
                self.sections.append(cur)
                continue
            if cur is None or "=" not in line:
                if cur is not None and cur[0].startswith("fio:"):
                    cur[1].append((line, None))   # a bare fio option
                continue
            k, v = line.split("=", 1)
            cur[1].append((k.strip(), v.strip()))

    def get(self, section, key, default=None):
        for name, items in self.sections:
            if name == section:
                for k, v in items:
                    if k == key:
                        return v
        return default

    def getall(self, section, key):
        return [v for name, items in self.sections if name == section
                for k, v in items if k == key]

    def fio_sections(self):
        return [(name[4:], items) for name, items in self.sections
                if name.startswith("fio:")]

    def fio_jobfile(self, mountpoint):
        """The fio job file, with the simulated /mnt rewritten to the lab's
        mount point in directory= and filename= (':' separates several)."""
        out = []
        for name, items in self.fio_sections():
            out.append(f"[{name}]")
            for k, v in items:
                if v is None:
                    out.append(k)
                    continue
                if k in ("directory", "filename", "opendir"):
                    v = ":".join(rewrite_mnt(p, mountpoint)
                                 for p in v.split(":"))
                out.append(f"{k}={v}")
            out.append("")
        return "\n".join(out)

    def fio_directories(self, mountpoint):
        """Every directory the jobs name (directory=, and the parents of
        filename=), below the mount point, for the runner to create."""
        dirs = set()
        for _, items in self.fio_sections():
            for k, v in items:
                if v is None:
                    continue
                for p in v.split(":"):
                    p = rewrite_mnt(p, mountpoint)
                    if not p.startswith(mountpoint):
                        continue
                    if k == "directory":
                        dirs.add(p)
                    elif k == "filename":
                        dirs.add(os.path.dirname(p))
        return sorted(dirs)

    def fio_paths_outside_mnt(self):
        """[(job, key, value)] of every directory=, filename= and
        filename_format= that does not lie under /mnt, the one folder
        run-kernel puts on the lab's device: an absolute path elsewhere
        (or leaving /mnt by ..), a relative directory, and a relative file
        name in a job with no directory (fio makes it in its working
        folder, off the device). ':' separates several."""
        glob = {}
        for name, items in self.fio_sections():
            if name == "global":
                glob = dict((k, v) for k, v in items if v is not None)
        bad = []
        for name, items in self.fio_sections():
            d = dict(glob, **dict((k, v) for k, v in items if v is not None))
            for k, v in items:
                if v is None or k not in ("directory", "filename", "filename_format"):
                    continue
                for p in v.split(":"):
                    if not p:
                        continue
                    if p.startswith("/"):
                        ok = under_mnt(p)
                    elif k == "directory":
                        ok = False
                    else:
                        ok = "directory" in d and not \
                            posixpath.normpath(p).startswith("..")
                    if not ok:
                        bad.append((name, k, p))
            if name != "global" and not any(k in d for k in ("directory", "filename")):
                bad.append((name, "directory", "(none: fio's working folder)"))
        return bad


def under_mnt(path):
    p = posixpath.normpath(path)
    return p == "/mnt" or p.startswith("/mnt/")


def rewrite_mnt(path, mountpoint):
    if path == "/mnt" or path.startswith("/mnt/"):
        return mountpoint + path[4:]
    return path


def load(sim, path, sets=()):
    cmd = [sim, "--dump-config"]
    for s in sets:
        cmd += ["--set", s]
    cmd.append(path)
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise ScenarioError(p.stderr.strip() or f"{sim} failed on {path}")
    return Scenario(path, p.stdout)
