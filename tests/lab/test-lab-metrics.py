#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The lab's readings of kernel output, on small texts of known content:
the trace pairing of writeback_start/writeback_written and the count of
writeback starts by reason, the rule that a throttle pause counts only
where the task slept it, the series reader, filefrag's counts and extent
lengths (a lab run folder and a simulator result of a few lines), and the
tolerance rules of lab/compare (rel, abs, ext, factor). The lab's guards
(the journal of host changes, run-kernel's and compare's refusals) on a
fake root: nothing here changes the machine."""
import contextlib
import errno
import json
import subprocess
import gzip
import importlib.machinery
import importlib.util
import io
import lzma
import os
import shutil
import sys
import tempfile
import unittest

TOP = os.environ.get("WBSIM_SOURCE_ROOT",
                     os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(TOP, "lab"))
from wbsimlab import host, metrics, profile, record, scenario    # noqa: E402



def load_script(name):
    loader = importlib.machinery.SourceFileLoader(name.replace("-", "_"),
                                                  os.path.join(TOP, "lab", name))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def write_file(d, name, text):
    """@text as the file @name in the folder @d; its path."""
    path = os.path.join(d, name)
    with open(path, "w") as f:
        f.write(text)
    return path


compare = load_script("compare")
run_kernel = load_script("run-kernel")
slim_results = load_script("slim-results")
costs = load_script("costs")
calibrate = load_script("calibrate")

TRACE = """\
# tracer: nop
 kworker/u8:0-12      [001] ...1.  100.000000: writeback_start: bdi 7:0: sb_dev 0:0 nr_pages=1000 sync_mode=0 kupdate=0 range_cyclic=1 background=1 reason=background cgroup_ino=1
 kworker/u8:0-12      [001] ...1.  100.010000: writeback_written: bdi 7:0: sb_dev 0:0 nr_pages=400 sync_mode=0 kupdate=0 range_cyclic=1 background=1 reason=background cgroup_ino=1
 kworker/u8:3-13      [000] ...1.  100.020000: writeback_start: bdi 7:0: sb_dev 0:0 nr_pages=50 sync_mode=0 kupdate=1 range_cyclic=1 background=0 reason=periodic cgroup_ino=1
 kworker/u8:3-13      [000] ...1.  100.020010: writeback_written: bdi 7:0: sb_dev 0:0 nr_pages=50 sync_mode=0 kupdate=1 range_cyclic=1 background=0 reason=periodic cgroup_ino=1
 fio-500     [000] .....  101.000000: balance_dirty_pages: bdi 7:0: limit=1 setpoint=1 dirty=1 wb_setpoint=1 wb_dirty=1 dirty_ratelimit=1 task_ratelimit=1 dirtied=1 dirtied_pause=1 paused=0 pause=20 period=20 think=0 cgroup_ino=1
 iou-wrk-500-501 [000] .....  101.000100: balance_dirty_pages: bdi 7:0: limit=1 setpoint=1 dirty=1 wb_setpoint=1 wb_dirty=1 dirty_ratelimit=1 task_ratelimit=1 dirtied=1 dirtied_pause=1 paused=0 pause=20 period=20 think=0 cgroup_ino=1
 fio-500     [000] .....  101.000200: balance_dirty_pages: bdi 7:0: limit=1 setpoint=1 dirty=1 wb_setpoint=1 wb_dirty=1 dirty_ratelimit=1 task_ratelimit=1 dirtied=1 dirtied_pause=1 paused=0 pause=20 period=20 think=0 cgroup_ino=1
 fio-500     [000] .....  101.000300: global_dirty_state: dirty=41 writeback=0 bg_thresh=65536 thresh=131072 limit=131072 dirtied=2 written=1
 iou-wrk-500-501 [000] .....  101.030000: balance_dirty_pages: bdi 7:0: limit=1 setpoint=1 dirty=1 wb_setpoint=1 wb_dirty=1 dirty_ratelimit=1 task_ratelimit=1 dirtied=1 dirtied_pause=1 paused=0 pause=0 period=20 think=0 cgroup_ino=1
