#!/bin/sh
# SPDX-License-Identifier: MIT
#
# check-readme.sh SOURCE_ROOT NAME...: the README embeds exactly the
# committed figures NAME (plots/NAME.png), each with its data file
# plots/data/NAME.dat, which the plots-data-NAME tests check; the figure
# list of plots/make-plots.sh (COMMITTED) is the same, and plots/data/
# holds no other data file.
set -eu
if [ $# -lt 2 ]; then
	echo "usage: $0 SOURCE_ROOT NAME..." >&2
	exit 2
fi
SRC=$1
shift
want=$(printf '%s\n' "$@" | sort)
bad=0
shown=$(sed -n 's/.*!\[[^]]*\](plots\/\([^)]*\)\.png).*/\1/p' "$SRC/README.md" | sort -u)
if [ "$shown" != "$want" ]; then
	echo "README.md embeds plots/{$(echo $shown | tr ' ' ,)}.png; the committed figures (tests/plots, plots/meson.build) are {$(echo $want | tr ' ' ,)}" >&2
	bad=1
fi
committed=$(sed -n 's/^COMMITTED="\(.*\)"$/\1/p' "$SRC/plots/make-plots.sh" | tr ' ' '\n' | sort)
if [ "$committed" != "$want" ]; then
	echo "plots/make-plots.sh: COMMITTED is {$(echo $committed | tr ' ' ,)}, expected {$(echo $want | tr ' ' ,)}" >&2
	bad=1
fi
for p in "$@"; do
	for f in "plots/$p.png" "plots/data/$p.dat"; do
		if [ ! -s "$SRC/$f" ]; then
			echo "$f: missing or empty: expected the committed figure's file (meson compile -C BUILD plots-update)" >&2
			bad=1
		fi
	done
	if [ -s "$SRC/plots/data/$p.dat" ] && [ "$(head -c 1 "$SRC/plots/data/$p.dat")" != "#" ]; then
		echo "plots/data/$p.dat:1: expected a '#' header line" >&2
		bad=1
	fi
done
for f in "$SRC"/plots/data/*.dat; do
	[ -e "$f" ] || continue
	n=$(basename "$f" .dat)
	case " $* " in
	*" $n "*) ;;
	*) echo "plots/data/$n.dat: not a figure the README shows (remove it, or embed plots/$n.png)" >&2; bad=1 ;;
	esac
done
[ $bad -eq 0 ] && echo "README.md shows $# figures, each with its data: $*"
exit $bad
