#!/bin/sh
# SPDX-License-Identifier: MIT
# check-program-api.sh [--expect FILE] SIM_DIR LIB_DIR MAP PROGRAM... -- HEADER... - the
# programs of SIM_DIR (sim-writeback, sim-writeback-mpi, their sweep CLI)
# are built on the public API alone:
#  - every #include of SIM_DIR's sources is a system header, a public
#    <wbsim/...> header of the HEADER list, or a file of SIM_DIR itself; a
#    header of LIB_DIR, by any path, fails;
#  - each PROGRAM links the shared libwbsim.so.0, and every wbsim_ symbol
#    it takes from a library is one MAP exports.
#  - with --expect, the library functions the programs call are exactly
#    those FILE lists (one a line): a program API that grows or shrinks
#    is a change of this file, seen in review.
# Prints the program API: the library functions the programs call, with
# their count. Exit 0 on success, 1 with the offending lines otherwise.
set -u
expect=
if [ "${1:-}" = --expect ]; then
	expect=$2
	shift 2
fi
sim=$1 lib=$2 map=$3
shift 3
progs=
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	progs="$progs $1"
	shift
done
[ $# -gt 0 ] && shift
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0

for h in "$@"; do
	echo "wbsim/${h##*/}"
done | sort -u > "$tmp/public"

for src in "$sim"/*.c "$sim"/*.h; do
	[ -f "$src" ] || continue
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*\([<"][^>"]*[>"]\).*/\1/p' "$src" |
	while read -r inc; do
		name=${inc#?}
		name=${name%?}
		case $inc in
		\<wbsim/*)
			grep -qx "$name" "$tmp/public" ||
				echo "${src##*/}: $inc: not a public header"
			;;
		\"*)
			case $name in
			*/*) echo "${src##*/}: $inc: a path outside $sim" ;;
			*) [ -f "$sim/$name" ] || echo "${src##*/}: $inc: not a file of $sim" ;;
			esac
			;;
		*)
			# an internal header reached through the include path
			[ -e "$lib/$name" ] && echo "${src##*/}: $inc: a header of the library's own"
			;;
		esac
	done
done > "$tmp/bad-includes"
if [ -s "$tmp/bad-includes" ]; then
	echo "the programs include what is not the public API:"; cat "$tmp/bad-includes"; fail=1
fi

sed -n 's/^[[:space:]]*\(wbsim_[a-z0-9_]*\);.*/\1/p' "$map" | sort -u > "$tmp/mapped"
: > "$tmp/used"
for prog in $progs; do
	readelf -d "$prog" | grep -q 'NEEDED.*\[libwbsim\.so\.0\]' || {
		echo "${prog##*/}: does not link the shared libwbsim.so.0"; fail=1; }
	nm -D --undefined-only "$prog" | awk '{ sub(/@.*/, "", $2); print $2 }' |
		grep '^wbsim_' | sort -u > "$tmp/prog"
	comm -23 "$tmp/prog" "$tmp/mapped" > "$tmp/unmapped"
	if [ -s "$tmp/unmapped" ]; then
		echo "${prog##*/} takes symbols libwbsim.map does not export:"
		cat "$tmp/unmapped"; fail=1
	fi
	cat "$tmp/prog" >> "$tmp/used"
done
sort -u "$tmp/used" -o "$tmp/used"
echo "program API: $(wc -l < "$tmp/used") functions of $(wc -l < "$tmp/mapped") exported:"
tr '\n' ' ' < "$tmp/used"
echo
if [ -n "$expect" ]; then
	grep -v '^#' "$expect" | sort -u > "$tmp/expected"
	if ! cmp -s "$tmp/expected" "$tmp/used"; then
		echo "the programs' functions differ from $expect (<: listed, not called; >: called, not listed):"
		diff "$tmp/expected" "$tmp/used" | grep '^[<>]'
		fail=1
	fi
fi
exit $fail
