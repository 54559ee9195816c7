#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/long-run.sh [BUILDDIR] [SCENARIO] - one simulated hour under
# --check (bench/long-run.ini: four rate-limited jobs with fsync, a sync or
# syncfs every five minutes), run twice with the same seed. Prints the
# resident memory of the first run (sampled every 0.5 s from /proc: after
# warm-up, at the end, and the peak), and whether the two JSON reports
# (--no-wall-time) are byte-identical. Exit status 1 if they differ or a
# run fails. Not part of meson test: it takes about a minute.
set -euo pipefail
top="$(cd "$(dirname "$0")/.." && pwd)"
build=${1:-$top/build}
scenario=${2:-$top/bench/long-run.ini}
prog="$build/sim/sim-writeback"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# run N: the JSON report in $out/N.json, RSS samples (kB) in $out/N.rss
run() {
	local n=$1 pid t0 t1 status
	t0=$(date +%s.%N)
	"$prog" --check --no-wall-time --output-format=json "$scenario" \
		>"$out/$n.json" 2>"$out/$n.err" &
	pid=$!
	: >"$out/$n.rss"
	while kill -0 "$pid" 2>/dev/null; do
		awk '/^VmRSS|^VmHWM/ { printf "%s ", $2 } END { print "" }' \
			"/proc/$pid/status" >>"$out/$n.rss" 2>/dev/null || true
		sleep 0.5
	done
	status=0
	wait "$pid" || status=$?
	t1=$(date +%s.%N)
	if [ "$status" != 0 ]; then
		echo "run $n failed (exit $status):" >&2
		cat "$out/$n.err" >&2
		exit 1
	fi
	awk -v a="$t0" -v b="$t1" -v n="$n" 'BEGIN { printf "run %s: %.1f s wall\n", n, b - a }'
}

run 1
run 2
# samples are "VmHWM VmRSS" lines (the order of /proc/PID/status)
awk 'NF == 2 { hwm = $1; rss[n++] = $2 }
     END {
	if (!n) { print "no RSS samples"; exit }
	w = int(n / 10)		# warm-up: the first tenth of the run
	if (w < 1 && n > 1)
		w = 1
	printf "RSS (MiB): after warm-up %.1f, final %.1f, peak %.1f (%d samples)\n",
	       rss[w] / 1024, rss[n - 1] / 1024, hwm / 1024, n
	printf "RSS at each tenth of the run (MiB):"
	for (i = 1; i <= 10; i++)
		printf " %.1f", rss[int((n - 1) * i / 10)] / 1024
	print ""
     }' "$out/1.rss"
python3 - "$out/1.json" <<'PY' || true
import json, sys
r = json.load(open(sys.argv[1]))
w = r["wbsim"]
print("run 1: simulated %.0f s, %d events, %d pages dirtied, %d written; jobs wrote %s" %
      (w["sim_ns"] / 1e9, w["events"], w["nr_dirtied"], w["nr_written"],
       ", ".join("%s %.1f GiB" % (j["jobname"], j["write"]["io_bytes"] / 2**30)
                 for j in r["jobs"])))
PY
if cmp -s "$out/1.json" "$out/2.json"; then
	echo "two runs with the same seed: identical JSON ($(wc -c <"$out/1.json") bytes)"
else
	echo "two runs with the same seed DIFFER:"
	diff "$out/1.json" "$out/2.json" | head -20
	exit 1
fi
