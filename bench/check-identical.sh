#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/check-identical.sh record|compare REFDIR [BUILDDIR] - the
# byte-identity check of issue 19: every scenario under scenarios/ and the
# runnable ones under tests/*/data is run for a few simulated seconds
# (--no-wall-time, so the reports depend on the seed only), a few of them
# also with --series, --trace (text and trace.dat), --check and the JSON
# report, and one with fio's logs (bench/long-outputs.ini). "record" writes
# the outputs to REFDIR (run it on the unmodified tree); "compare" runs the
# same commands into a fresh directory and compares every file, byte for
# byte, with REFDIR. Exit status 1 when an output differs or is missing.
#
# A speed change must leave every output here unchanged: run this before
# each commit. It takes about a minute; run it under nice.
set -uo pipefail
top="$(cd "$(dirname "$0")/.." && pwd)"
mode=${1:-}
ref=${2:-}
build=${3:-$top/build}
build=$(cd "$build" 2>/dev/null && pwd || echo "$build")	# the fio logs' run is elsewhere
prog="$build/sim/sim-writeback"

if [ "$mode" != record ] && [ "$mode" != compare ] || [ -z "$ref" ]; then
	echo "usage: $0 record|compare REFDIR [BUILDDIR]" >&2
	exit 2
fi
if [ ! -x "$prog" ]; then
	echo "$0: no $prog (build first)" >&2
	exit 2
fi
if [ "$mode" = record ]; then
	out=$ref
	rm -rf "$out"
else
	out=$(mktemp -d)
	trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out"

# the simulated time a scenario runs for: long enough to pass its last
# [events] line (a scenario whose events lie past time_limit is refused)
time_limit() {
	case $(basename "$1") in
	e7-dying-cgroup-*) echo 11s ;;
	e7-io-disable-*) echo 6s ;;
	e9-*) echo 5s ;;
	with-fio-file.ini) echo 62s ;;
	*) echo 3s ;;
	esac
}

# run NAME SCENARIO [OPTIONS...]: report on NAME.out, standard error and
# exit status in NAME.err; any --series/--trace file named @NAME.x lands in
# the output directory
run() {
	local name=$1 scn=$2 args=() a status
	shift 2
	for a in "$@"; do
		args+=("${a//@/$out/}")
	done
	(cd "$top" && "$prog" --no-wall-time --set "run.time_limit=$(time_limit "$scn")" \
		"${args[@]}" "$scn" >"$out/$name.out" 2>"$out/$name.err")
	status=$?
	echo "exit $status" >>"$out/$name.err"
}

for scn in "$top"/scenarios/*.ini "$top"/tests/sim/data/*.ini "$top"/tests/sweep/data/*.ini; do
	scn=${scn#"$top"/}
	name=$(echo "$scn" | tr / _)
	name=${name%.ini}
	run "$name" "$scn"
done

# the time series, the trace, the JSON report and the checking mode of a
# few: one E1 scenario per filesystem, a disk, a cgroup scenario, F2FS
for scn in scenarios/e1-pmem-xfs-parallel.ini scenarios/e1-nvme-ext4-base.ini \
	   scenarios/e4-hdd-xfs-randwrite-base.ini \
	   scenarios/e7-dying-cgroup-unreachable-syncfs.ini \
	   scenarios/e5-ufs-f2fs-parallel.ini; do
	name=$(basename "$scn" .ini)
	run "$name.full" "$scn" --check --output-format=json \
		--series "@$name.series.csv" --trace "@$name.trace.txt"
done

# trace-cmd's trace.dat of two of them (12 CPUs and 4)
for scn in scenarios/e1-pmem-xfs-parallel.ini scenarios/e7-dying-cgroup-unreachable-syncfs.ini; do
	name=$(basename "$scn" .ini)
	run "$name.dat" "$scn" --trace "@$name.trace.dat"
done
# fio's logs, per job and shared (per_job_logs=0: each job's rows appended
# at its end), with a trace.dat and the series, in the output directory,
# where fio writes them: one CPU for 20 s of bench/long-outputs.ini
(cd "$out" && "$prog" --no-wall-time --set run.time_limit=20s --trace long-outputs.trace.dat \
	--series long-outputs.series.csv "$top/bench/long-outputs.ini" >long-outputs.out \
	2>long-outputs.err; echo "exit $?" >>long-outputs.err)

if [ "$mode" = record ]; then
	echo "recorded $(ls "$out" | wc -l) files in $out"
	exit 0
fi
status=0
for f in "$ref"/*; do
	b=$(basename "$f")
	if [ ! -e "$out/$b" ]; then
		echo "MISSING: $b"
		status=1
	elif ! cmp -s "$f" "$out/$b"; then
		echo "DIFFERS: $b"
		diff "$f" "$out/$b" | head -10
		status=1
	fi
done
for f in "$out"/*; do
	[ -e "$ref/$(basename "$f")" ] || { echo "EXTRA: $(basename "$f")"; status=1; }
done
if [ $status = 0 ]; then
	echo "identical: $(ls "$out" | wc -l) files match $ref"
fi
exit $status
