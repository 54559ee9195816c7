/* SPDX-License-Identifier: MIT */
/*
 * core/lat-hist.h - latency histograms with fio's log-linear buckets
 * (FIO_IO_U_PLAT_BITS = 6: each power of two is split into 64 buckets, so a
 * bucket's value is within 1/128 of any sample in it), so percentiles are
 * computed the way fio computes them.
 */
#ifndef WBSIM_REPORT_LAT_HIST_H
#define WBSIM_REPORT_LAT_HIST_H

#include <stdint.h>

#define WBSIM_PLAT_BITS 6
#define WBSIM_PLAT_VAL (1u << WBSIM_PLAT_BITS)
#define WBSIM_PLAT_GROUP_NR 29
#define WBSIM_PLAT_NR (WBSIM_PLAT_GROUP_NR * WBSIM_PLAT_VAL)

struct wbsim_lat_hist {
	uint64_t n;
	uint64_t min, max;	/* ns */
	double sum, sumsq;	/* ns, ns^2 */
	uint64_t *bins;		/* WBSIM_PLAT_NR counts, allocated on first sample */
};

void wbsim_lat_hist_add(struct wbsim_lat_hist *h, uint64_t ns);
void wbsim_lat_hist_clear(struct wbsim_lat_hist *h);
double wbsim_lat_hist_mean(const struct wbsim_lat_hist *h);
double wbsim_lat_hist_stddev(const struct wbsim_lat_hist *h);
/* The value of percentile @p (0 < p <= 100) as fio reports it. */
uint64_t wbsim_lat_hist_percentile(const struct wbsim_lat_hist *h, double p);
/* Bucket index of a value and the value a bucket stands for. */
unsigned int wbsim_plat_val_to_idx(uint64_t val);
uint64_t wbsim_plat_idx_to_val(unsigned int idx);

#endif
