# SPDX-License-Identifier: MIT
# E1: base against parallel bandwidth per device and filesystem, simulated
# beside the published measurement.
# Variables: datafile, outbase, limit (the simulated time of each run).
set title sprintf("E1: buffered 4 KiB random writes, 12 jobs (pr-randwrite-12jobs)\nsimulated %s per run against the published 60 s measurement", limit)
set ylabel "aggregate write bandwidth (MiB/s)"
set xlabel "device and filesystem"
set style data histograms
set style histogram clustered gap 1.5
set boxwidth 0.9
set yrange [0:*]
set grid ytics
set key top right reverse Left
set style fill solid 0.9 border -1
set xtics nomirror
set ytics nomirror

do for [fmt in "png svg"] {
	if (fmt eq "png") {
		set terminal pngcairo size 960,600 enhanced font "Sans,11"
	} else {
		set terminal svg size 960,600 dynamic enhanced font "Sans,11"
	}
	set output outbase.".".fmt
	plot datafile using 2:xtic(1) title "simulated, base (1 context)" lc rgb "#9ecae1", \
	     '' using 3 title "simulated, parallel (12 contexts)" lc rgb "#08519c", \
	     '' using 4 title "measured, base" fs pattern 4 border -1 lc rgb "#e6550d", \
	     '' using 5 title "measured, parallel" fs pattern 5 border -1 lc rgb "#a63603"
	unset output
}
