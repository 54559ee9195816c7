#!/bin/sh
# SPDX-License-Identifier: MIT
# check-symbols.sh LIB MAP HEADER... - the shared library exports exactly the
# public API: every exported symbol starts with wbsim_, is listed in the
# version script MAP and declared in one of the public HEADERs; every
# function a public header marks WBSIM_API is exported; the soname is
# libwbsim.so.0. Exit 0 on success, 1 with the offending names otherwise.
set -u
lib=$1 map=$2
shift 2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0

# defined dynamic symbols, without the version node itself (type A)
nm -D --defined-only "$lib" | awk '$2 != "A" { sub(/@.*/, "", $3); print $3 }' |
	sort -u > "$tmp/exported"
[ -s "$tmp/exported" ] || { echo "no symbol exported by $lib"; exit 1; }

grep -v '^wbsim_' "$tmp/exported" > "$tmp/bad-prefix"
if [ -s "$tmp/bad-prefix" ]; then
	echo "exported without the wbsim_ prefix:"; cat "$tmp/bad-prefix"; fail=1
fi

cat "$@" > "$tmp/headers"
while read -r sym; do
	grep -q "WBSIM_API.*\\b$sym(" "$tmp/headers" ||
		grep -A3 'WBSIM_API' "$tmp/headers" | grep -q "\\b$sym(" ||
		echo "$sym" >> "$tmp/undeclared"
done < "$tmp/exported"
if [ -s "$tmp/undeclared" ]; then
	echo "exported but not declared WBSIM_API in a public header:"; cat "$tmp/undeclared"; fail=1
fi

# every WBSIM_API function of the headers is exported (listed in the map)
# (the name is the identifier before a declaration's first '(': a
# parameter that is a function pointer has more)
tr '\n' ' ' < "$tmp/headers" | grep -o 'WBSIM_API[^;{]*' |
	sed -n 's/^[^(]*\b\(wbsim_[a-z0-9_]*\)(.*/\1/p' | sort -u > "$tmp/declared"
comm -23 "$tmp/declared" "$tmp/exported" > "$tmp/unexported"
if [ -s "$tmp/unexported" ]; then
	echo "declared WBSIM_API but not exported (add to $map):"; cat "$tmp/unexported"; fail=1
fi

sed -n 's/^[[:space:]]*\(wbsim_[a-z0-9_]*\);.*/\1/p' "$map" | sort -u > "$tmp/mapped"
comm -3 "$tmp/mapped" "$tmp/exported" > "$tmp/mapdiff"
if [ -s "$tmp/mapdiff" ]; then
	echo "map and exports differ (left: only in the map, right: only exported):"
	cat "$tmp/mapdiff"; fail=1
fi

soname=$(objdump -p "$lib" | awk '$1 == "SONAME" { print $2 }')
if [ "$soname" != "libwbsim.so.0" ]; then
	echo "soname is '$soname', expected libwbsim.so.0"; fail=1
fi

[ $fail -eq 0 ] && echo "$(wc -l < "$tmp/exported") symbols exported, all wbsim_, mapped and declared"
exit $fail
