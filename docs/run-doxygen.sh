#!/bin/sh
# SPDX-License-Identifier: MIT
# run-doxygen.sh DOXYGEN DOXYFILE - the docs target: the API reference, or
# what to install when Doxygen (or python3, which runs its input filter) is
# missing.
set -eu
for tool in "$1" python3; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "$0: $(basename "$tool") is not installed: apt-get install doxygen python3 (no reconfigure needed)" >&2
		exit 1
	fi
done
exec "$1" "$2"
