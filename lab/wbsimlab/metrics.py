# SPDX-License-Identifier: MIT
"""The figures lab/compare holds side by side, read the same way from a lab
run (lab/run-kernel's files) and from a simulator run (sim-writeback's JSON
and --series CSV): one dict of metric -> value for each.

Pages are 4 KiB pages; bandwidths MiB/s; times seconds; CPU ns per page;
extent lengths filesystem blocks; writeback starts a count per reason.
"""
import csv
import gzip
import json
import lzma
import os
import re

TRACE_LINE = re.compile(r"^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+\S+\s+([\d.]+): (\w+): (.*)$")


def path_probes(meta):
    """The path probes a run's meta.json holds (lab/run-kernel's
    path_probe, before and after the run: lab/path-probe's figures), those
    with a write_new_ns; none for a run made before the probe existed or a
    damaged entry (a probe that failed is None there)."""
    probes = meta.get("path_probe")
    if not isinstance(probes, list):
        return []
    return [p for p in probes if isinstance(p, dict) and
            isinstance(p.get("write_new_ns"), (int, float))]


def series_rows(path):
    """Rows of a series CSV as dicts of floats; '#' comment lines skipped;
    column names as the simulator writes them, with or without a unit
    suffix (dirty or dirty_pages)."""
    with open(path) as f:
        lines = [l for l in f if not l.startswith("#")]
    rows = []
    for r in csv.DictReader(lines):
        row = {}
        for k, v in r.items():
            try:
                row[k] = float(v)
            except (TypeError, ValueError):
                continue
        rows.append(row)
    return rows


def col(row, name):
    if name in row:
        return row[name]
    for k in row:
        if k.startswith(name + "_") and not k[len(name) + 1:].startswith(("thresh", "written")):
            return row[k]
    return None


def time_of(row):
    t = col(row, "time_s")
    return t if t is not None else col(row, "time")


def series_figures(rows, t_end):
    """Mean and peak dirty and writeback pages over [0, t_end], the time
    of the first written page."""
    out = {}
    win = [r for r in rows if time_of(r) is not None and time_of(r) <= t_end + 1e-9]
    for name in ("dirty", "writeback"):
        vals = [col(r, name) for r in win if col(r, name) is not None]
        if vals:
            out[f"{name}_mean_pages"] = sum(vals) / len(vals)
            out[f"{name}_peak_pages"] = max(vals)
    first = None
    for r in rows:
        w = col(r, "wb0_written")
        if w is not None and w > 0:
            first = time_of(r)
            break
    out["first_writeback_s"] = first if first is not None else float("nan")
    return out


def fio_bandwidths(fio_json):
    """MiB/s of every job entry (one per group under group_reporting) and
    their sum; keys bw_job0, bw_job1, ... and bw_total."""
    out = {}
    total = 0.0
    for i, j in enumerate(fio_json["jobs"]):
        bw = j["write"]["bw_bytes"] / 2**20
        out[f"bw_job{i}_mib_s"] = bw
        total += bw
    out["bw_total_mib_s"] = total
    return out


def last_group_seconds(jobs):
    """The wall time of the last group of jobs (the last stonewall phase:
    E8's small writes) from fio-format JSON jobs, when there are at least
    two groups: the longest job runtime of that group; else None."""
    groups = {j.get("groupid", 0) for j in jobs}
    if len(groups) < 2:
        return None
    last = max(groups)
    return max(j["job_runtime"] for j in jobs if j.get("groupid", 0) == last) / 1e3


