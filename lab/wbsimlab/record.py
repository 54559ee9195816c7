# SPDX-License-Identifier: MIT
"""Recorders of a lab run, each writing the simulator's own format.

- Series: /proc/vmstat and the bdi's debugfs stats every 100 ms, as a CSV
  with the column names of sim-writeback --series (pages, as there).
- Trace: the writeback tracepoints from a tracefs instance of our own
  (the global buffer and its settings are not touched), filtered to the
  lab's bdi where the event names one, in ftrace's text layout.
- CPU: the scheduler's exact run time of every fio thread (schedstat), and
  a system-wide perf sample whose stacks say which kernel work a kworker
  ran, for CPU time by task kind.
"""
import gzip
import os
import re
import select
import shutil
import subprocess
import threading
import time

from . import host

TRACEFS = "/sys/kernel/tracing"
TRACE_EVENTS = ["balance_dirty_pages", "bdi_dirty_ratelimit", "writeback_start",
                "writeback_written", "writeback_queue_io", "global_dirty_state"]
# the field that names the bdi, for the instance's event filter
TRACE_BDI_FIELD = {"balance_dirty_pages": "bdi", "bdi_dirty_ratelimit": "bdi",
                   "writeback_start": "name", "writeback_written": "name",
                   "writeback_queue_io": "name"}


def read_kv(path, sep=None):
    out = {}
    with open(path) as f:
        for line in f:
            parts = line.replace(":", " ").split() if sep is None else line.split(sep)
            if len(parts) >= 2:
                try:
                    out[parts[0]] = int(parts[1])
                except ValueError:
                    pass
    return out


def fio_job_pids(fio_pid):
    """fio's job processes (fio forks one per job, in job order)."""
    try:
        with open(f"/proc/{fio_pid}/task/{fio_pid}/children") as f:
            return sorted(int(p) for p in f.read().split())
    except OSError:
        return []


def thread_cpu_ns(pid):
    """{tid: (comm, ns on CPU)} for every thread of process PID."""
    out = {}
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                ns = int(f.read().split()[0])
            with open(f"/proc/{pid}/task/{tid}/comm") as f:
                comm = f.read().strip()
        except (OSError, ValueError, IndexError):
            continue
        out[int(tid)] = (comm, ns)
    return out


