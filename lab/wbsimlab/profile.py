# SPDX-License-Identifier: MIT
"""Host profiles (lib/core/hosts/*.inc, lab/calibrate's output): a [costs]
section of `KEY = VALUE` lines, `host = BUILD` naming the kernel build
(uname -r) they were measured on, `;` comments carrying each value's
provenance. The simulator reads them as scenario include files; this
module reads them for the lab's tools (which profile belongs to which
kernel build, the values lab/calibrate carries over) and never parses a
scenario: the values' grammar is the simulator's (its --dump-config)."""
import glob
import math
import os
import re

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HOSTS = os.path.join(TOP, "lib", "core", "hosts")
TIME_UNITS = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}


class ProfileError(Exception):
    """A profile that cannot be read: the message names file and line."""


def read(path):
    """(host, {key: value text}) of the [costs] section of @path."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise ProfileError(f"{path}: cannot read the host profile: {e}") from None
    host, values, section = None, {}, None
    for n, raw in enumerate(lines, 1):
        line = raw.split(";", 1)[0].split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("["):
            if not line.endswith("]"):
                raise ProfileError(f"{path}:{n}: {raw.strip()!r}: expected a section "
                                   "header [NAME]")
            section = line[1:-1].strip()
            continue
        if section != "costs":
            continue
        key, eq, value = line.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or not key or not value:
            raise ProfileError(f"{path}:{n}: [costs] {line!r}: expected KEY = VALUE")
        if key == "host":
            host = value
        else:
            values[key] = value
    if not values:
        raise ProfileError(f"{path}: no [costs] KEY = VALUE line: expected a host profile "
                           "(lib/core/hosts/*.inc, lab/calibrate)")
    return host, values


def provenance(path):
    """{key: the comment lines just above its line} of the [costs] of @path:
    what a profile says of where each value comes from."""
    out, comments = {}, []
    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = raw.strip()
            if line.startswith(";"):
                comments.append(line)
                continue
            key = line.split("=", 1)[0].strip() if "=" in line else None
            if key and key != "host":
                out[key] = comments
            comments = []
    return out


# the header line lab/calibrate writes of the set's path probe
PATH_PROBE_LINE = re.compile(r"^; The host's path probe .*?: write_new_ns median ([0-9.]+)")


def path_probe_ns(path):
    """The median write_new_ns of lab/path-probe over the calibration runs
    of the profile @path (its header says it), or None when the profile
    was calibrated before the probe existed."""
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                m = PATH_PROBE_LINE.match(line)
                if m:
                    return float(m.group(1))
                if not line.startswith(";"):
                    break
    except OSError:
        pass
    return None


def to_ns(text):
    """A [costs] value as a number: ns for a time ("850ns", "19us"), the
    number itself for a bare one (memcpy_bandwidth's bytes/s)."""
    m = re.fullmatch(r"([0-9.]+)\s*([a-z]*)", text.strip().lower())
    if not m or (m.group(2) and m.group(2) not in TIME_UNITS):
        raise ValueError(f"{text!r}: expected a number with ns, us, ms or s")
    return float(m.group(1)) * TIME_UNITS.get(m.group(2), 1)


def default_path():
    """The built-in profile: the file lib/core/meson.build compiles in."""
    with open(os.path.join(TOP, "lib", "core", "meson.build")) as f:
        m = re.search(r"default_host_profile = '([^']+)'", f.read())
    return os.path.join(TOP, "lib", "core", m.group(1))


def for_build(build, probe_ns=None):
    """The committed profile measured on kernel build @build, or None. A
    build calibrated more than once (in different phases of the host) has
    several: the one whose path probe is nearest @probe_ns (the runs', ns a
    new page: the phase they fell in), or, for runs made before the probe
    existed, one calibrated before it too (no probe line), else the first.
    A profile without a probe line is never chosen for runs with a probe
    while one with it exists: its phase is not known (lab/compare's host
    phase note says how far the chosen one is)."""
    found = []
    for path in sorted(glob.glob(os.path.join(HOSTS, "*.inc"))):
        try:
            if read(path)[0] == build:
                found.append((path, path_probe_ns(path)))
        except ProfileError:
            continue
    if not found:
        return None
    probed = [(abs(math.log(p / probe_ns)), path) for path, p in found if p and probe_ns]
    if probed:
        return min(probed)[1]
    unprobed = [path for path, p in found if not p]
    return unprobed[0] if unprobed else found[0][0]
