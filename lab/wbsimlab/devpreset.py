# SPDX-License-Identifier: MIT
"""A device of one's own (lab/measure-device --file DIR): the checks on the
directory named, fio's figures read back, and the device preset written
from them in the format of lib/block/presets/*.ini.

What is measured is a preallocated file on the filesystem of DIR, written
with O_DIRECT: the filesystem's block device as fio sees it through a
file, never the raw device. The preset models it as the lab's disk is
modelled (lib/block/presets/lab-disk.ini): an `nvme` device whose
figures are the measured ones, each number with a comment naming the run
and the fio command it came from, or "Reasoning:" where no run measures
it.
"""
import errno
import os
import stat

# filesystems that hold no files of a disk's: never measured
PSEUDO_FS = {"proc", "sysfs", "devtmpfs", "devpts", "debugfs", "tracefs",
             "securityfs", "cgroup", "cgroup2", "pstore", "bpf", "configfs",
             "fusectl", "mqueue", "hugetlbfs", "autofs", "binfmt_misc",
             "efivarfs", "rpc_pipefs", "nsfs", "ramfs"}
MIN_SIZE = 64 << 20
MAX_SIZE = 64 << 30
MAX_RUNTIME = 600


class DeviceError(Exception):
    pass


def human(n):
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift:
            return f"{n / (1 << shift):.1f} {unit}"
    return f"{n} B"


def unescape_mount(field):
    """A mountinfo path field: octal escapes (\\040 for a blank) undone."""
    out, i = "", 0
    while i < len(field):
        if field[i] == "\\" and field[i + 1:i + 4].isdigit():
            out += chr(int(field[i + 1:i + 4], 8))
            i += 4
        else:
            out += field[i]
            i += 1
    return out


def mount_of(path, mountinfo="/proc/self/mountinfo"):
    """The mount holding @path (a real path): its mount point, filesystem
    type, source and major:minor, from the mount table (the longest mount
    point above @path; the last one mounted there)."""
    best = None
    with open(mountinfo) as f:
        for line in f:
            left, _, right = line.partition(" - ")
            lf, rf = left.split(), right.split()
            if len(lf) < 5 or len(rf) < 2:
                continue
            mp = unescape_mount(lf[4])
            inside = path == mp or path.startswith(mp.rstrip("/") + "/")
            if inside and (best is None or len(mp) >= len(best["mountpoint"])):
                best = {"mountpoint": mp, "fstype": rf[0],
                        "source": unescape_mount(rf[1]), "majmin": lf[2]}
    return best


def block_queue(majmin, sys="/sys"):
    """What the block layer shows of the device under @majmin (the disk
    of a partition): its name, hardware queues and tags, write cache and
    rotational flag; {} where there is none (tmpfs, a network fs)."""
    dev = os.path.join(sys, "dev/block", majmin)
    if not os.path.exists(dev):
        return {}
    real = os.path.realpath(dev)
    if os.path.exists(os.path.join(real, "partition")):
        real = os.path.dirname(real)
    q = {"disk": os.path.basename(real)}

    def rd(name):
        try:
            with open(os.path.join(real, name)) as f:
                return f.read().strip()
        except OSError:
            return None
    q["rotational"] = rd("queue/rotational")
    q["write_cache"] = rd("queue/write_cache")
    q["nr_requests"] = rd("queue/nr_requests")
    mq = os.path.join(real, "mq")
    if os.path.isdir(mq):
        hctx = sorted(d for d in os.listdir(mq) if d.isdigit())
        q["hw_queues"] = len(hctx)
        q["nr_tags"] = rd(f"mq/{hctx[0]}/nr_tags") if hctx else None
    return q


