#!/bin/sh
# SPDX-License-Identifier: MIT
#
# make-plots.sh - the figures: run the scenarios (and lab/compare on the
# committed lab results), write each figure's data file ('#'-headed text)
# and draw it with gnuplot (PNG and SVG).
#
#   make-plots.sh SIM GNUPLOT SOURCE_ROOT OUT_DIR [PLOT...]
#       draw into OUT_DIR: NAME.png, NAME.svg, and data/NAME.dat
#   make-plots.sh --data-only SIM SOURCE_ROOT OUT_DIR [PLOT...]
#       only OUT_DIR/data/NAME.dat (no gnuplot needed)
#   make-plots.sh --check SIM SOURCE_ROOT [PLOT...]
#       make the data of the committed figures (default: all of them) in a
#       temporary folder and compare each, byte for byte, with
#       SOURCE_ROOT/plots/data/NAME.dat: exit 1 naming every figure whose
#       data differ (the meson tests plots-data-NAME)
#   make-plots.sh --update SIM GNUPLOT SOURCE_ROOT [PLOT...]
#       draw the committed figures (default: all of them) and copy each
#       NAME.png into SOURCE_ROOT/plots/ and its data into plots/data/
#       (meson compile -C build plots-update)
#
# SIM is the sim-writeback program, SOURCE_ROOT the wbsim source tree (the
# scenarios, the lab results and the .gp scripts beside this file). PLOT
# names which figures to make (default: every one):
#   e1-bandwidth  base against parallel bandwidth per device and filesystem (E1)
#   e2-contexts   bandwidth against the number of writeback contexts (E2;
#                 not committed: the README does not show it)
#   dirty-series  dirty and writeback pages over time with the thresholds
#                 and the throttle pauses (one E1 run)
#   e6-extents    extent counts of the E6 file at the measured moments
#   e7-lag        a worker's lag behind its rate schedule over time, with
#                 the dirty pages of the removed cgroup's wb (E7 test 1,
#                 dying_wb unreachable against reachable, full 120 s runs)
#   lab-dirty     dirty pages over time, every lab run of two workloads of
#                 lab/results-v1272 against the simulator (lab/plot-dirty)
#   lab-validation  measured against predicted, the validation table of
#                 lab/results-v1272 and the fragmentation family of
#                 lab/results-frag-v1272, one panel per figure kind
#                 (lab/plot-validation)
#   sweep-example a --sweep with --repeat drawn by plots/plot-sweep
#                 (affinity-compare-xfs-none: contexts x affinity, 5 seeds, 4 s)
# Environment (drawing and --data-only only: --check and --update use the
# defaults, which the committed figures are drawn with):
#   PLOT_E1_TIME      simulated time of each E1 run (default 60s, E1's
#                     full runtime, as the published measurement)
#   PLOT_TIME_LIMIT   simulated time of each E2 run (default 5s; when set,
#                     and PLOT_E1_TIME is not, of the E1 runs too)
#   PLOT_SERIES_TIME  simulated time of the dirty-series run (default 20s)
#   PLOT_SERIES_SCENARIO  scenario of the dirty-series run
#                     (default scenarios/e1-nvme-xfs-base.ini)
#
# Bandwidth is read from the text report's fio line "WRITE: bw=..."; the
# E2 points come from the scenario's [sweep] run's CSV.
set -eu

# the figures the README shows, whose PNG and data are committed
COMMITTED="e1-bandwidth dirty-series e6-extents e7-lag lab-dirty lab-validation sweep-example"
ALL="e1-bandwidth e2-contexts dirty-series e6-extents e7-lag lab-dirty lab-validation sweep-example"

usage() {
	echo "usage: $0 SIM GNUPLOT SOURCE_ROOT OUT_DIR [PLOT...]" >&2
	echo "       $0 --data-only SIM SOURCE_ROOT OUT_DIR [PLOT...]" >&2
	echo "       $0 --check SIM SOURCE_ROOT [PLOT...]" >&2
	echo "       $0 --update SIM GNUPLOT SOURCE_ROOT [PLOT...]" >&2
	exit 2
}