"""


class LabMetrics(unittest.TestCase):
    def test_trace(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "trace.txt.gz")
            with gzip.open(p, "wt") as f:
                f.write(TRACE)
            t = metrics.trace_figures(p)
        # 1000 - 400 by the background pass, 0 by the periodic one
        self.assertEqual(t["flusher_pages"], 600)
        # fio's first pause was followed 0.2 ms later by its next call:
        # not slept (-EAGAIN); its second has no successor: slept; the
        # worker's came 29.9 ms before its next call: slept
        self.assertEqual(t["pauses"], 2)
        self.assertEqual(t["paused_ms"], 40)

    def test_slim_results(self):
        # lab/slim-results drops global_dirty_state only: the same figures
        # from the .xz, every other line kept in order, the .gz removed
        with tempfile.TemporaryDirectory() as d:
            with gzip.open(os.path.join(d, "trace.txt.gz"), "wt") as f:
                f.write(TRACE)
            before = metrics.trace_figures(os.path.join(d, "trace.txt.gz"))
            self.assertTrue(slim_results.slim(d))
            self.assertFalse(os.path.exists(os.path.join(d, "trace.txt.gz")))
            xz = os.path.join(d, "trace.txt.xz")
            self.assertEqual(metrics.trace_figures(xz), before)
            with lzma.open(xz, "rt") as f:
                kept = f.read()
        expect = "".join(l + "\n" for l in TRACE.splitlines()
                         if "global_dirty_state" not in l)
        self.assertEqual(kept, expect)
        self.assertEqual(len(expect.splitlines()), len(TRACE.splitlines()) - 1)

    def test_series(self):
        with tempfile.TemporaryDirectory() as d:
            rows = metrics.series_rows(write_file(
                d, "s.csv", "# comment\ntime_s,dirty_pages,writeback,wb0_written\n"
                "0,0,0,0\n0.1,100,10,0\n0.2,300,20,5\n0.3,200,0,9\n"))
        fig = metrics.series_figures(rows, 0.2)
        self.assertAlmostEqual(fig["dirty_mean_pages"], 400 / 3)
        self.assertEqual(fig["dirty_peak_pages"], 300)
        self.assertEqual(fig["first_writeback_s"], 0.2)

    def test_extents(self):
        e = [{"moment": "end", "path": "/mnt/a", "filefrag": 3},
             {"moment": "end", "path": "/mnt/b", "filefrag": 4},
             {"moment": "remount", "path": "/mnt/a", "filefrag": None}]
        self.assertEqual(metrics.extents_by_moment(e), {"end": 7})

    def test_extent_lengths(self):
        # the exact median of a multiset: the middle one, or the mean of
        # the two middle ones
        self.assertEqual(metrics.median_of_counts({1: 2, 2: 1, 4: 1}), 1.5)
        self.assertEqual(metrics.median_of_counts({1: 2, 2: 1, 4: 2}), 2)
        self.assertEqual(metrics.median_of_counts({7: 1}), 7)
        self.assertEqual(metrics.median_of_counts({3: 2, 100: 2}), 51.5)
        self.assertIsNone(metrics.median_of_counts({}))
        # every file's extents of a moment merged: a: 1 1 5, b: 2 (and one
        # empty file) -> 1 1 2 5 -> 1.5, although each file's median is 1
        # and 2; a moment without lengths (older runs) has no figure
        e = [{"moment": "after-jobs", "path": "/mnt/a", "filefrag": 3,
              "lengths": {"5": 1, "1": 2}},
             {"moment": "after-jobs", "path": "/mnt/b", "filefrag": 1, "lengths": {"2": 1}},
             {"moment": "after-jobs", "path": "/mnt/c", "filefrag": 0, "lengths": {}},
             {"moment": "remount", "path": "/mnt/a", "filefrag": 1, "lengths": {}},
             {"moment": "end", "path": "/mnt/a", "filefrag": 2}]
        self.assertEqual(metrics.extent_lengths_by_moment(e),
                         {"after-jobs": 1.5, "remount": 0.0})
        self.assertEqual(metrics.extent_figures(e),
                         {"extents_after-jobs": 4, "extents_remount": 1, "extents_end": 2,
                          "extents_median_len_after-jobs": 1.5,
                          "extents_median_len_remount": 0.0})

    def test_writeback_starts(self):
        # one writeback_start per pass of wb_writeback(), counted by
        # reason from the trace however it is stored; every reason the
        # kernel names is a figure
        text = TRACE + "".join(
            f" kworker/u8:0-12      [001] ...1.  10{i}.500000: writeback_start: bdi 7:0: "
            f"sb_dev 0:0 nr_pages=10 sync_mode=1 kupdate=0 range_cyclic=0 background=0 "
            f"reason=sync cgroup_ino=1\n" for i in range(3))
        expect = dict.fromkeys(metrics.WB_REASONS, 0)
        expect.update(background=1, periodic=1, sync=3)
        with tempfile.TemporaryDirectory() as d:
            for name, opener in (("trace.txt", open), ("trace.txt.gz", gzip.open),
                                 ("trace.txt.xz", lzma.open)):
                p = os.path.join(d, name)
                with opener(p, "wt") as f:
                    f.write(text)
                self.assertEqual(metrics.writeback_starts(p), expect, name)
        self.assertEqual(list(expect), ["background", "vmscan", "sync", "periodic",
                                        "laptop_timer", "fs_free_space", "forker_thread",
                                        "foreign_flush"])
        self.assertEqual(metrics.wb_start_figures({"sync": 3, "periodic": 0}),
                         {"wb_starts_sync": 3, "wb_starts_periodic": 0})

    def test_program_figures(self):
        # lab/e8-small-writes' JSON: the large write is job0 unless the file
        # was preallocated; CPU and context switches per small write
        small = {"threads": 2, "writes": 1000, "bs": 50, "seconds": 0.5,
                 "thread_seconds": [0.5, 0.25], "thread_bytes": [50000, 50000],
                 "thread_cpu_s": [0.002, 0.003], "thread_nvcsw": [3, 1],
                 "thread_nivcsw": [2, 0], "thread_run_delay_s": [0.1, 0.049],
                 "pages_dirtied": 40, "pages_written": 7}
        written = {"mode": "write", "bytes": 2 << 20, "chunk": 1 << 20, "seconds": 0.5}
        fig = metrics.program_figures({"large": written, "small": small})
        self.assertEqual(fig["bw_job0_mib_s"], 4.0)
        self.assertAlmostEqual(fig["bw_job2_mib_s"], 50000 / 0.25 / 2**20)
        self.assertEqual(fig["last_group_s"], 0.5)
        self.assertAlmostEqual(fig["small_cpu_ns_per_write"], 2500.0)
        self.assertEqual(fig["small_ctxsw_per_write"], 0.003)
        # the voluntary ones alone (the threads slept), as the simulator counts
        self.assertEqual(fig["small_nvcsw_per_write"], 0.002)
        self.assertEqual(fig["small_pages_written"], 7)
        # of the 0.745 s the threads were off their CPUs, 0.149 runnable
        self.assertAlmostEqual(fig["small_runnable_share"], 0.2)
        # a run delay the kernel could not give (-1): no share
        nodelay = dict(small, thread_run_delay_s=[-1, -1])
        self.assertNotIn("small_runnable_share",
                         metrics.program_figures({"large": written, "small": nodelay}))
        falloc = {"mode": "fallocate", "bytes": 0, "chunk": 1 << 20, "seconds": 0.001}
        fig = metrics.program_figures({"large": falloc, "small": small})
        self.assertAlmostEqual(fig["bw_job0_mib_s"], 50000 / 0.5 / 2**20)
        self.assertNotIn("bw_job2_mib_s", fig)
        # the simulator's side: the last group's jobs, or the only group
        jobs = [{"groupid": 0, "job_runtime": 100}, {"groupid": 1, "job_runtime": 400},
                {"groupid": 1, "job_runtime": 500}]
        wjobs = [{"cpu_ns": 9, "total_ios": 1, "nvcsw": 7, "nivcsw": 5},
                 {"cpu_ns": 3000, "total_ios": 2, "nvcsw": 1, "nivcsw": 2,
                  "runtime_ns": 13000, "cpu_wait_ns": 5000},
                 {"cpu_ns": 5000, "total_ios": 2, "nvcsw": 0, "nivcsw": 1,
                  "runtime_ns": 15000, "cpu_wait_ns": 5000}]
        # off their CPUs 10,000 + 10,000 ns, runnable 5,000 + 5,000
        want = {"last_group_s": 0.5, "small_cpu_ns_per_write": 2000.0,
                "small_nvcsw_per_write": 0.25, "small_ctxsw_per_write": 1.0,
                "small_runnable_share": 0.5}
        got = metrics.sim_small_figures({"jobs": jobs, "wbsim": {"jobs": wjobs}})
        self.assertEqual(got, want)
        got = metrics.sim_small_figures({"jobs": jobs[1:], "wbsim": {"jobs": wjobs[1:]}})
        self.assertEqual(got, want)

    def test_lab_and_sim_run_figures(self):
        # a tiny lab run folder and a simulator result of the same shape
        # give the same new figures under the same names
        lengths = {"after-jobs": {"1": 3, "8": 1}, "remount": {"16": 1, "64": 1}}
        ext = [{"path": "/mnt/f", "moment": m, "filefrag": sum(l.values()), "lengths": l}
               for m, l in lengths.items()]
        series = "time_s,wb0_dirty,wb0_writeback,dirty,wb0_written\n" \
                 "0,0,0,0,0\n0.1,300,0,300,0\n0.2,500,10,500,4\n"
        with tempfile.TemporaryDirectory() as d:
            files = {"meta.json": {"jobs_wall_s": 0.2},
                     "cpu.json": {"nr_written": 600, "nr_dirtied": 1000},
                     "fio.json": {"jobs": [{"write": {"bw_bytes": 2 ** 20}}]},
                     "extents.json": ext}
            for name, obj in files.items():
                with open(os.path.join(d, name), "w") as f:
                    json.dump(obj, f)
            write_file(d, "series.csv", series)
            write_file(d, "trace.txt", TRACE)
            lab = metrics.lab_run(d)
            starts = dict.fromkeys(metrics.WB_REASONS, 0)
            starts.update(background=1, periodic=1)
            sim_json = {"jobs": [{"write": {"bw_bytes": 2 ** 20}}],
                        "wbsim": {"jobs": [{"start_ns": 0, "runtime_ns": 2 * 10 ** 8,
                                            "pauses": 0, "paused_ns": 0}],
                                  "nr_written": 600, "nr_dirtied": 1000,
                                  "contexts": [{"pages_written": 600}],
                                  "cpu_by_kind_ns": {},
                                  "writeback_starts": starts, "extents": ext}}
            sim = metrics.sim_run(sim_json, os.path.join(d, "series.csv"))
        for m in (lab, sim):
            self.assertEqual(m["extents_median_len_after-jobs"], 1)
            self.assertEqual(m["extents_median_len_remount"], 40)
            self.assertEqual(m["extents_after-jobs"], 4)
            self.assertEqual(m["wb_starts_background"], 1)
            self.assertEqual(m["wb_starts_periodic"], 1)
            self.assertEqual(m["wb_starts_sync"], 0)
            self.assertEqual(len([k for k in m if k.startswith("wb_starts_")]), 8)

    def test_cpu_per_page_needs_pages_written(self):
        perf = {"fio": 1000.0, "io_uring_worker": 500.0, "flusher": 44.0,
                "irq": 16.0, "fs_completion": 18.0, "loop": 56.0}
        # E6 on a new bdi: nothing written back while the jobs ran
        m = metrics.cpu_per_page(perf, 262144, 2)
        self.assertEqual(m, {"cpu_writer_ns_per_page": 1500.0 * 1e6 / 262144})
        # 1% of the pages dirtied is the least that gives a figure
        self.assertNotIn("cpu_flusher_ns_per_page", metrics.cpu_per_page(perf, 262144, 2620))
        m = metrics.cpu_per_page(perf, 262144, 2621)
        self.assertAlmostEqual(m["cpu_flusher_ns_per_page"], 44.0 * 1e6 / 2621)
        self.assertAlmostEqual(m["cpu_completion_ns_per_page"], 34.0 * 1e6 / 2621)
        self.assertAlmostEqual(m["cpu_loop_ns_per_page"], 56.0 * 1e6 / 2621)
        # and never below MIN_PAGES_WRITTEN
        self.assertNotIn("cpu_loop_ns_per_page", metrics.cpu_per_page(perf, 1000, 1023))
        self.assertIn("cpu_loop_ns_per_page", metrics.cpu_per_page(perf, 1000, 1024))

    def test_tolerances(self):
        self.assertTrue(compare.within("bw", 100.0, 114.9, ("rel", 0.15)))
        self.assertFalse(compare.within("bw", 100.0, 115.1, ("rel", 0.15)))
        self.assertTrue(compare.within("extents_end", 2, 5, ("ext", 0.3)))
        self.assertFalse(compare.within("extents_end", 2, 6, ("ext", 0.3)))
        self.assertTrue(compare.within("extents_end", 100, 129, ("ext", 0.3)))
        self.assertFalse(compare.within("first", 0.5, 1.6, ("abs", 1.0)))
        tols = [("*", "cpu_loop_ns_per_page", "rel", 0.4),
                ("w", "bw_*", "rel", 0.3)]
        self.assertEqual(compare.tolerance_for(tols, "w", "bw_total_mib_s"), ("rel", 0.3))
        self.assertEqual(compare.tolerance_for(tols, "x", "bw_total_mib_s"), ("rel", 0.15))
        self.assertEqual(compare.tolerance_for(tols, "x", "cpu_loop_ns_per_page"), ("rel", 0.4))
        self.assertIsNone(compare.tolerance_for(tols, "x", "pauses"))
        # the goals for the new figures: extent lengths within a
        # factor of 2, writeback starts by reason within 30%
        self.assertEqual(compare.tolerance_for([], "x", "extents_median_len_remount"),
                         ("factor", 2.0))
        self.assertEqual(compare.tolerance_for([], "x", "extents_remount"), ("ext", 0.3))
        self.assertEqual(compare.tolerance_for([], "x", "wb_starts_sync"), ("rel", 0.3))

    def test_factor(self):
        # within a factor F: measured / F .. measured * F, both ways
        for m, p, ok in [(100, 200, True), (100, 50, True), (100, 201, False),
                         (100, 49.9, False), (3, 3, True), (0, 0, True), (0, 1, False),
                         (1, 0, False)]:
            self.assertEqual(compare.within("extents_median_len_end", m, p, ("factor", 2.0)),
                             ok, (m, p))
        self.assertTrue(compare.within("x", 10, 10, ("factor", 1)))
        # a pin holds what it was made from, not a figure 1.3 times further
        line = compare.pin_line("w", "extents_median_len_end", 100, 300, ("factor", 2.0))
        self.assertEqual(line, "w extents_median_len_end factor 3.3")
        self.assertTrue(compare.within("m", 100, 300, ("factor", 3.3)))
        self.assertTrue(compare.within("m", 300, 100, ("factor", 3.3)))
        self.assertFalse(compare.within("m", 100, 300 * 1.3, ("factor", 3.3)))
        # measured 0: no factor holds a prediction of 5; its difference does
        self.assertEqual(compare.pin_line("w", "m", 0, 5, ("factor", 2.0)), "w m abs 5.5")
        self.assertTrue(compare.within("m", 0, 5, ("abs", 5.5)))
        # the file format takes the kind
        with tempfile.TemporaryDirectory() as d:
            tols = compare.load_tolerances(write_file(
                d, "fidelity.txt", "# x\nw extents_median_len_* factor 4  # why\n"
                "* wb_starts_sync rel 0.5\n"))
        self.assertEqual(compare.tolerance_for(tols, "w", "extents_median_len_after-jobs"),
                         ("factor", 4.0))
        self.assertEqual(compare.tolerance_for(tols, "v", "wb_starts_sync"), ("rel", 0.5))

    def test_figure_order(self):
        names = ["extents_median_len_end", "wb_starts_sync", "extents_end", "pauses",
                 "bw_total_mib_s", "extents_after-jobs", "wb_starts_background"]
        self.assertEqual(sorted(names, key=compare.sort_key),
                         ["bw_total_mib_s", "pauses", "wb_starts_background", "wb_starts_sync",
                          "extents_after-jobs", "extents_end", "extents_median_len_end"])

    def test_pin_line(self):
        # each pin holds the figure it was made from, and one 15% further does not fit
        for metric, m, p, tol in [("bw_total_mib_s", 100.0, 159.0, ("rel", 0.15)),
                                  ("first_writeback_s", 0.5, 1.6, ("abs", 1.0)),
                                  ("extents_end", 2, 6, ("ext", 0.3))]:
            line = compare.pin_line("w", metric, m, p, tol)
            w, name, kind, limit = line.split()
            self.assertEqual((w, name, kind), ("w", metric, tol[0]))
            self.assertTrue(compare.within(metric, m, p, (kind, float(limit))))
            self.assertFalse(compare.within(metric, m, m + (p - m) * 1.3, (kind, float(limit))))
        self.assertEqual(compare.pin_line("w", "bw_x", 100.0, 159.0, ("rel", 0.15)),
                         "w bw_x rel 0.65")
        # a kernel figure of 0 (no flusher CPU sampled) and a prediction of
        # 2.31: no relative error holds it, an absolute one does
        line = compare.pin_line("w", "cpu_flusher_ns_per_page", 0, 2.31, ("rel", 0.25))
        self.assertEqual(line, "w cpu_flusher_ns_per_page abs 2.6")
        self.assertTrue(compare.within("cpu_flusher_ns_per_page", 0, 2.31, ("abs", 2.6)))
        self.assertFalse(compare.within("cpu_flusher_ns_per_page", 0, 3.0, ("abs", 2.6)))

    def test_repin(self):
        # the workloads compared get new pins where their old ones stood,
        # after their comment; an abs pin keeps its kind; a figure back
        # within its goal loses its pin; other lines stay as they are
        import tempfile
        text = ("# header\n\n"
                "# w1: why w1\n"
                "w1 bw_total_mib_s rel 0.5\n"
                "w1 cpu_flusher_ns_per_page abs 2  # the kernel's is 0\n\n"
                "# w2: why w2\n"
                "w2 bw_total_mib_s rel 0.9\n\n"
                "# w3: untouched\n"
                "w3 bw_total_mib_s rel 0.4\n")
        comparisons = [
            {"name": "w1", "measured": {"bw_total_mib_s": 100.0, "cpu_flusher_ns_per_page": 0.0,
                                        "dirty_mean_pages": 1000.0},
             "predicted": {"bw_total_mib_s": 110.0, "cpu_flusher_ns_per_page": 3.0,
                           "dirty_mean_pages": 1500.0}},
            {"name": "w2", "measured": {"bw_total_mib_s": 100.0},
             "predicted": {"bw_total_mib_s": 200.0}},
        ]
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "fidelity.txt")
            with open(path, "w") as f:
                f.write(text)
            tols = compare.load_tolerances(path)
            pins = compare.repin(path, comparisons, tols)
            with open(path) as f:
                out = f.read()
        self.assertEqual(pins, ["w1 cpu_flusher_ns_per_page abs 3.3  # the kernel's is 0",
                                "w1 dirty_mean_pages rel 0.56", "w2 bw_total_mib_s rel 1.11"])
        self.assertEqual(out, "# header\n\n# w1: why w1\n"
                         "w1 cpu_flusher_ns_per_page abs 3.3  # the kernel's is 0\n"
                         "w1 dirty_mean_pages rel 0.56\n\n"
                         "# w2: why w2\nw2 bw_total_mib_s rel 1.11\n\n"
                         "# w3: untouched\nw3 bw_total_mib_s rel 0.4\n")

    def test_classify(self):
        self.assertEqual(record.classify("kworker/u8:3", ["memcpy", "wb_workfn"]), "flusher")
        self.assertEqual(record.classify("kworker/u8:1", ["x", "loop_process_work"]), "loop")
        self.assertEqual(record.classify("fio", ["f", "handle_softirqs", "g"]), "irq")
        self.assertEqual(record.classify("iou-wrk-12", ["f"]), "io_uring_worker")
        # a kworker forked during the recording, named after kthreadd
        self.assertEqual(record.classify("kthreadd", ["f", "wb_workfn"]), "flusher")
        self.assertEqual(record.classify("kthreadd", ["ext4_end_io_rsv_work"]), "fs_completion")
        self.assertEqual(record.classify("kthreadd", ["kthreadd"]), "kworker_other")
        self.assertEqual(record.categorise(["copy_folio_from_iter_atomic",
                                            "iomap_write_iter"]), "copy")
        self.assertEqual(record.categorise(["xas_load", "filemap_add_folio",
                                            "__filemap_get_folio"]), "page_alloc")

    def test_fio_rewrite(self):
        s = scenario.Scenario("t.ini", "[fio:global]\ndirectory=/mnt/a:/mnt/b\n"
                              "[fio:j]\nfilename=/mnt/c/f\nstonewall\n")
        job = s.fio_jobfile("/tmp/m")
        self.assertIn("directory=/tmp/m/a:/tmp/m/b", job)
        self.assertIn("filename=/tmp/m/c/f", job)
        self.assertIn("\nstonewall\n", job)
        self.assertEqual(s.fio_directories("/tmp/m"), ["/tmp/m/a", "/tmp/m/b", "/tmp/m/c"])
        self.assertEqual(scenario.parse_size("6442450944B"), 6 << 30)
        self.assertEqual(scenario.parse_size("4k"), 4096)
        self.assertRaises(scenario.ScenarioError, scenario.parse_size, "4x")

    def test_sleeps_from_sched_switch(self):
        """run-kernel --sleeps: a task's sleep runs from its switch-out in
        state S or D to its next switch-in, named by the first two frames
        beneath the scheduler; a preempted task (R) waits runnable; a CPU
        idles from the switch to its idle task to the switch away."""
        text = (
            "fio  100 [000] 10.000000: prev_comm=fio prev_pid=100 prev_prio=120 "
            "prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
            "\tffffffff0 __traceiter_sched_switch\n\tffffffff1 __schedule\n\tffffffff2 schedule\n"
            "\tffffffff3 io_cqring_wait\n\tffffffff4 __do_sys_io_uring_enter\n\n"
            "kworker/u4:1  7 [001] 10.000500: prev_comm=kworker/u4:1 prev_pid=7 prev_prio=120 "
            "prev_state=R+ ==> next_comm=fio next_pid=101 next_prio=120\n"
            "\tffffffff1 __schedule\n\tffffffff5 preempt_schedule_irq\n\n"
            "swapper     0 [000] 10.003000: prev_comm=swapper/0 prev_pid=0 prev_prio=120 "
            "prev_state=R ==> next_comm=fio next_pid=100 next_prio=120\n"
            "\tffffffff1 __schedule\n\tffffffff6 schedule_idle\n\n"
            "fio  101 [001] 10.004000: prev_comm=fio prev_pid=101 prev_prio=120 "
            "prev_state=D ==> next_comm=kworker/u4:1 next_pid=7 next_prio=120\n"
            "\tffffffff1 __schedule\n\tffffffff2 schedule\n\tffffffff7 io_schedule\n"
            "\tffffffff8 blk_mq_get_tag\n\tffffffff9 __blk_mq_alloc_requests\n\n"
            "fio  100 [000] 10.005000: prev_comm=fio prev_pid=100 prev_prio=120 "
            "prev_state=S ==> next_comm=fio next_pid=101 next_prio=120\n"
            "\tffffffff1 __schedule\n\tffffffff2 schedule\n"
            "\tffffffff3 io_cqring_wait\n\tffffffff4 __do_sys_io_uring_enter\n\n")
        s = record.SleepRecorder.summarise(text)
        self.assertEqual(s["window_s"], 0.005)
        fio = {r["where"]: (r["count"], r["total_ms"]) for r in s["sleeps"]["fio"]}
        self.assertEqual(fio, {"io_cqring_wait < __do_sys_io_uring_enter": (1, 3.0),
                               "blk_mq_get_tag < __blk_mq_alloc_requests": (1, 1.0)})
        self.assertEqual(s["runnable_wait_ms"], {"kworker_other": 3.5})
        # the preemption's site keeps the scheduling point
        self.assertEqual(s["preemptions"], {"kworker_other": [
            {"where": "preempt_schedule_irq", "count": 1, "total_ms": 3.5}]})
        self.assertEqual(s["idle_ms"], {"0": 3.0})
        table = record.SleepRecorder.table(s)
        self.assertIn("idle, ms by CPU: cpu0 3.0", table)
        self.assertIn("       1       3.00  io_cqring_wait < __do_sys_io_uring_enter", table)
        self.assertIn("kworker_other: preempted (runnable) at (count, total ms waiting)\n"
                      "         1       3.50  preempt_schedule_irq", table)


class LabLoopDevice(unittest.TestCase):
    """Each run's loop device is new (so is its bdi): an index from
    LAB_LOOP_FIRST that no disk holds, added through /dev/loop-control and
    removed after the run, the removal retried while the detach finishes.
    /dev/loop-control and /sys/block are replaced by fakes."""

    def setUp(self):
        self.calls = []
        self.existing = {"loop64"}          # a disk already there
        self.taken = {65}                   # added meanwhile by someone else
        self.busy = 2                       # LOOP_CTL_REMOVE answers EBUSY twice
        saved = (host.os.open, host.os.close, host.fcntl.ioctl,
                 host.os.path.exists, host.time.sleep)
        self.addCleanup(self.restore, saved)
        host.os.open = lambda path, flags: 99
        host.os.close = lambda fd: None
        host.os.path.exists = lambda path: os.path.basename(path) in self.existing
        host.time.sleep = lambda s: None
        host.fcntl.ioctl = self.ioctl

    @staticmethod
    def restore(saved):
        (host.os.open, host.os.close, host.fcntl.ioctl,
         host.os.path.exists, host.time.sleep) = saved

    def ioctl(self, fd, request, index):
        self.calls.append((request, index))
        if request == host.LOOP_CTL_ADD:
            if index in self.taken:
                raise OSError(errno.EEXIST, "exists")
            return index
        if request == host.LOOP_CTL_REMOVE and self.busy:
            self.busy -= 1
            raise OSError(errno.EBUSY, "busy")
        return 0

    def test_new_index_skips_existing_and_taken(self):
        self.assertEqual(host.new_loop_index(), 66)
        self.assertEqual(self.calls, [(host.LOOP_CTL_ADD, 65), (host.LOOP_CTL_ADD, 66)])

    def test_remove_retries_while_busy(self):
        host.remove_loop(66)
        self.assertEqual(self.calls, [(host.LOOP_CTL_REMOVE, 66)] * 3)

    def test_remove_gives_up(self):
        self.busy = 1000
        with self.assertRaises(host.LabError):
            host.remove_loop(66)


def v1045_profile():
    """The committed profile of host build v1045, which lab/results
    measured (lib/core/hosts/lab-v1045.inc), in ns."""
    host_build, values = profile.read(os.path.join(TOP, "lib", "core", "hosts",
                                                   "lab-v1045.inc"))
    return {k: profile.to_ns(v) for k, v in values.items()}


class CostTable(unittest.TestCase):
    """The v1045 host profile is what lab/results measures: every row
    lab/costs --table computes is within 5% (or 30 ns, the profile's
    rounding) of the committed value."""

    def test_rows_match_lab_results(self):
        measured = costs.table_values(os.path.join(TOP, "lab", "results"))
        table = v1045_profile()
        self.assertGreaterEqual(len(measured), 14)
        for row, value in measured.items():
            committed = sum(table[r] for r in row.split("+"))
            with self.subTest(row=row):
                self.assertLessEqual(abs(committed - value), max(0.05 * value, 30),
                                     f"{row}: table {committed}, lab/results {value:.0f}")

    def test_formula_terms(self):
        # a term subtracting an earlier row uses that row's measured value
        measured = costs.table_values(os.path.join(TOP, "lab", "results"))
        self.assertLess(measured["bio_build_ns"], 1642)
        self.assertGreater(measured["uring_punt_ns"], 0)


class CalibrateIdleRows(unittest.TestCase):
    """lab/calibrate's [machine] rows from bench-cacheline's output: the
    three runs kept with lab/studies/iowq-wakeups-v1272, exact values."""

    def texts(self):
        d = os.path.join(TOP, "lab", "studies", "iowq-wakeups-v1272", "bench-cacheline")
        return [open(os.path.join(d, f"run{i}.txt")).read() for i in (1, 2, 3)]

    def test_latencies_and_wake_costs(self):
        texts = self.texts()
        machine = calibrate.idle_exit_rows(texts)
        self.assertEqual(machine["idle_poll_latency"][0], "36us")
        self.assertEqual(machine["idle_poll_window"][0], "370us")
        self.assertEqual(machine["idle_poll_window"][2], [220000, 520000])
        self.assertEqual(machine["idle_exit_latency"][0], "53us")
        self.assertEqual(calibrate.poll_window_us(machine), 220)
        self.assertEqual(calibrate.idle_wake_row(texts, machine)[0], "11700ns")
        rows = calibrate.idle_exit_cost_rows(texts, machine)
        # within the window: 27 figures (9 periods x 3 runs), past it to 5 ms: 6
        self.assertEqual(len(rows["idle_poll_cost"][2]), 27)
        self.assertEqual(len(rows["idle_exit_cost"][2]), 6)
        self.assertEqual(rows["idle_poll_cost"][0], "6300ns")
        self.assertEqual(rows["idle_exit_cost"][0], "17600ns")

    def test_split_at_another_window(self):
        # the built-in profile's window (160 us on the polling side)
        rows = calibrate.idle_exit_cost_rows(
            self.texts(), {"idle_poll_window": ("170us", "", [160000, 180000])})
        self.assertEqual(rows["idle_poll_cost"][0], "5100ns")
        self.assertEqual(rows["idle_exit_cost"][0], "10100ns")

    def test_no_bench_no_rows(self):
        self.assertEqual(calibrate.idle_exit_cost_rows(None, {}), {})
        self.assertIsNone(calibrate.idle_wake_row(None, {}))
        self.assertEqual(calibrate.poll_window_us({}), 520)


class CalibrateExt4Rows(unittest.TestCase):
    """lab/calibrate's ext4 rows from cal-sparse-ext4's counts and perf
    times (ext4_extent_rows): exact values on one synthetic run."""

    def test_rows(self):
        with tempfile.TemporaryDirectory() as d:
            x = os.path.join(d, "cal-sparse-xfs", "run1")
            e = os.path.join(d, "cal-sparse-ext4", "run1")
            os.makedirs(x)
            os.makedirs(e)
            # XFS's twin: 100 ns of folio lookups a page written
            write_file(x, "cpu.json", json.dumps({
                "nr_written": 1000,
                "perf_inclusive_ms": {"flusher": {"filemap_get_folios_tag": 0.1}}}))
            write_file(e, "cpu.json", json.dumps({
                "nr_written": 1000,
                "perf_ms": {"fs_completion": 1.0},
                "perf_inclusive_ms": {
                    "flusher": {"ext4_map_blocks": 2.0, "__ext4_journal_start_sb": 0.3,
                                "__ext4_journal_stop": 0.2, "ext4_init_io_end": 0.1,
                                "ext4_split_extent": 0.5, "filemap_get_folios_tag": 0.3},
                    # the completion worker's mapping is not writeback's
                    "fs_completion": {"ext4_map_blocks": 1.0, "ext4_finish_bio": 0.2},
                    "fio": {"generic_update_time": 0.4}}}))
            write_file(os.path.dirname(e), "run1.events.csv",
                       "# started on Sun Dec  6\n\n"
                       "500,,ext4:ext4_da_write_pages_extent,1,100.00,,\n"
                       "400,,ext4:ext4_journal_start_reserved,1,100.00,,\n"
                       "600,,ext4:ext4_journal_start_inode,1,100.00,,\n")
            rows = {k: v[0] for k, v in calibrate.ext4_extent_rows(d, 1).items()}
        # per extent: (2.0 + 0.3 + 0.2 + 0.1) ms / 500 = 5200 ns, less the
        # split 1000, plus (300 - 100) ns of lookups a page x 2 pages an extent
        self.assertAlmostEqual(rows["ext4.map_ns"], 4600)
        self.assertAlmostEqual(rows["ext4.split_ns"], 1000)
        # (1.0 - 0.2) ms over 400 io_ends converted
        self.assertAlmostEqual(rows["ext4.end_io_ns"], 2000)
        # 0.4 ms over 600 - 500 inode handles writeback did not start
        self.assertAlmostEqual(rows["ext4.update_time_ns"], 4000)

    def test_no_runs_no_rows(self):
        with tempfile.TemporaryDirectory() as d:
            self.assertEqual(calibrate.ext4_extent_rows(d, 3), {})

    def test_block_row(self):
        # lab/costs' row on the calibration roles: the flusher's writepages
        # per page written, ext4's runs less XFS's median: (0.5 ms, 0.6 ms
        # over 1000 pages) - 300 ns
        with tempfile.TemporaryDirectory() as d:
            for name, runs in (("cal-cached-xfs", [0.3, 0.29, 0.31]),
                               ("cal-cached-ext4", [0.5, 0.6])):
                for k, ms in enumerate(runs, 1):
                    run = os.path.join(d, name, f"run{k}")
                    os.makedirs(run)
                    write_file(run, "cpu.json", json.dumps({
                        "nr_written": 1000, "nr_dirtied": 1000,
                        "perf_categories_ms": {"flusher": {"writepages": ms}}}))
                    write_file(run, "fio.json", json.dumps(
                        {"jobs": [{"write": {"total_ios": 1000}}]}))
            values, terms = costs.table(d, quiet=True, roles=costs.CALIBRATION_ROLES,
                                        have={"cal-cached-xfs", "cal-cached-ext4"})
            self.assertAlmostEqual(values["ext4.writepages_block_ns"], 250)
            self.assertEqual([round(v) for v in terms["ext4.writepages_block_ns"][3]],
                             [200, 300])
            # without the ext4 twin the row is left out
            values, _ = costs.table(d, quiet=True, roles=costs.CALIBRATION_ROLES,
                                    have={"cal-cached-xfs"})
            self.assertNotIn("ext4.writepages_block_ns", values)


class CopyProbe(unittest.TestCase):
    """The host's copy probe and what lab/calibrate says of it."""

    def test_probe_is_a_speed(self):
        v = host.copy_probe_gb_s(size=4 << 20, rounds=2)
        self.assertGreater(v, 0)
        self.assertEqual(v, round(v, 2))

    def test_slow_run_named(self):
        with tempfile.TemporaryDirectory() as d:
            for name, k, probe in (("cal-a", 1, [10.0, 10.2]), ("cal-a", 2, [9.8, 10.0]),
                                   ("cal-b", 1, [10.1, 5.0]), ("cal-b", 2, None)):
                run = os.path.join(d, name, f"run{k}")
                os.makedirs(run)
                write_file(run, "meta.json", json.dumps(
                    {"date": "x"} if probe is None else {"copy_probe_gb_s": probe}))
            header, slow = calibrate.probe_report(d, ["cal-a", "short/cal-b"], 2)
        # six probes of three runs (the fourth predates the probe): median 10.0
        self.assertEqual(header, ["The host's copy probe (lab/run-kernel, before and after "
                                  "each run): median 10 GB/s, 5..10.2 over 3 of the runs."])
        self.assertEqual(len(slow), 1)
        self.assertTrue(slow[0].startswith("cal-b run1: copy probe 5 GB/s against the set's "
                                           "median 10: a slower phase of the host"), slow[0])

    def test_no_probes_no_lines(self):
        with tempfile.TemporaryDirectory() as d:
            self.assertEqual(calibrate.probe_report(d, ["cal-a"], 3), ([], []))


