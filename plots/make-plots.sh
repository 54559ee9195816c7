#!/bin/sh
# SPDX-License-Identifier: MIT
#
# make-plots.sh - run the experiment scenarios with a short time limit and
# draw the figures with gnuplot (PNG and SVG, data files with a '#' header).
#
#   make-plots.sh SIM GNUPLOT SOURCE_ROOT OUT_DIR [PLOT...]
#
# SIM is the sim-writeback program, SOURCE_ROOT the wbsim source tree (the
# scenarios and the .gp scripts beside this file), OUT_DIR where data and
# images go. PLOT names which figures to make (default: all):
#   e1-bandwidth  base against parallel bandwidth per device and filesystem (E1)
#   e2-contexts   bandwidth against the number of writeback contexts (E2)
#   dirty-series  dirty and writeback pages over time with the thresholds
#                 and the throttle pauses (one E1 run)
#   e6-extents    extent counts of the E6 file at the measured moments
#   e7-lag        a worker's lag behind its rate schedule over time, with
#                 the dirty pages of the removed cgroup's wb (E7 test 1,
#                 dying_wb unreachable against reachable, full 120 s runs)
# Environment:
#   PLOT_TIME_LIMIT   simulated time of each E1/E2 run (default 5s)
#   PLOT_SERIES_TIME  simulated time of the dirty-series run (default 20s)
#   PLOT_SERIES_SCENARIO  scenario of the dirty-series run
#                     (default scenarios/e1-nvme-xfs-base.ini)
#
# Bandwidth is read from the text report's fio line "WRITE: bw=..."; the
# E2 points come from a [sweep] run's CSV when the program runs sweeps,
# else from one run per number of contexts with --set.
set -eu