def check_dir(directory, size, runtime, mountinfo="/proc/self/mountinfo"):
    """Refuse what is not to be measured, before anything is made: @directory
    must be a directory (never a block device or another file) on a mounted
    filesystem that holds files, writable, with room for @size bytes at
    most half its free space. Returns the filesystem's description."""
    if runtime < 1 or runtime > MAX_RUNTIME:
        raise DeviceError(f"--runtime {runtime}: expected 1 to {MAX_RUNTIME} seconds")
    if size < MIN_SIZE or size > MAX_SIZE:
        raise DeviceError(f"--size {size}: expected {human(MIN_SIZE)} to "
                          f"{human(MAX_SIZE)} (the file is written whole, then "
                          "over for --runtime seconds per run)")
    try:
        st = os.stat(directory)
    except OSError as e:
        raise DeviceError(f"--file {directory}: {e.strerror}: expected a directory "
                          "on a mounted filesystem") from None
    if stat.S_ISBLK(st.st_mode):
        raise DeviceError(f"--file {directory}: a block device: measure-device never "
                          "writes to a raw device (it would destroy what the device "
                          "holds); expected a directory on a filesystem mounted "
                          "from it")
    if not stat.S_ISDIR(st.st_mode):
        raise DeviceError(f"--file {directory}: not a directory "
                          f"({'a character device' if stat.S_ISCHR(st.st_mode) else 'a file or other'}):"
                          " expected a directory on a mounted filesystem, where a "
                          "preallocated file is made, measured and removed")
    real = os.path.realpath(directory)
    m = mount_of(real, mountinfo)
    if m is None:
        raise DeviceError(f"--file {directory}: no mount holds {real} "
                          f"({mountinfo}): expected a directory on a mounted filesystem")
    if m["fstype"] in PSEUDO_FS:
        raise DeviceError(f"--file {directory}: on {m['mountpoint']}, a {m['fstype']} "
                          "filesystem, which holds no device's files: expected a "
                          "directory on a disk's filesystem (ext4, xfs, btrfs, ...)")
    if not os.access(real, os.W_OK | os.X_OK):
        raise DeviceError(f"--file {directory}: not writable by this user: expected a "
                          "directory where a file can be made")
    vfs = os.statvfs(real)
    free = vfs.f_bavail * vfs.f_frsize
    if size > free // 2:
        raise DeviceError(f"--file {directory}: --size {human(size)} asked, "
                          f"{human(free)} free on {m['mountpoint']} (statvfs): expected "
                          f"--size at most half the free space ({human(free // 2)})")
    m["path"] = real
    m["fs_size"] = vfs.f_blocks * vfs.f_frsize
    m["free"] = free
    m["queue"] = block_queue(m["majmin"])
    return m


def odirect_refusal(directory, fstype, e):
    """The message when the filesystem refuses O_DIRECT (open or an
    aligned write failing with EINVAL, which tmpfs before 6.6 and some
    FUSE filesystems give)."""
    return (f"--file {directory}: the {fstype} filesystem refuses O_DIRECT "
            f"({errno.errorcode.get(e.errno, e.errno)}: {e.strerror}): the baselines "
            "are O_DIRECT writes that reach the device without the page cache, "
            "which a preset describes; name a directory on a filesystem that takes "
            "O_DIRECT (ext4, xfs, btrfs on a disk)")


def summarise(fio_json):
    """fio's figures of one run (its --output-format=json, parsed)."""
    job = fio_json["jobs"][0]
    w = job["write"]
    return {"bw_bytes": w["bw_bytes"], "iops": round(w["iops"], 1),
            "clat_mean_ns": round(w["clat_ns"]["mean"]),
            "lat_mean_ns": round(w["lat_ns"]["mean"]),
            "sys_cpu_pct": job["sys_cpu"]}


def fio_command(name, path, rw, bs, qd, size, runtime):
    """The fio command of one run: O_DIRECT, libaio, on the file @path,
    which must exist (allow_file_create=0: fio never makes a file, nor
    opens anything else)."""
    cmd = ["fio", "--name", name, f"--filename={path}", f"--rw={rw}", f"--bs={bs}",
           f"--iodepth={qd}", "--ioengine=libaio", "--direct=1", f"--size={size}",
           "--allow_file_create=0", "--fallocate=none", "--randrepeat=0",
           "--norandommap=1"]
    if not name.startswith("fill"):
        cmd += ["--time_based=1", f"--runtime={runtime}"]
    return cmd + ["--output-format=json"]