MODE=draw
case ${1:-} in
--data-only | --check | --update) MODE=${1#--}; shift ;;
-*) echo "$0: unknown option '$1'" >&2; usage ;;
esac
GNUPLOT=
OUT=
case $MODE in
draw) [ $# -ge 4 ] || usage; SIM=$1; GNUPLOT=$2; SRC=$3; OUT=$4; shift 4 ;;
data-only) [ $# -ge 3 ] || usage; SIM=$1; SRC=$2; OUT=$3; shift 3 ;;
check) [ $# -ge 2 ] || usage; SIM=$1; SRC=$2; shift 2 ;;
update) [ $# -ge 3 ] || usage; SIM=$1; GNUPLOT=$2; SRC=$3; shift 3 ;;
esac
if [ -n "$GNUPLOT" ] && ! command -v "$GNUPLOT" >/dev/null 2>&1; then
	echo "$0: gnuplot is not installed: apt-get install gnuplot-nox (no reconfigure needed)" >&2
	exit 1
fi
case $MODE in
check | update)
	PLOTS=${*:-$COMMITTED}
	for p in $PLOTS; do
		case " $COMMITTED " in
		*" $p "*) ;;
		*) echo "$0: --$MODE: '$p' is not a committed figure (one of: $COMMITTED)" >&2; exit 2 ;;
		esac
	done
	# the committed figures are the defaults' figures
	unset PLOT_E1_TIME PLOT_TIME_LIMIT PLOT_SERIES_TIME PLOT_SERIES_SCENARIO
	;;
*) PLOTS=${*:-$ALL} ;;
esac
E1_LIMIT=${PLOT_E1_TIME:-${PLOT_TIME_LIMIT:-60s}}
E2_LIMIT=${PLOT_TIME_LIMIT:-5s}
SERIES_LIMIT=${PLOT_SERIES_TIME:-20s}
SERIES_SCENARIO=${PLOT_SERIES_SCENARIO:-scenarios/e1-nvme-xfs-base.ini}
GP=$(cd "$(dirname "$0")" && pwd)
if [ ! -f "$SIM" ] || [ ! -x "$SIM" ]; then
	echo "$0: $SIM: no such program: expected sim-writeback (build/sim/sim-writeback)" >&2
	exit 2