class PathProbe(unittest.TestCase):
    """lab/path-probe's figures: what lab/calibrate writes of them into a
    profile's header, what lab/compare reads back and says of a set of runs
    that fell in another phase of the host."""

    def test_slow_phase_named_and_read_back(self):
        with tempfile.TemporaryDirectory() as d:
            for name, k, probes in (("cal-a", 1, [{"write_new_ns": 2500, "syscall_ns": 190},
                                                  {"write_new_ns": 2600, "syscall_ns": 200}]),
                                    ("cal-a", 2, [{"write_new_ns": 2400, "syscall_ns": 180},
                                                  None]),
                                    ("cal-b", 1, [{"write_new_ns": 2500, "syscall_ns": 185},
                                                  {"write_new_ns": 3500, "syscall_ns": 400}])):
                run = os.path.join(d, name, f"run{k}")
                os.makedirs(run)
                write_file(run, "meta.json", json.dumps({"path_probe": probes}))
            header, slow = calibrate.probe_report(d, ["cal-a", "cal-b"], 2)
            # five probes (one run's second failed: None): median 2500
            self.assertEqual(header, ["The host's path probe (lab/path-probe, before and after "
                                      "each run): write_new_ns median 2500, 2400..3500; "
                                      "syscall_ns median 190, 180..400 over 3 of the runs."])
            self.assertEqual(len(slow), 1)
            self.assertTrue(slow[0].startswith("cal-b run1: path probe 3500 ns a new page "
                                               "against the set's median 2500"), slow[0])
            prof = write_file(d, "p.inc", "".join(f"; {h}\n" for h in
                                                  ["Host profile", *header]) +
                              "[costs]\nhost = x\ncopy_page_ns = 1ns\n")
            self.assertEqual(profile.path_probe_ns(prof), 2500.0)
            self.assertEqual(compare.runs_path_probe([os.path.join(d, "cal-b", "run1")]), 3000.0)
            self.assertIsNone(profile.path_probe_ns(write_file(d, "q.inc", "[costs]\nhost = x\n")))
            # a damaged meta.json: what is not a probe is not read
            bad = os.path.join(d, "bad", "run1")
            os.makedirs(bad)
            write_file(bad, "meta.json", json.dumps({"path_probe": [5, {"write_new_ns": "x"},
                                                                    {"write_new_ns": 4000}]}))
            self.assertEqual(compare.runs_path_probe([bad]), 4000)
            write_file(bad, "meta.json", json.dumps({"path_probe": 7}))
            self.assertIsNone(compare.runs_path_probe([bad]))
            self.assertEqual(calibrate.probe_report(d, ["bad"], 1), ([], []))
        c = {"name": "w", "path_probe_ns": 3000.0, "profile_path_probe_ns": 2500.0}
        self.assertEqual(compare.phase_note(c),
                         "compare: host phase: w's runs took 3000 ns a new page in the path "
                         "probe, the profile's calibration runs 2500 (+20%): the host ran slower "
                         "than when its costs were measured, and the kernel's figures with it")
        self.assertEqual(compare.probe_cell(c), "3000 (2500)")
        c["path_probe_ns"] = 2800.0     # within 15%: nothing to say
        self.assertIsNone(compare.phase_note(c))
        self.assertEqual(compare.probe_cell({"path_probe_ns": None}), "-")

    def test_profile_of_the_phase(self):
        """Of two profiles of one build, the runs get the one calibrated in
        their phase (the nearer path probe); runs without a probe the one
        calibrated before the probe existed."""
        saved = profile.HOSTS
        with tempfile.TemporaryDirectory() as d:
            body = "[costs]\nhost = b1\ncopy_page_ns = 1ns\n"
            write_file(d, "a-old.inc", body)
            write_file(d, "b-fast.inc", "; The host's path probe (lab/path-probe, x): "
                       "write_new_ns median 2500, 2400..2600 over 3 of the runs.\n" + body)
            write_file(d, "c-slow.inc", "; The host's path probe (lab/path-probe, x): "
                       "write_new_ns median 4000, 3900..4100 over 3 of the runs.\n" + body)
            profile.HOSTS = d
            try:
                self.assertEqual(os.path.basename(profile.for_build("b1", 3300)), "c-slow.inc")
                self.assertEqual(os.path.basename(profile.for_build("b1", 3000)), "b-fast.inc")
                self.assertEqual(os.path.basename(profile.for_build("b1")), "a-old.inc")
                self.assertIsNone(profile.for_build("b2", 3000))
            finally:
                profile.HOSTS = saved

    def test_loop_worker_row(self):
        """The loop worker's CPU a page is a row of the cost table (host
        CPU, not the lab-ram preset's): from the committed calibration runs
        of 2026-12-07, the profile of that phase holds what the row gives."""
        runs = os.path.join(TOP, "lab", "studies", "phase-v1272", "calibration-runs")
        values, terms = costs.table(runs, quiet=True, roles=costs.CALIBRATION_ROLES)
        self.assertAlmostEqual(values["loop_page_copy_ns"], 1114.2, delta=0.1)
        self.assertEqual([n for _, n in terms["loop_page_copy_ns"][2]],
                         ["cal-uring-xfs", "cal-uring-ext4", "cal-loop-xfs", "cal-cached-xfs"])
        _, prof = profile.read(os.path.join(TOP, "lib", "core", "hosts",
                                            "lab-v1272-20261207.inc"))
        self.assertEqual(prof["loop_page_copy_ns"], "1110ns")

    def test_loop_alloc_row(self):
        """loop_page_alloc_ns from lab/measure-device's figures kept beside
        the calibration runs of 2026-12-07 05:20: the fill's 1 MiB request
        less the rewrite's, over 256 pages; figures of another build, or
        none, and no measuring: no row."""
        runs = os.path.join(TOP, "lab", "studies", "phase-v1272", "calibration-runs-0520")
        with open(os.path.join(runs, calibrate.LAB_RAM_DEVICE)) as f:
            kept = json.load(f)
        saved = calibrate.platform.release
        calibrate.platform.release = lambda: kept["kernel"]
        try:
            row = calibrate.loop_alloc_row(runs, measure=False)
            self.assertAlmostEqual(row["loop_page_alloc_ns"][0], (549951 - 201074) / 256)
            self.assertIn("fill-1m-qd1) 550 us against one over written pages (seq-1m-qd1) "
                          "201 us", row["loop_page_alloc_ns"][1])
            with tempfile.TemporaryDirectory() as d:
                self.assertEqual(calibrate.loop_alloc_row(d, measure=False), {})
                write_file(d, calibrate.LAB_RAM_DEVICE,
                           json.dumps(dict(kept, kernel="0.0-other")))
                self.assertEqual(calibrate.loop_alloc_row(d, measure=False), {})
        finally:
            calibrate.platform.release = saved
        _, prof = profile.read(os.path.join(TOP, "lib", "core", "hosts",
                                            "lab-v1272-20261207b.inc"))
        self.assertEqual(prof["loop_page_alloc_ns"], "1360ns")

    def test_benches_from(self):
        """--benches-from: memcpy_bandwidth and the [machine] rows written
        as the other profile says them, comment and value, not re-measured
        and not 'carried from' the base."""
        with tempfile.TemporaryDirectory() as d:
            base = write_file(d, "base.inc", "[costs]\nhost = h\n; copy_page_ns: old\n"
                              "copy_page_ns = 1ns\n; memcpy_bandwidth: base's\n"
                              "memcpy_bandwidth = 1000\n[machine]\n; idle_exit_latency: "
                              "base's\nidle_exit_latency = 1us\n")
            other = write_file(d, "other.inc", "[costs]\nhost = h\n; memcpy_bandwidth: "
                               "bench-memcpy at 02:31\nmemcpy_bandwidth = 12200000000\n"
                               "[machine]\n; idle_exit_latency: bench-cacheline at 02:31\n"
                               "idle_exit_latency = 43us\n")
            out = os.path.join(d, "out.inc")
            kept = {"memcpy_bandwidth": ("12200000000", "memcpy_bandwidth: bench-memcpy "
                                         "at 02:31")}
            _, base_values = profile.read(base)
            calibrate.write_profile(out, ["h"], {"copy_page_ns": (570, "fitted", [560, 580])},
                                    base_values, base, "h", {}, kept=kept, machine_from=other)
            with open(out) as f:
                text = f.read()
        self.assertIn("; copy_page_ns: fitted; runs 560..580\ncopy_page_ns = 570ns\n", text)
        self.assertIn("; memcpy_bandwidth: bench-memcpy at 02:31\n"
                      "memcpy_bandwidth = 12200000000\n", text)
        self.assertIn("[machine]\n; idle_exit_latency: bench-cacheline at 02:31\n"
                      "idle_exit_latency = 43us\n", text)
        self.assertNotIn("base's", text)

    def test_probe_program_missing_or_broken(self):
        """run-kernel's call: no program, or one that fails or says no JSON,
        gives no probe (None) and a message, never an exception."""
        with tempfile.TemporaryDirectory() as d:
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                self.assertIsNone(host.path_probe(os.path.join(d, "none")))
            self.assertEqual(err.getvalue(), f"run-kernel: {d}/none: not built (meson compile "
                             "-C build): no path probe\n")
            bad = write_file(d, "bad", "#!/bin/sh\necho not json\n")
            os.chmod(bad, 0o755)
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                self.assertIsNone(host.path_probe(bad))
            self.assertEqual(err.getvalue(), f"run-kernel: {bad}: no JSON object: no path probe\n")
            good = write_file(d, "good", "#!/bin/sh\necho '{\"write_new_ns\": 7}'\n")
            os.chmod(good, 0o755)
            self.assertEqual(host.path_probe(good), {"write_new_ns": 7})

    def test_probe_measures(self):
        """The program itself, when built beside the lab's programs."""
        build = os.environ.get("WBSIM_BUILD_ROOT")
        if not build:
            self.skipTest("run outside meson test: no WBSIM_BUILD_ROOT")
        prog = os.path.join(build, "lab", "path-probe")
        with tempfile.TemporaryDirectory() as d:
            out = json.loads(subprocess.run([prog, d], capture_output=True, text=True,
                                            check=True).stdout)
        self.assertEqual(set(out), {"write_new_ns", "write_cached_ns", "truncate_page_ns",
                                    "syscall_ns"})
        # a write into a new page allocates it: never cheaper than into a cached one
        self.assertGreater(out["write_new_ns"], out["write_cached_ns"] * 0.9)
        self.assertGreater(out["syscall_ns"], 0)


