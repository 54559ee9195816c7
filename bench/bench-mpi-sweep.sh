#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/bench-mpi-sweep.sh [BUILDDIR] - the E2 sweep with sim-writeback-mpi
# on 1, 2 and 4 MPI ranks: wall time and CPU time (all processes) of each,
# speed-up over 1 rank, and the serial fraction f that Amdahl's law,
# S(N) = 1 / (f + (1 - f) / N), gives for the speed-up with
# N = min(ranks, CPUs). Every run's CSV must equal the 1-rank run's byte for
# byte (exit status 1 otherwise). The machine should be otherwise idle.
#
# E2 is 13 runs: base, then parallel writeback with 1 .. 12 contexts. In
# the model the base scenario is the parallel one with one context (their
# --dump-config differ only in the description), so the 13 points are
# e2-nvme-xfs-parallel.ini with writeback.contexts = 1,1,2,...,12.
#
# Environment: RANKS (default "1 2 4"), TIME_LIMIT (a [run] time_limit per
# point such as 2s; default empty: full runs, about 2 minutes of CPU time
# for the sweep here), MPIRUN (default mpirun). Runs as root too (Open
# MPI's documented variables below). Not part of meson test.
set -euo pipefail
# Meson's copy in the build directory knows both roots; the source copy
# finds the tree above itself and takes build/ by default.
top='@source_root@'
build_default='@build_root@'
case $top in
@*)	top="$(cd "$(dirname "$0")/.." && pwd)"; build_default=$top/build ;;
esac
build=${1:-$build_default}
prog="$build/sim/sim-writeback-mpi"
mpirun=${MPIRUN:-mpirun}
ranks=${RANKS:-1 2 4}
cpus=$(nproc)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

if [ ! -x "$prog" ]; then
	echo "bench-mpi-sweep: $prog not built (meson setup with MPI installed: libopenmpi-dev openmpi-bin)" >&2
	exit 2
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

args=(--no-wall-time --sweep writeback.contexts=1,1..12)
if [ -n "${TIME_LIMIT:-}" ]; then
	args+=(--set "run.time_limit=$TIME_LIMIT")
fi
args+=("$top/scenarios/e2-nvme-xfs-parallel.ini")

echo "E2 sweep, 13 points: sim-writeback-mpi ${args[*]}"
if [ -n "${TIME_LIMIT:-}" ]; then
	echo "each point cut at run.time_limit=$TIME_LIMIT; host: $cpus CPUs"
else
	echo "each point run to its end; host: $cpus CPUs"
fi
printf '%-6s %10s %9s %9s %16s\n' ranks wall_s cpu_s speedup serial_fraction
base=
TIMEFORMAT='%R %U %S'
exec 3>&2
for n in $ranks; do
	# wall time, and the CPU time of mpirun and all ranks (user + system)
	{ time "$mpirun" --oversubscribe -np "$n" "$prog" "${args[@]}" \
		>"$out/$n.csv" 2>&3; } 2>"$out/$n.time"
	read -r wall user sys <"$out/$n.time"
	cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.1f", u + s }')
	[ -n "$base" ] || { base=$wall; first=$n; }
	if ! cmp -s "$out/$first.csv" "$out/$n.csv"; then
		echo "bench-mpi-sweep: $n ranks: output differs from $first rank(s)" >&2
		exit 1
	fi
	speedup=$(awk -v a="$base" -v b="$wall" 'BEGIN { printf "%.4f", a / b }')
	eff=$(( n < cpus ? n : cpus ))
	if [ "$eff" -gt 1 ]; then
		# Amdahl: f = (N / S - 1) / (N - 1)
		f=$(awk -v n="$eff" -v s="$speedup" 'BEGIN { printf "%.3f", (n / s - 1) / (n - 1) }')
		[ "$eff" = "$n" ] || f="$f (N=$eff CPUs)"
	else
		f=-
	fi
	printf '%-6s %10.2f %9s %9.2f %16s\n' "$n" "$wall" "$cpu" "$speedup" "$f"
done
