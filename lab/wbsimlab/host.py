# SPDX-License-Identifier: MIT
"""What the lab changes on the host, each change undone in reverse order.

Every sysctl, bdi knob and the workqueue cpumask is written through
Host.write(), which remembers the old value first; loop devices, mounts and
files are made through Host too. Host.restore() undoes all of it and is
called from a finally block and from the SIGINT/SIGTERM handlers, so an
error or Ctrl-C leaves the machine as it was.

What a SIGKILL or a stopped machine leaves is in the journal
(/var/tmp/wbsim-lab.journal): before each change Host appends the step that
undoes it, as one JSON line, fsync'd, and a line {"undone": ID} once it is
undone; the file goes when all are. replay() undoes what a killed run left
(lab/run-kernel --restore, and every run-kernel run before it starts). The
undo steps are idempotent and skip what is already gone.

ROOT (WBSIM_LAB_ROOT) is where the host's files are: "" on the host, a fake
tree in the tests. Under a fake root no command (mount, losetup, mkfs) runs.
"""
import errno
import fcntl
import json
import os
import shutil
import signal
import subprocess
import sys
import time

ROOT = os.environ.get("WBSIM_LAB_ROOT", "")
# WBSIM_LAB_JOURNAL: another journal, for the tests of scripts that
# change no system setting (measure-device --file)
JOURNAL = os.environ.get("WBSIM_LAB_JOURNAL", "/var/tmp/wbsim-lab.journal")


def hp(path):
    """The host path @path under ROOT."""
    return ROOT + path


class LabError(Exception):
    pass


def run(cmd, **kw):
    if ROOT:
        raise LabError(f"{' '.join(cmd)}: not run under the fake root {ROOT}")
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        raise LabError(f"{' '.join(cmd)}: {p.stderr.strip() or p.stdout.strip()}")
    return p.stdout


def read(path):
    with open(hp(path)) as f:
        return f.read().strip()


# /dev/loop-control ioctls (linux/loop.h)
LOOP_CTL_ADD = 0x4C80
LOOP_CTL_REMOVE = 0x4C81
# the lab's loop devices are numbered from here, clear of the host's own
LAB_LOOP_FIRST = 64


def new_loop_index(before_add=None):
    """Add a loop device at the first free index from LAB_LOOP_FIRST.
    before_add(index), if given, is called before each try (the journal's
    step) and returns what to call if the index was taken meanwhile."""
    fd = os.open(hp("/dev/loop-control"), os.O_RDWR)
    try:
        for index in range(LAB_LOOP_FIRST, LAB_LOOP_FIRST + 256):
            if os.path.exists(hp(f"/sys/block/loop{index}")):
                continue
            cancel = before_add(index) if before_add else None
            try:
                return fcntl.ioctl(fd, LOOP_CTL_ADD, index)
            except OSError as e:
                if cancel:
                    cancel()
                if e.errno != errno.EEXIST:
                    raise
        raise LabError(f"no free loop index from {LAB_LOOP_FIRST}")
    finally:
        os.close(fd)


def remove_loop(index):
    """Remove a detached loop device (the detach may take a moment)."""
    fd = os.open(hp("/dev/loop-control"), os.O_RDWR)
    try:
        for _ in range(50):
            try:
                fcntl.ioctl(fd, LOOP_CTL_REMOVE, index)
                return
            except OSError as e:
                if e.errno != errno.EBUSY:
                    raise
                time.sleep(0.1)
        raise LabError(f"/dev/loop{index}: still busy, not removed")
    finally:
        os.close(fd)


def mounted(mountpoint):
    try:
        with open(hp("/proc/mounts")) as f:
            return any(l.split()[1] == mountpoint for l in f if len(l.split()) > 1)
    except FileNotFoundError:
        return False


# -- undo steps: each a dict {"op": ..., ...}, JSON in the journal ---------

def undo_write(step):
    try:
        with open(hp(step["path"]), "w") as f:
            f.write(step["value"])
    except FileNotFoundError:
        pass                    # the knob's object is gone (a removed bdi)


def undo_unlink(step):
    try:
        os.unlink(hp(step["path"]))
    except FileNotFoundError:
        pass