class Calibrate(unittest.TestCase):
    """lab/calibrate refuses what it cannot use before it changes anything:
    exit status 2 and a message naming what is wrong and what was expected."""

    def calibrate(self, *args, user=None):
        import subprocess
        cmd = [sys.executable, os.path.join(TOP, "lab", "calibrate")] + list(args)
        if user is not None:
            cmd = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups"] + cmd
        p = subprocess.run(cmd, capture_output=True, text=True, cwd="/")
        return p.returncode, p.stderr

    def test_runs(self):
        rc, err = self.calibrate("/tmp/never.inc", "--runs", "0")
        self.assertEqual(rc, 2)
        self.assertIn("--runs 0: expected 1 to 20 runs of each workload", err)

    def test_base_not_a_profile(self):
        with tempfile.NamedTemporaryFile("w", suffix=".inc") as f:
            f.write("[vm]\ndirty_ratio = 20\n")
            f.flush()
            rc, err = self.calibrate("/tmp/never.inc", "--base", f.name)
        self.assertEqual(rc, 2)
        self.assertIn("no [costs] KEY = VALUE line: expected a host profile", err)

    @unittest.skipUnless(os.geteuid() == 0 and shutil.which("setpriv"),
                         "needs root to drop to another user")
    def test_not_root(self):
        rc, err = self.calibrate("/tmp/never.inc", user=65534)
        self.assertEqual(rc, 2)
        self.assertIn("needs root", err)

    @unittest.skipUnless(os.geteuid() == 0 and os.path.exists("/dev/loop-control") and
                         shutil.which("fio") and shutil.which("perf"),
                         "the checks after root's need the lab's tools")
    def test_runs_of_another_build(self):
        sim = os.path.join(os.environ.get("WBSIM_BUILD_ROOT", os.path.join(TOP, "build")),
                           "sim", "sim-writeback")
        with tempfile.TemporaryDirectory() as d:
            run = os.path.join(d, "cal-loop-xfs", "run1")
            os.makedirs(run)
            for name, text in (("meta.json", "{}"), ("machine.txt", "kernel: 0.0-other #1\n")):
                with open(os.path.join(run, name), "w") as f:
                    f.write(text)
            rc, err = self.calibrate(os.path.join(d, "p.inc"), "--keep", d, "--sim", sim)
            self.assertEqual(rc, 2, err)
            self.assertIn("was made on kernel build 0.0-other", err)
            self.assertFalse(os.path.exists(os.path.join(d, "p.inc")))
            # the output is a directory
            rc, err = self.calibrate(d, "--sim", sim)
            self.assertEqual(rc, 2, err)
            self.assertIn("a directory: expected the host profile's file name", err)


