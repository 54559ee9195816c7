#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/long-outputs.sh [BUILDDIR] [TIME] [SCENARIO] - peak memory of a long
# run with every output on: --trace FILE.dat, --series and fio's logs (per
# job and per_job_logs=0), on one CPU (bench/long-outputs.ini; TIME, default
# 600s, sets [run] time_limit: up to its hour). Prints the peak RSS (the
# child's getrusage ru_maxrss), the RSS at each tenth of the run (VmRSS,
# sampled every 0.5 s with the simulated time of the progress line), the
# wall and CPU times (on a shared machine the CPU time is the steadier) and
# the outputs' sizes. Issue 39, item 1: the peak must not
# grow with TIME (before, trace.dat's pages and per_job_logs=0 rows were
# held in memory until the end: about 0.5 MB per simulated second for the
# trace alone). Prints figures, asserts nothing. The outputs are written
# in a temporary directory ($TMPDIR), removed at the end; an hour of this
# scenario writes about 2 GB there (and as much again while trace.dat is
# assembled). Run it against the build of another commit to compare:
#   bench/long-outputs.sh build 600s; bench/long-outputs.sh ../base/build 600s
set -euo pipefail
top="$(cd "$(dirname "$0")/.." && pwd)"
build=${1:-$top/build}
sim_time=${2:-600s}
scenario=$(cd "$(dirname "${3:-$top/bench/long-outputs.ini}")" && pwd)/$(basename "${3:-$top/bench/long-outputs.ini}")
prog=$(cd "$build" && pwd)/sim/sim-writeback
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

[ -x "$prog" ] || { echo "$0: no $prog (build first)" >&2; exit 2; }
echo "$prog: $(basename "$scenario") for $sim_time, --trace t.dat --series s.csv, fio logs"
cd "$out"
python3 - "$prog" --progress --no-wall-time --set "run.time_limit=$sim_time" \
	--trace t.dat --series s.csv -o report.txt "$scenario" <<'PY'
import re, resource, subprocess, sys, time

t0 = time.monotonic()
err = open("stderr", "w+")
p = subprocess.Popen(sys.argv[1:], stderr=err)
samples = []    # (simulated s, VmRSS kB)
while p.poll() is None:
    try:
        with open("/proc/%d/status" % p.pid) as f:
            rss = int(re.search(r"^VmRSS:\s+(\d+)", f.read(), re.M).group(1))
        err.flush()
        with open("stderr", "rb") as f:
            f.seek(0, 2)
            f.seek(max(0, f.tell() - 256))
            m = re.findall(rb"\[sim=([0-9.]+)s\]", f.read())
        if m:   # the run is under way (its first progress line)
            samples.append((float(m[-1]), rss))
    except (OSError, AttributeError):
        pass
    time.sleep(0.5)
wall = time.monotonic() - t0
if p.returncode != 0:
    err.seek(0)
    sys.stderr.write(err.read())
    sys.exit("sim-writeback failed (exit %d)" % p.returncode)
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
print("wall %.1f s, CPU %.1f s user + %.1f s system; peak RSS %.1f MiB (getrusage ru_maxrss)"
      % (wall, ru.ru_utime, ru.ru_stime, ru.ru_maxrss / 1024))
if samples:
    n = len(samples)
    print("RSS at each tenth of the run (MiB):",
          " ".join("%.1f" % (samples[(n - 1) * i // 10][1] / 1024) for i in range(1, 11)),
          "(%d samples; simulated s at each: %s)" % (n, " ".join(
              "%.0f" % samples[(n - 1) * i // 10][0] for i in range(1, 11))))
PY
ls -l | awk 'NR > 1 && $NF != "stderr" && $NF != "report.txt" {
	if ($NF ~ /\.log$/) { logs += $5; nlogs++ } else printf "%s %.1f MiB, ", $NF, $5 / 1048576 }
	END { printf "fio logs %.1f MiB (%d files)\n", logs / 1048576, nlogs }'