def undo_rmtree(step):
    path = hp(step["path"])
    if not os.path.isdir(path):
        return
    # never below a mount still there: its files are not the folder's
    try:
        with open(hp("/proc/mounts")) as f:
            inside = [l.split()[1] for l in f
                      if l.split()[1].startswith(step["path"].rstrip("/") + "/")]
    except FileNotFoundError:
        inside = []
    if inside:
        raise LabError(f"{step['path']}: not removed, {inside[0]} is still mounted")
    shutil.rmtree(path, ignore_errors=True)


def undo_umount(step):
    if mounted(step["path"]):
        umount(step["path"])


def undo_losetup(step):
    # only while the device is still the lab's: attached to its backing file
    try:
        back = read(f"/sys/block/{os.path.basename(step['dev'])}/loop/backing_file")
    except FileNotFoundError:
        return
    if back.split(" (deleted)")[0] == step["backing"]:
        run(["losetup", "-d", step["dev"]])


def undo_loop_remove(step):
    if not os.path.exists(hp(f"/sys/block/loop{step['index']}")):
        return
    try:
        remove_loop(step["index"])
    except OSError as e:
        if e.errno not in (errno.ENODEV, errno.ENXIO, errno.ENOENT):
            raise


def remove_trace_instance(inst, knobs=()):
    """A tracefs instance of the lab's: every event group, its tracing and
    @knobs (events it enabled one by one) off, then the rmdir (the kernel
    refuses it, EBUSY, while any is on)."""
    if not os.path.isdir(inst):
        return
    for knob in ("events/enable", "tracing_on", *knobs):
        try:
            with open(f"{inst}/{knob}", "w") as f:
                f.write("0")
        except OSError:
            pass
    for attempt in range(5):
        try:
            os.rmdir(inst)
            return
        except FileNotFoundError:
            return
        except OSError as e:
            if e.errno != errno.EBUSY or attempt == 4:
                raise
            time.sleep(0.2)


def undo_trace_instance(step):
    remove_trace_instance(hp(step["path"]))


UNDO = {"write": undo_write, "unlink": undo_unlink, "rmtree": undo_rmtree,
        "umount": undo_umount, "losetup-d": undo_losetup,
        "loop-remove": undo_loop_remove, "trace-instance": undo_trace_instance}


def describe(step):
    if step["op"] == "write":
        return f"{step['path']} = {step['value']}"
    if step["op"] == "losetup-d":
        return f"losetup -d {step['dev']}"
    if step["op"] == "loop-remove":
        return f"remove /dev/loop{step['index']}"
    return f"{step['op']} {step['path']}"


def undo(step):
    if step.get("op") not in UNDO:
        raise LabError(f"{step!r}: not an undo step (expected op one of "
                       f"{', '.join(sorted(UNDO))})")
    UNDO[step["op"]](step)


class JournalBusy(LabError):
    pass


class Journal:
    """The undo steps of the run in progress, on disk (see the module's
    comment). The file is held under flock while its run lives: a second
    run finds it busy, and a killed run's lock is gone with its process."""

    def __init__(self, what=""):
        self.path = hp(JOURNAL)
        self.next_id = 1
        while True:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise JournalBusy(f"{self.path}: held by another lab run "
                                  f"({journal_owner(self.path)}): one run at a time") from None
            # the file may have been removed by its last owner meanwhile
            try:
                same = os.stat(self.path).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(fd)
        self.fd = fd
        if os.fstat(fd).st_size:
            self.fd = None
            os.close(fd)
            raise LabError(f"{self.path}: a journal is there already (replay() first)")
        self._append(f"# wbsim-lab journal: pid {os.getpid()}"
                     f"{', ' + what if what else ''}, "
                     f"{time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())}")

    def _append(self, line):
        os.write(self.fd, (line + "\n").encode())
        os.fsync(self.fd)

    def add(self, step):
        jid = self.next_id
        self.next_id += 1
        self._append(json.dumps(dict(step, id=jid), sort_keys=True))
        return jid

    def done(self, jid):
        self._append(json.dumps({"undone": jid}))

    def close(self, remove):
        """Close the journal; @remove (everything undone) deletes it."""
        if self.fd is None:
            return
        if remove:
            try:
                os.unlink(self.path)
            except FileNotFoundError:
                pass
        os.close(self.fd)
        self.fd = None


def journal_owner(path):
    try:
        with open(path) as f:
            first = f.readline().strip()
    except OSError:
        return "unknown"
    return first[len("# wbsim-lab journal: "):] if first.startswith("#") else "unknown"