class Profiles(unittest.TestCase):
    """Host profiles as the lab reads them, and which one a run gets."""

    def test_set_profile(self):
        """A set recorded with its own calibration names the profile in
        its profile.txt; none: the probe's choice; a bad one: exit 2."""
        v1272b = os.path.join(TOP, "lab", "results-v1272b", "smoke-lab-ram-xfs")
        self.assertEqual(compare.set_profile(v1272b),
                         os.path.join(TOP, "lib", "core", "hosts", "lab-v1272-20261207.inc"))
        self.assertIsNone(compare.set_profile(os.path.join(TOP, "lab", "results-v1272",
                                                           "smoke-lab-ram-xfs")))
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "w"))
            write_file(d, "profile.txt", "# a comment\nlib/core/hosts/none.inc\n")
            err = io.StringIO()
            with contextlib.redirect_stderr(err), self.assertRaises(SystemExit) as e:
                compare.set_profile(os.path.join(d, "w"))
            self.assertEqual(e.exception.code, 2)
            self.assertEqual(err.getvalue(), f"compare: {d}/profile.txt: "
                             "lib/core/hosts/none.inc: expected one line, the path of a host "
                             "profile from the top of the tree (lib/core/hosts/NAME.inc)\n")

    def test_read(self):
        build, values = profile.read(os.path.join(TOP, "lib", "core", "hosts",
                                                  "lab-v1045.inc"))
        self.assertEqual(build, "6.18.44-fc-v1045")
        self.assertEqual(profile.to_ns(values["xfs.alloc_ns"]), 19000)
        self.assertEqual(profile.to_ns(values["memcpy_bandwidth"]), 6.4e9)
        self.assertEqual(profile.for_build("6.18.44-fc-v1045"),
                         os.path.join(TOP, "lib", "core", "hosts", "lab-v1045.inc"))
        self.assertIsNone(profile.for_build("0.0-never"))

    def test_bad_profile(self):
        with tempfile.NamedTemporaryFile("w", suffix=".inc") as f:
            f.write("[costs]\ncopy_page_ns\n")
            f.flush()
            with self.assertRaisesRegex(profile.ProfileError, r":2: \[costs\] 'copy_page_ns': "
                                        "expected KEY = VALUE"):
                profile.read(f.name)
        with self.assertRaisesRegex(ValueError, "expected a number with ns"):
            profile.to_ns("-800ns")

    def test_drift_note(self):
        c = {"name": "w", "kernel_builds": ["6.18.44-fc-v1272"], "profile": "built-in",
             "profile_build": "6.18.44-fc-v1045"}
        self.assertIn("host drift: w ran on 6.18.44-fc-v1272", compare.drift_note(c))
        c["kernel_builds"] = ["6.18.44-fc-v1045"]
        self.assertIsNone(compare.drift_note(c))


