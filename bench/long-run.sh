#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/long-run.sh [BUILDDIR] [SCENARIO] - one simulated hour under
# --check (bench/long-run.ini: four rate-limited jobs with fsync, a sync or
# syncfs every five minutes), run twice with the same seed. Prints the
# resident memory of the first run (sampled every 0.5 s from /proc: after
# warm-up, at 10 and at 60 simulated minutes, at the end, and the peak),
# and whether the two JSON reports (--no-wall-time) are byte-identical.
# Exit status 1 if they differ or a run fails. Not part of meson test: it
# takes about three minutes (two runs of about 90 s; --check recounts
# every inode's dirty and writeback folios after each event).
#
# Issue 19 (memory flat in simulated time): the RSS at 60 simulated
# minutes within 10% of that at 10 minutes. For E1 (an hour of
# bench/long-run-e1.ini, some minutes of CPU) LONG_RUN_CHECK=0 leaves
# --check out and LONG_RUN_ONCE=1 skips the second run:
#   LONG_RUN_CHECK=0 LONG_RUN_ONCE=1 nice -n 19 bench/long-run.sh build bench/long-run-e1.ini
set -euo pipefail
top="$(cd "$(dirname "$0")/.." && pwd)"
build=${1:-$top/build}
scenario=${2:-$top/bench/long-run.ini}
prog="$build/sim/sim-writeback"
check=--check
[ "${LONG_RUN_CHECK:-1}" = 0 ] && check=
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# the simulated seconds of the last progress line in file $1 (0 if none):
# fio's status line "Jobs: N: [P%][sim=S.Ss][w=...][eta ...]" (the older
# ": S s simulated" form too)
sim_seconds() {
	tail -c 256 "$1" 2>/dev/null | tr '\r' '\n' |
		sed -n -e 's/.*\[sim=\([0-9.]*\)s\].*/\1/p' \
		       -e 's/.*: \([0-9.]*\) s simulated.*/\1/p' | tail -n 1 | grep . || echo 0
}

# run N: the JSON report in $out/N.json, RSS samples (kB) in $out/N.rss,
# each line "VmHWM VmRSS simulated-seconds"
run() {
	local n=$1 pid t0 t1 status
	t0=$(date +%s.%N)
	"$prog" $check --progress --no-wall-time --output-format=json "$scenario" \
		>"$out/$n.json" 2>"$out/$n.err" &
	pid=$!
	: >"$out/$n.rss"
	while kill -0 "$pid" 2>/dev/null; do
		awk -v t="$(sim_seconds "$out/$n.err")" \
			'/^VmRSS|^VmHWM/ { printf "%s ", $2 } END { print t }' \
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
[ "${LONG_RUN_ONCE:-0}" = 1 ] || run 2
# samples are "VmHWM VmRSS SIM_S" lines (the order of /proc/PID/status)
awk 'NF == 3 { hwm = $1; sim[n] = $3; rss[n++] = $2 }
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
	# the first sample at or after 10 and 60 simulated minutes (the
	# last sample when the run ended before 60)
	for (i = 0; i < n; i++) {
		if (r10 == "" && sim[i] >= 600) { r10 = rss[i]; s10 = sim[i] }
		if (r60 == "" && sim[i] >= 3600) { r60 = rss[i]; s60 = sim[i] }
	}
	if (r60 == "") { r60 = rss[n - 1]; s60 = sim[n - 1] }
	if (r10 == "")
		print "RSS at 10 simulated minutes: the run did not get there"
	else
		printf "RSS at 10 simulated minutes %.1f MiB (%.0f s), at 60 %.1f MiB (%.0f s): %+.1f%%\n",
		       r10 / 1024, s10, r60 / 1024, s60, (r60 - r10) * 100 / r10
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
if [ "${LONG_RUN_ONCE:-0}" = 1 ]; then
	echo "one run (LONG_RUN_ONCE=1): no comparison"
elif cmp -s "$out/1.json" "$out/2.json"; then
	echo "two runs with the same seed: identical JSON ($(wc -c <"$out/1.json") bytes)"
else
	echo "two runs with the same seed DIFFER:"
	diff "$out/1.json" "$out/2.json" | head -20
	exit 1
fi