def pending(path):
    """The steps of journal @path not undone, in the order they were made.
    A last line cut short (a stop in mid-write) is no step."""
    steps, undone = [], set()
    with open(path) as f:
        lines = f.read().split("\n")
    for n, line in enumerate(lines, 1):
        if not line.strip() or line.startswith("#"):
            continue
        try:
            d = json.loads(line)
        except ValueError:
            if n == len(lines):
                continue
            raise LabError(f"{path}:{n}: {line[:60]!r}: expected a JSON undo step") from None
        if "undone" in d:
            undone.add(d["undone"])
        else:
            steps.append(d)
    return [d for d in steps if d.get("id") not in undone]


def replay(log):
    """Undo what the journal holds, newest first, and remove it. Returns
    None where there was no journal, else the list of failures (empty: all
    undone). A journal held by a live run is not touched (JournalBusy)."""
    path = hp(JOURNAL)
    if not os.path.exists(path):
        return None
    fd = os.open(path, os.O_RDWR | os.O_APPEND)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise JournalBusy(f"{path}: held by a lab run still running "
                              f"({journal_owner(path)})") from None
        steps = pending(path)
        log(f"{path}: left by a run that did not finish ({journal_owner(path)}): "
            f"undoing {len(steps)} step{'s' if len(steps) != 1 else ''}")
        errors = []
        for step in reversed(steps):
            try:
                undo(step)
            except Exception as e:     # keep undoing the rest
                errors.append(f"{describe(step)}: {e}")
                continue
            os.write(fd, (json.dumps({"undone": step.get("id")}) + "\n").encode())
            os.fsync(fd)
            log(f"undone: {describe(step)}")
        if not errors:
            os.unlink(path)
        return errors
    finally:
        os.close(fd)


class Host:
    def __init__(self, log=None, journal=None):
        self.undo = []          # (what, step or None, in-process undo or None, journal id)
        self.log = log or (lambda msg: print(msg, file=sys.stderr))
        self.journal = journal
        self.restored = False

    def _record(self, what, step=None, fn=None):
        """Journal the undo of a change about to be made: before it."""
        jid = self.journal.add(step) if self.journal and step else None
        self.undo.append((what, step, fn, jid))
        return len(self.undo) - 1

    def _forget(self, i):
        """The change recorded at @i was not made after all."""
        what, step, fn, jid = self.undo.pop(i)
        if jid is not None:
            self.journal.done(jid)

    def write(self, path, value, undo=None):
        """Write @value to @path, and at the end its old value back, or
        @undo (PATH, VALUE) where another file holds what is to be restored
        (a knob the kernel derives from the one written)."""
        old = read(path)
        if old == str(value):
            return
        upath, uvalue = undo or (path, old)
        if uvalue is None:
            uvalue = read(upath)
        self._record(upath, {"op": "write", "path": upath, "value": uvalue})
        with open(hp(path), "w") as f:
            f.write(str(value))
        self.log(f"set {path} = {value} (was {old})")

    def on_undo(self, what, fn, step=None):
        """@fn at restore; @step, if given, is journaled as its undo after a
        kill (@fn may do more in-process, e.g. close files)."""
        self._record(what, step, fn)

    def restore(self):
        errors = []
        while self.undo:
            what, step, fn, jid = self.undo.pop()
            try:
                if fn:
                    fn()
                else:
                    undo(step)
            except Exception as e:     # keep undoing the rest
                errors.append(f"{what}: {e}")
                continue
            if jid is not None:
                self.journal.done(jid)
        self.restored = True
        for e in errors:
            self.log(f"restore failed: {e}")
        if self.journal:
            if errors:
                self.log(f"{self.journal.path} keeps what was not undone: "
                         "lab/run-kernel --restore undoes it")
            self.journal.close(remove=not errors)
        return not errors

    def install_signal_handlers(self):
        def handler(signum, frame):
            raise KeyboardInterrupt(f"signal {signum}")
        signal.signal(signal.SIGINT, handler)
        signal.signal(signal.SIGTERM, handler)
        signal.signal(signal.SIGHUP, handler)

    # -- sysctls --------------------------------------------------------
    def sysctl(self, name, value):
        self.write("/proc/sys/" + name.replace(".", "/"), value)

    # -- files and loop devices -------------------------------------------
    def make_file(self, path):
        """A new file of the lab's, removed at the end: open for writing."""
        self._record(path, {"op": "unlink", "path": path})
        return open(hp(path), "wb")

    def make_backing_file(self, path, size, preallocate):
        os.makedirs(os.path.dirname(hp(path)), exist_ok=True)
        with self.make_file(path) as f:
            if preallocate:
                os.posix_fallocate(f.fileno(), 0, size)
            else:
                f.truncate(size)

    def make_loop(self, backing, direct_io):
        """A loop device of its own over @backing, made for this run and
        removed after it: a new disk, so a new bdi. A loop device that
        outlives its runs keeps its bdi, and with it the wb's
        avg_write_bandwidth, dirty_ratelimit and writeout fraction, from
        whatever ran on it before (the next run's writeback chunk, throttle
        ratelimit and wb_thresh start from there), where the simulator's wb
        starts as the kernel's wb_init() leaves it."""
        def journal_index(index):
            i = self._record(f"/dev/loop{index} (removed)",
                             {"op": "loop-remove", "index": index})
            return lambda: self._forget(i)
        index = new_loop_index(journal_index)
        dev = f"/dev/loop{index}"
        cmd = ["losetup", "--show"]
        if direct_io:
            cmd.append("--direct-io=on")
        cmd += [dev, backing]
        self._record(dev, {"op": "losetup-d", "dev": dev, "backing": backing})
        run(cmd)
        self.log(f"loop device {dev} (new) over {backing}"
                 + (" (direct I/O)" if direct_io else ""))
        return dev

    def mount(self, dev, mountpoint, fstype, options=""):
        os.makedirs(hp(mountpoint), exist_ok=True)
        cmd = ["mount", "-t", fstype]
        if options:
            cmd += ["-o", options]
        self._record(mountpoint, {"op": "umount", "path": mountpoint})
        run(cmd + [dev, mountpoint])

    def mkdtemp(self, path):
        if os.path.lexists(hp(path)):
            raise LabError(f"{path}: exists already")
        self._record(path, {"op": "rmtree", "path": path})
        os.makedirs(hp(path))
        return path