RUN = host.run
SIM = os.path.join(os.environ.get("WBSIM_BUILD_ROOT", os.path.join(TOP, "build")),
                   "sim", "sim-writeback")


def tree(root):
    """{relative path: content or None for a folder} of every file under
    @root: what a test compares to say nothing was changed."""
    out = {}
    for d, dirs, files in os.walk(root):
        for name in dirs:
            out[os.path.relpath(os.path.join(d, name), root)] = None
        for name in files:
            with open(os.path.join(d, name), "rb") as f:
                out[os.path.relpath(os.path.join(d, name), root)] = f.read()
    return out


class FakeRoot(unittest.TestCase):
    """host.ROOT pointed at a fake tree of the host's files: sysctls, a
    bdi, /var/tmp and /dev/shm; host.run records commands instead of
    running them."""

    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="wbsim-fake-root.")
        self.addCleanup(shutil.rmtree, self.root)
        self.put("/proc/sys/vm/dirty_ratio", "20")
        self.put("/proc/sys/vm/dirty_bytes", "0")
        self.put("/sys/class/bdi/7:64/max_bytes", "4972257280")
        self.put("/sys/class/bdi/7:64/max_ratio_fine", "1000000")
        self.put("/sys/class/bdi/7:64/max_ratio", "100")
        self.put("/sys/class/bdi/7:64/strict_limit", "0")
        self.put("/proc/mounts", "/dev/vda / ext4 rw 0 0\n")
        for d in ("/var/tmp", "/dev/shm"):
            os.makedirs(self.root + d)
        self.commands = []
        saved = (host.ROOT, host.run)
        self.addCleanup(self.restore_module, saved)
        host.ROOT = self.root
        host.run = lambda cmd, **kw: self.commands.append(cmd) or ""
        self.log = []

    @staticmethod
    def restore_module(saved):
        host.ROOT, host.run = saved

    def put(self, path, text):
        os.makedirs(os.path.dirname(self.root + path), exist_ok=True)
        with open(self.root + path, "w") as f:
            f.write(text)

    def get(self, path):
        with open(self.root + path) as f:
            return f.read()

    def journal_path(self):
        return self.root + host.JOURNAL

    def host(self):
        return host.Host(self.log.append, host.Journal("test"))


