# SPDX-License-Identifier: MIT
# E6: extent counts of one 1 GiB file at the three measured moments.
# Variables: datafile, outbase.
# Three bars per cluster with gap 1.5: bar i sits at cluster + (i - 1) / 4.5.
set title "E6: one 1 GiB file written with 4 KiB random writes on PMEM, no fallocate\nextents as filefrag counts them; delayed allocation counts one per record until written back"
set ylabel "extents (filefrag, log scale)"
set xlabel "filesystem and kernel"
set logscale y
set yrange [0.8:*]
set style data histograms
set style histogram clustered gap 1.5
set style fill solid 0.9 border -1
set boxwidth 0.9
set grid ytics
# the legend under the plot, outside it, so it covers no bar
set key below center horizontal
set bmargin 6
set xtics nomirror

do for [fmt in "png svg"] {
	if (fmt eq "png") {
		set terminal pngcairo size 960,600 enhanced font "Sans,11"
	} else {
		set terminal svg size 960,600 dynamic enhanced font "Sans,11"
	}
	set output outbase.".".fmt
	plot datafile using 2:xtic(1) title "just after fio exits" lc rgb "#fdae6b", \
	     '' using 3 title "30 s later" lc rgb "#e6550d", \
	     '' using 4 title "after unmount and mount" lc rgb "#7f2704", \
	     '' using ($0 - 1 / 4.5):2:2 with labels offset 0,0.7 font ",9" notitle, \
	     '' using 0:3:3 with labels offset 0,0.7 font ",9" notitle, \
	     '' using ($0 + 1 / 4.5):4:4 with labels offset 0,0.7 font ",9" notitle
	unset output
}