if [ $# -lt 4 ]; then
	echo "usage: $0 SIM GNUPLOT SOURCE_ROOT OUT_DIR [PLOT...]" >&2
	exit 2
fi
SIM=$1
GNUPLOT=$2
if ! command -v "$GNUPLOT" >/dev/null 2>&1; then
	echo "$0: gnuplot is not installed: apt-get install gnuplot-nox (no reconfigure needed)" >&2
	exit 1
fi
SRC=$3
OUT=$4
shift 4
PLOTS=${*:-e1-bandwidth e2-contexts dirty-series e6-extents e7-lag}
LIMIT=${PLOT_TIME_LIMIT:-5s}
SERIES_LIMIT=${PLOT_SERIES_TIME:-20s}
SERIES_SCENARIO=${PLOT_SERIES_SCENARIO:-scenarios/e1-nvme-xfs-base.ini}
GP=$(cd "$(dirname "$0")" && pwd)

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
cd "$SRC"

# Aggregate write bandwidth in MiB/s from a text report on stdin: fio's
# group line "WRITE: bw=8100MiB/s (8493MB/s), ..." (KiB/s, MiB/s, GiB/s).
bw_mib() {
	awk '/^ *WRITE: bw=/ {
		v = $2; sub(/^bw=/, "", v)
		n = v + 0; u = v; sub(/^[0-9.]+/, "", u)
		if (u ~ /^KiB/) n /= 1024
		else if (u ~ /^GiB/) n *= 1024
		else if (u ~ /^B\//) n /= 1048576
		printf "%.1f\n", n; found = 1; exit
	} END { if (!found) exit 1 }'
}

run_bw() {	# SCENARIO [ARGS...] -> MiB/s
	scn=$1
	shift
	"$SIM" --no-wall-time --set run.time_limit="$LIMIT" "$@" "$scn" | bw_mib
}

draw() {	# SCRIPT DATA OUTBASE [EXTRA gnuplot -e text]
	"$GNUPLOT" -e "datafile='$2'; outbase='$3'; $4" "$GP/$1"
	echo "wrote $3.png $3.svg"
}

plot_e1() {
	dat=$OUT/e1-bandwidth.dat
	{
		echo "# E1: aggregate write bandwidth of pr-randwrite-12jobs, MiB/s"
		echo "# simulated: sim-writeback --set run.time_limit=$LIMIT scenarios/e1-DEV-FS-{base,parallel}.ini"
		echo "# measured: the published E1 results (shared/workloads/README.md), a 60 s run"
		echo "# label base_sim parallel_sim base_measured parallel_measured"
	} > "$dat"
	for c in "pmem xfs 544 1015" "pmem ext4 536 1047" "nvme xfs 651 808" "nvme ext4 494 797"; do
		set -- $c
		b=$(run_bw scenarios/e1-$1-$2-base.ini)
		p=$(run_bw scenarios/e1-$1-$2-parallel.ini)
		dev=PMEM
		[ "$1" = nvme ] && dev=NVMe
		fs=XFS
		[ "$2" = ext4 ] && fs=ext4
		echo "\"$dev $fs\" $b $p $3 $4" >> "$dat"
	done
	draw e1-bandwidth.gp "$dat" "$OUT/e1-bandwidth" "limit='$LIMIT'"
}

plot_e2() {
	dat=$OUT/e2-contexts.dat
	base=$(run_bw scenarios/e2-nvme-xfs-base.ini)
	{
		echo "# E2: aggregate write bandwidth of nrwb-sweep-12dirs against nr_wb_ctx, MiB/s"
		echo "# simulated with run.time_limit=$LIMIT; base kernel (one context): $base MiB/s"
		echo "# contexts bandwidth_MiB_s"
	} > "$dat"
	if "$SIM" --help 2>/dev/null | grep -q -- '--sweep'; then
		# the scenario's [sweep] runs every point; CSV by column name
		"$SIM" --no-wall-time --output-format=csv --set run.time_limit="$LIMIT" \
			scenarios/e2-nvme-xfs-parallel.ini |
		awk -F, '/^#/ { next }
			!h { for (i = 1; i <= NF; i++) { if ($i ~ /contexts/) c = i; if ($i == "write_bw_mib_s") b = i }
			     h = 1; next }
			c && b { print $c, $b }' >> "$dat"
	else
		n=1
		while [ $n -le 12 ]; do
			echo "$n $(run_bw scenarios/e2-nvme-xfs-parallel.ini --set writeback.contexts=$n)" >> "$dat"
			n=$((n + 1))
		done
	fi
	draw e2-contexts.gp "$dat" "$OUT/e2-contexts" "base=$base; limit='$LIMIT'"
}

plot_series() {
	csv=$OUT/dirty-series.csv
	dat=$OUT/dirty-series.dat
	"$SIM" --no-wall-time --set run.time_limit="$SERIES_LIMIT" --series "$csv" \
		"$SERIES_SCENARIO" > /dev/null
	# pages -> MiB (4 KiB pages); pauses: throttle sleep of all jobs in each
	# interval, as a share of the jobs' time (percent)
	awk -F, -v scn="$SERIES_SCENARIO" '
		/^#/ { next }
		!h { for (i = 1; i <= NF; i++) { col[$i] = i; if ($i ~ /^job[0-9]+_paused_ms$/) pj[++np] = i }
		     h = 1
		     print "# dirty-series: " scn
		     print "# time_s dirty_MiB writeback_MiB bg_thresh_MiB thresh_MiB setpoint_MiB limit_MiB paused_pct"
		     next }
		{ p = 0; for (k = 1; k <= np; k++) p += $pj[k]
		  dt = $1 - t0; pct = (NR > 2 && dt > 0 && np) ? (p - p0) / (dt * 1000 * np) * 100 : 0
		  printf "%s %.2f %.2f %.2f %.2f %.2f %.2f %.2f\n", $1, $col["dirty_pages"] / 256, $col["writeback_pages"] / 256,
			 $col["bg_thresh_pages"] / 256, $col["thresh_pages"] / 256, $col["setpoint_pages"] / 256, $col["limit_pages"] / 256, pct
		  t0 = $1; p0 = p }' "$csv" > "$dat"
	title=$(basename "$SERIES_SCENARIO" .ini)
	draw dirty-series.gp "$dat" "$OUT/dirty-series" "scenario='$title'; limit='$SERIES_LIMIT'"
}

plot_e6() {
	dat=$OUT/e6-extents.dat
	{
		echo "# E6: filefrag extent counts of /mnt/testfile (frag-1g-randwrite) at the measured moments"
		echo "# full runs of scenarios/e6-pmem-FS-VARIANT.ini (no time limit)"
		echo "# label after_jobs after_jobs_30s remount"
	} > "$dat"
	for c in "xfs base" "xfs parallel" "ext4 base" "ext4 parallel"; do
		set -- $c
		"$SIM" --no-wall-time scenarios/e6-pmem-$1-$2.ini |
		awk -v label="$1 $2" '
			# the count is the word before "extent(s) found"
			function count(   i) {
				for (i = 2; i < NF; i++)
					if ($i ~ /^extents?$/ && $(i + 1) == "found")
						return $(i - 1)
			}
			/^  \[after-jobs\] / { a = count() }
			/^  \[after-jobs\+30s\] / { b = count() }
			/^  \[remount\] / { c = count() }
			END { printf "\"%s\" %s %s %s\n", label, a, b, c }' >> "$dat"
	done
	draw e6-extents.gp "$dat" "$OUT/e6-extents" ""
}

# The columns @names of a --series CSV (by name), space-separated, one row
# per sample; pages (*_pages) become MiB, the lag seconds.
series_cols() {	# CSV NAME...
	csv=$1
	shift
	awk -F, -v want="$*" '
		/^#/ { next }
		!h { n = split(want, w, " "); for (i = 1; i <= NF; i++) col[$i] = i
		     for (k = 1; k <= n; k++) if (!(w[k] in col)) { print "no column " w[k] > "/dev/stderr"; exit 1 }
		     h = 1; next }
		{ line = ""
		  for (k = 1; k <= n; k++) {
			v = $col[w[k]]
			if (w[k] ~ /_pages$/) v = v / 256
			else if (w[k] ~ /_lag_ms$/) v = v / 1000
			line = line (k > 1 ? " " : "") v
		  }
		  print line }' "$csv"
}

plot_e7() {
	dat=$OUT/e7-lag.dat
	for v in unreachable reachable; do
		"$SIM" --no-wall-time --series "$OUT/e7-$v.csv" scenarios/e7-dying-cgroup-$v.ini > "$OUT/e7-$v.txt"
	done
	{
		echo "# E7 test 1: lag of job new (/e7/b) behind its 250 MiB/s schedule, s; dirty pages"
		echo "# on the killed wb of /e7/a (removed at 10 s), MiB; full runs of"
		echo "# scenarios/e7-dying-cgroup-{unreachable,reachable}.ini, --series every 100 ms"
		echo "# time_s lag_unreachable_s dying_wb_unreachable_MiB lag_reachable_s dying_wb_reachable_MiB"
		# job1 is "new" (the second job of e7-dying-cgroup.fio)
		series_cols "$OUT/e7-unreachable.csv" time_s job1_lag_ms memcg:/e7/a:dying_wb_dirty_pages > "$OUT/e7-u.cols"
		series_cols "$OUT/e7-reachable.csv" job1_lag_ms memcg:/e7/a:dying_wb_dirty_pages > "$OUT/e7-r.cols"
		paste -d ' ' "$OUT/e7-u.cols" "$OUT/e7-r.cols"
	} > "$dat"
	draw e7-lag.gp "$dat" "$OUT/e7-lag" ""
}

for p in $PLOTS; do
	case $p in
	e1-bandwidth) plot_e1 ;;
	e2-contexts) plot_e2 ;;
	dirty-series) plot_series ;;
	e6-extents) plot_e6 ;;
	e7-lag) plot_e7 ;;
	*) echo "$0: unknown plot '$p'" >&2; exit 2 ;;
	esac
done