class LabJournal(FakeRoot):
    """Every change is journaled before it is made, undone by restore()
    (the journal then removed), or after a kill by replay()."""

    def test_write_journaled_then_restored(self):
        h = self.host()
        h.write("/proc/sys/vm/dirty_ratio", 40)
        self.assertEqual(self.get("/proc/sys/vm/dirty_ratio"), "40")
        steps = host.pending(self.journal_path())
        self.assertEqual([(d["op"], d["path"], d["value"]) for d in steps],
                         [("write", "/proc/sys/vm/dirty_ratio", "20")])
        self.assertTrue(h.restore())
        self.assertEqual(self.get("/proc/sys/vm/dirty_ratio"), "20")
        self.assertFalse(os.path.exists(self.journal_path()))

    def test_max_bytes_restores_the_ratio(self):
        # the kernel refuses the old max_bytes once the threshold moved:
        # the bdi's max_ratio_fine is what comes back, max_bytes untouched
        s = scenario.Scenario("t.ini", "[writeback]\nstrictlimit = true\nmax_bytes = 256m\n")
        h = self.host()
        run_kernel.limit_bdi(h, s, "/sys/class/bdi/7:64")
        self.assertEqual(self.get("/sys/class/bdi/7:64/max_bytes"), str(256 << 20))
        self.put("/sys/class/bdi/7:64/max_ratio_fine", "54321")    # the kernel's own
        self.assertTrue(h.restore())
        self.assertEqual(self.get("/sys/class/bdi/7:64/max_ratio_fine"), "1000000")
        self.assertEqual(self.get("/sys/class/bdi/7:64/max_bytes"), str(256 << 20))
        self.assertEqual(self.get("/sys/class/bdi/7:64/strict_limit"), "0")
        # a kernel without max_ratio_fine: max_ratio
        os.unlink(self.root + "/sys/class/bdi/7:64/max_ratio_fine")
        self.put("/sys/class/bdi/7:64/max_bytes", "4972257280")
        h = self.host()
        run_kernel.limit_bdi(h, s, "/sys/class/bdi/7:64")
        self.put("/sys/class/bdi/7:64/max_ratio", "5")
        self.assertTrue(h.restore())
        self.assertEqual(self.get("/sys/class/bdi/7:64/max_ratio"), "100")

    def test_replay_after_kill(self):
        h = self.host()
        h.write("/proc/sys/vm/dirty_ratio", 40)
        with h.make_file("/dev/shm/wbsim-lab-warm.1") as f:
            f.write(b"x")
        h.write("/sys/class/bdi/7:64/strict_limit", 1)
        # the run is killed: its lock goes with it, restore() never runs
        os.close(h.journal.fd)
        self.assertEqual(len(host.pending(self.journal_path())), 3)
        self.log.clear()
        self.assertEqual(host.replay(self.log.append), [])
        self.assertEqual(self.get("/proc/sys/vm/dirty_ratio"), "20")
        self.assertEqual(self.get("/sys/class/bdi/7:64/strict_limit"), "0")
        self.assertFalse(os.path.exists(self.root + "/dev/shm/wbsim-lab-warm.1"))
        self.assertFalse(os.path.exists(self.journal_path()))
        self.assertIn("did not finish", self.log[0])
        self.assertIsNone(host.replay(self.log.append))

    def test_replay_skips_what_is_gone(self):
        # a journal of steps whose objects are all gone (a stopped machine):
        # each is skipped, no command runs, the journal goes
        steps = [{"op": "rmtree", "path": "/tmp/wbsim-lab.1"},
                 {"op": "unlink", "path": "/var/tmp/wbsim-lab.1.img"},
                 {"op": "loop-remove", "index": 64},
                 {"op": "losetup-d", "dev": "/dev/loop64", "backing": "/var/tmp/wbsim-lab.1.img"},
                 {"op": "umount", "path": "/tmp/wbsim-lab.1/mnt"},
                 {"op": "write", "path": "/sys/class/bdi/7:65/strict_limit", "value": "0"},
                 {"op": "trace-instance", "path": "/sys/kernel/tracing/instances/wbsim-lab-1"}]
        with open(self.journal_path(), "w") as f:
            f.write("# wbsim-lab journal: pid 1\n")
            for i, d in enumerate(steps, 1):
                f.write(json.dumps(dict(d, id=i)) + "\n")
            f.write('{"op": "write", "pa')       # cut short by the stop
        before = tree(self.root)
        del before[os.path.relpath(self.journal_path(), self.root)]
        self.assertEqual(host.replay(self.log.append), [])
        self.assertEqual(self.commands, [])
        self.assertEqual(tree(self.root), before)

    def test_replay_undoes_a_mount_and_a_loop_device(self):
        self.put("/proc/mounts", "/dev/loop64 /tmp/wbsim-lab.1/mnt xfs rw 0 0\n")
        self.put("/sys/block/loop64/loop/backing_file", "/var/tmp/wbsim-lab.1.img\n")
        self.put("/sys/block/loop65/loop/backing_file", "/home/someone-else.img\n")
        os.makedirs(self.root + "/tmp/wbsim-lab.1/mnt/data")
        with open(self.journal_path(), "w") as f:
            for i, d in enumerate([{"op": "losetup-d", "dev": "/dev/loop64",
                                    "backing": "/var/tmp/wbsim-lab.1.img"},
                                   {"op": "losetup-d", "dev": "/dev/loop65",
                                    "backing": "/var/tmp/wbsim-lab.1.img"},
                                   {"op": "rmtree", "path": "/tmp/wbsim-lab.1"},
                                   {"op": "umount", "path": "/tmp/wbsim-lab.1/mnt"}], 1):
                f.write(json.dumps(dict(d, id=i)) + "\n")
        errors = host.replay(self.log.append)
        # umount is not run under a fake root: the mount stays, and the
        # folder under it is not removed; the loop device not the lab's
        # (another backing file) is left alone
        self.assertEqual(len(errors), 2, errors)
        self.assertIn("not run under the fake root", errors[0])
        self.assertIn("is still mounted", errors[1])
        self.assertEqual(self.commands, [["losetup", "-d", "/dev/loop64"]])
        self.assertEqual([d["op"] for d in host.pending(self.journal_path())],
                         ["rmtree", "umount"])
        self.assertTrue(os.path.isdir(self.root + "/tmp/wbsim-lab.1/mnt/data"))

    def test_one_run_at_a_time(self):
        h = self.host()
        h.write("/proc/sys/vm/dirty_ratio", 40)
        with self.assertRaisesRegex(host.JournalBusy, "pid %d" % os.getpid()):
            host.Journal("second")
        with self.assertRaises(host.JournalBusy):
            host.replay(self.log.append)
        self.assertEqual(self.get("/proc/sys/vm/dirty_ratio"), "40")
        self.assertTrue(h.restore())

    def test_loop_device_journaled_before_it_is_made(self):
        self.put("/dev/loop-control", "")
        calls = []
        def ioctl(fd, request, index):
            calls.append((request, index))
            # the journal holds the index before LOOP_CTL_ADD
            ops = [(d["op"], d.get("index")) for d in host.pending(self.journal_path())]
            if request == host.LOOP_CTL_ADD:
                self.assertIn(("loop-remove", index), ops)
                if index == 64:
                    raise OSError(errno.EEXIST, "taken meanwhile")
            return index
        saved = host.fcntl.ioctl
        self.addCleanup(setattr, host.fcntl, "ioctl", saved)
        host.fcntl.ioctl = ioctl
        h = self.host()
        dev = h.make_loop("/var/tmp/wbsim-lab.1.img", direct_io=True)
        self.assertEqual(dev, "/dev/loop65")
        # the index someone else took is not the lab's to remove
        self.assertEqual([(d["op"], d.get("index")) for d in host.pending(self.journal_path())],
                         [("loop-remove", 65), ("losetup-d", None)])
        self.assertEqual(self.commands, [["losetup", "--show", "--direct-io=on",
                                          "/dev/loop65", "/var/tmp/wbsim-lab.1.img"]])
        self.put("/sys/block/loop65/loop/backing_file", "/var/tmp/wbsim-lab.1.img")
        self.assertTrue(h.restore())
        self.assertEqual(self.commands[-1], ["losetup", "-d", "/dev/loop65"])
        self.assertEqual(calls[-1], (host.LOOP_CTL_REMOVE, 65))
        self.assertFalse(os.path.exists(self.journal_path()))

    def test_no_command_under_a_fake_root(self):
        host.run = RUN                  # the module's own, not the recorder
        with self.assertRaisesRegex(host.LabError, "not run under the fake root"):
            host.run(["mount", "-t", "xfs", "/dev/loop64", "/mnt"])
        with self.assertRaisesRegex(host.LabError, "not run under the fake root"):
            host.umount("/mnt")


class SeriesSamplerGone(unittest.TestCase):
    """A run that ends in an error (a full filesystem) stops sampling before
    its device goes, and a stats file gone meanwhile is no traceback."""

    def test_vanished_stats(self):
        s = record.SeriesSampler(os.devnull, "999:999", 0.01)
        s.t0 = 0
        s.sample()
        self.assertEqual(s.rows[0]["wb0_dirty_pages"], 0)

    def test_halt(self):
        s = record.SeriesSampler(os.devnull, "999:999", 0.01)
        s.start()
        s.halt()
        self.assertFalse(s.is_alive())
        n = len(s.rows)
        self.assertGreater(n, 0)
        s.halt()                        # again, at restore: nothing
        self.assertEqual(len(s.rows), n)


class RunAllUsage(unittest.TestCase):
    """lab/run-all refuses what is not OUTDIR [REPEATS] before it removes or
    runs anything (it once took --help for OUTDIR and went for rm -rf)."""

    def run_all(self, *args):
        d = tempfile.mkdtemp(prefix="wbsim-run-all.")
        self.addCleanup(shutil.rmtree, d)
        p = subprocess.run([os.path.join(TOP, "lab", "run-all")] + list(args),
                           capture_output=True, text=True, cwd=d)
        self.assertEqual(os.listdir(d), [], "it made something")
        return p.returncode, p.stdout, p.stderr

    def test_help(self):
        rc, out, err = self.run_all("--help")
        self.assertEqual((rc, err), (0, ""))
        self.assertIn("usage: lab/run-all OUTDIR [REPEATS]", out)

    def test_refused(self):
        for args, text in ((("-x",), "unknown option '-x'"),
                           ((), "usage: lab/run-all OUTDIR [REPEATS]"),
                           (("out", "0"), "REPEATS '0': expected a positive integer"),
                           (("out", "two"), "REPEATS 'two': expected a positive integer"),
                           (("out", "3", "x"), "too many arguments")):
            rc, out, err = self.run_all(*args)
            self.assertEqual(rc, 2, args)
            self.assertIn(text, err)
            self.assertEqual(out, "")


