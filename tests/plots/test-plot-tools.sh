#!/bin/sh
# SPDX-License-Identifier: MIT
#
# test-plot-tools.sh SIM SOURCE_ROOT: the figure tools themselves.
# make-plots.sh --check passes on the committed data of a cheap figure
# (E6) and fails, naming the file, on a copy of the tree whose data were
# changed; it refuses a figure that is not committed. check-readme.sh
# fails on a README that shows a figure without data. plots/plot-sweep
# writes the exact data of a small sweep CSV (with --repeat, two axes) and
# of its --results file, and refuses what is not a sweep. A figure whose
# simulation fails fails, naming the run.
set -u
SIM=$1
SRC=$(cd "$2" && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/wbsim-plot-tools.XXXXXX")
trap 'rm -rf "$T"' EXIT
fails=0

fail() {
	echo "FAIL: $*" >&2
	fails=$((fails + 1))
}

expect() {	# STATUS TEXT-IN-STDERR CMD...: run CMD, check its status and stderr
	want=$1
	text=$2
	shift 2
	"$@" > "$T/out" 2> "$T/err"
	st=$?
	[ "$st" -eq "$want" ] || fail "$*: exit status $st, expected $want: $(cat "$T/err")"
	if [ -n "$text" ] && ! grep -qF -- "$text" "$T/err"; then
		fail "$*: stderr lacks '$text': $(cat "$T/err")"
	fi
}

# a copy of the tree the checks read: scenarios and lab linked, plots copied
mkdir -p "$T/src"
ln -s "$SRC/scenarios" "$T/src/scenarios"
ln -s "$SRC/lab" "$T/src/lab"
cp -r "$SRC/plots" "$T/src/plots"
cp "$SRC/README.md" "$T/src/README.md"

expect 0 "" "$SRC/plots/make-plots.sh" --check "$SIM" "$T/src" e6-extents
grep -q 'e6-extents: as committed' "$T/out" || fail "--check e6-extents: no 'as committed' line: $(cat "$T/out")"

sed 's/^"xfs base" [0-9]*/"xfs base" 1/' "$SRC/plots/data/e6-extents.dat" > "$T/src/plots/data/e6-extents.dat"
expect 1 "plots/data/e6-extents.dat is not what this build makes" \
	"$SRC/plots/make-plots.sh" --check "$SIM" "$T/src" e6-extents
grep -qF -- '-"xfs base" 1 ' "$T/err" || fail "--check: the diff does not show the changed line: $(cat "$T/err")"
grep -qF 'plots-update' "$T/err" || fail "--check: does not say how to redraw: $(cat "$T/err")"

expect 2 "--check: 'e2-contexts' is not a committed figure" \
	"$SRC/plots/make-plots.sh" --check "$SIM" "$T/src" e2-contexts
expect 2 "unknown figure 'nosuch'" \
	"$SRC/plots/make-plots.sh" --data-only "$SIM" "$T/src" "$T/d" nosuch
expect 2 "usage:" "$SRC/plots/make-plots.sh" --check
expect 2 "/no/such/sim: no such program: expected sim-writeback" \
	"$SRC/plots/make-plots.sh" --check /no/such/sim "$T/src" e6-extents

# a simulation that fails stops the figure, naming the run (it is not
# piped away into a figure drawn from a partial report)
printf '#!/bin/sh\necho "sim: failing on purpose" >&2\nexit 3\n' > "$T/failing-sim"
chmod +x "$T/failing-sim"
for fig in e6-extents e2-contexts e1-bandwidth; do
	expect 1 "sim-writeback --no-wall-time" \
		"$SRC/plots/make-plots.sh" --data-only "$T/failing-sim" "$T/src" "$T/d" $fig
	grep -qF "failed (exit status 3)" "$T/err" || fail "$fig with a failing simulator: $(cat "$T/err")"
done

# the README's figures against the committed ones
committed=$(sed -n 's/^COMMITTED="\(.*\)"$/\1/p' "$SRC/plots/make-plots.sh")
# shellcheck disable=SC2086
expect 0 "" "$SRC/tests/plots/check-readme.sh" "$T/src" $committed
grep -v 'plots/e7-lag.png' "$SRC/README.md" > "$T/src/README.md"
# shellcheck disable=SC2086
expect 1 "README.md embeds plots/{" "$SRC/tests/plots/check-readme.sh" "$T/src" $committed
cp "$SRC/README.md" "$T/src/README.md"
rm "$T/src/plots/data/e7-lag.dat"
# shellcheck disable=SC2086
expect 1 "plots/data/e7-lag.dat: missing or empty" "$SRC/tests/plots/check-readme.sh" "$T/src" $committed

# plots/plot-sweep on a sweep of two axes with --repeat 3
if command -v python3 > /dev/null 2>&1; then
	cat > "$T/sweep.csv" <<'CSV'
writeback.contexts,writeback.affinity,repeat,write_bw_mib_s_mean,write_bw_mib_s_sd,write_bw_mib_s_ci95,max_pause_ms_mean,max_pause_ms_sd,max_pause_ms_ci95,max_lag_ms_mean,max_lag_ms_sd,max_lag_ms_ci95,filefrag_extents_mean,filefrag_extents_sd,filefrag_extents_ci95
1,inode,3,100.000,0.000,0.000,20.000,0.000,0.000,0.000,0.000,0.000,12.000,0.000,0.000
1,none,3,100.000,0.000,0.000,20.000,0.000,0.000,0.000,0.000,0.000,12.000,0.000,0.000
4,inode,3,150.500,0.000,0.000,10.000,0.000,0.000,0.000,0.000,0.000,12.000,0.000,0.000
4,none,3,140.250,2.000,4.968,12.000,1.000,2.484,0.000,0.000,0.000,12.000,0.000,0.000
CSV
	cat > "$T/want.dat" <<'DAT'
# sweep: sweep.csv
# x: writeback.contexts; lines: writeback.affinity=inode | writeback.affinity=none
# mean of the --repeat runs with the half-width of its 95% confidence interval (Student's t)
# one block per panel and line (gnuplot's index), two blank lines between blocks
# x_ordinal writeback.contexts value ci95
# index 0: write_bw_mib_s_mean, writeback.affinity=inode
0 1 100 0
1 4 150.5 0


# index 1: write_bw_mib_s_mean, writeback.affinity=none
0 1 100 0
1 4 140.25 4.968


# index 2: max_pause_ms_mean, writeback.affinity=inode
0 1 20 0
1 4 10 0


# index 3: max_pause_ms_mean, writeback.affinity=none
0 1 20 0
1 4 12 2.484


# index 4: filefrag_extents_mean, writeback.affinity=inode
0 1 12 0
1 4 12 0


# index 5: filefrag_extents_mean, writeback.affinity=none
0 1 12 0
1 4 12 0
DAT
	expect 0 "" python3 "$SRC/plots/plot-sweep" --data "$T/got.dat" "$T/sweep.csv"
	cmp -s "$T/want.dat" "$T/got.dat" || fail "plot-sweep --data: $(diff -u "$T/want.dat" "$T/got.dat")"
	# the same sweep as a --results file (points in the order they finished)
	{
		printf '%s\n' '{"wbsim_sweep_results":1,"sweep":[{"key":"writeback.contexts","values":["1","4"]},{"key":"writeback.affinity","values":["inode","none"]}],"seed":"1","repeat":3,"format":"csv","wall_time":false,"scenario":"x.ini","configuration_sha256":"0"}'
		printf '%s\n' '{"point":3,"sweep":{"writeback.contexts":4,"writeback.affinity":"inode"},"text":"4,inode,3,150.500,0.000,0.000,10.000,0.000,0.000,0.000,0.000,0.000,12.000,0.000,0.000\n"}'
		printf '%s\n' '{"point":1,"sweep":{"writeback.contexts":1,"writeback.affinity":"inode"},"text":"1,inode,3,100.000,0.000,0.000,20.000,0.000,0.000,0.000,0.000,0.000,12.000,0.000,0.000\n"}'
		printf '%s\n' '{"point":2,"sweep":{"writeback.contexts":1,"writeback.affinity":"none"},"text":"1,none,3,100.000,0.000,0.000,20.000,0.000,0.000,0.000,0.000,0.000,12.000,0.000,0.000\n"}'
		printf '%s\n' '{"point":4,"sweep":{"writeback.contexts":4,"writeback.affinity":"none"},"text":"4,none,3,140.250,2.000,4.968,12.000,1.000,2.484,0.000,0.000,0.000,12.000,0.000,0.000\n"}'
	} > "$T/sweep.jsonl"
	expect 0 "" python3 "$SRC/plots/plot-sweep" --data "$T/got2.dat" "$T/sweep.jsonl"
	sed 's/^# sweep: sweep.csv$/# sweep: sweep.jsonl/' "$T/want.dat" > "$T/want2.dat"
	cmp -s "$T/want2.dat" "$T/got2.dat" || fail "plot-sweep --data of --results: $(diff -u "$T/want2.dat" "$T/got2.dat")"
	# --x and --y: one panel, lines by contexts
	expect 0 "" python3 "$SRC/plots/plot-sweep" --x writeback.affinity --y max_pause_ms \
		--data "$T/got3.dat" "$T/sweep.csv"
	grep -qx '# x: writeback.affinity; lines: writeback.contexts=1 | writeback.contexts=4' "$T/got3.dat" ||
		fail "plot-sweep --x: $(head -3 "$T/got3.dat")"
	grep -qx '1 none 12 2.484' "$T/got3.dat" || fail "plot-sweep --x: no row '1 none 12 2.484': $(cat "$T/got3.dat")"
	# bad input
	printf 'a,b\n1,2\n' > "$T/bad.csv"
	expect 2 "bad.csv:1: no write_bw_mib_s column: expected the CSV of sim-writeback --sweep" \
		python3 "$SRC/plots/plot-sweep" --data "$T/x.dat" "$T/bad.csv"
	expect 2 "--y nosuch: no such column" \
		python3 "$SRC/plots/plot-sweep" --y nosuch --data "$T/x.dat" "$T/sweep.csv"
	expect 2 "--x vm.dirty_ratio: not a swept key" \
		python3 "$SRC/plots/plot-sweep" --x vm.dirty_ratio --data "$T/x.dat" "$T/sweep.csv"
	sed '1s/"format":"csv"/"format":"json"/' "$T/sweep.jsonl" > "$T/json.jsonl"
	expect 2 "json.jsonl:1: a sweep of format 'json': plot-sweep reads CSV rows" \
		python3 "$SRC/plots/plot-sweep" --data "$T/x.dat" "$T/json.jsonl"
	expect 2 "nothing to write" python3 "$SRC/plots/plot-sweep" "$T/sweep.csv"
	expect 2 "-o x.pdf: expected a file name ending in .png or .svg" \
		python3 "$SRC/plots/plot-sweep" -o x.pdf "$T/sweep.csv"
	expect 2 "-o x.pdf: expected a file name ending in .png or .svg" \
		python3 "$SRC/lab/plot-validation" -o x.pdf "$SRC/lab/results-v1272"
	expect 2 "nosuch: expected a workload's folder of lab runs" \
		python3 "$SRC/lab/plot-dirty" --data "$T/x.dat" "$T/nosuch"
else
	echo "python3 not found: plot-sweep not tested" >&2
fi

[ $fails -eq 0 ] || exit 1
echo "the figure tools: as expected"
