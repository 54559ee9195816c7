# SPDX-License-Identifier: MIT
"""What the lab changes on the host, each change undone in reverse order.

Every sysctl, bdi knob and the workqueue cpumask is written through
Host.write(), which remembers the old value first; loop devices, mounts and
files are registered with Host.on_undo(). Host.restore() undoes all of it
and is called from a finally block and from the SIGINT/SIGTERM handlers,
so an error or Ctrl-C leaves the machine as it was.
"""
import errno
import fcntl
import os
import shutil
import signal
import subprocess
import sys
import time


class LabError(Exception):
    pass


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        raise LabError(f"{' '.join(cmd)}: {p.stderr.strip() or p.stdout.strip()}")
    return p.stdout


def read(path):
    with open(path) as f:
        return f.read().strip()


# /dev/loop-control ioctls (linux/loop.h)
LOOP_CTL_ADD = 0x4C80
LOOP_CTL_REMOVE = 0x4C81
# the lab's loop devices are numbered from here, clear of the host's own
LAB_LOOP_FIRST = 64


def new_loop_index():
    """Add a loop device at the first free index from LAB_LOOP_FIRST."""
    fd = os.open("/dev/loop-control", os.O_RDWR)
    try:
        for index in range(LAB_LOOP_FIRST, LAB_LOOP_FIRST + 256):
            if os.path.exists(f"/sys/block/loop{index}"):
                continue
            try:
                return fcntl.ioctl(fd, LOOP_CTL_ADD, index)
            except OSError as e:
                if e.errno != errno.EEXIST:
                    raise
        raise LabError(f"no free loop index from {LAB_LOOP_FIRST}")
    finally:
        os.close(fd)


def remove_loop(index):
    """Remove a detached loop device (the detach may take a moment)."""
    fd = os.open("/dev/loop-control", os.O_RDWR)
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


class Host:
    def __init__(self, log=None):
        self.undo = []
        self.log = log or (lambda msg: print(msg, file=sys.stderr))
        self.restored = False

    def write(self, path, value):
        old = read(path)
        if old == str(value):
            return
        with open(path, "w") as f:
            f.write(str(value))
        self.undo.append(("write", path, old))
        self.log(f"set {path} = {value} (was {old})")

    def on_undo(self, what, fn):
        self.undo.append(("call", what, fn))

    def restore(self):
        errors = []
        while self.undo:
            kind, what, arg = self.undo.pop()
            try:
                if kind == "write":
                    with open(what, "w") as f:
                        f.write(arg)
                else:
                    arg()
            except Exception as e:     # keep undoing the rest
                errors.append(f"{what}: {e}")
        self.restored = True
        for e in errors:
            self.log(f"restore failed: {e}")
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

    # -- loop devices -----------------------------------------------------
    def make_backing_file(self, path, size, preallocate):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            if preallocate:
                os.posix_fallocate(f.fileno(), 0, size)
            else:
                f.truncate(size)
        self.on_undo(path, lambda: os.unlink(path))

    def make_loop(self, backing, direct_io):
        """A loop device of its own over @backing, made for this run and
        removed after it: a new disk, so a new bdi. A loop device that
        outlives its runs keeps its bdi, and with it the wb's
        avg_write_bandwidth, dirty_ratelimit and writeout fraction, from
        whatever ran on it before (the next run's writeback chunk, throttle
        ratelimit and wb_thresh start from there), where the simulator's wb
        starts as the kernel's wb_init() leaves it."""
        index = new_loop_index()
        dev = f"/dev/loop{index}"
        self.on_undo(dev + " (removed)", lambda: remove_loop(index))
        cmd = ["losetup", "--show"]
        if direct_io:
            cmd.append("--direct-io=on")
        cmd += [dev, backing]
        run(cmd)
        self.on_undo(dev, lambda: run(["losetup", "-d", dev]))
        self.log(f"loop device {dev} (new) over {backing}"
                 + (" (direct I/O)" if direct_io else ""))
        return dev

    def mount(self, dev, mountpoint, fstype, options=""):
        os.makedirs(mountpoint, exist_ok=True)
        cmd = ["mount", "-t", fstype]
        if options:
            cmd += ["-o", options]
        run(cmd + [dev, mountpoint])
        self.on_undo(mountpoint, lambda: umount(mountpoint))

    def mkdtemp(self, path):
        os.makedirs(path, exist_ok=False)
        self.on_undo(path, lambda: shutil.rmtree(path, ignore_errors=True))
        return path


def umount(mountpoint):
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
