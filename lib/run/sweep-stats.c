/* SPDX-License-Identifier: MIT */
/*
 * sweep-stats.c - repeated runs of a sweep point (run/sweep-stats.h):
 * derived seeds, Student's t quantiles (GSL's), the mean / standard deviation / 95%
 * confidence interval of the headline figures, and their output.
 */
#include <math.h>
#include <string.h>
#include <gsl/gsl_cdf.h>

#include "run/sweep-stats.h"

uint64_t wbsim_splitmix64(uint64_t x)
{
	uint64_t z = x + 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint64_t wbsim_sweep_repeat_seed(uint64_t base, unsigned int k)
{
	/* k = 0 is the plain run, so --repeat extends it rather than replacing it */
	return k ? wbsim_splitmix64(base + k) : base;
}

double wbsim_student_t_quantile(double p, double df)
{
	if (p <= 0.5 || df <= 0.0)
		return 0.0;
	if (p >= 1.0)
		return INFINITY;
	return gsl_cdf_tdist_Pinv(p, df);
}

void wbsim_stats_compute(const double *x, size_t n, struct wbsim_stats *s)
{
	double sum = 0.0, ss = 0.0;

	memset(s, 0, sizeof(*s));
	if (!n)
		return;
	for (size_t i = 0; i < n; i++)
		sum += x[i];
	s->mean = sum / (double)n;
	if (n < 2)
		return;
	/* two passes: no cancellation when the spread is small against the mean */
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - s->mean) * (x[i] - s->mean);
	s->sd = sqrt(ss / (double)(n - 1));
	s->ci95 = wbsim_student_t_quantile(0.975, (double)(n - 1)) * s->sd /
		  sqrt((double)n);
}

static const char *const stat_names[WBSIM_STAT_COUNT] = {
	[WBSIM_STAT_WRITE_BW] = "write_bw_mib_s",
	[WBSIM_STAT_MAX_PAUSE] = "max_pause_ms",
	[WBSIM_STAT_MAX_LAG] = "max_lag_ms",
	[WBSIM_STAT_EXTENTS] = "filefrag_extents",
};

const char *wbsim_sweep_stat_name(enum wbsim_sweep_stat stat)
{
	return stat_names[stat];
}

void wbsim_sweep_stat_values(const struct wbsim_run_result *r, double *out)
{
	struct wbsim_sweep_figures f;

	wbsim_sweep_figures(r, &f);
	out[WBSIM_STAT_WRITE_BW] = f.write_bw_mib_s;
	out[WBSIM_STAT_MAX_PAUSE] = f.max_pause_ms;
	out[WBSIM_STAT_MAX_LAG] = f.max_lag_ms;
	out[WBSIM_STAT_EXTENTS] = (double)f.filefrag_extents;
}

char *wbsim_sweep_repeat_csv_header(const struct wbsim_sweep *sw)
{
	GString *s = g_string_new(NULL);

	for (guint i = 0; sw && i < wbsim_sweep_n_axes(sw); i++) {
		wbsim_sweep_csv_field(s, ((const struct wbsim_sweep_axis *)sw->axes->pdata[i])->name);
		g_string_append_c(s, ',');
	}
	g_string_append(s, "repeat");
	for (int k = 0; k < WBSIM_STAT_COUNT; k++)
		g_string_append_printf(s, ",%s_mean,%s_sd,%s_ci95", stat_names[k],
				       stat_names[k], stat_names[k]);
	g_string_append_c(s, '\n');
	return g_string_free(s, FALSE);
}

/* The summary of figure @k over the @repeat rows of @values. */
static void summarise(const double *values, unsigned int repeat, int k,
		      struct wbsim_stats *st)
{
	g_autofree double *x = g_new(double, repeat);

	for (unsigned int i = 0; i < repeat; i++)
		x[i] = values[i * WBSIM_STAT_COUNT + k];
	wbsim_stats_compute(x, repeat, st);
}

static void append_fixed(GString *s, double v)
{
	wbsim_sweep_append_double(s, "%.3f", v);
}

/* @st's mean, sd and ci95, each after its label (CSV: ","; JSON: member names). */
static void append_stats(GString *s, const struct wbsim_stats *st,
			 const char *const labels[3])
{
	const double v[3] = { st->mean, st->sd, st->ci95 };

	for (int i = 0; i < 3; i++) {
		g_string_append(s, labels[i]);
		append_fixed(s, v[i]);
	}
}