def program_figures(prog):
    """The figures of a lab program's JSON (lab/e8-small-writes) named as
    the simulator's jobs are: bw_job0 the large write, bw_job1.. the
    threads (bw_job0.. when the file was preallocated, not written), the
    small writes' phase as the last group, and the threads' CPU and
    context switches per write."""
    out = {}
    large = prog["large"]
    total = 0.0
    first = 0
    if large.get("mode", "write") != "fallocate":
        # the large write is a job of its own (job0); a preallocated file
        # is the small writers' own fio job's layout
        out["bw_job0_mib_s"] = large["bytes"] / large["seconds"] / 2**20
        total = out["bw_job0_mib_s"]
        first = 1
    small = prog["small"]
    for i, (sec, nbytes) in enumerate(zip(small["thread_seconds"],
                                          small["thread_bytes"]), first):
        out[f"bw_job{i}_mib_s"] = nbytes / sec / 2**20
        total += out[f"bw_job{i}_mib_s"]
    out["bw_total_mib_s"] = total
    out["last_group_s"] = small["seconds"]
    writes = small["threads"] * small["writes"]
    if "thread_cpu_s" in small and writes:
        # the threads' own CPU (getrusage(RUSAGE_THREAD)) per small write
        out["small_cpu_ns_per_write"] = sum(small["thread_cpu_s"]) * 1e9 / writes
        out["small_ctxsw_per_write"] = (sum(small["thread_nvcsw"]) +
                                        sum(small["thread_nivcsw"])) / writes
        # the voluntary ones alone (the threads slept: on i_rwsem, a folio,
        # a throttle pause), which the simulator counts too
        out["small_nvcsw_per_write"] = sum(small["thread_nvcsw"]) / writes
    delays = small.get("thread_run_delay_s")
    if delays and min(delays) >= 0:
        # of the threads' time off their CPUs, the share they were
        # runnable, waiting for one (schedstat's run_delay); the rest they
        # slept (on i_rwsem, a folio, a throttle pause)
        off = sum(s - c for s, c in zip(small["thread_seconds"], small["thread_cpu_s"]))
        if off > 0:
            out["small_runnable_share"] = sum(delays) / off
    if small.get("pages_written", -1) >= 0:
        out["small_pages_written"] = small["pages_written"]
    return out


def sim_small_figures(result_json):
    """The simulator's counterparts of program_figures()' small-write
    figures for a lab program's scenario: the time of the last group of
    jobs (the small writers; the only group when the program writes no
    large file first), those jobs' CPU per write, their context
    switches per write, voluntary and all, and the share of their time off
    a CPU that they waited for one (cpu_wait_ns) rather than slept."""
    jobs = result_json["jobs"]
    last = max(j.get("groupid", 0) for j in jobs)
    cpu = writes = nvcsw = nivcsw = off = runnable = 0
    for fj, wj in zip(jobs, result_json["wbsim"]["jobs"]):
        if fj.get("groupid", 0) == last:
            cpu += wj["cpu_ns"]
            nvcsw += wj.get("nvcsw", 0)
            nivcsw += wj.get("nivcsw", 0)
            writes += wj["total_ios"]
            if "runtime_ns" in wj:
                off += wj["runtime_ns"] - wj["cpu_ns"]
                runnable += wj.get("cpu_wait_ns", 0)
    out = {"last_group_s": max(j["job_runtime"] for j in jobs
                               if j.get("groupid", 0) == last) / 1e3}
    if writes:
        out["small_cpu_ns_per_write"] = cpu / writes
        out["small_nvcsw_per_write"] = nvcsw / writes
        out["small_ctxsw_per_write"] = (nvcsw + nivcsw) / writes
    if off > 0:
        out["small_runnable_share"] = runnable / off
    return out


def parse_trace(path):
    """(event, pid, comm, fields) of every line of a text trace."""
    opener = {".gz": gzip.open, ".xz": lzma.open}.get(os.path.splitext(path)[1], open)
    with opener(path, "rt") as f:
        for line in f:
            m = TRACE_LINE.match(line)
            if not m:
                continue
            fields = {}
            for kv in m.group(6).split():
                if "=" in kv:
                    k, v = kv.split("=", 1)
                    fields[k] = v
            fields["_t"] = float(m.group(4))
            yield m.group(5), int(m.group(2)), m.group(1).strip(), fields


def trace_figures(path):
    """Throttle pauses (count, total ms) from balance_dirty_pages: a pause
    counts where the task slept it, i.e. its next balance_dirty_pages
    event comes at least 90% of the pause later (or never): an io_uring
    issue with IOCB_NOWAIT traces the pause and returns -EAGAIN instead of
    sleeping (BDP_ASYNC), and its io-wq worker then sleeps it. Pages
    written by flusher works: writeback_start and writeback_written frame
    each pass of wb_writeback() and print the work's remaining budget
    (work->nr_pages), so a pass wrote the difference of the two."""
    pauses = 0
    pause_ms = 0.0
    flusher_pages = 0
    started = {}
    pending = {}            # pid -> (time, pause ms) not yet known slept

    def settle(pid, now):
        nonlocal pauses, pause_ms
        t, p = pending.pop(pid, (None, 0))
        if t is not None and (now is None or now - t >= 0.9 * p / 1e3):
            pauses += 1
            pause_ms += p
    for ev, pid, comm, f in parse_trace(path):
        if ev == "balance_dirty_pages":
            settle(pid, f["_t"])
            p = int(f.get("pause", "0"))
            if p > 0:
                pending[pid] = (f["_t"], p)
        elif ev == "writeback_start":
            started[pid] = int(f.get("nr_pages", "0"))
        elif ev == "writeback_written" and pid in started:
            flusher_pages += max(0, started.pop(pid) - int(f.get("nr_pages", "0")))
    for pid in list(pending):
        settle(pid, None)
    return {"pauses": pauses, "paused_ms": pause_ms, "flusher_pages": flusher_pages}


