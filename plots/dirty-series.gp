# SPDX-License-Identifier: MIT
# Dirty and writeback pages over time with the background threshold, the
# dirty threshold, balance_dirty_pages' setpoint and hard limit, and the
# share of time the jobs spent throttled.
# Variables: datafile, outbase, scenario (name), limit.
# Two panels on one time axis, so the throttle share cannot hide a line:
# the page counts above, the share of time throttled below.
set grid
set xrange [0:*]

do for [fmt in "png svg"] {
	if (fmt eq "png") {
		set terminal pngcairo size 1000,760 enhanced font "Sans,11"
	} else {
		set terminal svg size 1000,760 dynamic enhanced font "Sans,11"
	}
	set output outbase.".".fmt
	set multiplot title sprintf("Dirty page control loop: %s, first %s\nglobal counters sampled every 100 ms", scenario, limit)

	# top: pages; the legend below the panel
	set lmargin 10
	set rmargin 4
	set tmargin at screen 0.90
	set bmargin at screen 0.42
	set format x ""
	unset xlabel
	set ylabel "page cache (MiB)"
	set yrange [0:*]
	set key at screen 0.5, screen 0.345 center top horizontal maxcols 3 width -2
	plot datafile using 1:7 with lines lw 6 lc rgb "#bcbddc" title "hard limit (wide: meets the threshold)", \
	     '' using 1:4 with lines dt 2 lw 1.5 lc rgb "#636363" title "background threshold", \
	     '' using 1:5 with lines dt 1 lw 1.5 lc rgb "#000000" title "dirty threshold", \
	     '' using 1:6 with lines dt 4 lw 1.5 lc rgb "#e6550d" title "setpoint", \
	     '' using 1:3 with lines lw 2 lc rgb "#31a354" title "under writeback", \
	     '' using 1:2 with lines lw 2 lc rgb "#08519c" title "dirty"

	# bottom: the share of each interval the jobs spent throttled
	set tmargin at screen 0.24
	set bmargin at screen 0.08
	set format x "%g"
	set xlabel "simulated time (s)"
	set ylabel "throttled (%)"
	set yrange [0:100]
	set ytics 0, 50, 100
	unset key
	plot datafile using 1:8 with filledcurves y1=0 fs solid 0.35 noborder lc rgb "#de2d26", \
	     '' using 1:8 with lines lw 1 lc rgb "#a50f15"
	unset multiplot
	unset output
	set ytics autofreq
}