def proc_wchar(pid):
    try:
        with open(f"/proc/{pid}/io") as f:
            for line in f:
                if line.startswith("wchar:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


class SeriesSampler(threading.Thread):
    """Samples every INTERVAL s until stop(); writes the CSV at the end."""

    def __init__(self, path, bdi, interval=0.1):
        super().__init__(daemon=True)
        self.path, self.bdi, self.interval = path, bdi, interval
        self.rows = []
        self.stop_event = threading.Event()
        self.fio_pid = None
        self.job_pids = []
        self.job_bytes = {}
        self.threads = {}          # tid -> (pid, comm, ns) last seen
        self.t0 = None

    def sample(self):
        now = time.monotonic()
        vm = read_kv("/proc/vmstat")
        try:
            bdi = read_kv(f"/sys/kernel/debug/bdi/{self.bdi}/stats")
        except OSError:
            bdi = {}            # the device is gone (a run ending in an error)
        if self.fio_pid and not self.job_pids:
            self.job_pids = fio_job_pids(self.fio_pid)
        for i, pid in enumerate(self.job_pids):
            w = proc_wchar(pid)
            if w is not None:
                self.job_bytes[i] = w
            for tid, (comm, ns) in thread_cpu_ns(pid).items():
                self.threads[tid] = (pid, comm, ns)
        row = {
            "time_s": round(now - self.t0, 3),
            "dirty_pages": vm.get("nr_dirty", 0),
            "writeback_pages": vm.get("nr_writeback", 0),
            "bg_thresh_pages": vm.get("nr_dirty_background_threshold", 0),
            "thresh_pages": vm.get("nr_dirty_threshold", 0),
            # debugfs prints kB; the series counts pages
            "wb0_dirty_pages": bdi.get("BdiReclaimable", 0) // 4,
            "wb0_writeback_pages": bdi.get("BdiWriteback", 0) // 4,
            "wb0_thresh_pages": bdi.get("BdiDirtyThresh", 0) // 4,
            "wb0_written_pages": bdi.get("BdiWritten", 0) // 4,
            "wb0_avg_write_bw_kib_s": bdi.get("BdiWriteBandwidth", 0),
            "nr_dirtied_pages": vm.get("nr_dirtied", 0),
            "nr_written_pages": vm.get("nr_written", 0),
        }
        for i in range(len(self.job_pids)):
            row[f"job{i}_bytes"] = self.job_bytes.get(i, 0)
        self.rows.append(row)

    def run(self):
        self.t0 = time.monotonic()
        nxt = self.t0
        while not self.stop_event.is_set():
            self.sample()
            nxt += self.interval
            self.stop_event.wait(max(0.0, nxt - time.monotonic()))
        self.sample()

    def halt(self):
        """Stop sampling, nothing written: before the device goes (the lab
        registers it with Host.on_undo(), so an error stops it in time)."""
        self.stop_event.set()
        if self.is_alive():
            self.join()

    def stop(self):
        self.halt()
        # counters relative to the start, as the simulator's begin at 0
        base = dict(self.rows[0]) if self.rows else {}
        for r in self.rows:
            for k in ("wb0_written_pages", "nr_dirtied_pages", "nr_written_pages"):
                r[k] -= base.get(k, 0)
        cols = []
        for r in self.rows:
            for k in r:
                if k not in cols:
                    cols.append(k)
        with open(self.path, "w") as f:
            f.write(",".join(cols) + "\n")
            for r in self.rows:
                f.write(",".join(str(r.get(c, 0)) for c in cols) + "\n")


def read_block_stat(path):
    """A block device's stat file: {write_ios, write_sectors} (fields 5
    and 7 of Documentation/block/stat.rst), or None if unreadable."""
    try:
        f = open(path).read().split()
        return {"write_ios": int(f[4]), "write_sectors": int(f[6])}
    except (OSError, ValueError, IndexError):
        return None


class TraceRecorder:
    """The writeback tracepoints through a tracefs instance of our own."""

    def __init__(self, host, path, bdi_name, buffer_kb=32768):
        self.host, self.path, self.bdi = host, path, bdi_name
        self.inst = f"{TRACEFS}/instances/wbsim-lab-{os.getpid()}"
        self.buffer_kb = buffer_kb
        self.thread = None
        self.pipe = None

    @staticmethod
    def available():
        return os.path.isdir(f"{TRACEFS}/events/writeback")

    def start(self):
        self.host.on_undo(self.inst, self._remove,
                          {"op": "trace-instance", "path": self.inst})
        os.mkdir(self.inst)
        with open(f"{self.inst}/buffer_size_kb", "w") as f:
            f.write(str(self.buffer_kb))
        for ev in TRACE_EVENTS:
            d = f"{self.inst}/events/writeback/{ev}"
            if ev in TRACE_BDI_FIELD:
                with open(f"{d}/filter", "w") as f:
                    f.write(f'{TRACE_BDI_FIELD[ev]} == "{self.bdi}"')
            with open(f"{d}/enable", "w") as f:
                f.write("1")
        self.out = open(self.path, "wb")
        self.pipe = open(f"{self.inst}/trace_pipe", "rb", buffering=0)
        self.thread = threading.Thread(target=self._drain, daemon=True)
        self.thread.start()

    def _drain(self):
        fd = self.pipe.fileno()
        os.set_blocking(fd, False)
        while True:
            select.select([fd], [], [], 0.2)
            try:
                data = os.read(fd, 1 << 16)
            except BlockingIOError:
                data = b""
            if data:
                self.out.write(data)
            elif self.stopping:
                break

    stopping = False

    def stop(self):
        with open(f"{self.inst}/tracing_on", "w") as f:
            f.write("0")
        self.stopping = True
        self.thread.join(timeout=10)
        self.out.close()
        self.pipe.close()
        with open(self.path, "rb") as src, gzip.open(self.path + ".gz", "wb") as dst:
            shutil.copyfileobj(src, dst)
        os.unlink(self.path)

    def _remove(self):
        # on an error stop() never ran: the reader still holds trace_pipe
        # open, and an instance with an open file cannot be removed (EBUSY)
        if self.pipe and not self.pipe.closed:
            self.stopping = True
            self.thread.join(timeout=10)
            self.pipe.close()
            self.out.close()
        # every event group the run enabled (not only writeback's) and the
        # instance's tracing: the kernel refuses the rmdir (EBUSY) otherwise,
        # as a failed E8 run showed (its program could not be executed); an
        # instance never made (the mkdir failed) is left alone
        host.remove_trace_instance(self.inst, [f"events/writeback/{ev}/enable"
                                               for ev in TRACE_EVENTS])


# -- CPU time by task kind from perf stacks -------------------------------

# A kworker's kind is the work function on its stack; other tasks by name.
KWORKER_KINDS = [
    ("flusher", ("wb_workfn",)),
    ("loop", ("loop_workfn", "loop_rootcg_workfn", "loop_process_work")),
    ("fs_completion", ("xfs_end_io", "ext4_end_io_rsv_work", "xfs_end_bio",
                       "ext4_end_io_end")),
]
# The programs of lab/ a scenario may run instead of fio ([scenario]
# lab_program), by their task name (at most 15 characters).
LAB_PROGRAM_COMMS = ("e8-small-writes",)
# Interrupt work, on whichever task's stack it ran.
IRQ_FRAMES = ("handle_softirqs", "__do_softirq", "common_interrupt",
              "blk_mq_complete_request", "blk_complete_reqs")


def classify(comm, frames):
    """Task kind of one perf sample; FRAMES innermost first."""
    if comm.startswith("swapper"):
        return "idle"
    # interrupt work on any task's stack counts as irq, as in the simulator
    if any(fr in IRQ_FRAMES for fr in frames):
        return "irq"
    # the writer: fio, or a program of lab/ run in its place (kind "fio")
    if comm == "fio" or comm in LAB_PROGRAM_COMMS:
        return "fio"
    if comm.startswith("iou-wrk") or comm.startswith("iou-sqp"):
        return "io_uring_worker"
    # a kernel thread forked while perf records keeps, in perf's view, the
    # name of its parent kthreadd (perf sees no rename): the kworkers of a
    # workqueue made by the run's own mount or loop device, or of a pool
    # that grew during it (cal-sparse-ext4: 1.8 of its 2.4 s of writeback
    # and conversion ran under that name)
    if comm.startswith("kworker") or comm.startswith("loop") or comm == "kthreadd":
        for kind, names in KWORKER_KINDS:
            if any(fr in names for fr in frames):
                return kind
        return "kworker_other"
    if comm.startswith("ksoftirqd"):
        return "irq"
    if comm.startswith("perf") or comm.startswith("python"):
        return "lab"
    return "other"


# Kernel work the cost table itemises, by the functions that do it. A
# sample counts for the innermost category on its stack, so each is the
# work beneath that function less the categories nested inside it.
CATEGORIES = [
    ("copy", ("copy_folio_from_iter_atomic", "copy_page_from_iter_atomic",
              "__pi_memcpy", "memcpy_orig", "rep_movs_alternative")),
    ("page_alloc", ("filemap_add_folio", "__filemap_add_folio", "folio_alloc_noprof",
                    "__folio_alloc_noprof", "alloc_pages_mpol", "__alloc_frozen_pages_noprof",
                    "mem_cgroup_charge", "__mem_cgroup_charge")),
    ("lru", ("folio_batch_move_lru", "lru_add_drain_all", "lru_add_drain",
             "folio_add_lru", "__lru_add_drain_all")),
    ("page_lookup", ("__filemap_get_folio", "filemap_get_entry", "__filemap_get_folio_mpol")),
    ("mark_dirty", ("folio_mark_dirty", "__folio_mark_dirty", "filemap_dirty_folio",
                    "iomap_dirty_folio", "block_dirty_folio", "folio_account_dirtied")),
    ("fs_write_begin", ("xfs_buffered_write_iomap_begin", "ext4_da_write_begin",
                        "ext4_da_map_blocks", "xfs_bmapi_reserve_delalloc",
                        "iomap_iter", "ext4_write_begin")),
    ("throttle", ("balance_dirty_pages_ratelimited_flags", "balance_dirty_pages",
                  "balance_dirty_pages_ratelimited")),
    ("bio_completion", ("iomap_finish_ioend_buffered", "iomap_finish_ioends",
                        "folio_end_writeback", "ext4_finish_bio", "ext4_end_bio",
                        "end_bio_bh_io_sync", "blk_mq_end_request", "blk_update_request",
                        "xfs_end_ioend", "ext4_end_io_end")),
    ("block_submit", ("submit_bio", "submit_bio_noacct", "blk_mq_submit_bio",
                      "__submit_bio", "blk_finish_plug", "blk_mq_flush_plug_list")),
    ("fs_map_blocks", ("xfs_map_blocks", "ext4_map_blocks", "xfs_bmapi_convert_delalloc",
                       "mpage_map_and_submit_extent", "xfs_bmapi_write")),
    ("writepages", ("iomap_writepages", "ext4_writepages", "ext4_do_writepages",
                    "writeback_iter", "write_cache_pages", "do_writepages",
                    "iomap_writepage_map", "mpage_prepare_extent_to_map",
                    "mpage_submit_folio", "ext4_bio_write_folio")),
    ("invalidate", ("mapping_try_invalidate", "invalidate_mapping_pages",
                    "mapping_evict_folio", "filemap_release_folio", "__filemap_remove_folio",
                    "remove_mapping")),
    ("write_iter", ("xfs_file_buffered_write", "ext4_buffered_write_iter",
                    "iomap_file_buffered_write", "generic_perform_write",
                    "xfs_file_write_iter", "ext4_file_write_iter")),
    ("io_uring", ("io_issue_sqe", "io_submit_sqes", "io_wq_submit_work",
                  "__io_run_local_work", "io_cqring_wait", "io_uring_enter",
                  "__do_sys_io_uring_enter", "io_worker_handle_work")),
    ("fadvise", ("generic_fadvise", "ksys_fadvise64_64", "__x64_sys_fadvise64")),
    ("syscall", ("do_syscall_64", "entry_SYSCALL_64_after_hwframe")),
]
CATEGORY_OF = {fn: cat for cat, fns in CATEGORIES for fn in fns}

# Functions whose inclusive time (a sample counts for every one of them on
# its stack) cpu.json keeps per task kind as perf_inclusive_ms: the steps of
# XFS's buffered write, writeback allocation and completion, and of ext4's
# writeback and completion, so that a cost per call is their time over a
# tracepoint's count (lab/count-xfs-paths, lab/studies/jbd2/count-jbd2).
INCLUSIVE = (
    "xfs_buffered_write_iomap_begin", "xfs_ilock", "xfs_iext_lookup_extent",
    "xfs_bmapi_reserve_delalloc", "xfs_bmap_add_extent_hole_delay", "xfs_iext_insert",
    "xfs_iomap_prealloc_size", "xfs_map_blocks", "xfs_bmapi_convert_delalloc",
    "xfs_bmap_btalloc", "xfs_alloc_vextent_start_ag", "xfs_alloc_vextent_near_bno",
    "xfs_alloc_ag_vextent_near", "xfs_alloc_fixup_trees", "xfs_alloc_fix_freelist",
    "xfs_extent_busy_trim", "xfs_bmap_add_extent_delay_real", "xfs_rmap_map",
    "xfs_defer_finish_noroll", "xfs_trans_alloc", "xfs_trans_alloc_inode",
    "xfs_trans_commit", "__xfs_trans_commit", "xlog_cil_commit", "xfs_btree_lookup",
    "xfs_end_ioend", "xfs_end_io", "xfs_iomap_write_unwritten",
    "xfs_bmap_add_extent_unwritten_real", "xfs_setfilesize", "xfs_iextents_copy",
    "xfs_inode_item_format", "rwsem_down_write_slowpath", "rwsem_down_read_slowpath",
    "rwsem_spin_on_owner",
    # io_uring's nowait buffered writes that fail and are punted to io-wq
    # (lab/studies/uring-retries/count-uring-retries)
    "balance_dirty_pages", "xfs_buffered_write_iomap_end", "xfs_bmap_punch_delalloc_range",
    "io_queue_iowq", "io_wq_submit_work", "xfs_vn_update_time", "kiocb_modified",
    # a write's timestamp update (file_update_time(), once a file and tick):
    # XFS's own transaction, ext4's through generic_update_time() ->
    # __mark_inode_dirty() -> ext4_dirty_inode() (a journal handle)
    "generic_update_time", "ext4_dirty_inode",
    # ext4's writeback and completion (issue 22, lab/studies/e1-sparse): the page
    # walk and its buffer heads, the mapping of an extent under a journal
    # handle, the bio per extent, and the completion of its buffer heads
    "ext4_do_writepages", "mpage_prepare_extent_to_map", "mpage_process_page_bufs",
    "mpage_submit_folio", "ext4_bio_write_folio", "io_submit_add_bh", "ext4_io_submit",
    "mpage_map_and_submit_extent", "mpage_map_and_submit_buffers", "ext4_map_blocks",
    "ext4_ext_map_blocks", "ext4_split_extent", "ext4_ext_insert_extent",
    "ext4_find_extent", "ext4_es_lookup_extent", "ext4_es_insert_extent",
    "__ext4_journal_start_sb", "__ext4_journal_stop", "jbd2__journal_start",
    "jbd2_journal_stop", "jbd2_journal_get_write_access", "jbd2_journal_dirty_metadata",
    "ext4_mark_iloc_dirty", "__ext4_mark_inode_dirty", "ext4_init_io_end",
    "ext4_end_bio", "ext4_finish_bio", "ext4_end_io_rsv_work",
    "ext4_convert_unwritten_io_end_vec",
    # the generic steps on either filesystem's path
    "writeback_iter", "iomap_writepages", "iomap_writepage_map", "folio_clear_dirty_for_io",
    "__folio_start_writeback", "folio_end_writeback", "__folio_end_writeback",
    "iomap_finish_ioend_buffered", "submit_bio_noacct", "blk_mq_submit_bio",
    "blk_mq_flush_plug_list", "wbt_wait", "rq_qos_wait", "filemap_get_folios_tag")
INCLUSIVE_SET = frozenset(INCLUSIVE)

# Of these, also the time outside any lock wait (samples with none of
# LOCK_WAIT on the stack), kept as "FN nowait": the CPU a path costs by
# itself, where the model accounts the lock and its waits separately.
INCLUSIVE_NOWAIT = frozenset(("xfs_vn_update_time", "generic_update_time",
                              "ext4_dirty_inode"))
# and the time outside both the lock waits and the walk of the in-core
# extent list that formatting an inode whose data fork is in extents format
# makes (xfs_inode_item_format -> xfs_iextents_copy: every record, delalloc
# ones included), kept as "FN nowalk": XFS's own cost of the transaction
IEXT_WALK = frozenset(("xfs_iextents_copy", "xfs_iext_get_extent", "xfs_iext_next"))
LOCK_WAIT = frozenset(("rwsem_down_write_slowpath", "rwsem_down_read_slowpath",
                       "rwsem_optimistic_spin", "osq_lock", "__schedule",
                       "native_queued_spin_lock_slowpath", "pv_queued_spin_lock_slowpath"))

# The write path of a lab program's worker threads (the E8 program's small
# writers, every thread but the main one, which makes the large write), by
# inclusive time: where a contended small write() spends its CPU, inside
# and outside the inode's i_rwsem (cpu.json's perf_program_threads).
THREAD_INCLUSIVE = (
    "do_syscall_64", "ksys_pwrite64", "vfs_write", "xfs_file_write_iter",
    "xfs_file_buffered_write", "xfs_ilock", "xfs_iunlock", "down_write", "up_write",
    "rwsem_down_write_slowpath", "rwsem_optimistic_spin", "rwsem_spin_on_owner",
    "osq_lock", "rwsem_wake", "wake_up_q", "try_to_wake_up", "schedule",
    "schedule_preempt_disabled", "__schedule", "xfs_file_write_checks",
    "kiocb_modified", "file_update_time", "iomap_file_buffered_write",
    "iomap_write_iter", "fault_in_iov_iter_readable", "fault_in_readable",
    "copy_folio_from_iter_atomic", "iomap_write_begin", "iomap_write_end",
    "__filemap_get_folio", "xfs_buffered_write_iomap_begin", "iomap_dirty_folio",
    "filemap_dirty_folio", "__folio_mark_dirty", "folio_account_dirtied",
    "balance_dirty_pages_ratelimited_flags", "balance_dirty_pages",
    "folio_wait_bit_common", "folio_lock", "__folio_lock", "pvm_irq_enable",
    "irqentry_exit", "exc_page_fault", "asm_exc_page_fault",
    "syscall_exit_to_user_mode", "entry_SYSCALL_64_after_hwframe")
THREAD_INCLUSIVE_SET = frozenset(THREAD_INCLUSIVE)


def categorise(frames):
    for fr in frames:
        c = CATEGORY_OF.get(fr)
        if c:
            return c
    return "user" if frames and frames[0] == "[unknown]" else "other_kernel"


def stop_perf(proc, timeout):
    """End a perf recording as Ctrl-C does (SIGINT: it writes its file),
    killed if it has not within @timeout seconds."""
    if proc and proc.poll() is None:
        proc.send_signal(2)
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()


class PerfRecorder:
    def __init__(self, path, freq=499):
        self.path, self.freq = path, freq
        self.proc = None

    @staticmethod
    def available():
        return shutil.which("perf") is not None

    def start(self):
        self.proc = subprocess.Popen(
            ["perf", "record", "-a", "-g", "-F", str(self.freq), "-q",
             "-o", self.path], stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)

    def stop(self):
        stop_perf(self.proc, 60)

    def summarise(self):
        """(ms per kind, top functions per kind, samples) from perf script."""
        p = subprocess.run(["perf", "script", "-i", self.path, "-F",
                            "comm,pid,tid,ip,sym"], capture_output=True, text=True)
        per_kind = {}
        per_cat = {}
        incl = {}
        fadv = {}
        syms = {}
        samples = 0
        threads = {"ms": 0.0, "categories": {}, "inclusive": {}, "top": {}}
        ms_per_sample = 1000.0 / self.freq
        for block in p.stdout.split("\n\n"):
            lines = block.strip().splitlines()
            if not lines:
                continue
            head = lines[0].split()
            if len(head) < 2:
                continue
            comm = " ".join(head[:-1])
            pid, _, tid = head[-1].partition("/")
            frames = []
            for l in lines[1:]:
                parts = l.split()
                if len(parts) >= 2:
                    frames.append(parts[1].split("+")[0])
            kind = classify(comm, frames)
            samples += 1
            per_kind[kind] = per_kind.get(kind, 0) + ms_per_sample
            cat = categorise(frames)
            per_cat.setdefault(kind, {})
            per_cat[kind][cat] = per_cat[kind].get(cat, 0) + ms_per_sample
            if "fadvise" in (CATEGORY_OF.get(fr) for fr in frames):
                fadv[kind] = fadv.get(kind, 0) + ms_per_sample
            on_stack = INCLUSIVE_SET.intersection(frames)
            for fn in on_stack:
                incl.setdefault(kind, {})
                incl[kind][fn] = incl[kind].get(fn, 0) + ms_per_sample
            if not LOCK_WAIT.intersection(frames):
                for fn in INCLUSIVE_NOWAIT.intersection(on_stack):
                    k = fn + " nowait"
                    incl[kind][k] = incl[kind].get(k, 0) + ms_per_sample
                    if not IEXT_WALK.intersection(frames):
                        k = fn + " nowalk"
                        incl[kind][k] = incl[kind].get(k, 0) + ms_per_sample
            if frames:
                k = (kind, frames[0])
                syms[k] = syms.get(k, 0) + ms_per_sample
            if comm in LAB_PROGRAM_COMMS and tid and tid != pid:
                threads["ms"] += ms_per_sample
                tc = threads["categories"]
                tc[cat] = tc.get(cat, 0) + ms_per_sample
                for fn in THREAD_INCLUSIVE_SET.intersection(frames):
                    threads["inclusive"][fn] = threads["inclusive"].get(fn, 0) + ms_per_sample
                if frames:
                    threads["top"][frames[0]] = threads["top"].get(frames[0], 0) + ms_per_sample
        top = {}
        for (kind, sym), ms in sorted(syms.items(), key=lambda x: -x[1]):
            top.setdefault(kind, [])
            if len(top[kind]) < 15:
                top[kind].append([sym, round(ms, 1)])
        self.categories = {k: {c: round(v, 1) for c, v in sorted(cats.items())}
                           for k, cats in per_cat.items()}
        self.fadvise_ms = {k: round(v, 1) for k, v in fadv.items()}
        self.inclusive = {k: {f: round(v, 1) for f, v in sorted(fns.items())}
                          for k, fns in incl.items()}
        self.program_threads = None
        if threads["ms"]:
            self.program_threads = {
                "ms": round(threads["ms"], 1),
                "categories_ms": {c: round(v, 1)
                                  for c, v in sorted(threads["categories"].items())},
                "inclusive_ms": {f: round(v, 1)
                                 for f, v in sorted(threads["inclusive"].items())},
                "top": [[f, round(v, 1)] for f, v in
                        sorted(threads["top"].items(), key=lambda x: -x[1])[:25]]}
        return ({k: round(v, 1) for k, v in per_kind.items()}, top, samples)


def proc_stat_cpu():
    """Jiffies per state summed over CPUs (user nice system idle iowait irq
    softirq steal)."""
    with open("/proc/stat") as f:
        parts = f.readline().split()
    return [int(x) for x in parts[1:9]]


# -- lock contention (issue 40) ----------------------------------------------

_TIME_UNITS = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}