def extents_by_moment(items):
    """{moment: total extents over the files} from [{moment, path, filefrag}]."""
    out = {}
    for e in items:
        if e.get("filefrag") is None:
            continue
        out[e["moment"]] = out.get(e["moment"], 0) + e["filefrag"]
    return out


def median_of_counts(counts):
    """The exact median of a multiset given as {value: how many} (the mean
    of the two middle values for an even number), or None when empty."""
    n = sum(counts.values())
    if not n:
        return None
    lo, hi = (n - 1) // 2, n // 2
    vals = []
    seen = 0
    for v in sorted(counts):
        c = counts[v]
        for k in (lo, hi):
            if seen <= k < seen + c:
                vals.append(v)
        seen += c
        if len(vals) == 2:
            break
    return (vals[0] + vals[1]) / 2


def extent_lengths_by_moment(items):
    """{moment: median length in blocks of every file's extents} from
    [{moment, path, lengths: {"<blocks>": records}}] (lab/run-kernel's
    filefrag -v, the simulator's "lengths"): the files' length counts
    merged, their exact median; 0 for a moment whose files have no
    extents. A moment without "lengths" (runs recorded before them) has
    none."""
    merged = {}
    for e in items:
        if e.get("lengths") is None:
            continue
        m = merged.setdefault(e["moment"], {})
        for length, n in e["lengths"].items():
            m[int(length)] = m.get(int(length), 0) + n
    out = {}
    for moment, counts in merged.items():
        med = median_of_counts(counts)
        out[moment] = med if med is not None else 0.0
    return out


def extent_figures(items):
    """extents_<moment> and extents_median_len_<moment> of an extents list."""
    m = {}
    for moment, n in extents_by_moment(items).items():
        m[f"extents_{moment}"] = n
    for moment, med in extent_lengths_by_moment(items).items():
        m[f"extents_median_len_{moment}"] = med
    return m


# The reasons writeback_start prints (the kernel's WB_WORK_REASON, in its
# order): every one is a figure, 0 where none occurred, so that a reason
# only one side has is compared too.
WB_REASONS = ["background", "vmscan", "sync", "periodic", "laptop_timer",
              "fs_free_space", "forker_thread", "foreign_flush"]


def writeback_starts(path):
    """{reason: writeback_start events} of a text trace (.xz, .gz or
    plain): one per pass of wb_writeback()."""
    out = dict.fromkeys(WB_REASONS, 0)
    for ev, _pid, _comm, f in parse_trace(path):
        if ev == "writeback_start":
            r = f.get("reason", "unknown")
            out[r] = out.get(r, 0) + 1
    return out


def wb_start_figures(starts):
    """wb_starts_<reason> of {reason: count}."""
    return {f"wb_starts_{r}": n for r, n in starts.items()}


# -- one lab run -------------------------------------------------------------

def lab_series_rows(d):
    """A lab run's series with t = 0 where the jobs begin writing, as in
    the simulator, and the shift: the last sample before the lab bdi's
    dirty and writeback pages passed 256 (fio's start-up and file layout,
    a lab program's set-up come first; io_uring writes do not move a
    task's wchar, so the jobs' byte counts cannot tell). The bdi's own
    counts, not the machine's dirtied count, which other work on the
    machine moves too."""
    rows = series_rows(os.path.join(d, "series.csv"))
    t0 = 0.0
    for r in rows:
        if (col(r, "wb0_dirty") or 0) + (col(r, "wb0_writeback") or 0) > 256:
            break
        t0 = time_of(r)
    for r in rows:
        r["time_s"] = time_of(r) - t0
    return rows, t0


# Below this many pages written in the perf window, a writeback CPU figure
# per page divides the flusher's idle wake-ups by almost nothing: on a new
# bdi the kernel may write nothing back while the jobs run (E6: first
# writeback at 5.3 s, the jobs end at 2 s), and 44 ms over 2 pages would
# read as 22 ms a page. Such a run gives no per-page writeback figure.
MIN_PAGES_WRITTEN = 1024


