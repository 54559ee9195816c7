#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Where the E8 small-writes threads' time goes on the kernel, variant by
variant, from `lab/run-kernel --sleeps` runs (e8-variants-sleeps/W/:
program.json's per-thread CPU and context switches, cpu.json's sleeps by
task kind and reason, runnable waits and idle CPU time).

  e8-decompose.py DIR...     one row per run directory

Per small-writes thread (means over the threads): CPU, runnable wait (the
lab program's runnable waits after a preemption, over its threads, the
large writer's included), sleeps on the inode's lock (xfs_ilock <
xfs_file_buffered_write, or ext4_buffered_write_iter's inode_lock), sleeps
on folios (__filemap_get_folio, folio_wait_*), the rest of the small
writes' time; context switches a write; the CPUs' idle share of the
perf window; the flusher's sleep in wbt_wait."""
import json
import os
import sys


def row(d):
    prog = json.load(open(os.path.join(d, "program.json")))["small"]
    s = json.load(open(os.path.join(d, "cpu.json")))["sleeps"]
    n, writes = prog["threads"], prog["threads"] * prog["writes"]
    cpu = sum(prog["thread_cpu_s"]) / n
    csw = (sum(prog["thread_nvcsw"]) + sum(prog["thread_nivcsw"])) / writes
    fio = s["sleeps"].get("fio", [])
    lock = sum(x["total_ms"] for x in fio if "ilock" in x["where"] or
               "ext4_buffered_write_iter" in x["where"]) / 1e3 / n
    folio = sum(x["total_ms"] for x in fio if "filemap_get_folio" in x["where"] or
                "folio_wait" in x["where"]) / 1e3 / n
    runnable = s["runnable_wait_ms"].get("fio", 0) / 1e3 / (n + 1)
    wbt = sum(x["total_ms"] for x in s["sleeps"].get("flusher", [])
              if "wbt_wait" in x["where"]) / 1e3
    idle = sum(s["idle_ms"].values()) / 1e3 / (len(s["idle_ms"]) * s["window_s"])
    t = prog["seconds"]
    return (os.path.basename(os.path.normpath(d)), t, cpu, runnable, lock, folio,
            sum(prog["thread_seconds"]) / n - cpu - runnable - lock - folio, csw, idle, wbt)


def main():
    print(f"{'variant':32} {'time s':>7} {'cpu':>6} {'runnable':>8} {'lock':>6} {'folio':>6} "
          f"{'rest':>6} {'ctxsw/w':>8} {'idle':>5} {'wbt s':>6}")
    for d in sys.argv[1:]:
        r = row(d)
        print(f"{r[0]:32} {r[1]:7.3f} {r[2]:6.3f} {r[3]:8.3f} {r[4]:6.3f} {r[5]:6.3f} "
              f"{r[6]:6.3f} {r[7]:8.4f} {r[8]:5.0%} {r[9]:6.2f}")


if __name__ == "__main__":
    main()
