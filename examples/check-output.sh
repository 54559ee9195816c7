#!/bin/sh
# SPDX-License-Identifier: MIT
# check-output.sh EXPECTED PROGRAM [ARGS...] - run PROGRAM and compare its
# standard output with the file EXPECTED byte for byte (diff on failure).
set -u
expected=$1
shift
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
"$@" > "$out" || { echo "$1 exited with status $?"; exit 1; }
diff -u "$expected" "$out"
