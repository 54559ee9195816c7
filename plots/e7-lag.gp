# SPDX-License-Identifier: MIT
# E7 test 1: the lag of the surviving container's writer behind its rate
# schedule over time, today's kernel (a removed cgroup's wb leaves the
# index: foreign flushes to it fail) against the kernel that keeps it
# reachable, with the dirty pages left on the removed cgroup's wb.
# Variables: datafile, outbase.
set title "E7 test 1: /e7/a removed at 10 s, /e7/b keeps appending at 250 MiB/s\nlag of /e7/b's writer behind its schedule, sampled every 100 ms"
set xlabel "simulated time (s)"
set ylabel "lag behind the rate schedule (s)"
set y2label "dirty pages on the removed cgroup's wb (MiB)"
# a little below zero, so a lag of zero stays visible above the axis
set yrange [-0.05:*]
set y2range [0:*]
set ytics nomirror
set y2tics
set grid
set key top right

stats datafile using 4 name "R" nooutput

do for [fmt in "png svg"] {
	if (fmt eq "png") {
		set terminal pngcairo size 1000,600 enhanced font "Sans,11"
	} else {
		set terminal svg size 1000,600 dynamic enhanced font "Sans,11"
	}
	set output outbase.".".fmt
	plot datafile using 1:3 axes x1y2 with filledcurves y1=0 fs transparent solid 0.2 noborder lc rgb "#de2d26" title "dying wb dirty, unreachable (right axis)", \
	     '' using 1:2 with lines lw 2 lc rgb "#de2d26" title "lag, dying\\_wb = unreachable", \
	     '' using 1:4 with lines lw 3 lc rgb "#3182bd" title sprintf("lag, dying\\_wb = reachable (at most %.2f s)", R_max)
	unset output
}