def cpu_per_page(perf_ms, dirtied, written):
    """The CPU per page by kind of kernel work, from perf's ms by task."""
    m = {}
    writer = perf_ms.get("fio", 0) + perf_ms.get("io_uring_worker", 0)
    if dirtied:
        m["cpu_writer_ns_per_page"] = writer * 1e6 / dirtied
    if written >= max(MIN_PAGES_WRITTEN, dirtied // 100):
        m["cpu_flusher_ns_per_page"] = perf_ms.get("flusher", 0) * 1e6 / written
        m["cpu_completion_ns_per_page"] = (perf_ms.get("irq", 0) +
                                           perf_ms.get("fs_completion", 0)) * 1e6 / written
        m["cpu_loop_ns_per_page"] = perf_ms.get("loop", 0) * 1e6 / written
    return m


def trace_file(d):
    """A lab run's trace: trace.txt.xz (lab/slim-results' form),
    trace.txt.gz (as lab/run-kernel records it) or trace.txt; None."""
    for name in ("trace.txt.xz", "trace.txt.gz", "trace.txt"):
        path = os.path.join(d, name)
        if os.path.exists(path):
            return path
    return None


def lab_run(d):
    with open(os.path.join(d, "meta.json")) as f:
        meta = json.load(f)
    with open(os.path.join(d, "cpu.json")) as f:
        cpu = json.load(f)
    if os.path.exists(os.path.join(d, "program.json")):
        with open(os.path.join(d, "program.json")) as f:
            prog = json.load(f)
        m = program_figures(prog)
        small = prog["small"]
        threads_ms = cpu.get("schedstat_program_ms", {}).get("threads")
        if "small_cpu_ns_per_write" not in m and threads_ms is not None:
            # runs of the program before it read its threads' rusage: the
            # threads' schedstat run time (the same CPU time, from /proc)
            m["small_cpu_ns_per_write"] = threads_ms * 1e6 / (small["threads"] *
                                                              small["writes"])
    else:
        with open(os.path.join(d, "fio.json")) as f:
            fio = json.load(f)
        m = fio_bandwidths(fio)
        g = last_group_seconds(fio["jobs"])
        if g is not None:
            m["last_group_s"] = g
    rows, t0 = lab_series_rows(d)
    m.update(series_figures(rows, meta["jobs_wall_s"] - t0))
    tr = trace_file(d)
    written = cpu["nr_written"]
    dirtied = cpu["nr_dirtied"]
    if tr:
        t = trace_figures(tr)
        m["pauses"] = t["pauses"]
        m["paused_s"] = t["paused_ms"] / 1e3
        if written:
            m["flusher_share"] = min(1.0, t["flusher_pages"] / written)
        m.update(wb_start_figures(writeback_starts(tr)))
    m["pages_written"] = written
    m["pages_dirtied"] = dirtied
    if "perf_ms" in cpu:
        m.update(cpu_per_page(cpu["perf_ms"], dirtied, written))
    with open(os.path.join(d, "extents.json")) as f:
        m.update(extent_figures(json.load(f)))
    return m


# -- one simulator run -------------------------------------------------------

def sim_run(result_json, series_csv, program=False):
    """The figures of one simulation; @program: the scenario describes a
    lab program (lab_program), whose small-write figures it gets too."""
    w = result_json["wbsim"]
    m = fio_bandwidths(result_json)
    g = last_group_seconds(result_json["jobs"])
    if g is not None:
        m["last_group_s"] = g
    if program:
        m.update(sim_small_figures(result_json))
    end = 0
    for j in w["jobs"]:
        end = max(end, j["start_ns"] + j["runtime_ns"])
    m.update(series_figures(series_rows(series_csv), end / 1e9))
    m["pauses"] = sum(j["pauses"] for j in w["jobs"])
    m["paused_s"] = sum(j["paused_ns"] for j in w["jobs"]) / 1e9
    written = w["nr_written"]
    dirtied = w["nr_dirtied"]
    flusher = sum(c["pages_written"] for c in w["contexts"])
    if written:
        m["flusher_share"] = min(1.0, flusher / written)
    m["pages_written"] = written
    m["pages_dirtied"] = dirtied
    ck = w["cpu_by_kind_ns"]
    if dirtied:
        m["cpu_writer_ns_per_page"] = ck.get("dirtier", 0) / dirtied
    if written:
        m["cpu_flusher_ns_per_page"] = ck.get("flusher", 0) / written
        m["cpu_completion_ns_per_page"] = ck.get("irq", 0) / written
        m["cpu_loop_ns_per_page"] = ck.get("other", 0) / written
    m.update(extent_figures(w.get("extents", [])))
    if "writeback_starts" in w:
        m.update(wb_start_figures(w["writeback_starts"]))
    return m