def _ns(value, unit):
    return float(value) * _TIME_UNITS[unit]


class _PerfSession:
    """A second perf session beside the run's sample, over the measured
    window: COMMAND writes PATH, and is stopped as the sample is. Available
    where perf is and the kernel has TRACEPOINT (a tracefs events path)."""
    TRACEPOINT = ""
    COMMAND = ()

    def __init__(self, path):
        self.path = path
        self.proc = None

    @classmethod
    def available(cls):
        return (shutil.which("perf") is not None and
                os.path.isdir("/sys/kernel/tracing/events/" + cls.TRACEPOINT))

    def start(self):
        self.proc = subprocess.Popen(list(self.COMMAND) + ["-o", self.path],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def stop(self):
        stop_perf(self.proc, 120)


class LockRecorder(_PerfSession):
    """`perf lock record -a`: the kernel's lock:contention_begin/end
    tracepoints (every contended acquisition of a spinlock, rwlock, mutex,
    rwsem or rtmutex, with the waiter's call chain) over the measured
    window, summarised by `perf lock contention` per caller and per task.
    The tracepoints fire on the slow paths only: an uncontended lock costs
    nothing here, and a wait's time is from its begin to its end (spinning
    and sleeping alike)."""
    TRACEPOINT = "lock/contention_begin"
    COMMAND = ("perf", "lock", "record", "-a")

    def report(self, by_task=False, entries=40):
        cmd = ["perf", "lock", "contention", "-i", self.path, "-k", "wait_total",
               "-E", str(entries)]
        if by_task:
            cmd.append("-t")
        p = subprocess.run(cmd, capture_output=True, text=True)
        # perf 6.1 prints the table on stderr
        return p.stdout + p.stderr

    @staticmethod
    def parse(text):
        """Rows of `perf lock contention`: contended, total/max/avg wait in
        ns, the lock type and the caller (or task)."""
        rows = []
        for line in text.splitlines():
            f = line.split()
            if len(f) < 9 or not f[0].isdigit():
                continue
            try:
                rows.append({"contended": int(f[0]),
                             "total_ns": round(_ns(f[1], f[2])),
                             "max_ns": round(_ns(f[3], f[4])),
                             "avg_ns": round(_ns(f[5], f[6])),
                             "type": f[7], "where": " ".join(f[8:])})
            except (KeyError, ValueError):
                continue
        return rows


# -- where tasks sleep, and when CPUs idle (issue 40) -------------------------

# Frames of the scheduler and of the generic wait helpers: the reason a
# task sleeps is the first frame beneath them.
_SCHED_FRAMES = {
    "__schedule", "schedule", "schedule_idle", "schedule_timeout", "io_schedule",
    "io_schedule_timeout", "schedule_hrtimeout_range", "schedule_hrtimeout_range_clock",
    "schedule_preempt_disabled", "preempt_schedule", "preempt_schedule_common",
    "__cond_resched", "preempt_schedule_irq", "preempt_schedule_notrace",
    "wait_for_completion", "wait_for_completion_io", "__wait_for_common",
    "wait_for_common", "wait_for_common_io", "do_wait_for_common", "bit_wait_io",
    "bit_wait", "__wait_on_bit", "out_of_line_wait_on_bit", "rwsem_down_write_slowpath",
    "rwsem_down_read_slowpath", "down_write", "down_read", "__mutex_lock",
    "mutex_lock", "__mutex_lock_slowpath", "raw_spin_rq_unlock_irq",
    "finish_task_switch", "finish_task_switch.isra.0", "pvm_irq_enable",
}


class SleepRecorder(_PerfSession):
    """`perf record -e sched:sched_switch -g -a`: every context switch over
    the measured window, with the stack of the task switched out. From
    them: how long each task kind slept (state S or D) and where (the
    first frame beneath the scheduler and the wait helpers, with the frame
    below it), how long each task waited runnable after a preemption
    (state R), and how long each CPU ran its idle task. Two perf sessions
    slow the run a little: for the sleeps, not for the CPU figures."""
    TRACEPOINT = "sched/sched_switch"
    COMMAND = ("perf", "record", "-q", "-e", "sched:sched_switch", "-g", "-a")

    def script(self):
        p = subprocess.run(["perf", "script", "-i", self.path,
                            "-F", "comm,tid,cpu,time,trace,ip,sym"],
                           capture_output=True, text=True)
        return p.stdout

    @staticmethod
    def reason(frames):
        """The sleep's reason: the first two frames beneath the scheduler."""
        # the tracepoint's own iterator (__traceiter_sched_switch) is the
        # innermost frame of every record
        body = [f for f in frames if f not in _SCHED_FRAMES and not f.startswith("[") and
                not f.startswith("__traceiter_")]
        return " < ".join(body[:2]) if body else "?"

    @staticmethod
    def preempt_site(frames):
        """Where a task was preempted (switched out runnable): the first
        three frames beneath __schedule, the scheduling point kept
        (__cond_resched < iomap_write_iter < ... is inside the write's
        i_rwsem; schedule < exit_to_user_mode_loop is its return)."""
        body = [f for f in frames if f != "__schedule" and not f.startswith("[") and
                not f.startswith("__traceiter_")]
        return " < ".join(body[:3]) if body else "?"

    @staticmethod
    def summarise(text):
        """{"sleeps": {kind: [{where, count, total_ms}]}, "runnable_wait_ms":
        {kind: ms}, "preemptions": {kind: [{where, count, total_ms}]},
        "idle_ms": {cpu: ms}, "window_s": s} from `perf script` of
        sched_switch events (comm,tid,cpu,time,trace,ip,sym)."""
        head = re.compile(r"^(\S.*?)\s+(\d+)\s+\[(\d+)\]\s+([\d.]+):\s+prev_comm=.*?"
                          r"prev_pid=(\d+) .*?prev_state=(\S+) ==> next_comm=(.*?) "
                          r"next_pid=(\d+)")
        events, cur = [], None
        for line in text.splitlines():
            m = head.match(line)
            if m:
                cur = {"comm": m.group(1), "pid": int(m.group(5)), "cpu": int(m.group(3)),
                       "t": float(m.group(4)), "state": m.group(6),
                       "next_comm": m.group(7), "next_pid": int(m.group(8)), "frames": []}
                events.append(cur)
            elif cur is not None and line.strip():
                f = line.split()
                if len(f) >= 2:
                    cur["frames"].append(f[1])
        if not events:
            return {"sleeps": {}, "runnable_wait_ms": {}, "preemptions": {}, "idle_ms": {},
                    "window_s": 0}
        out_at = {}        # pid -> (time switched out, kind, reason or None)
        idle_from = {}     # cpu -> when it switched to its idle task
        comm_of = {}
        sleeps, waits, idle, preempts = {}, {}, {}, {}
        for e in events:
            comm_of[e["pid"]] = e["comm"]
            kind = classify(e["comm"], e["frames"])
            if e["pid"] == 0:
                if e["cpu"] in idle_from:
                    idle[e["cpu"]] = idle.get(e["cpu"], 0) + e["t"] - idle_from.pop(e["cpu"])
            else:
                asleep = e["state"] not in ("R", "R+")
                out_at[e["pid"]] = (e["t"], kind, SleepRecorder.reason(e["frames"])
                                    if asleep else None,
                                    None if asleep else SleepRecorder.preempt_site(e["frames"]))
            if e["next_pid"] == 0:
                idle_from[e["cpu"]] = e["t"]
            elif e["next_pid"] in out_at:
                t0, k, why, site = out_at.pop(e["next_pid"])
                if why is None:
                    waits[k] = waits.get(k, 0) + e["t"] - t0
                    row = preempts.setdefault(k, {}).setdefault(site, [0, 0.0])
                    row[0] += 1
                    row[1] += e["t"] - t0
                else:
                    row = sleeps.setdefault(k, {}).setdefault(why, [0, 0.0])
                    row[0] += 1
                    row[1] += e["t"] - t0
        return {
            "window_s": round(events[-1]["t"] - events[0]["t"], 3),
            "sleeps": {k: sorted(({"where": w, "count": n, "total_ms": round(s * 1e3, 2)}
                                  for w, (n, s) in rows.items()),
                                 key=lambda r: -r["total_ms"])[:25]
                       for k, rows in sleeps.items()},
            "runnable_wait_ms": {k: round(v * 1e3, 2) for k, v in waits.items()},
            "preemptions": {k: sorted(({"where": w, "count": n, "total_ms": round(s * 1e3, 2)}
                                       for w, (n, s) in rows.items()),
                                      key=lambda r: -r["count"])[:15]
                            for k, rows in preempts.items()},
            "idle_ms": {str(c): round(v * 1e3, 2) for c, v in sorted(idle.items())},
        }

    @staticmethod
    def table(summary):
        """sleeps.txt: the summary as text."""
        lines = [f"# context switches over {summary['window_s']} s (perf record -e "
                 "sched:sched_switch -g -a)",
                 "# idle, ms by CPU: " + ", ".join(f"cpu{c} {ms}" for c, ms in
                                                   summary["idle_ms"].items()),
                 "# runnable waits after a preemption, ms by task kind: " +
                 ", ".join(f"{k} {ms}" for k, ms in sorted(summary["runnable_wait_ms"].items()))]
        for kind, rows in sorted(summary["sleeps"].items()):
            lines.append(f"\n{kind}: sleeps by reason (count, total ms)")
            for r in rows:
                lines.append(f"  {r['count']:8d} {r['total_ms']:10.2f}  {r['where']}")
        for kind, rows in sorted(summary.get("preemptions", {}).items()):
            lines.append(f"\n{kind}: preempted (runnable) at (count, total ms waiting)")
            for r in rows:
                lines.append(f"  {r['count']:8d} {r['total_ms']:10.2f}  {r['where']}")
        return "\n".join(lines) + "\n"
