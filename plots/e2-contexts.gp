# SPDX-License-Identifier: MIT
# E2: aggregate bandwidth against the number of writeback contexts.
# Variables: datafile, outbase, base (MiB/s of the base kernel), limit.
set title sprintf("E2: 12 jobs in 12 directories (nrwb-sweep-12dirs), XFS with 4 AGs,\nSamsung PM1733a NVMe, 12 CPUs, 9 GiB; simulated %s per point", limit)
set xlabel "writeback contexts (nr\\_wb\\_ctx)"
set ylabel "aggregate write bandwidth (MiB/s)"
set xrange [0.5:12.5]
set xtics 1
set yrange [0:*]
set grid
set key bottom right
set arrow from 4, graph 0 to 4, graph 1 nohead dt 2 lc rgb "#777777"
set label "4 allocation groups" at 4.15, graph 0.06 tc rgb "#555555"

do for [fmt in "png svg"] {
	if (fmt eq "png") {
		set terminal pngcairo size 960,600 enhanced font "Sans,11"
	} else {
		set terminal svg size 960,600 dynamic enhanced font "Sans,11"
	}
	set output outbase.".".fmt
	plot datafile using 1:2 with linespoints lw 2 pt 7 lc rgb "#08519c" title "parallel kernel", \
	     base with lines dt 3 lw 2 lc rgb "#e6550d" title "base kernel (one context)"
	unset output
}
