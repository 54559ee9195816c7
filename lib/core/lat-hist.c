/* SPDX-License-Identifier: MIT */
/*
 * lat-hist.c - fio-compatible latency histograms.
 *
 * Bucket index of a value v: below 2 * 64 the value itself; above, with m
 * the position of v's highest set bit and e = m - 6 the number of bits the
 * bucket drops, the index is (e + 1) * 64 + (the 6 bits below the highest).
 * A bucket stands for the middle of its range. A percentile p is the value
 * of the first bucket at which the running count reaches p% of all samples.
 */
#include <math.h>
#include <glib.h>
#include "core/lat-hist.h"

unsigned int wbsim_plat_val_to_idx(uint64_t val)
{
	unsigned int msb, error_bits, idx;

	if (val < 2 * WBSIM_PLAT_VAL)
		return (unsigned int)val;
	msb = 63 - (unsigned int)__builtin_clzll(val);
	error_bits = msb - WBSIM_PLAT_BITS;
	idx = ((error_bits + 1) << WBSIM_PLAT_BITS) +
	      (unsigned int)((val >> error_bits) & (WBSIM_PLAT_VAL - 1));
	return idx < WBSIM_PLAT_NR ? idx : WBSIM_PLAT_NR - 1;
}

uint64_t wbsim_plat_idx_to_val(unsigned int idx)
{
	unsigned int error_bits;
	uint64_t base, k;

	if (idx < 2 * WBSIM_PLAT_VAL)
		return idx;
	error_bits = (idx >> WBSIM_PLAT_BITS) - 1;
	base = UINT64_C(1) << (error_bits + WBSIM_PLAT_BITS);
	k = idx % WBSIM_PLAT_VAL;
	/* the middle of the bucket: base + (k + 1/2) * 2^error_bits */
	return base + (uint64_t)((k + 0.5) * (double)(UINT64_C(1) << error_bits));
}

void wbsim_lat_hist_add(struct wbsim_lat_hist *h, uint64_t ns)
{
	if (!h->bins)
		h->bins = g_new0(uint64_t, WBSIM_PLAT_NR);
	if (h->n == 0 || ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
	h->n++;
	h->sum += (double)ns;
	h->sumsq += (double)ns * (double)ns;
	h->bins[wbsim_plat_val_to_idx(ns)]++;
}

void wbsim_lat_hist_clear(struct wbsim_lat_hist *h)
{
	g_clear_pointer(&h->bins, g_free);
	*h = (struct wbsim_lat_hist){ 0 };
}

double wbsim_lat_hist_mean(const struct wbsim_lat_hist *h)
{
	return h->n ? h->sum / (double)h->n : 0.0;
}

double wbsim_lat_hist_stddev(const struct wbsim_lat_hist *h)
{
	double mean, var;

	if (h->n < 2)
		return 0.0;
	mean = h->sum / (double)h->n;
	var = (h->sumsq - (double)h->n * mean * mean) / (double)(h->n - 1);
	return var > 0 ? sqrt(var) : 0.0;
}

uint64_t wbsim_lat_hist_percentile(const struct wbsim_lat_hist *h, double p)
{
	uint64_t want, seen = 0;

	if (!h->n)
		return 0;
	want = (uint64_t)ceil((double)h->n * p / 100.0);
	if (want == 0)
		want = 1;
	for (unsigned int i = 0; i < WBSIM_PLAT_NR; i++) {
		seen += h->bins[i];
		if (seen >= want)
			return wbsim_plat_idx_to_val(i);
	}
	return wbsim_plat_idx_to_val(WBSIM_PLAT_NR - 1);
}
