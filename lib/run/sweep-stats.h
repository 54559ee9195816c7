/* SPDX-License-Identifier: MIT */
/*
 * run/sweep-stats.h - repeated runs of a sweep point (--repeat K):
 * the K seeds, the headline figures of each run, their mean, sample
 * standard deviation and 95% confidence interval (Student's t), and the
 * point's CSV row, JSON line or text made of them.
 *
 * Seeds: repeat k (0 .. K-1) of a point whose seed is S (its [run] seed
 * after --seed, --set and the point's values) runs with S for k = 0, so the
 * first repeat is the plain run, and with splitmix64(S + k) for k >= 1
 * (splitmix64: Steele, Lea and Flood, "Fast splittable pseudorandom number
 * generators", OOPSLA 2014; the output function of SplittableRandom).
 */
#ifndef WBSIM_RUN_SWEEP_STATS_H
#define WBSIM_RUN_SWEEP_STATS_H

#include <stdint.h>
#include <glib.h>
#include "run/sweep.h"

/* The headline figures summarised over seeds. */
enum wbsim_sweep_stat {
	WBSIM_STAT_WRITE_BW,	/* write_bw_mib_s */
	WBSIM_STAT_MAX_PAUSE,	/* max_pause_ms */
	WBSIM_STAT_MAX_LAG,	/* max_lag_ms: worst lag behind fio's rate schedule */
	WBSIM_STAT_EXTENTS,	/* filefrag_extents */
	WBSIM_STAT_COUNT,
};

/* WBSIM_SWEEP_MAX_REPEAT, the most repeats of a point: wbsim/sweep.h */

/**
 * struct wbsim_stats - a sample's summary
 * @mean: arithmetic mean
 * @sd: sample standard deviation (n - 1 in the denominator)
 * @ci95: half-width of the 95% confidence interval of the mean,
 *	t(0.975, n - 1) * sd / sqrt(n)
 */
struct wbsim_stats {
	double mean;
	double sd;
	double ci95;
};

/* wbsim_splitmix64() - the splitmix64 output for state @x. */
uint64_t wbsim_splitmix64(uint64_t x);

/* wbsim_sweep_repeat_seed() - seed of repeat @k of a point seeded @base. */
uint64_t wbsim_sweep_repeat_seed(uint64_t base, unsigned int k);

/**
 * wbsim_student_t_quantile() - quantile of Student's t distribution
 * @p: probability, 0.5 < @p < 1 (0.975 for a two-sided 95% interval)
 * @df: degrees of freedom, > 0
 *
 * GSL's gsl_cdf_tdist_Pinv() (the hand-written bisection on the
 * incomplete beta function it replaced was off by up to 3.6e-12 over
 * df 1..999, GSL is exact to the double at df = 1).
 *
 * Return: t (0 for @p <= 0.5 or @df <= 0, infinity for @p >= 1).
 */
double wbsim_student_t_quantile(double p, double df);

/**
 * wbsim_stats_compute() - mean, sample standard deviation and 95% CI
 * @x: the values
 * @n: how many (sd and ci95 are 0 below 2)
 * @s: the summary
 */
void wbsim_stats_compute(const double *x, size_t n, struct wbsim_stats *s);

/* wbsim_sweep_stat_name() - a figure's column name ("write_bw_mib_s"). */
const char *wbsim_sweep_stat_name(enum wbsim_sweep_stat stat);

/* wbsim_sweep_stat_values() - the WBSIM_STAT_COUNT figures of one run. */
void wbsim_sweep_stat_values(const struct wbsim_run_result *r, double *out);

/**
 * wbsim_sweep_repeat_csv_header() - CSV header of a repeated sweep
 * @sw: the sweep (NULL or no axes: no key columns)
 *
 * The swept keys, "repeat", then NAME_mean, NAME_sd, NAME_ci95 for each
 * figure.
 *
 * Return: the row with its newline (a new string).
 */
char *wbsim_sweep_repeat_csv_header(const struct wbsim_sweep *sw);

/**
 * wbsim_sweep_repeat_format() - a repeated point's output
 * @sw: the sweep
 * @point: the point
 * @format: text, JSON Lines or CSV
 * @repeat: K
 * @seeds: the K seeds
 * @values: K rows of WBSIM_STAT_COUNT figures
 *
 * CSV: the row under wbsim_sweep_repeat_csv_header(). JSON: {"sweep_point":
 * N, "sweep": {...}, "repeat": K, "seeds": [...], "figures": {NAME:
 * {"mean", "sd", "ci95", "values": [...]}}}. Text: "# sweep point N/M:
 * LABEL (K seeds)" then one line per figure. Figures have three decimals.
 *
 * Return: the text with its final newline (a new string).
 */
char *wbsim_sweep_repeat_format(const struct wbsim_sweep *sw, size_t point,
				enum wbsim_sweep_format format, unsigned int repeat,
				const uint64_t *seeds, const double *values);

#endif /* WBSIM_RUN_SWEEP_STATS_H */