fi
case $SIM in
*/*) SIM=$(cd "$(dirname "$SIM")" && pwd)/$(basename "$SIM") ;;
esac
SRC=$(cd "$SRC" && pwd)

WORK=$(mktemp -d "${TMPDIR:-/tmp}/wbsim-plots.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM
[ -n "$OUT" ] || OUT=$WORK/out
mkdir -p "$OUT/data"
OUT=$(cd "$OUT" && pwd)
DATA=$OUT/data
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

# The simulator's report of a run in FILE. A run that fails stops the
# script here, naming it: piped into awk its failure would be lost (sh has
# no pipefail) and the figure would be drawn from a partial report.
sim_out() {	# FILE ARGS...
	out=$1
	shift
	"$SIM" "$@" > "$out" || {
		st=$?
		echo "$0: sim-writeback $*: failed (exit status $st)" >&2
		exit 1
	}
}

run_bw() {	# LIMIT SCENARIO [ARGS...] -> MiB/s
	lim=$1
	scn=$2
	shift 2
	sim_out "$WORK/run.txt" --no-wall-time --set run.time_limit="$lim" "$@" "$scn"
	bw_mib < "$WORK/run.txt"
}

drawing() {
	[ "$MODE" = draw ] || [ "$MODE" = update ]
}

draw() {	# SCRIPT DATA OUTBASE [EXTRA gnuplot -e text]
	drawing || return 0
	"$GNUPLOT" -e "datafile='$2'; outbase='$3'; $4" "$GP/$1"
	echo "wrote $3.png $3.svg"
}

# A Python script drawing figure NAME: its data only, or drawn as PNG and SVG
run_py() {	# SCRIPT NAME ARGS...
	script=$1
	name=$2
	shift 2
	if drawing; then
		"$PYTHON" "$script" --gnuplot "$GNUPLOT" -o "$OUT/$name.png" -o "$OUT/$name.svg" "$@"
	else
		"$PYTHON" "$script" "$@"
	fi
}

plot_e1() {
	dat=$DATA/e1-bandwidth.dat
	{
		echo "# E1: aggregate write bandwidth of pr-randwrite-12jobs, MiB/s"
		echo "# simulated: sim-writeback --no-wall-time --set run.time_limit=$E1_LIMIT scenarios/e1-DEV-FS-{base,parallel}.ini"
		echo "# measured: the published E1 results (shared/workloads/README.md), a 60 s run"
		echo "# label base_sim parallel_sim base_measured parallel_measured"
	} > "$dat"
	for c in "pmem xfs 544 1015" "pmem ext4 536 1047" "nvme xfs 651 808" "nvme ext4 494 797"; do
		set -- $c
		b=$(run_bw "$E1_LIMIT" scenarios/e1-$1-$2-base.ini)
		p=$(run_bw "$E1_LIMIT" scenarios/e1-$1-$2-parallel.ini)
		dev=PMEM
		[ "$1" = nvme ] && dev=NVMe
		fs=XFS
		[ "$2" = ext4 ] && fs=ext4
		echo "\"$dev $fs\" $b $p $3 $4" >> "$dat"
	done
	draw e1-bandwidth.gp "$dat" "$OUT/e1-bandwidth" "limit='$E1_LIMIT'"
}

plot_e2() {
	dat=$DATA/e2-contexts.dat
	base=$(run_bw "$E2_LIMIT" scenarios/e2-nvme-xfs-base.ini)
	{
		echo "# E2: aggregate write bandwidth of nrwb-sweep-12dirs against nr_wb_ctx, MiB/s"
		echo "# simulated with run.time_limit=$E2_LIMIT; base kernel (one context): $base MiB/s"
		echo "# contexts bandwidth_MiB_s"
	} > "$dat"
	# the scenario's [sweep] runs every point; CSV by column name
	sim_out "$WORK/e2.csv" --no-wall-time --output-format=csv --set run.time_limit="$E2_LIMIT" \
		scenarios/e2-nvme-xfs-parallel.ini
	awk -F, '/^#/ { next }
		!h { for (i = 1; i <= NF; i++) { if ($i ~ /contexts/) c = i; if ($i == "write_bw_mib_s") b = i }
		     h = 1; next }
		c && b { print $c, $b }' "$WORK/e2.csv" >> "$dat"
	draw e2-contexts.gp "$dat" "$OUT/e2-contexts" "base=$base; limit='$E2_LIMIT'"
}

plot_series() {
	csv=$WORK/dirty-series.csv
	dat=$DATA/dirty-series.dat
	"$SIM" --no-wall-time --set run.time_limit="$SERIES_LIMIT" --series "$csv" \
		"$SERIES_SCENARIO" > /dev/null
	# pages -> MiB (4 KiB pages); pauses: throttle sleep of all jobs in each
	# interval, as a share of the jobs' time (percent)
	awk -F, -v scn="$SERIES_SCENARIO" -v lim="$SERIES_LIMIT" '
		/^#/ { next }
		!h { for (i = 1; i <= NF; i++) { col[$i] = i; if ($i ~ /^job[0-9]+_paused_ms$/) pj[++np] = i }
		     h = 1
		     print "# dirty-series: sim-writeback --no-wall-time --set run.time_limit=" lim " --series FILE " scn
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
	dat=$DATA/e6-extents.dat
	{
		echo "# E6: filefrag extent counts of /mnt/testfile (frag-1g-randwrite) at the measured moments"
		echo "# full runs of scenarios/e6-pmem-FS-VARIANT.ini (no time limit)"
		echo "# label after_jobs after_jobs_30s remount"
	} > "$dat"
	for c in "xfs base" "xfs parallel" "ext4 base" "ext4 parallel"; do
		set -- $c
		sim_out "$WORK/e6.txt" --no-wall-time scenarios/e6-pmem-$1-$2.ini
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
			END { printf "\"%s\" %s %s %s\n", label, a, b, c }' "$WORK/e6.txt" >> "$dat"
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
	dat=$DATA/e7-lag.dat
	for v in unreachable reachable; do
		"$SIM" --no-wall-time --series "$WORK/e7-$v.csv" scenarios/e7-dying-cgroup-$v.ini > /dev/null
	done
	{
		echo "# E7 test 1: lag of job new (/e7/b) behind its 250 MiB/s schedule, s; dirty pages"
		echo "# on the killed wb of /e7/a (removed at 10 s), MiB; full runs of"
		echo "# scenarios/e7-dying-cgroup-{unreachable,reachable}.ini, --series every 100 ms"
		echo "# time_s lag_unreachable_s dying_wb_unreachable_MiB lag_reachable_s dying_wb_reachable_MiB"
		# job1 is "new" (the second job of e7-dying-cgroup.fio)
		series_cols "$WORK/e7-unreachable.csv" time_s job1_lag_ms memcg:/e7/a:dying_wb_dirty_pages > "$WORK/e7-u.cols"
		series_cols "$WORK/e7-reachable.csv" job1_lag_ms memcg:/e7/a:dying_wb_dirty_pages > "$WORK/e7-r.cols"
		paste -d ' ' "$WORK/e7-u.cols" "$WORK/e7-r.cols"
	} > "$dat"
	draw e7-lag.gp "$dat" "$OUT/e7-lag" ""
}

# The lab figures and the sweep figure are drawn by Python scripts
PYTHON=$(command -v python3 || true)
SKIPPED=

plot_lab_dirty() {
	run_py lab/plot-dirty lab-dirty --sim "$SIM" --data "$DATA/lab-dirty.dat" \
		lab/results-v1272/e1-lab-ram-xfs-2cpu lab/results-v1272/seq-6g-lab-disk-xfs-strictlimit
}

plot_lab_validation() {
	run_py lab/plot-validation lab-validation --sim "$SIM" --data "$DATA/lab-validation.dat" \
		lab/results-v1272 lab/results-frag-v1272
}

# The README's example of plots/plot-sweep: a sweep of two keys with five
# seeds a point, drawn from its CSV
SWEEP_ARGS="--no-wall-time --set run.time_limit=4s --sweep writeback.contexts=1,2,4,8,12 --sweep writeback.affinity=inode,none --repeat 5"
plot_sweep() {
	# shellcheck disable=SC2086
	"$SIM" $SWEEP_ARGS -o "$WORK/sweep.csv" affinity-compare-xfs-none
	run_py plots/plot-sweep sweep-example --data "$DATA/sweep-example.dat" \
		--y write_bw_mib_s --y max_pause_ms \
		--title "sim-writeback $SWEEP_ARGS affinity-compare-xfs-none" "$WORK/sweep.csv"
}

needs_python() {	# NAME: 0 when python3 runs it
	[ -n "$PYTHON" ] && return 0
	echo "$0: $1: python3 is not installed: skipped (apt-get install python3)" >&2
	SKIPPED="$SKIPPED $1"
	return 1
}

for p in $PLOTS; do
	case $p in
	e1-bandwidth) plot_e1 ;;
	e2-contexts) plot_e2 ;;
	dirty-series) plot_series ;;
	e6-extents) plot_e6 ;;
	e7-lag) plot_e7 ;;
	lab-dirty) needs_python "$p" && plot_lab_dirty ;;
	lab-validation) needs_python "$p" && plot_lab_validation ;;
	sweep-example) needs_python "$p" && plot_sweep ;;
	*) echo "$0: unknown figure '$p' (one of: $ALL)" >&2; exit 2 ;;
	esac
done

case $MODE in
check)
	bad=
	checked=0
	for p in $PLOTS; do
		case " $SKIPPED " in *" $p "*) continue ;; esac
		checked=$((checked + 1))
		if ! cmp -s "$DATA/$p.dat" "$SRC/plots/data/$p.dat"; then
			echo "$0: plots/data/$p.dat is not what this build makes:" >&2
			diff -u "$SRC/plots/data/$p.dat" "$DATA/$p.dat" | head -40 >&2 || true
			bad="$bad $p"
		fi
	done
	if [ -n "$bad" ]; then
		echo "$0: stale figure(s):$bad; redraw them with: meson compile -C BUILD plots-update (then commit plots/)" >&2
		exit 1
	fi
	if [ $checked -eq 0 ]; then
		exit 77
	fi
	echo "the data of$PLOTS: as committed"
	;;
update)
	for p in $PLOTS; do
		case " $SKIPPED " in *" $p "*) continue ;; esac
		cp "$OUT/$p.png" "$SRC/plots/$p.png"
		cp "$DATA/$p.dat" "$SRC/plots/data/$p.dat"
		echo "updated plots/$p.png plots/data/$p.dat"
	done
	[ -z "$SKIPPED" ] || exit 1
	;;
esac
exit 0