class RunKernelRefusals(unittest.TestCase):
    """lab/run-kernel refuses before it changes anything: exit status 2, the
    scenario file, key and what was expected. Run under a fake root
    (WBSIM_LAB_ROOT): the tree must be as it was, OUTDIR not made."""

    def setUp(self):
        if not os.access(SIM, os.X_OK):
            self.skipTest(f"{SIM}: not built")
        self.d = tempfile.mkdtemp(prefix="wbsim-run-kernel.")
        self.addCleanup(shutil.rmtree, self.d)
        self.root = os.path.join(self.d, "root")
        for p in ("var/tmp", "dev/shm", "proc/sys/vm"):
            os.makedirs(os.path.join(self.root, p))
        with open(os.path.join(self.root, "proc/sys/vm/dirty_ratio"), "w") as f:
            f.write("40")
        self.out = os.path.join(self.d, "out")

    def run_kernel(self, *args):
        env = dict(os.environ, WBSIM_LAB_ROOT=self.root)
        p = subprocess.run([sys.executable, os.path.join(TOP, "lab", "run-kernel"),
                            "--sim", SIM] + list(args), capture_output=True, text=True,
                           env=env, cwd="/")
        return p.returncode, p.stderr

    def scenario(self, text, name="s.ini"):
        path = os.path.join(self.d, name)
        with open(path, "w") as f:
            f.write("[scenario]\ninclude = " +
                    os.path.join(TOP, "lab", "workloads", "smoke-lab-ram-xfs.ini") + "\n" + text)
        return path

    def refused(self, args, *expect):
        before = tree(self.root)
        rc, err = self.run_kernel(*args)
        self.assertEqual(rc, 2, err)
        for e in expect:
            self.assertIn(e, err)
        self.assertNotIn("Traceback", err)
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        self.assertEqual(tree(self.root), before)
        self.assertFalse(os.path.exists(self.out))

    def test_lab_ram_too_big_for_dev_shm(self):
        path = self.scenario("[device]\ncapacity = 30t\n")
        self.refused([path, self.out], f"{path}: [device] capacity = {30 << 40}: "
                     "expected at most", "/dev/shm has")

    def test_lab_disk_too_big_for_var_tmp(self):
        path = self.scenario("[device]\npreset = lab-disk\ncapacity = 30t\n")
        self.refused([path, self.out], f"{path}: [device] capacity = {30 << 40}: "
                     "expected at most", "/var/tmp has", "less 10 GiB kept for the host")

    def test_fio_files_outside_mnt(self):
        path = self.scenario("[fio:two]\nfilename=/mnt/../etc/x\nrw=write\nsize=1m\n"
                             "[fio:three]\nfilename=rel\nrw=write\nsize=1m\n"
                             "[fio:four]\ndirectory=/var/tmp\nrw=write\nsize=1m\n")
        self.refused([path, self.out], f"{path}: [fio:two] filename=/mnt/../etc/x; "
                     "[fio:three] filename=rel; [fio:four] directory=/var/tmp: "
                     "expected paths under /mnt")

    def test_outdir_a_regular_file(self):
        open(self.out, "w").close()
        before = tree(self.root)
        rc, err = self.run_kernel(self.scenario(""), self.out)
        self.assertEqual(rc, 2, err)
        self.assertIn(f"{self.out}: not a folder: expected OUTDIR to be a new or empty "
                      "folder", err)
        self.assertNotIn("Traceback", err)
        self.assertEqual(tree(self.root), before)

    @unittest.skipUnless(all(shutil.which(t) for t in
                             ("fio", "losetup", "filefrag", "mkfs.xfs", "mkfs.ext4")),
                         "a scenario passes the checks only where the lab's tools are")
    def test_killed_run_restored_first(self):
        path = self.scenario("")
        with open(os.path.join(self.root, "var/tmp/wbsim-lab.journal"), "w") as f:
            f.write("# wbsim-lab journal: pid 1\n" + json.dumps(
                {"id": 1, "op": "write", "path": "/proc/sys/vm/dirty_ratio",
                 "value": "20"}) + "\n")
        rc, err = self.run_kernel(path, self.out)
        self.assertEqual(rc, 0, err)
        self.assertIn("left by a run that did not finish (pid 1): undoing 1 step", err)
        self.assertIn("passes the lab's checks", err)
        with open(os.path.join(self.root, "proc/sys/vm/dirty_ratio")) as f:
            self.assertEqual(f.read(), "20")
        self.assertFalse(os.path.exists(os.path.join(self.root, "var/tmp/wbsim-lab.journal")))
        self.assertFalse(os.path.exists(self.out))

    def test_restore(self):
        with open(os.path.join(self.root, "var/tmp/wbsim-lab.journal"), "w") as f:
            f.write(json.dumps({"id": 1, "op": "write", "path": "/proc/sys/vm/dirty_ratio",
                                "value": "20"}) + "\n" + json.dumps({"undone": 1}) + "\n" +
                    json.dumps({"id": 2, "op": "unlink", "path": "/dev/shm/x"}) + "\n")
        open(os.path.join(self.root, "dev/shm/x"), "w").close()
        rc, err = self.run_kernel("--restore")
        self.assertEqual(rc, 0, err)
        self.assertIn("undone: unlink /dev/shm/x", err)
        # the step marked undone is not replayed
        with open(os.path.join(self.root, "proc/sys/vm/dirty_ratio")) as f:
            self.assertEqual(f.read(), "40")
        self.assertEqual(tree(self.root), {"var": None, "var/tmp": None, "dev": None,
                                           "dev/shm": None, "proc": None, "proc/sys": None,
                                           "proc/sys/vm": None, "proc/sys/vm/dirty_ratio": b"40"})
        rc, err = self.run_kernel("--restore")
        self.assertEqual((rc, err.strip()), (0, "run-kernel: nothing to restore"))


class CompareMisuse(unittest.TestCase):
    """lab/compare misused: one line, exit status 2, no traceback."""

    def compare(self, *args):
        p = subprocess.run([sys.executable, os.path.join(TOP, "lab", "compare"),
                            "--sim", SIM] + list(args), capture_output=True, text=True,
                           cwd="/")
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertNotIn("Traceback", p.stderr)
        self.assertEqual(len(p.stderr.strip().splitlines()), 1, p.stderr)
        return p.stderr

    def test_misuse(self):
        run = os.path.join(TOP, "lab", "results", "smoke-lab-ram-xfs")
        with tempfile.TemporaryDirectory() as d:
            self.assertIn(f"{d}/none: no such folder", self.compare(os.path.join(d, "none")))
            self.assertIn(f"{d}: no lab run", self.compare(d))
            self.assertIn(f"--all {d}: no workload folder", self.compare("--all", d))
            self.assertIn(f"--check {d}/none: No such file or directory",
                          self.compare("--check", os.path.join(d, "none"), run))
            self.assertIn("expected a host profile",
                          self.compare("--profile", os.path.join(TOP, "lab", "README.md"), run))
            self.assertIn("cannot read the host profile", self.compare("--profile", d, run))
            for bad in ("w m factor 0.5", "w m fact 2", "w m rel x"):
                tol = write_file(d, "bad.txt", bad + "\n")
                self.assertIn(f"{tol}:1: expected 'WORKLOAD METRIC rel|abs|ext|factor LIMIT'",
                              self.compare("--check", tol, run))



class CostsUsage(unittest.TestCase):
    """lab/costs --help is its usage (it read --help as a folder and ended
    in a traceback); misuse is one usage line and an error, status 2."""

    def costs(self, *args):
        return subprocess.run([sys.executable, os.path.join(TOP, "lab", "costs"), *args],
                              capture_output=True, text=True, cwd="/")

    def test_help(self):
        p = self.costs("--help")
        self.assertEqual((p.returncode, p.stderr), (0, ""))
        self.assertTrue(p.stdout.startswith(
            "usage: lab/costs [-h] [--table [RESULTS]] [RESULT_DIR ...]\n"), p.stdout)
        self.assertIn("lab/costs --table (the cost table's rows from lab/results)",
                      " ".join(p.stdout.split()))

    def test_misuse(self):
        usage = "usage: lab/costs [-h] [--table [RESULTS]] [RESULT_DIR ...]\n"
        with tempfile.TemporaryDirectory() as d:
            for args, err in (
                    ((), "expected RESULT_DIR... or --table [RESULTS]"),
                    ((f"{d}/none",), f"{d}/none: not a folder: expected a lab/run-kernel "
                     "run folder or a folder of them"),
                    (("--table", d, d), "--table takes one RESULTS folder: expected no "
                     "RESULT_DIR besides it")):
                p = self.costs(*args)
                self.assertEqual((p.returncode, p.stdout, p.stderr),
                                 (2, "", usage + f"lab/costs: error: {err}\n"))

    def test_program_run(self):
        """A lab program's run (E8: program.json, no fio.json) is read: its
        writes are the large ones and every thread's small ones."""
        run = os.path.join(TOP, "lab", "results-e8-v1272b", "e8-lab-ram-xfs", "run1")
        self.assertEqual(costs.writes_of(run), 2 * 1024 // 256 + 15 * 50000)
        p = self.costs(os.path.dirname(run))
        self.assertEqual((p.returncode, p.stderr), (0, ""))
        self.assertTrue(p.stdout.startswith("== e8-lab-ram-xfs: 3 runs, 750008 writes"),
                        p.stdout)


if __name__ == "__main__":
    unittest.main()