static char *repeat_csv(const struct wbsim_sweep *sw, size_t point,
			unsigned int repeat, const double *values)
{
	GString *s = g_string_new(NULL);

	for (guint i = 0; i < wbsim_sweep_n_axes(sw); i++) {
		wbsim_sweep_csv_field(s, wbsim_sweep_value(sw, point, i));
		g_string_append_c(s, ',');
	}
	g_string_append_printf(s, "%u", repeat);
	for (int k = 0; k < WBSIM_STAT_COUNT; k++) {
		struct wbsim_stats st;

		summarise(values, repeat, k, &st);
		append_stats(s, &st, (const char *const[3]){ ",", ",", "," });
	}
	g_string_append_c(s, '\n');
	return g_string_free(s, FALSE);
}

static char *repeat_json(const struct wbsim_sweep *sw, size_t point,
			 unsigned int repeat, const uint64_t *seeds,
			 const double *values)
{
	g_autoptr(JsonBuilder) b = json_builder_new();
	g_autoptr(JsonNode) root = NULL;
	g_autofree char *head = NULL;
	GString *s;

	/* the point and its values as wbsim_sweep_json_line() writes them */
	json_builder_begin_object(b);
	json_builder_set_member_name(b, "sweep_point");
	json_builder_add_int_value(b, (gint64)point + 1);
	json_builder_set_member_name(b, "sweep");
	wbsim_sweep_add_values_json(sw, point, b);
	json_builder_end_object(b);
	root = json_builder_get_root(b);
	head = json_to_string(root, FALSE);

	/* then the figures, by hand: fixed decimals rather than %.17g */
	s = g_string_new(NULL);
	g_string_append_len(s, head, (gssize)strlen(head) - 1);
	g_string_append_printf(s, ",\"repeat\":%u,\"seeds\":[", repeat);
	for (unsigned int i = 0; i < repeat; i++)
		g_string_append_printf(s, "%s%" G_GUINT64_FORMAT, i ? "," : "", seeds[i]);
	g_string_append(s, "],\"figures\":{");
	for (int k = 0; k < WBSIM_STAT_COUNT; k++) {
		struct wbsim_stats st;

		summarise(values, repeat, k, &st);
		g_string_append_printf(s, "%s\"%s\":{", k ? "," : "", stat_names[k]);
		append_stats(s, &st, (const char *const[3]){ "\"mean\":", ",\"sd\":", ",\"ci95\":" });
		g_string_append(s, ",\"values\":[");
		for (unsigned int i = 0; i < repeat; i++) {
			if (i)
				g_string_append_c(s, ',');
			append_fixed(s, values[i * WBSIM_STAT_COUNT + k]);
		}
		g_string_append(s, "]}");
	}
	g_string_append(s, "}}\n");
	return g_string_free(s, FALSE);
}

static char *repeat_text(const struct wbsim_sweep *sw, size_t point,
			 unsigned int repeat, const double *values)
{
	g_autofree char *label = wbsim_sweep_label(sw, point);
	GString *s = g_string_new(point ? "\n" : "");

	g_string_append_printf(s, "# sweep point %zu/%zu: %s%s(%u seeds)\n",
			       point + 1, wbsim_sweep_n_points(sw), label,
			       *label ? " " : "", repeat);
	for (int k = 0; k < WBSIM_STAT_COUNT; k++) {
		struct wbsim_stats st;

		summarise(values, repeat, k, &st);
		g_string_append_printf(s, "%s:", stat_names[k]);
		append_stats(s, &st, (const char *const[3]){ " mean ", ", sd ", ", 95% CI +/- " });
		g_string_append_c(s, '\n');
	}
	return g_string_free(s, FALSE);
}

char *wbsim_sweep_repeat_format(const struct wbsim_sweep *sw, size_t point,
				enum wbsim_sweep_format format, unsigned int repeat,
				const uint64_t *seeds, const double *values)
{
	switch (format) {
	case WBSIM_SWEEP_CSV:
		return repeat_csv(sw, point, repeat, values);
	case WBSIM_SWEEP_JSON:
		return repeat_json(sw, point, repeat, seeds, values);
	case WBSIM_SWEEP_TEXT:
		break;
	}
	return repeat_text(sw, point, repeat, values);
}
