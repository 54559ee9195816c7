#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# fuzz/make-corpus.sh OUTDIR - build the seed corpus of the fuzz targets in
# OUTDIR: every scenario, include and fio job file of the repository, and
# fio's example job files (Debian package fio-examples, not in the
# repository). Both targets use the same seeds: a scenario may hold fio
# jobs inline, and the parsers share one lexer.
set -euo pipefail
out=${1:?usage: make-corpus.sh OUTDIR}
top="$(cd "$(dirname "$0")/.." && pwd)"
examples=${FIO_EXAMPLES:-/usr/share/doc/fio/examples}

mkdir -p "$out"
n=0
add() {
	# flatten the path into a unique file name
	local name
	# only regular files: tests/bad-input has a symlink to /dev/zero
	[ -f "$1" ] && [ ! -L "$1" ] || return 0
	name=$(printf '%s' "$2" | tr '/' '_')
	cp "$1" "$out/$name"
	n=$((n + 1))
}

cd "$top"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	files=$(git ls-files '*.ini' '*.inc' '*.fio')
else
	files=$(find . -path './build*' -prune -o \
		\( -name '*.ini' -o -name '*.inc' -o -name '*.fio' \) -type f -print |
		sed 's|^\./||')
fi
for f in $files; do
	add "$f" "repo/$f"
done
# hand-written seeds of fuzz-results and fuzz-builder (and of issue 21's causes)
for f in fuzz/seeds/*; do
	[ -e "$f" ] && add "$f" "seeds/$(basename "$f")"
done
if [ -d "$examples" ]; then
	for f in "$examples"/*.fio; do
		add "$f" "fio-examples/$(basename "$f")"
	done
else
	echo "make-corpus.sh: no $examples (install fio-examples): repository seeds only" >&2
fi
echo "make-corpus.sh: $n seeds in $out"
