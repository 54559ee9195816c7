#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# fuzz/run.sh [SECONDS] [BUILDDIR] - build the fuzz targets with clang and
# run each for SECONDS (default 60) in one process (one core), starting from the seed
# corpus of make-corpus.sh. Fails on the first crash, leak, sanitizer report
# or timeout; the reproducer is left in BUILDDIR/fuzz/artifacts/.
#
# FUZZ_TARGETS="fuzz-scenario" runs only the targets named.
#
# CI runs the short form (60 s per target). The long run documented in
# fuzz/README.md is the same script with a larger SECONDS, e.g.
#   fuzz/run.sh 600
set -euo pipefail
secs=${1:-60}
top="$(cd "$(dirname "$0")/.." && pwd)"
build=${2:-$top/build-fuzz}

if [ ! -f "$build/build.ninja" ]; then
	CC=clang meson setup "$build" "$top" -Dfuzz=true -Dtests=false -Dbench=false >/dev/null
fi
ninja -C "$build" fuzz/fuzz-fio-parser fuzz/fuzz-scenario fuzz/fuzz-results fuzz/fuzz-builder \
	fuzz/fuzz-trace-events >/dev/null

work="$build/fuzz"
rm -rf "$work/seeds"
"$top/fuzz/make-corpus.sh" "$work/seeds"
mkdir -p "$work/artifacts"

for target in ${FUZZ_TARGETS:-fuzz-fio-parser fuzz-scenario fuzz-results fuzz-builder fuzz-trace-events}; do
	# the corpus grows across runs; seeds are re-read every time
	mkdir -p "$work/corpus-$target"
	echo "== $target: ${secs}s"
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	ASAN_OPTIONS=detect_leaks=1 \
	"$work/$target" -max_total_time="$secs" \
		-timeout=10 -rss_limit_mb=2048 -max_len=16384 -print_final_stats=1 \
		-artifact_prefix="$work/artifacts/$target-" \
		"$work/corpus-$target" "$work/seeds" 2>"$work/$target.log" || {
		tail -n 60 "$work/$target.log"
		echo "$target: FAILED (log: $work/$target.log)" >&2
		exit 1
	}
	grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb|^#[0-9]+ *DONE' "$work/$target.log" || true
done
echo "fuzz: no findings"
