#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""lab/measure-device --file (issue 38 item 6): a device of one's own.

fio's figures read from a real fio run's JSON (tests/lab/data); the preset
written from a real measurement (lab/results/devices/file-var-tmp.json)
and loaded by sim-writeback, value by value; the refusals, which make
nothing; and whole runs against a folder of the test's with a stand-in
fio (tests/lab/data/fake-fio): the file is made, given to fio and removed,
after a success, a failing fio and a Ctrl-C alike. No system setting is
touched and no real fio runs."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

TOP = os.environ.get("WBSIM_SOURCE_ROOT",
                     os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
BUILD = os.environ.get("WBSIM_BUILD_ROOT", os.path.join(TOP, "build"))
SIM = os.path.join(BUILD, "sim", "sim-writeback")
MEASURE = os.path.join(TOP, "lab", "measure-device")
DATA = os.path.join(TOP, "tests", "lab", "data")
RECORD = os.path.join(TOP, "lab", "results", "devices", "file-var-tmp.json")
sys.path.insert(0, os.path.join(TOP, "lab"))
from wbsimlab import devpreset    # noqa: E402


def measure(*args, env=None):
    p = subprocess.run([sys.executable, MEASURE, *args], capture_output=True,
                       text=True, env=env, timeout=120)
    return p.returncode, p.stdout, p.stderr


class Summary(unittest.TestCase):
    def test_fio_json(self):
        with open(os.path.join(DATA, "fio-rand-4k-qd1.json")) as f:
            s = devpreset.summarise(json.load(f))
        self.assertEqual(s, {"bw_bytes": 22444115, "iops": 5479.5,
                             "clat_mean_ns": 149318, "lat_mean_ns": 181833,
                             "sys_cpu_pct": 33.9})

    def test_fio_command(self):
        self.assertEqual(
            " ".join(devpreset.fio_command("rand-4k-qd32", "/d/f.img", "randwrite", "4k",
                                           32, 268435456, 3)),
            "fio --name rand-4k-qd32 --filename=/d/f.img --rw=randwrite --bs=4k "
            "--iodepth=32 --ioengine=libaio --direct=1 --size=268435456 "
            "--allow_file_create=0 --fallocate=none --randrepeat=0 --norandommap=1 "
            "--time_based=1 --runtime=3 --output-format=json")


class Preset(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_preset_loads_in_the_simulator(self):
        out = os.path.join(self.dir, "my-dev.ini")
        rc, _, err = measure("--preset-from", RECORD, "--preset-out", out)
        self.assertEqual(rc, 0, err)
        with open(out) as f:
            text = f.read()
        # each number after the comment naming its run and command
        self.assertIn("# rand-4k-qd32: 41492.2 IOPS: `fio --name rand-4k-qd32 "
                      "--filename=/var/tmp/wbsim-measure.4483.img --rw=randwrite --bs=4k "
                      "--iodepth=32 --ioengine=libaio --direct=1 --size=268435456 "
                      "--allow_file_create=0 --fallocate=none --randrepeat=0 "
                      "--norandommap=1 --time_based=1 --runtime=3`\n"
                      "random_write_iops = 41492\n", text)
        self.assertIn("# rand-4k-qd1: mean completion latency 108388 ns (fio's clat,\n"
                      "# submission excluded), to the microsecond: `fio --name rand-4k-qd1 ",
                      text)
        self.assertIn("#   lab/measure-device --file /var/tmp --size 256m --runtime 3 ", text)
        scn = os.path.join(self.dir, "s.ini")
        with open(scn, "w") as f:
            f.write(f"[device]\npreset = {out}\n[fio:w]\nrw=write\nsize=1m\n")
        p = subprocess.run([SIM, "--dump-config", "--parse-only", scn],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        dev = p.stdout.split("[device]\n", 1)[1].split("\n\n", 1)[0]
        self.assertEqual(dev.split("\n"), [
            f"preset = {out}",
            "capacity = 270553174016B",
            "hw_queues = 1",
            "queue_depth = 128",
            "channels = 1",
            "dies_per_channel = 5",
            "seq_write_bandwidth = 2519858111B/s",
            "random_write_iops = 41492",
            "write_latency = 108000ns",
            "command_overhead = 6030ns",
            "link_bandwidth = 5039716222B/s",
            "write_buffer = 16777216B",
            "program_unit = 4096B",
            "volatile_cache = 1",
            "scheduler = none",
            "nr_requests = 0",
            "max_sectors_kb = 1280",
            "wbt = 1"])
        # and it runs: fio's rand-4k-qd32 on the device, O_DIRECT (64 MiB, of
        # which the 16 MiB write buffer takes a quarter at once: above the
        # 41,492 IOPS of a long run)
        with open(scn, "w") as f:
            f.write(f"[device]\npreset = {out}\n[fio:w]\nrw=randwrite\nbs=4k\n"
                    "direct=1\nioengine=libaio\niodepth=32\nsize=64m\n")
        p = subprocess.run([SIM, scn], capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("\n  write: IOPS=55.5k, BW=217MiB/s (227MB/s)(64.0MiB/295msec)\n",
                      p.stdout)

    def test_iops_capped_and_no_queue(self):
        with open(RECORD) as f:
            rec = json.load(f)
        info, runs = rec["device"], rec["runs"]
        info["queue"] = {}
        runs["rand-4k-qd32"]["iops"] = 10_000_000.0
        text = devpreset.preset_text(info, runs, "lab/measure-device --file /x")
        self.assertIn("# capped at seq_write_bandwidth / 4 KiB = 615199 (the model takes\n"
                      "# random 4 KiB writes no faster than sequential ones)\n"
                      "random_write_iops = 615199\n", text)
        self.assertIn("# Reasoning: no blk-mq queue under the filesystem; one queue.\n"
                      "hw_queues = 1\n", text)
        self.assertIn("# Reasoning: no write cache known; none.\nvolatile_cache = 0\n", text)
        del runs["seq-1m-qd32"]
        with self.assertRaisesRegex(devpreset.DeviceError,
                                    "^no run seq-1m-qd32 in the figures: expected the runs "):
            devpreset.preset_text(info, runs, "x")

    def test_preset_from_bad_json(self):
        bad = os.path.join(self.dir, "bad.json")
        with open(bad, "w") as f:
            f.write('{"runs": {}}')
        rc, _, err = measure("--preset-from", bad, "--preset-out",
                             os.path.join(self.dir, "x.ini"))
        self.assertEqual(rc, 2)
        self.assertEqual(err, f"measure-device: --preset-from {bad}: KeyError('device'): "
                         "expected the JSON that measure-device --file ... --json FILE "
                         'writes ({"device": ..., "runs": ...})\n')
        self.assertFalse(os.path.exists(os.path.join(self.dir, "x.ini")))


class Refusals(unittest.TestCase):
    """Each refused before anything is made: the folder as it was, no journal."""

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.env = dict(os.environ, WBSIM_LAB_JOURNAL=os.path.join(self.dir, "journal"))

    def tearDown(self):
        shutil.rmtree(self.dir)

    def refused(self, args, message):
        before = sorted(os.listdir(self.dir))
        rc, out, err = measure(*args, env=self.env)
        self.assertEqual((rc, out, err), (2, "", f"measure-device: {message}\n"))
        self.assertEqual(sorted(os.listdir(self.dir)), before)

    def test_not_a_directory(self):
        self.refused(["--file", "/dev/null"],
                     "--file /dev/null: not a directory (a character device): expected a "
                     "directory on a mounted filesystem, where a preallocated file is made, "
                     "measured and removed")
        f = os.path.join(self.dir, "f")
        open(f, "w").close()
        self.refused(["--file", f],
                     f"--file {f}: not a directory (a file or other): expected a "
                     "directory on a mounted filesystem, where a preallocated file is made, "
                     "measured and removed")
        self.refused(["--file", f + "/none"],
                     f"--file {f}/none: Not a directory: expected a directory on a "
                     "mounted filesystem")

    def test_block_device(self):
        import stat
        dev = next((os.path.join("/dev", n) for n in sorted(os.listdir("/dev"))
                    if stat.S_ISBLK(os.stat(os.path.join("/dev", n)).st_mode)), None)
        if dev is None:
            self.skipTest("no block device in /dev")
        self.refused(["--file", dev],
                     f"--file {dev}: a block device: measure-device never writes to a raw "
                     "device (it would destroy what the device holds); expected a directory "
                     "on a filesystem mounted from it")

    def test_bounds(self):
        self.refused(["--file", self.dir, "--size", "1m"],
                     "--size 1048576: expected 64.0 MiB to 64.0 GiB (the file is written "
                     "whole, then over for --runtime seconds per run)")
        self.refused(["--file", self.dir, "--runtime", "0"],
                     "--runtime 0: expected 1 to 600 seconds")
        self.refused(["--file", self.dir, "--size", "lots"], "not a size: 'lots'")

    def test_outputs_checked_first(self):
        self.refused(["--file", self.dir, "--preset-out", f"{self.dir}/no/p.ini"],
                     f"--preset-out {self.dir}/no/p.ini: {self.dir}/no is not a folder "
                     "this user can write in: expected the file's folder to exist")
        self.refused(["--file", self.dir, "--json", self.dir],
                     f"--json {self.dir}: a directory: expected the file to write")

    def test_pseudo_and_unmounted(self):
        self.refused(["--file", "/proc"],
                     "--file /proc: on /proc, a proc filesystem, which holds no device's "
                     "files: expected a directory on a disk's filesystem (ext4, xfs, "
                     "btrfs, ...)")
        info = os.path.join(self.dir, "mountinfo")
        with open(info, "w") as f:
            f.write("26 1 254:0 / /srv\\040data rw - ext4 /dev/vda rw\n")
        with self.assertRaisesRegex(devpreset.DeviceError,
                                    f"^--file {self.dir}: no mount holds "):
            devpreset.check_dir(self.dir, 64 << 20, 3, mountinfo=info)
        self.assertEqual(devpreset.mount_of("/srv data/x", info)["mountpoint"], "/srv data")

    def test_too_big_for_the_free_space(self):
        vfs = os.statvfs(self.dir)
        half = vfs.f_bavail * vfs.f_frsize // 2
        if half >= devpreset.MAX_SIZE:
            # a fake mount table cannot shrink statvfs: the message's form only
            with self.assertRaisesRegex(devpreset.DeviceError, "^--size "):
                devpreset.check_dir(self.dir, devpreset.MAX_SIZE + 1, 3)
            return
        rc, _, err = measure("--file", self.dir, "--size", "64g", env=self.env)
        self.assertEqual(rc, 2)
        self.assertRegex(err, r"--size 64.0 GiB asked, .* free on .* \(statvfs\): expected "
                         r"--size at most half the free space")

    def test_odirect_message(self):
        e = OSError(22, "Invalid argument")
        self.assertEqual(devpreset.odirect_refusal("/mnt/x", "fuse", e),
                         "--file /mnt/x: the fuse filesystem refuses O_DIRECT (EINVAL: "
                         "Invalid argument): the baselines are O_DIRECT writes that reach "
                         "the device without the page cache, which a preset describes; name "
                         "a directory on a filesystem that takes O_DIRECT (ext4, xfs, btrfs "
                         "on a disk)")

    def test_usage(self):
        rc, _, err = measure("--file", self.dir, "lab-ram", env=self.env)
        self.assertEqual(rc, 2)
        self.assertIn("error: expected one of: a lab device (lab-ram, lab-disk), --file "
                      "DIR, --preset-from FILE.json", err)
        rc, _, err = measure("--preset-from", RECORD, env=self.env)
        self.assertEqual(rc, 2)
        self.assertIn("error: --preset-from: expected --preset-out FILE.ini too", err)


class WholeRun(unittest.TestCase):
    """measure-device --file with tests/lab/data/fake-fio as fio."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(dir=os.environ.get("WBSIM_TEST_TMP", "/var/tmp"))
        self.work = os.path.join(self.dir, "fs")
        os.mkdir(self.work)
        bin_ = os.path.join(self.dir, "bin")
        os.mkdir(bin_)
        os.symlink(os.path.join(DATA, "fake-fio"), os.path.join(bin_, "fio"))
        self.calls = os.path.join(self.dir, "calls")
        self.journal = os.path.join(self.dir, "journal")
        self.env = dict(os.environ, PATH=bin_ + os.pathsep + os.environ["PATH"],
                        WBSIM_LAB_JOURNAL=self.journal, FAKE_FIO_CALLS=self.calls,
                        FAKE_FIO_RECORD=RECORD)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def run_mode(self, mode):
        env = dict(self.env, FAKE_FIO_MODE=mode)
        rc, out, err = measure("--file", self.work, "--size", "64m", "--runtime", "1",
                               "--preset-out", os.path.join(self.dir, "p.ini"),
                               "--json", os.path.join(self.dir, "r.json"), env=env)
        try:
            with open(self.calls) as f:
                calls = [json.loads(l) for l in f]
        except FileNotFoundError:
            calls = []
        # the file is gone and so is the journal, whatever happened
        self.assertEqual(os.listdir(self.work), [])
        self.assertFalse(os.path.exists(self.journal))
        return rc, out, err, calls

    def test_success(self):
        rc, out, err, calls = self.run_mode("ok")
        if rc == 2 and "refuses O_DIRECT" in err:
            self.skipTest(err.strip())
        self.assertEqual(rc, 0, err)
        self.assertEqual([c["name"] for c in calls],
                         ["fill-1m-qd1", "seq-1m-qd1", "seq-1m-qd32", "rand-4k-qd1",
                          "rand-4k-qd32"])
        img = calls[0]["filename"]
        self.assertEqual(os.path.dirname(img), os.path.realpath(self.work))
        # fio saw a regular file of the size asked, preallocated
        self.assertTrue(all(c["filename"] == img and c["regular"] and
                            c["size"] == 64 << 20 and c["blocks"] * 512 >= 64 << 20
                            for c in calls), calls)
        self.assertTrue(all("--direct=1" in c["argv"] and "--allow_file_create=0" in c["argv"]
                            for c in calls))
        with open(os.path.join(self.dir, "p.ini")) as f:
            preset = f.read()
        self.assertIn("\nrandom_write_iops = 41492\n", preset)
        self.assertIn("\nseq_write_bandwidth = 2519858111/s\n", preset)
        with open(os.path.join(self.dir, "r.json")) as f:
            rec = json.load(f)
        self.assertEqual(rec["runs"]["rand-4k-qd32"]["iops"], 41492.2)
        self.assertEqual(rec["device"]["size"], 64 << 20)

    def test_fio_fails(self):
        rc, out, err, calls = self.run_mode("fail")
        if "refuses O_DIRECT" in err:
            self.skipTest(err.strip())
        self.assertEqual(rc, 2)
        self.assertEqual(len(calls), 1)
        self.assertIn(": exit 1: fio: a failure of the test's\n", err)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "p.ini")))

    def test_interrupted(self):
        rc, out, err, calls = self.run_mode("sigint")
        if "refuses O_DIRECT" in err:
            self.skipTest(err.strip())
        self.assertEqual(rc, 130, err)
        self.assertIn("measure-device: interrupted: the file is removed, nothing written\n", err)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "p.ini")))

    def test_after_a_kill(self):
        """What a SIGKILLed run left (its file, its journal) the next run
        removes first, as lab/run-kernel --restore would."""
        left = os.path.join(self.work, "wbsim-measure.1.img")
        with open(left, "wb") as f:
            f.truncate(1 << 20)
        with open(self.journal, "w") as f:
            f.write("# wbsim-lab journal: pid 1, lab/measure-device --file, 2026-12-06T00:00:00Z\n"
                    + json.dumps({"id": 1, "op": "unlink", "path": left}) + "\n")
        rc, out, err, calls = self.run_mode("ok")
        if rc == 2 and "refuses O_DIRECT" in err:
            self.skipTest(err.strip())
        self.assertEqual(rc, 0, err)
        self.assertIn(f"measure-device: {self.journal}: left by a run that did not finish "
                      "(pid 1, lab/measure-device --file, 2026-12-06T00:00:00Z): undoing 1 "
                      f"step\nmeasure-device: undone: unlink {left}\n", err)
        self.assertEqual(len(calls), 5)


if __name__ == "__main__":
    unittest.main(verbosity=2)