def _ceil_div(a, b):
    return -(-a // b)


def preset_text(info, runs, invocation):
    """The device preset: @info what measure-device recorded of the
    filesystem and host, @runs each run's figures and "command", both as
    measure-device --json writes them; @invocation the command line."""
    def run(name):
        if name not in runs:
            raise DeviceError(f"no run {name} in the figures: expected the runs "
                              "fill-1m-qd1, seq-1m-qd1, seq-1m-qd32, rand-4k-qd1, "
                              "rand-4k-qd32")
        return runs[name]

    def cite(name):
        return f"`{run(name)['command']}`"
    q = info.get("queue") or {}
    seq1, seq32 = run("seq-1m-qd1"), run("seq-1m-qd32")
    r1, r32 = run("rand-4k-qd1"), run("rand-4k-qd32")
    seq_name = "seq-1m-qd1" if seq1["bw_bytes"] >= seq32["bw_bytes"] else "seq-1m-qd32"
    seq = max(seq1["bw_bytes"], seq32["bw_bytes"])
    iops = max(1, round(r32["iops"]))
    iops_capped = min(iops, seq // 4096)
    latency_ns = max(1000, round(r1["clat_mean_ns"], -3))
    units = min(1024, max(1, _ceil_div(iops_capped * latency_ns, 1_000_000_000)))
    overhead_ns = max(10, int(round(1e9 / iops / 4, -1)))
    capacity = info["fs_size"] // 4096 * 4096
    out = []
    c = out.append
    c(f"# A device measured with lab/measure-device --file: a preallocated file")
    c(f"# of {human(info['size'])} on {info['mountpoint']} ({info['fstype']} on "
      f"{info['source']}{', disk ' + q['disk'] if q.get('disk') else ''}), written with")
    c(f"# O_DIRECT by fio ({info.get('fio_version', 'fio')}, libaio; host kernel "
      f"{info.get('kernel', '?')}, {info.get('date', '?')}):")
    c(f"#   {invocation}")
    c("# Modelled, as lib/block/presets/lab-disk.ini is, as a flash device whose")
    c("# figures are the file's as fio sees them through the filesystem. Each")
    c("# number names the run and the command it came from; \"Reasoning:\" where")
    c("# no run measures it.")
    if q.get("rotational") == "1":
        c("# The disk reports itself rotational: the figures are averages of its")
        c("# seeks; the hdd model (hdd-7200-sata.ini) may describe it better.")
    c("[device]")
    c("model = nvme")
    c(f"# The filesystem's size (statvfs of {info['path']}: f_blocks x f_frsize),")
    c("# rounded down to 4 KiB.")
    c(f"capacity = {capacity}")
    if q.get("hw_queues"):
        c(f"# /sys/block/{q['disk']}/mq: {q['hw_queues']} hardware queue"
          f"{'s' if q['hw_queues'] != 1 else ''}.")
        c(f"hw_queues = {q['hw_queues']}")
    else:
        c("# Reasoning: no blk-mq queue under the filesystem; one queue.")
        c("hw_queues = 1")
    tags = q.get("nr_tags") or q.get("nr_requests")
    if tags and tags.isdigit() and int(tags) >= 1:
        src = "mq/0/nr_tags" if q.get("nr_tags") else "queue/nr_requests"
        c(f"# /sys/block/{q['disk']}/{src}: {tags} tags.")
        c(f"queue_depth = {min(int(tags), 65536)}")
    else:
        c("# Reasoning: no tag count known; the loop module's 128.")
        c("queue_depth = 128")
    c(f"# {seq_name}, the faster of seq-1m-qd1 ({seq1['bw_bytes']} B/s) and")
    c(f"# seq-1m-qd32 ({seq32['bw_bytes']} B/s): {cite(seq_name)}")
    c(f"seq_write_bandwidth = {seq}/s")
    c(f"# rand-4k-qd32: {r32['iops']} IOPS: {cite('rand-4k-qd32')}")
    if iops_capped < iops:
        c(f"# capped at seq_write_bandwidth / 4 KiB = {iops_capped} (the model takes")
        c("# random 4 KiB writes no faster than sequential ones)")
    c(f"random_write_iops = {iops_capped}")
    c(f"# rand-4k-qd1: mean completion latency {r1['clat_mean_ns']} ns (fio's clat,")
    c(f"# submission excluded), to the microsecond: {cite('rand-4k-qd1')}")
    c(f"write_latency = {latency_ns}ns")
    c(f"# Reasoning: not measured by these runs; a quarter of rand-4k-qd32's time")
    c(f"# per command (1 s / {iops}), so that it does not bound the IOPS measured.")
    c(f"command_overhead = {overhead_ns}ns")
    c(f"# Reasoning: not measured; twice seq_write_bandwidth, so that no link limit")
    c("# shows below the measured rate.")
    c(f"link_bandwidth = {2 * seq}/s")
    c(f"# Reasoning: random_write_iops x write_latency ({iops_capped} x {latency_ns} ns)")
    c(f"# is about {units} request{'s' if units != 1 else ''} in flight in the back end: "
      f"{units} unit{'s' if units != 1 else ''}.")
    c("channels = 1")
    c(f"dies_per_channel = {units}")
    c("# Reasoning: the device's write buffering is not measured; 16 MiB as for")
    c("# the SSD presets.")
    c("write_buffer = 16m")
    wc = q.get("write_cache")
    if wc:
        c(f"# /sys/block/{q['disk']}/queue/write_cache: {wc}.")
    else:
        c("# Reasoning: no write cache known; none.")
    c(f"volatile_cache = {1 if wc == 'write back' else 0}")
    c("# Reasoning: the filesystem's 4 KiB blocks.")
    c("program_unit = 4k")
    return "\n".join(out) + "\n"