def copy_probe_gb_s(size=256 << 20, rounds=3):
    """The host's memory-copy speed now, GB/s: the best of @rounds copies
    of @size bytes between two buffers touched beforehand. The host is a
    VM whose speed moves in phases (a calibration run in a slow phase of
    2026-12-06 copied pages at half the speed and allocated them at half
    the speed, its syscalls at the same): lab/run-kernel records this before
    and after each run, lab/calibrate says which runs fell in a slower
    phase."""
    src, dst = bytearray(size), bytearray(size)
    dst[:] = src                      # fault both in, untimed
    best = 0.0
    for _ in range(rounds):
        t = time.perf_counter()
        dst[:] = src
        best = max(best, size / (time.perf_counter() - t) / 1e9)
    return round(best, 2)


def path_probe(program):
    """The host's buffered write path now (lab/path-probe.c: ns a 4 KiB
    write into an uncached and a cached tmpfs page, a page truncated, a
    system call), a dict; None, with a message, when the program is not
    built or fails. The copy probe does not see every slow phase of the
    host: this one times the kernel's own page cache path."""
    if not os.access(program, os.X_OK):
        print(f"run-kernel: {program}: not built (meson compile -C build): no path probe",
              file=sys.stderr)
        return None
    try:
        p = subprocess.run([program], capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        print(f"run-kernel: {program}: no answer in 60 s: no path probe", file=sys.stderr)
        return None
    try:
        if p.returncode == 0:
            return json.loads(p.stdout)
    except ValueError:
        pass
    print(f"run-kernel: {program}: {p.stderr.strip() or 'no JSON object'}: no path probe",
          file=sys.stderr)
    return None


def umount(mountpoint):
    if ROOT:
        raise LabError(f"umount {mountpoint}: not run under the fake root {ROOT}")
    for attempt in range(20):
        p = subprocess.run(["umount", mountpoint], capture_output=True, text=True)
        if p.returncode == 0:
            return
        time.sleep(0.5)
    raise LabError(f"umount {mountpoint}: {p.stderr.strip()}")


def dev_majmin(dev):
    st = os.stat(dev)
    return f"{os.major(st.st_rdev)}:{os.minor(st.st_rdev)}"


def cpu_mask_hex(cpus):
    """The first CPUS online CPUs as the hex mask workqueue/cpumask takes."""
    mask = 0
    for c in range(cpus):
        mask |= 1 << c
    return f"{mask:x}"
