# SPDX-License-Identifier: MIT
# Dirty and writeback pages over time with the background threshold, the
# dirty threshold, balance_dirty_pages' setpoint and hard limit, and the
# share of time the jobs spent throttled.
# Variables: datafile, outbase, scenario (name), limit.
set title sprintf("Dirty page control loop: %s, first %s\nglobal counters sampled every 100 ms", scenario, limit)
set xlabel "simulated time (s)"
set ylabel "page cache (MiB)"
set y2label "time the jobs spent throttled (% of each interval)"
set yrange [0:*]
set y2range [0:100]
set y2tics 0, 20, 100
set ytics nomirror
set grid
set bmargin 9
set key at screen 0.5, screen 0.015 center bottom horizontal maxrows 3 width 1

do for [fmt in "png svg"] {
	if (fmt eq "png") {
		set terminal pngcairo size 1000,680 enhanced font "Sans,11"
	} else {
		set terminal svg size 1000,680 dynamic enhanced font "Sans,11"
	}
	set output outbase.".".fmt
	plot datafile using 1:8 axes x1y2 with filledcurves y1=0 fs transparent solid 0.25 noborder lc rgb "#de2d26" title "throttled (right axis)", \
	     '' using 1:2 with lines lw 2 lc rgb "#08519c" title "dirty", \
	     '' using 1:3 with lines lw 2 lc rgb "#31a354" title "under writeback", \
	     '' using 1:4 with lines dt 2 lw 1.5 lc rgb "#636363" title "background threshold", \
	     '' using 1:7 with lines lw 6 lc rgb "#bcbddc" title "hard limit (wide: meets the threshold)", \
	     '' using 1:5 with lines dt 1 lw 1.5 lc rgb "#000000" title "dirty threshold", \
	     '' using 1:6 with lines dt 4 lw 1.5 lc rgb "#e6550d" title "setpoint"
	unset output
}
