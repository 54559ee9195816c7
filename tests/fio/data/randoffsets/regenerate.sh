#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/fio/data/randoffsets/regenerate.sh [FIO] - fio's own random offsets
# for each job file here, the reference that tests/fio/test-fio-random.c
# holds the model's offsets to. Writes NAME.offsets beside NAME.fio; run it
# after a change of fio version (the files name the fio that made them:
# Debian 12's fio 3.33 is the one wbsim follows).
#
# fio runs each job file with the null engine (no data is written, the
# offsets are those a real run draws) as threads, so that its --debug=io
# lines ("fill: io_u ...: off=0x...,len=...,ddir=1,file=NAME") of several
# jobs come out whole; they are taken in issue order. NAME.offsets holds:
#   fio fio-3.33
#   job PREFIX COUNT SHA256   each job (PREFIX: its file names up to the
#                             file number): its writes, and the SHA-256 of
#                             all its "FILE 0xOFFSET" lines in order
#   io FILE 0xOFFSET          the first FIRST writes of each job
#   max FILE INDEX 0xOFFSET   each write that goes past every earlier write
#                             of its file (it extends the file), with its
#                             index among the job's writes
set -eu
FIO=${1:-fio}
FIRST=2000
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
version=$("$FIO" --version)

for job in "$here"/*.fio; do
	name=$(basename "$job" .fio)
	(cd "$tmp" && "$FIO" --thread --ioengine=null --debug=io "$job" >"$tmp/debug" 2>&1) ||
		{ tail "$tmp/debug" >&2; exit 1; }
	# "FILE 0xOFFSET" per write, in issue order
	sed -n 's/.* fill: io_u [^:]*: off=\(0x[0-9a-f]*\),len=[^,]*,ddir=1,file=\(.*\)$/\2 \1/p' \
		"$tmp/debug" >"$tmp/ios"
	# a job file may say "; keep the first N writes" (time_based jobs)
	keep=$(sed -n 's/^;.* keep the first \([0-9]*\) writes.*/\1/p' "$job")
	: >"$tmp/body"
	for prefix in $(sed 's/\.[0-9]* .*//' "$tmp/ios" | sort -u); do
		grep "^$prefix\.[0-9]* " "$tmp/ios" | head -n "${keep:-999999999}" >"$tmp/one" || true
		printf 'job %s %s %s\n' "$prefix" "$(wc -l <"$tmp/one")" \
			"$(sha256sum <"$tmp/one" | cut -d' ' -f1)" >>"$tmp/head"
		head -n "$FIRST" "$tmp/one" | sed 's/^/io /' >>"$tmp/body"
		# running maxima per file, comparing hex without leading zeros
		awk '{ n = length($2); m = max[$1]; mn = length(m);
		       if (m == "" || n > mn || (n == mn && $2 > m)) {
		               max[$1] = $2; print "max", $1, NR - 1, $2 } }' \
			"$tmp/one" >>"$tmp/body"
	done
	{
		printf '# made by tests/fio/data/randoffsets/regenerate.sh from %s.fio:\n' "$name"
		printf '# fio --thread --ioengine=null --debug=io %s.fio (see the script)\n' "$name"
		printf 'fio %s\n' "$version"
		cat "$tmp/head" "$tmp/body"
	} >"$here/$name.offsets"
	rm -f "$tmp/head"
	echo "$name.offsets: $(grep -c '^job ' "$here/$name.offsets") job(s)"
done
