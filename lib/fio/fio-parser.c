/* SPDX-License-Identifier: MIT */
/*
 * fio-parser.c - fio job files: sections, [global] inheritance, include,
 * option sorting, typed values, numjobs clones and reporting groups, with
 * fio's semantics (fio init.c __parse_jobs_ini(), add_job(); parse.c
 * handle_option(); options.c fio_options_parse()).
 *
 * As in fio, a [global] section is parsed into a template job ("def_thread")
 * that accumulates over every [global] section; each job section starts
 * from a copy of the template as it is at that point, so a [global] only
 * affects the jobs below it, and values are typed when their section is
 * parsed (a job's kb_base does not re-read its global's sizes).
 */
#include <string.h>

#include <wbsim/error.h>
#include "defs/fio.h"
#include "core/arg-check.h"
#include "fio/fio-options.h"
#include "fio/fio-parser.h"
#include "fio/fio-value.h"
#include "core/read-file.h"
#include "core/ini-lexer.h"

/* Nesting limit for include, against runaway recursion. */
#define FIO_INCLUDE_DEPTH_MAX 16

/* The result plus the parser state that carries over between job files. */
struct fio_file_priv {
	struct wbsim_fio_file pub;	/* first: the public view */
	struct wbsim_fio_job *def;	/* fio's def_thread: [global] template */
	const char *def_rw_file;	/* where the template's rw= was set */
	unsigned int def_rw_line;
	unsigned int groupid;		/* fio init.c add_job() group counter */
	unsigned int prev_group_jobs;
	gint refs;			/* wbsim_fio_file_ref() */
};

/* One entry after include expansion. */
struct fio_entry {
	const char *key;
	const char *value;		/* NULL for a bare key */
	const char *file;		/* interned in pub.files */
	unsigned int line;
	const struct wbsim_fio_optdesc *desc;
};

/* A parsed value (all parts of a per-direction list). */
struct fio_val {
	guint nparts;
	int64_t v[WBSIM_FIO_DDIR_NR];		/* per part (max 3 kept) */
	gboolean set[WBSIM_FIO_DDIR_NR];	/* part present (not empty) */
	int64_t hi[WBSIM_FIO_DDIR_NR];		/* RANGE high bounds */
	gboolean percent;
	const char *str;			/* STR_STORE/STR text */
	const char *posval;			/* STR: the matched value */
	const char *postfix;			/* STR: text after ':' or NULL */
};

/* The job being filled (template or real job) and where its rw came from. */
struct fio_target {
	struct wbsim_fio_job *job;
	const char **rw_file;
	unsigned int *rw_line;
	gboolean is_global;
	GPtrArray *record;		/* options as typed go here */
};

static struct fio_file_priv *fio_priv(struct wbsim_fio_file *file)
{
	return (struct fio_file_priv *)file;
}

/* ------------------------------------------------------------------------ */
/* Jobs                                                                     */

static void fio_option_free(gpointer data)
{
	struct wbsim_fio_option *o = data;

	g_free(o->name);
	g_free(o->value);
	g_free(o);
}

static void fio_job_free(gpointer data)
{
	struct wbsim_fio_job *job = data;

	if (!job)
		return;
	g_free(job->name);
	g_free(job->section);
	g_free(job->ioengine);
	g_free(job->directory);
	g_free(job->filename);
	g_free(job->filename_format);
	g_free(job->file_service_type);
	g_free(job->wait_for);
	g_free(job->description);
	g_free(job->cgroup);
	g_free(job->write_bw_log);
	g_free(job->write_lat_log);
	g_free(job->write_iops_log);
	if (job->options)
		g_ptr_array_unref(job->options);
	g_free(job);
}

/* A job with fio's defaults (options.c .def values on Linux). */
static struct wbsim_fio_job *fio_job_new_default(void)
{
	struct wbsim_fio_job *job = g_new0(struct wbsim_fio_job, 1);
	int d;

	job->numjobs = 1;
	job->rw = WBSIM_FIO_READ;
	for (d = 0; d < WBSIM_FIO_DDIR_NR; d++)
		job->bs[d] = 4096;
	job->nrfiles = 1;
	job->iodepth = 1;
	job->ioengine = g_strdup("psync");
	job->filename_format = g_strdup("$jobname.$jobnum.$filenum");
	job->file_service_type = g_strdup("roundrobin");
	job->create_serialize = TRUE;
	job->create_fsync = TRUE;
	job->fallocate = WBSIM_FIO_FALLOCATE_NATIVE;
	job->loops = 1;
	job->rwmix_read = 50;
	job->randrepeat = TRUE;
	job->randseed = 0x89;
	job->random_generator = WBSIM_FIO_RAND_TAUSWORTHE;
	job->invalidate = TRUE;
	job->thinktime_blocks = 1;
	job->kb_base = 1024;
	job->per_job_logs = TRUE;
	job->options = g_ptr_array_new_with_free_func(fio_option_free);
	return job;
}

/* Deep copy, without the option record (a job lists only its own). */
static struct wbsim_fio_job *fio_job_copy(const struct wbsim_fio_job *src)
{
	struct wbsim_fio_job *job = g_new(struct wbsim_fio_job, 1);

	*job = *src;
	job->name = g_strdup(src->name);
	job->section = g_strdup(src->section);
	job->ioengine = g_strdup(src->ioengine);
	job->directory = g_strdup(src->directory);
	job->filename = g_strdup(src->filename);
	job->filename_format = g_strdup(src->filename_format);
	job->file_service_type = g_strdup(src->file_service_type);
	job->wait_for = g_strdup(src->wait_for);
	job->description = g_strdup(src->description);
	job->cgroup = g_strdup(src->cgroup);
	job->write_bw_log = g_strdup(src->write_bw_log);
	job->write_lat_log = g_strdup(src->write_lat_log);
	job->write_iops_log = g_strdup(src->write_iops_log);
	job->options = g_ptr_array_new_with_free_func(fio_option_free);
	return job;
}

static struct wbsim_fio_job *fio_job_clone(const struct wbsim_fio_job *src)
{
	struct wbsim_fio_job *job = fio_job_copy(src);
	guint i;

	for (i = 0; i < src->options->len; i++) {
		const struct wbsim_fio_option *o = src->options->pdata[i];
		struct wbsim_fio_option *c = g_new(struct wbsim_fio_option, 1);

		*c = *o;
		c->name = g_strdup(o->name);
		c->value = g_strdup(o->value);
		g_ptr_array_add(job->options, c);
	}
	return job;
}

struct wbsim_fio_file *wbsim_fio_file_new(void)
{
	struct fio_file_priv *priv = g_new0(struct fio_file_priv, 1);

	priv->pub.jobs = g_ptr_array_new_with_free_func(fio_job_free);
	priv->pub.global_options = g_ptr_array_new_with_free_func(fio_option_free);
	priv->pub.warnings = g_ptr_array_new_with_free_func(g_free);
	priv->pub.files = g_ptr_array_new_with_free_func(g_free);
	priv->def = fio_job_new_default();
	priv->refs = 1;
	return &priv->pub;
}

struct wbsim_fio_file *wbsim_fio_file_ref(struct wbsim_fio_file *file)
{
	g_atomic_int_inc(&fio_priv(file)->refs);
	return file;
}

void wbsim_fio_file_free(struct wbsim_fio_file *file)
{
	struct fio_file_priv *priv;

	if (!file)
		return;
	priv = fio_priv(file);
	if (!g_atomic_int_dec_and_test(&priv->refs))
		return;
	g_ptr_array_unref(file->jobs);
	g_ptr_array_unref(file->global_options);
	g_ptr_array_unref(file->warnings);
	g_ptr_array_unref(file->files);
	fio_job_free(priv->def);
	g_free(priv);
}

/* The file name string owned by @file equal to @name (added if new). */
static const char *fio_intern_file(struct wbsim_fio_file *file,
				   const char *name)
{
	guint i;

	for (i = 0; i < file->files->len; i++)
		if (strcmp(file->files->pdata[i], name) == 0)
			return file->files->pdata[i];
	g_ptr_array_add(file->files, g_strdup(name));
	return file->files->pdata[file->files->len - 1];
}

static gboolean rw_is_random(enum wbsim_fio_rw rw)
{
	return rw == WBSIM_FIO_RANDREAD || rw == WBSIM_FIO_RANDWRITE ||
	       rw == WBSIM_FIO_RANDRW || rw == WBSIM_FIO_RANDTRIM ||
	       rw == WBSIM_FIO_RANDTRIMWRITE;
}

/* ------------------------------------------------------------------------ */
/* Values                                                                   */

static gboolean type_is_numeric(enum wbsim_fio_opt_type t)
{
	switch (t) {
	case WBSIM_FIO_T_STR_SET:
	case WBSIM_FIO_T_BOOL:
	case WBSIM_FIO_T_INT:
	case WBSIM_FIO_T_ULL:
	case WBSIM_FIO_T_STR_VAL:
	case WBSIM_FIO_T_STR_VAL_ZONE:
	case WBSIM_FIO_T_STR_VAL_TIME:
	case WBSIM_FIO_T_RANGE:
		return TRUE;
	default:
		return FALSE;
	}
}

/* First @c in @s outside parentheses, skipping position 0 for '-'. */
static char *find_sep(char *s, char c)
{
	int depth = 0;
	char *p;

	for (p = s; *p; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')')
			depth--;
		else if (*p == c && depth == 0 && !(c == '-' && p == s))
			return p;
	}
	return NULL;
}

/*
 * fio parse.c handle_option(): cut a value into its per-direction parts.
 * At each step the next separator is the first ',' if there is one, else
 * the first ':', else the first '-' (only ',' for RANGE). A trailing ','
 * is dropped. @buf is modified; parts point into it.
 */
static guint split_parts(char *buf, gboolean range, char **parts, guint max)
{
	size_t n = strlen(buf);
	guint np = 0;
	char *p = buf;

	if (n && buf[n - 1] == ',')
		buf[n - 1] = '\0';
	for (;;) {
		char *sep = find_sep(p, ',');

		if (!sep && !range)
			sep = find_sep(p, ':');
		if (!sep && !range)
			sep = find_sep(p, '-');
		if (np < max)
			parts[np] = p;
		np++;
		if (!sep)
			break;
		*sep = '\0';
		p = sep + 1;
	}
	return np;
}

/* Longest posval that @s starts with, followed by the end or ':'. */
static const char *match_posval(const char *posvals, const char *s,
				const char **postfix)
{
	g_auto(GStrv) vals = g_strsplit(posvals, "|", -1);
	const char *best = NULL;
	size_t best_len = 0;
	guint i;

	for (i = 0; vals[i]; i++) {
		size_t n = strlen(vals[i]);

		if (n > best_len && strncmp(s, vals[i], n) == 0 &&
		    (s[n] == '\0' || s[n] == ':')) {
			best = strstr(posvals, vals[i]);
			/* point at a stable copy inside the table string */
			while (best && !(best == posvals || best[-1] == '|'))
				best = strstr(best + 1, vals[i]);
			best_len = n;
		}
	}
	if (best)
		*postfix = s[best_len] == ':' ? s + best_len + 1 : NULL;
	return best;
}

static gboolean in_list(const char *list, const char *val, size_t len)
{
	g_auto(GStrv) vals = g_strsplit(list, "|", -1);
	guint i;

	for (i = 0; vals[i]; i++)
		if (strlen(vals[i]) == len && strncmp(vals[i], val, len) == 0)
			return TRUE;
	return FALSE;
}

static char *posval_list(const char *posvals)
{
	g_auto(GStrv) vals = g_strsplit(posvals, "|", -1);

	return g_strjoinv(", ", vals);
}

/* A time in microseconds must still fit in 64-bit nanoseconds. */
static gboolean time_fits(uint64_t us, int64_t *out, char **why)
{
	if (us > UINT64_MAX / WBSIM_NSEC_PER_USEC || us > (uint64_t)INT64_MAX) {
		*why = g_strdup("time overflows 64-bit simulated nanoseconds");
		return FALSE;
	}
	*out = (int64_t)us;
	return TRUE;
}

/* One numeric part according to the option's type and flags. */
static gboolean parse_part(const struct wbsim_fio_optdesc *d, const char *s,
			   unsigned int kb_base, int64_t *out, gboolean *pct,
			   char **why)
{
	uint64_t u;

	*pct = FALSE;
	switch (d->type) {
	case WBSIM_FIO_T_BOOL:
	case WBSIM_FIO_T_STR_SET:
		if (!wbsim_fio_parse_uint(s, &u, why))
			return FALSE;
		*out = (int64_t)MIN(u, (uint64_t)INT64_MAX);
		return TRUE;
	case WBSIM_FIO_T_STR_VAL_TIME:
		if (!wbsim_fio_parse_time(s, !!(d->flags & WBSIM_FIO_F_SECONDS),
					  &u, why))
			return FALSE;
		return time_fits(u, out, why);
	case WBSIM_FIO_T_INT:
	case WBSIM_FIO_T_ULL:
		if (d->flags & WBSIM_FIO_F_TIME) {
			if (!wbsim_fio_parse_time(s, !!(d->flags & WBSIM_FIO_F_SECONDS),
						  &u, why))
				return FALSE;
			return time_fits(u, out, why);
		}
		return wbsim_fio_parse_size(s, kb_base,
					    !!(d->flags & WBSIM_FIO_F_SIGNED),
					    out, NULL, why);
	case WBSIM_FIO_T_STR_VAL_ZONE:
		return wbsim_fio_parse_size(s, kb_base, FALSE, out, pct, why);
	default:
		return wbsim_fio_parse_size(s, kb_base, FALSE, out, NULL, why);
	}
}

static gboolean check_bounds(const struct wbsim_fio_optdesc *d, int64_t v,
			     char **why)
{
	/* fio option_init(): an int option without a maximum has UINT_MAX,
	 * the most its unsigned int holds (nrfiles=4294967297 was 4294967295) */
	int64_t max = d->maxval ? d->maxval :
		      d->type == WBSIM_FIO_T_INT && !(d->flags & WBSIM_FIO_F_TIME) ? G_MAXUINT : 0;

	if (max && v > max) {
		*why = g_strdup_printf("max value out of range: %" G_GINT64_FORMAT " (%" G_GINT64_FORMAT " max)",
				       v, max);
		return FALSE;
	}
	if ((d->minval || d->maxval) && v < d->minval) {
		*why = g_strdup_printf("min value out of range: %" G_GINT64_FORMAT " (%" G_GINT64_FORMAT " min)",
				       v, d->minval);
		return FALSE;
	}
	return TRUE;
}

/*
 * Parse @value (substitutions done) for option @d into @val. @buf keeps
 * the strings @val points to. Returns FALSE with *why set.
 */
static gboolean parse_value(const struct wbsim_fio_optdesc *d, char *buf,
			    unsigned int kb_base, struct fio_val *val,
			    char **why)
{
	char *parts[8];
	guint np, i;

	memset(val, 0, sizeof(*val));
	switch (d->type) {
	case WBSIM_FIO_T_DEPRECATED:
	case WBSIM_FIO_T_STR_STORE:
		val->str = buf;
		return TRUE;
	case WBSIM_FIO_T_STR:
		val->str = buf;
		if (!d->posval)
			return TRUE;
		val->posval = match_posval(d->posval, buf, &val->postfix);
		if (!val->posval) {
			g_autofree char *list = posval_list(d->posval);

			*why = g_strdup_printf("expected one of: %s", list);
			return FALSE;
		}
		return TRUE;
	case WBSIM_FIO_T_STR_MULTI: {
		char *colon = strchr(buf, ':');
		g_auto(GStrv) words = NULL;

		if (colon) {
			uint64_t n;

			*colon = '\0';
			if (!wbsim_fio_parse_uint(colon + 1, &n, why))
				return FALSE;
		}
		words = g_strsplit(buf, ",", -1);
		for (i = 0; words[i]; i++) {
			if (!in_list(d->posval, words[i], strlen(words[i]))) {
				g_autofree char *list = posval_list(d->posval);

				*why = g_strdup_printf("'%s' is not one of: %s",
						       words[i], list);
				return FALSE;
			}
		}
		val->str = buf;
		return TRUE;
	}
	case WBSIM_FIO_T_STR_ULL:
		if (!*buf) {
			*why = g_strdup("empty value");
			return FALSE;
		}
		val->str = buf;
		return TRUE;
	case WBSIM_FIO_T_FLOAT_LIST: {
		g_auto(GStrv) nums = g_strsplit_set(buf, ":,", -1);

		for (i = 0; nums[i]; i++) {
			char *end = NULL;

			g_ascii_strtod(nums[i], &end);
			if (!*nums[i] || end == nums[i] || *end) {
				*why = g_strdup_printf("'%s' is not a decimal number (expected a ':'-separated list)",
						       nums[i]);
				return FALSE;
			}
		}
		val->str = buf;
		return TRUE;
	}
	default:
		break;
	}

	np = split_parts(buf, d->type == WBSIM_FIO_T_RANGE, parts,
			 G_N_ELEMENTS(parts));
	if (np > G_N_ELEMENTS(parts)) {
		*why = g_strdup("too many values");
		return FALSE;
	}
	val->nparts = np;
	for (i = 0; i < np; i++) {
		int64_t v, hi = 0;
		gboolean pct = FALSE;
		char *sep;

		g_strstrip(parts[i]);
		if (!*parts[i]) {
			/* fio lets a part be empty: "bs=,8k" keeps the read default */
			continue;
		}
		if (d->type == WBSIM_FIO_T_RANGE) {
			sep = find_sep(parts[i], '-');
			if (!sep)
				sep = find_sep(parts[i], ':');
			if (!sep) {
				*why = g_strdup_printf("'%s' is not a range: expected low-high or low:high",
						       parts[i]);
				return FALSE;
			}
			*sep = '\0';
			if (!parse_part(d, parts[i], kb_base, &v, &pct, why) ||
			    !parse_part(d, sep + 1, kb_base, &hi, &pct, why))
				return FALSE;
			if (v > hi) {
				int64_t t = v;

				v = hi;
				hi = t;
			}
			if (!check_bounds(d, v, why))
				return FALSE;
		} else {
			if (!parse_part(d, parts[i], kb_base, &v, &pct, why))
				return FALSE;
			if (!pct && !check_bounds(d, v, why))
				return FALSE;
		}
		if (i < WBSIM_FIO_DDIR_NR) {
			val->v[i] = v;
			val->hi[i] = hi;
			val->set[i] = TRUE;
		}
		val->percent |= pct;
	}
	for (i = 0; i < MIN(np, (guint)WBSIM_FIO_DDIR_NR); i++)
		if (val->set[i])
			return TRUE;
	*why = g_strdup("empty value");
	return FALSE;
}

/*
 * Per-direction assignment of fio's __handle_option(): part i sets
 * direction i; the last part also sets every direction after it.
 */
static void assign_ddir(const struct fio_val *val, uint64_t *dst,
			uint64_t *dst_hi)
{
	guint last = MIN(val->nparts, (guint)WBSIM_FIO_DDIR_NR) - 1;
	guint i, d;

	for (i = 0; i <= last; i++) {
		if (!val->set[i])
			continue;
		for (d = i; d < (i == last ? (guint)WBSIM_FIO_DDIR_NR : i + 1); d++) {
			dst[d] = (uint64_t)val->v[i];
			if (dst_hi)
				dst_hi[d] = (uint64_t)val->hi[i];
		}
	}
}

/* The single value of a non-list option: the first part (as fio). */
static int64_t first_val(const struct fio_val *val)
{
	guint i;

	for (i = 0; i < WBSIM_FIO_DDIR_NR; i++)
		if (val->set[i])
			return val->v[i];
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Errors and warnings                                                      */

static void fio_warn(struct wbsim_fio_file *file, const struct fio_entry *e,
		     const char *fmt, ...) G_GNUC_PRINTF(3, 4);

static void fio_warn(struct wbsim_fio_file *file, const struct fio_entry *e,
		     const char *fmt, ...)
{
	g_autofree char *msg = NULL;
	va_list ap;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_ptr_array_add(file->warnings,
			g_strdup_printf("%s:%u: %s", e->file, e->line, msg));
}

static gboolean fio_refuse(GError **error, const char *file, unsigned int line,
			   const char *opt, const char *why)
{
	g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_UNSUPPORTED,
		    "%s:%u: fio option '%s' is not modelled by wbsim (%s)",
		    file, line, opt, why);
	return FALSE;
}

static gboolean fio_bad_value(GError **error, const struct fio_entry *e,
			      const char *why)
{
	g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
		    "%s:%u: failed parsing %s=%s: %s", e->file, e->line,
		    e->key, e->value ? e->value : "", why);
	return FALSE;
}

/* ------------------------------------------------------------------------ */
/* Applying options                                                         */

static void set_str(char **dst, const char *s)
{
	g_free(*dst);
	*dst = g_strdup(s);
}

static gboolean apply_rw(struct wbsim_fio_file *file, struct fio_target *t,
			 const struct fio_entry *e, const struct fio_val *val,
			 GError **error)
{
	static const struct {
		const char *name;
		enum wbsim_fio_rw rw;
	} map[] = {
		{ "read", WBSIM_FIO_READ }, { "write", WBSIM_FIO_WRITE },
		{ "trim", WBSIM_FIO_TRIM }, { "randread", WBSIM_FIO_RANDREAD },
		{ "randwrite", WBSIM_FIO_RANDWRITE },
		{ "randtrim", WBSIM_FIO_RANDTRIM }, { "rw", WBSIM_FIO_RW },
		{ "readwrite", WBSIM_FIO_RW }, { "randrw", WBSIM_FIO_RANDRW },
		{ "trimwrite", WBSIM_FIO_TRIMWRITE },
		{ "randtrimwrite", WBSIM_FIO_RANDTRIMWRITE },
	};
	struct wbsim_fio_job *job = t->job;
	const char *name = val->posval;
	size_t len = strcspn(name, "|");
	guint i;

	for (i = 0; i < G_N_ELEMENTS(map); i++)
		if (strlen(map[i].name) == len &&
		    strncmp(map[i].name, name, len) == 0)
			break;
	if (i == G_N_ELEMENTS(map))
		return fio_refuse(error, e->file, e->line, "rw",
				  "the file-operation patterns filecreate, filestat and filedelete are not modelled");
	job->rw = map[i].rw;
	job->rw_modifier = 0;
	if (val->postfix) {
		int64_t n = 0;
		char *why = NULL;

		/* fio str_rw_cb(): ":N" is a count for random patterns, an offset otherwise */
		if (wbsim_fio_parse_size(val->postfix, job->kb_base, TRUE, &n,
					 NULL, &why) && n < 0) {
			/* fio moves backwards by -N; reads are refused later anyway */
			if (wbsim_fio_rw_writes(job->rw))
				return fio_refuse(error, e->file, e->line, "rw",
						  "a negative rw offset modifier (sequential writes moving backwards) is not modelled");
			n = 0;
		}
		if (!why && n > G_MAXUINT)
			why = g_strdup_printf("rw modifier %s must be at most %u",
					      val->postfix, G_MAXUINT);
		if (why) {
			fio_bad_value(error, e, why);
			g_free(why);
			return FALSE;
		}
		job->rw_modifier = (unsigned int)n;
	}
	(void)file;
	*t->rw_file = e->file;
	*t->rw_line = e->line;
	return TRUE;
}

static gboolean apply_modelled(struct wbsim_fio_file *file,
			       struct fio_target *t, const struct fio_entry *e,
			       const struct fio_val *val, GError **error)
{
	const struct wbsim_fio_optdesc *d = e->desc;
	struct wbsim_fio_job *job = t->job;
	int64_t v = first_val(val);
	const char *why = NULL;

	switch (d->key) {
	case WBSIM_FIO_K_NONE:
		break;
	case WBSIM_FIO_K_NAME:
		/* a name= in [global] does not rename jobs (fio get_new_job()) */
		set_str(&job->name, val->str);
		break;
	case WBSIM_FIO_K_WAIT_FOR:
		set_str(&job->wait_for, val->str);
		break;
	case WBSIM_FIO_K_DESCRIPTION:
		set_str(&job->description, val->str);
		break;
	case WBSIM_FIO_K_FILENAME:
		set_str(&job->filename, val->str);
		break;
	case WBSIM_FIO_K_DIRECTORY:
		set_str(&job->directory, val->str);
		break;
	case WBSIM_FIO_K_FILENAME_FORMAT:
		set_str(&job->filename_format, val->str);
		break;
	case WBSIM_FIO_K_RW:
		return apply_rw(file, t, e, val, error);
	case WBSIM_FIO_K_IOENGINE:
		switch (wbsim_fio_engine_lookup(val->str, &why)) {
		case WBSIM_FIO_ENGINE_MODELLED:
			break;
		case WBSIM_FIO_ENGINE_REFUSED:
			return fio_refuse(error, e->file, e->line, "ioengine", why);
		default: {
			g_autofree char *modelled = wbsim_fio_engines_modelled();

			if (strchr(val->str, '/'))
				return fio_refuse(error, e->file, e->line, "ioengine",
						  "external engines are loaded from shared objects and cannot be simulated");
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
				    "%s:%u: failed parsing ioengine=%s: fio: engine %s not loadable (expected %s)",
				    e->file, e->line, val->str, val->str, modelled);
			return FALSE;
		}
		}
		set_str(&job->ioengine, val->str);
		break;
	case WBSIM_FIO_K_IODEPTH:
		job->iodepth = (unsigned int)MIN(v, G_MAXUINT);
		break;
	case WBSIM_FIO_K_SIZE:
		if (val->percent)	/* it was left at 0: "neither size= nor filesize=" */
			return fio_refuse(error, e->file, e->line, "size",
					  "size as a percentage of the file or device is not modelled");
		job->size_given = TRUE;
		job->size_is_percent = val->percent;
		job->size_percent = val->percent ? (unsigned int)v : 0;
		job->size = val->percent ? 0 : (uint64_t)v;
		break;
	case WBSIM_FIO_K_IO_SIZE:
		if (val->percent)
			return fio_refuse(error, e->file, e->line, "io_size",
					  "io_size as a percentage is not modelled");
		job->io_size = (uint64_t)v;
		break;
	case WBSIM_FIO_K_FILESIZE: {
		uint64_t lo[WBSIM_FIO_DDIR_NR] = { 0 };

		/* fio: the first part is the low bound, the last the high one */
		assign_ddir(val, lo, NULL);
		job->size_given = TRUE;
		job->filesize_min = (uint64_t)v;
		job->filesize_max = val->nparts > 1 ? lo[WBSIM_FIO_DDIR_TRIM]
						    : (uint64_t)v;
		/* the files were all given the low bound */
		if (job->filesize_max != job->filesize_min)
			return fio_refuse(error, e->file, e->line, "filesize",
					  "a range of file sizes (a random size per file) is not modelled");
		break;
	}
	case WBSIM_FIO_K_OFFSET:
		if (val->percent)	/* it was left at 0 */
			return fio_refuse(error, e->file, e->line, "offset",
					  "offset as a percentage of the file or device is not modelled");
		job->offset_percent = val->percent ? (unsigned int)v : 0;
		job->offset = val->percent ? 0 : (uint64_t)v;
		break;
	case WBSIM_FIO_K_OFFSET_INCREMENT:
		if (val->percent)
			return fio_refuse(error, e->file, e->line, "offset_increment",
					  "offset_increment as a percentage is not modelled");
		job->offset_increment = (uint64_t)v;
		break;
	case WBSIM_FIO_K_NUMBER_IOS:
		job->number_ios = (uint64_t)v;
		break;
	case WBSIM_FIO_K_BS:
		assign_ddir(val, job->bs, NULL);
		break;
	case WBSIM_FIO_K_BSRANGE:
		assign_ddir(val, job->bsrange_min, job->bsrange_max);
		break;
	case WBSIM_FIO_K_RANDREPEAT:
		job->randrepeat = v != 0;
		break;
	case WBSIM_FIO_K_ALLRANDREPEAT:
		job->allrandrepeat = v != 0;
		break;
	case WBSIM_FIO_K_RANDSEED:
		job->randseed = (uint64_t)v;
		job->randseed_set = TRUE;
		break;
	case WBSIM_FIO_K_NORANDOMMAP:
		job->norandommap = v != 0;
		break;
	case WBSIM_FIO_K_RANDOM_GENERATOR:
		job->random_generator =
			g_str_has_prefix(val->posval, "tausworthe64") ? WBSIM_FIO_RAND_TAUSWORTHE64 :
			g_str_has_prefix(val->posval, "lfsr") ? WBSIM_FIO_RAND_LFSR :
			WBSIM_FIO_RAND_TAUSWORTHE;
		job->random_generator_set = TRUE;
		break;
	case WBSIM_FIO_K_NRFILES:
		job->nrfiles = (unsigned int)MIN(v, G_MAXUINT);
		break;
	case WBSIM_FIO_K_FILE_SERVICE_TYPE: {
		size_t len = strcspn(val->posval, "|");

		g_free(job->file_service_type);
		job->file_service_type = g_strndup(val->posval, len);
		if (val->postfix) {
			g_autofree char *full = g_strdup_printf("%s:%s", job->file_service_type,
								val->postfix);

			set_str(&job->file_service_type, full);
		}
		break;
	}
	case WBSIM_FIO_K_FALLOCATE: {
		static const struct {
			const char *s;
			enum wbsim_fio_fallocate m;
		} fm[] = {
			{ "none", WBSIM_FIO_FALLOCATE_NONE },
			{ "native", WBSIM_FIO_FALLOCATE_NATIVE },
			{ "posix", WBSIM_FIO_FALLOCATE_POSIX },
			{ "keep", WBSIM_FIO_FALLOCATE_KEEP },
			{ "truncate", WBSIM_FIO_FALLOCATE_TRUNCATE },
			{ "0", WBSIM_FIO_FALLOCATE_NONE },
			{ "1", WBSIM_FIO_FALLOCATE_POSIX },
		};
		size_t len = strcspn(val->posval, "|");
		guint i;

		for (i = 0; i < G_N_ELEMENTS(fm); i++)
			if (strlen(fm[i].s) == len &&
			    strncmp(fm[i].s, val->posval, len) == 0)
				job->fallocate = fm[i].m;
		break;
	}
	case WBSIM_FIO_K_FSYNC:
		job->fsync = (unsigned int)MIN(v, G_MAXUINT);
		break;
	case WBSIM_FIO_K_FDATASYNC:
		job->fdatasync = (unsigned int)MIN(v, G_MAXUINT);
		break;
	case WBSIM_FIO_K_DIRECT:
		job->direct = v != 0;
		break;
	case WBSIM_FIO_K_BUFFERED:
		job->direct = v == 0;	/* fio: buffered is the negation of direct */
		break;
	case WBSIM_FIO_K_OVERWRITE:
		job->overwrite = v != 0;
		break;
	case WBSIM_FIO_K_LOOPS:
		job->loops = (unsigned int)MIN(v, G_MAXUINT);
		break;
	case WBSIM_FIO_K_NUMJOBS:
		job->numjobs = (unsigned int)MIN(v, G_MAXUINT);
		break;
	case WBSIM_FIO_K_STARTDELAY: {
		uint64_t us[WBSIM_FIO_DDIR_NR] = { 0 };

		assign_ddir(val, us, NULL);
		job->startdelay_ns = (uint64_t)v * WBSIM_NSEC_PER_USEC;
		job->startdelay_max_ns = (val->nparts > 1 ? us[WBSIM_FIO_DDIR_TRIM]
							 : (uint64_t)v) * WBSIM_NSEC_PER_USEC;
		/* the job started after the low bound */
		if (job->startdelay_max_ns != job->startdelay_ns)
			return fio_refuse(error, e->file, e->line, "startdelay",
					  "a range of start delays (a random delay) is not modelled");
		break;
	}
	case WBSIM_FIO_K_RUNTIME:
		job->runtime_ns = (uint64_t)v * WBSIM_NSEC_PER_USEC;
		break;
	case WBSIM_FIO_K_TIME_BASED:
		job->time_based = v != 0;
		break;
	case WBSIM_FIO_K_RAMP_TIME:
		job->ramp_time_ns = (uint64_t)v * WBSIM_NSEC_PER_USEC;
		break;
	case WBSIM_FIO_K_RWMIXREAD:
		job->rwmix_read = (unsigned int)v;
		break;
	case WBSIM_FIO_K_RWMIXWRITE:
		job->rwmix_read = 100 - (unsigned int)v;
		break;
	case WBSIM_FIO_K_THINKTIME:
		job->thinktime_ns = (uint64_t)v * WBSIM_NSEC_PER_USEC;
		break;
	case WBSIM_FIO_K_THINKTIME_BLOCKS:
		job->thinktime_blocks = (unsigned int)MIN(v, G_MAXUINT);
		break;
	case WBSIM_FIO_K_RATE:
		assign_ddir(val, job->rate, NULL);
		break;
	case WBSIM_FIO_K_RATE_IOPS:
		assign_ddir(val, job->rate_iops, NULL);
		break;
	case WBSIM_FIO_K_INVALIDATE:
		job->invalidate = v != 0;
		break;
	case WBSIM_FIO_K_CREATE_SERIALIZE:
		job->create_serialize = v != 0;
		break;
	case WBSIM_FIO_K_CREATE_FSYNC:
		job->create_fsync = v != 0;
		break;
	case WBSIM_FIO_K_CREATE_ON_OPEN:
		job->create_on_open = v != 0;
		break;
	case WBSIM_FIO_K_END_FSYNC:
		job->end_fsync = v != 0;
		break;
	case WBSIM_FIO_K_FSYNC_ON_CLOSE:
		job->fsync_on_close = v != 0;
		break;
	case WBSIM_FIO_K_END_SYNCFS:
		job->end_syncfs = v != 0;
		break;
	case WBSIM_FIO_K_UNLINK:
		job->unlink = v != 0;
		break;
	case WBSIM_FIO_K_UNLINK_EACH_LOOP:
		job->unlink_each_loop = v != 0;
		break;
	case WBSIM_FIO_K_EXITALL:
		job->exitall = v != 0;
		break;
	case WBSIM_FIO_K_STONEWALL:
		job->stonewall = v != 0;
		break;
	case WBSIM_FIO_K_NEW_GROUP:
		job->new_group = v != 0;
		break;
	case WBSIM_FIO_K_GROUP_REPORTING:
		job->group_reporting = v != 0;
		break;
	case WBSIM_FIO_K_KB_BASE:
		job->kb_base = val->posval[0] == '1' && val->posval[3] == '4' ? 1024 : 1000;
		break;
	case WBSIM_FIO_K_FILE_APPEND:
		job->file_append = v != 0;
		break;
	case WBSIM_FIO_K_CGROUP:
		set_str(&job->cgroup, val->str);
		break;
	case WBSIM_FIO_K_CGROUP_NODELETE:
		job->cgroup_nodelete = v != 0;
		break;
	/* the bare key names the log after the job (fio make_log_name()) */
	case WBSIM_FIO_K_WRITE_BW_LOG:
		set_str(&job->write_bw_log, val->str ? val->str : "");
		break;
	case WBSIM_FIO_K_WRITE_LAT_LOG:
		set_str(&job->write_lat_log, val->str ? val->str : "");
		break;
	case WBSIM_FIO_K_WRITE_IOPS_LOG:
		set_str(&job->write_iops_log, val->str ? val->str : "");
		break;
	case WBSIM_FIO_K_LOG_AVG_MSEC:
		job->log_avg_msec = (unsigned int)MIN(v, G_MAXUINT);
		break;
	case WBSIM_FIO_K_PER_JOB_LOGS:
		job->per_job_logs = v != 0;
		break;
	case WBSIM_FIO_K_LOG_OFFSET:
		job->log_offset = v != 0;
		break;
	case WBSIM_FIO_K_LOG_PRIO:
		job->log_prio = v != 0;
		break;
	case WBSIM_FIO_K_LOG_WINDOW_VALUE:
		/* fio 3.33 has log_max_value=bool; "both" (two value columns)
		 * came later: the average is written, as fio 3.33 would */
		job->log_max = val->posval[0] == 'm' || val->posval[0] == '1';
		if (val->posval[0] == 'b' || val->posval[0] == '2')
			fio_warn(file, e, "option %s=%s is not modelled: fio 3.33's logs have one value column; the window's average is written",
				 e->key, e->value);
		break;
	case WBSIM_FIO_K_BWAVGTIME:
		job->bwavgtime = (unsigned int)MIN(v, G_MAXUINT);
		break;
	case WBSIM_FIO_K_THREAD:
		job->thread = v != 0;
		break;
	case WBSIM_FIO_K_IOPSAVGTIME:
		job->iopsavgtime = (unsigned int)MIN(v, G_MAXUINT);
		break;
	}
	return TRUE;
}

/* Is the value harmless for a WARN/REFUSE option (so nothing to report)? */
/*
 * A warned option set to its default changes nothing: numbers compare by
 * value (clat_percentiles=1, significant_figures=4), lists by their text.
 */
static gboolean value_is_default(const struct wbsim_fio_optdesc *d,
				 const char *text, const struct fio_val *val)
{
	g_autofree char *buf = NULL;
	g_autofree char *why = NULL;
	struct fio_val def;
	guint i;

	if (!type_is_numeric(d->type))
		return strcmp(text, d->def) == 0;
	memset(&def, 0, sizeof(def));
	buf = g_strdup(d->def);
	if (!parse_value(d, buf, 1024, &def, &why))
		return FALSE;
	for (i = 0; i < WBSIM_FIO_DDIR_NR; i++)
		if (val->set[i] && val->v[i] != def.v[0])
			return FALSE;
	return TRUE;
}

static gboolean value_is_harmless(const struct wbsim_fio_optdesc *d,
				  const char *text, const struct fio_val *val)
{
	/* a ":N" after the value changes it (file_service_type=roundrobin:4) */
	if (d->ok && val->posval)
		return in_list(d->ok, val->posval, strcspn(val->posval, "|")) && !val->postfix;
	if (d->flags & WBSIM_FIO_F_ZERO_OK) {
		guint i;

		if (!type_is_numeric(d->type))
			return FALSE;
		for (i = 0; i < WBSIM_FIO_DDIR_NR; i++)
			if (val->set[i] && val->v[i] != 0)
				return FALSE;
		return TRUE;
	}
	if (d->disp == WBSIM_FIO_WARN && d->def && text)
		return value_is_default(d, text, val);
	return FALSE;
}

static void record_option(struct fio_target *t, const struct fio_entry *e)
{
	struct wbsim_fio_option *o = g_new(struct wbsim_fio_option, 1);

	o->name = g_strdup(e->desc->name);	/* canonical, not the alias */
	o->value = g_strdup(e->value);
	o->file = e->file;
	o->line = e->line;
	g_ptr_array_add(t->record, o);
}

/* Substitute and type one entry, then apply it by its disposition. */
static gboolean apply_entry(struct wbsim_fio_file *file, struct fio_target *t,
			    struct fio_entry *e, const struct wbsim_fio_env *env,
			    GError **error)
{
	const struct wbsim_fio_optdesc *d = e->desc;
	g_autofree char *subst = NULL, *kw = NULL;
	gboolean replaced = FALSE;
	struct fio_val val;
	char *why = NULL;

	if (!e->value && d->type != WBSIM_FIO_T_STR_SET &&
	    !(d->type == WBSIM_FIO_T_STR && !d->posval) &&
	    d->type != WBSIM_FIO_T_DEPRECATED) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "%s:%u: Option %s requires an argument (fio: failed parsing %s)",
			    e->file, e->line, e->key, e->key);
		return FALSE;
	}

	memset(&val, 0, sizeof(val));
	if (e->value) {
		subst = wbsim_fio_subst_env(e->value);
		kw = wbsim_fio_subst_keywords(subst, env, &replaced);
		/* fio options.c bc_calc(): math after a keyword goes to bc */
		if (replaced && type_is_numeric(d->type) && d->type != WBSIM_FIO_T_RANGE &&
		    kw[strcspn(kw, "+-*/")] && kw[0] != '(') {
			int64_t r;

			if (!wbsim_fio_eval(kw, WBSIM_FIO_EXPR_PLAIN, &r, &why)) {
				g_autofree char *msg = g_strdup_printf("%s (after substitution: '%s'; fio computes this with bc)",
								       why, kw);

				g_free(why);
				return fio_bad_value(error, e, msg);
			}
			g_free(kw);
			kw = g_strdup_printf("%" G_GINT64_FORMAT, r);
		}
		if (!parse_value(d, kw, t->job->kb_base, &val, &why)) {
			fio_bad_value(error, e, why);
			g_free(why);
			return FALSE;
		}
	} else if (d->type == WBSIM_FIO_T_STR_SET) {
		val.nparts = 1;
		val.v[0] = 1;
		val.set[0] = TRUE;
	}

	switch (value_is_harmless(d, e->value, &val) ? WBSIM_FIO_REPORTING_ONLY : d->disp) {
	case WBSIM_FIO_REFUSE:
		/* name the option as written; the canonical name if it differs */
		if (strcmp(e->key, d->name) != 0) {
			g_autofree char *why2 = g_strdup_printf("%s: %s", d->name, d->why);

			return fio_refuse(error, e->file, e->line, e->key, why2);
		}
		return fio_refuse(error, e->file, e->line, d->name, d->why);
	case WBSIM_FIO_WARN:
		if (d->type == WBSIM_FIO_T_DEPRECATED)
			fio_warn(file, e, "option %s is deprecated in fio and ignored", e->key);
		else
			fio_warn(file, e, "option %s is not modelled: %s", e->key, d->why);
		break;
	case WBSIM_FIO_MODELLED:
		if (!apply_modelled(file, t, e, &val, error))
			return FALSE;
		break;
	default:
		break;
	}

	/* hints where fio's reading differs from what users often mean */
	if (d->key == WBSIM_FIO_K_BS && val.nparts > 1 && !strchr(e->value, ',') &&
	    !strchr(e->value, ':') && strchr(e->value, '-'))
		fio_warn(file, e, "bs=%s sets the read block size to the first value and the write (and trim) block size to the second, as fio does; a range of block sizes is spelled bsrange=%s",
			 e->value, e->value);
	if (!(d->flags & (WBSIM_FIO_F_DDIR | WBSIM_FIO_F_HIGH)) && val.nparts > 1)
		fio_warn(file, e, "%s=%s: only the first value is used, as fio does",
			 d->name, e->value);
	record_option(t, e);
	return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Sections, includes, jobs                                                 */

static gboolean expand_entries(struct wbsim_fio_file *file, GPtrArray *out,
			       GPtrArray *entries, const char *base_dir,
			       GPtrArray *stack, GPtrArray *docs,
			       GError **error);

/* Pull the entries of an included file in place of the include line. */
static gboolean expand_include(struct wbsim_fio_file *file, GPtrArray *out,
			       const struct wbsim_ini_entry *e,
			       const char *base_dir, GPtrArray *stack,
			       GPtrArray *docs, GError **error)
{
	g_autofree char *path = NULL, *canon = NULL, *dir = NULL;
	g_autoptr(GError) local = NULL;
	struct wbsim_ini_doc *doc = NULL;
	gboolean ok;
	guint i;

	if (!e->value || !*e->value) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_PARSE,
			    "%s:%u: include without a file name", e->file,
			    e->line);
		return FALSE;
	}
	/* fio retries a relative name relative to the including file */
	if (g_path_is_absolute(e->value) || !base_dir)
		path = g_strdup(e->value);
	else
		path = g_build_filename(base_dir, e->value, NULL);
	canon = g_canonicalize_filename(path, NULL);
	for (i = 0; i < stack->len; i++) {
		if (strcmp(stack->pdata[i], canon) == 0) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_PARSE,
				    "%s:%u: circular include of %s", e->file,
				    e->line, path);
			return FALSE;
		}
	}
	if (stack->len >= FIO_INCLUDE_DEPTH_MAX) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_PARSE,
			    "%s:%u: includes nested deeper than %d", e->file,
			    e->line, FIO_INCLUDE_DEPTH_MAX);
		return FALSE;
	}
	if (!wbsim_ini_lex_file(path, WBSIM_INI_INCLUDE | WBSIM_INI_NO_SECTIONS,
				&doc, &local)) {
		g_set_error(error, WBSIM_ERROR, local->code,
			    "%s:%u: include %s: %s", e->file, e->line,
			    e->value, local->message);
		return FALSE;
	}
	g_ptr_array_add(docs, doc);
	fio_intern_file(file, path);
	dir = g_path_get_dirname(path);
	g_ptr_array_add(stack, g_strdup(canon));
	ok = expand_entries(file, out,
			    ((struct wbsim_ini_section *)doc->sections->pdata[0])->entries,
			    dir, stack, docs, error);
	g_free(g_ptr_array_steal_index(stack, stack->len - 1));
	return ok;
}

static gboolean expand_entries(struct wbsim_fio_file *file, GPtrArray *out,
			       GPtrArray *entries, const char *base_dir,
			       GPtrArray *stack, GPtrArray *docs,
			       GError **error)
{
	guint i;

	for (i = 0; i < entries->len; i++) {
		const struct wbsim_ini_entry *ie = entries->pdata[i];
		struct fio_entry *fe;

		if (strcmp(ie->key, "include") == 0) {
			if (!expand_include(file, out, ie, base_dir, stack, docs,
					    error))
				return FALSE;
			continue;
		}
		fe = g_new0(struct fio_entry, 1);
		fe->key = ie->key;
		fe->value = ie->value;
		fe->file = fio_intern_file(file, ie->file);
		fe->line = ie->line;
		fe->desc = wbsim_fio_option_find(ie->key);
		g_ptr_array_add(out, fe);
	}
	return TRUE;
}

/* fio parse.c sort_options(): higher prio first; stable here. */
static gint entry_cmp(gconstpointer a, gconstpointer b)
{
	const struct fio_entry *ea = *(struct fio_entry *const *)a;
	const struct fio_entry *eb = *(struct fio_entry *const *)b;
	int pa = ea->desc ? ea->desc->prio : 0;
	int pb = eb->desc ? eb->desc->prio : 0;

	return pb - pa;
}

/* Apply every option of one section to @t (core options, then engine ones). */
static gboolean apply_section(struct wbsim_fio_file *file, struct fio_target *t,
			      GPtrArray *entries, const struct wbsim_fio_env *env,
			      GError **error)
{
	g_autoptr(GPtrArray) unknown = g_ptr_array_new();
	guint i;

	g_ptr_array_sort(entries, entry_cmp);
	for (i = 0; i < entries->len; i++) {
		struct fio_entry *e = entries->pdata[i];

		if (!e->desc) {
			g_ptr_array_add(unknown, e);
			continue;
		}
		if (!apply_entry(file, t, e, env, error))
			return FALSE;
	}
	/* fio retries unknown options against the chosen engine's table */
	for (i = 0; i < unknown->len; i++) {
		struct fio_entry *e = unknown->pdata[i];
		const char *close;
		g_autofree char *opt = NULL;

		e->desc = wbsim_fio_engine_option_find(t->job->ioengine, e->key);
		if (e->desc) {
			if (!apply_entry(file, t, e, env, error))
				return FALSE;
			continue;
		}
		opt = e->value ? g_strdup_printf("%s=%s", e->key, e->value)
			       : g_strdup(e->key);
		close = wbsim_fio_option_closest(e->key);
		if (close)
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_UNKNOWN_KEY,
				    "%s:%u: Bad option <%s>. Did you mean %s?",
				    e->file, e->line, opt, close);
		else
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_UNKNOWN_KEY,
				    "%s:%u: Bad option <%s> (not an fio option, nor one of ioengine %s)",
				    e->file, e->line, opt, t->job->ioengine);
		return FALSE;
	}
	return TRUE;
}

/* Checks on a finished job that fio accepts but wbsim cannot simulate. */
static gboolean check_job(struct wbsim_fio_file *file,
			  const struct wbsim_fio_job *job, const char *rw_file,
			  unsigned int rw_line, GError **error)
{
	struct fio_entry at = { .file = rw_file ? rw_file : job->file,
				.line = rw_file ? rw_line : job->line };
	g_autofree char *why = NULL;

	switch (job->rw) {
	case WBSIM_FIO_READ:
	case WBSIM_FIO_RANDREAD:
		why = g_strdup_printf("job '%s' only reads (rw=%s%s); reads are not modelled",
				      job->section, wbsim_fio_rw_name(job->rw),
				      rw_file ? "" : ", fio's default");
		return fio_refuse(error, at.file, at.line, "rw", why);
	case WBSIM_FIO_TRIM:
	case WBSIM_FIO_RANDTRIM:
	case WBSIM_FIO_TRIMWRITE:
	case WBSIM_FIO_RANDTRIMWRITE:
		why = g_strdup_printf("job '%s' trims (rw=%s); trims are not modelled",
				      job->section, wbsim_fio_rw_name(job->rw));
		return fio_refuse(error, at.file, at.line, "rw", why);
	case WBSIM_FIO_RW:
	case WBSIM_FIO_RANDRW:
		if (job->rwmix_read >= 100) {
			why = g_strdup_printf("job '%s' only reads (rw=%s with rwmixread=100); reads are not modelled",
					      job->section, wbsim_fio_rw_name(job->rw));
			return fio_refuse(error, at.file, at.line, "rw", why);
		}
		fio_warn(file, &at, "job '%s': rw=%s: only the write share (%u%%) is simulated; the reads (rwmixread=%u) are not modelled%s",
			 job->section, wbsim_fio_rw_name(job->rw),
			 100 - job->rwmix_read, job->rwmix_read,
			 job->rw == WBSIM_FIO_RANDRW
				 ? ", nor their draws: fio takes the reads' offsets from the generator of the writes', so the writes land elsewhere than under fio"
				 : "");
		break;
	default:
		break;
	}
	/* fio's LFSR (lib/lfsr.c) orders the blocks its own way */
	if (rw_is_random(job->rw) && job->random_generator == WBSIM_FIO_RAND_LFSR) {
		struct fio_entry gen = { .file = job->file, .line = job->line };

		for (guint k = 0; k < job->options->len; k++) {
			const struct wbsim_fio_option *o = job->options->pdata[k];

			if (strcmp(o->name, "random_generator") == 0) {
				gen.file = o->file;
				gen.line = o->line;
			}
		}
		why = g_strdup_printf("job '%s': rw=%s would draw its offsets from fio's LFSR; only tausworthe and tausworthe64 are modelled",
				      job->section, wbsim_fio_rw_name(job->rw));
		return fio_refuse(error, gen.file, gen.line, "random_generator", why);
	}
	/* it was warned as applied, and never was */
	if (rw_is_random(job->rw) && job->rw_modifier > 1) {
		why = g_strdup_printf("job '%s': rw=%s:%u: a new random offset every %u I/Os is not modelled",
				      job->section, wbsim_fio_rw_name(job->rw),
				      job->rw_modifier, job->rw_modifier);
		return fio_refuse(error, at.file, at.line, "rw", why);
	}
	/* rw=write:64k: fio skips 64k after each write (wbsim_job_next_block()) */
	if (!rw_is_random(job->rw) && job->rw_modifier &&
	    job->rw_modifier % job->bs[WBSIM_FIO_DDIR_WRITE]) {
		why = g_strdup_printf("job '%s': rw=%s:%u: a skip that is not a whole number of bs=%" G_GUINT64_FORMAT " blocks is not modelled",
				      job->section, wbsim_fio_rw_name(job->rw), job->rw_modifier,
				      job->bs[WBSIM_FIO_DDIR_WRITE]);
		return fio_refuse(error, at.file, at.line, "rw", why);
	}
	return TRUE;
}

/* fio's default max_jobs (REAL_MAX_JOBS): its thread table has no more slots */
#define FIO_MAX_JOBS 4096

/*
 * fio init.c add_job(): the job, then its numjobs-1 clones. Like fio's
 * get_new_job(), refuses to go past FIO_MAX_JOBS jobs in all (numjobs=1g
 * would otherwise allocate a billion clones).
 */
static gboolean add_job(struct fio_file_priv *priv, struct wbsim_fio_job *job,
			GError **error)
{
	unsigned int i, n = MAX(job->numjobs, 1u);
	unsigned int thread = priv->pub.jobs->len + 1;

	if (n > FIO_MAX_JOBS - priv->pub.jobs->len) {
		const char *file = job->file;
		unsigned int line = job->line;

		/* name the numjobs= line when the job section sets it */
		for (guint k = 0; k < job->options->len; k++) {
			const struct wbsim_fio_option *o = job->options->pdata[k];

			if (strcmp(o->name, "numjobs") == 0) {
				file = o->file;
				line = o->line;
			}
		}
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "%s:%u: job '%s': numjobs=%u: maximum number of jobs (%d) reached: expected at most %u more",
			    file, line, job->section, job->numjobs, FIO_MAX_JOBS,
			    FIO_MAX_JOBS - priv->pub.jobs->len);
		return FALSE;
	}
	for (i = 0; i < n; i++) {
		struct wbsim_fio_job *j = i ? fio_job_clone(job) : job;

		j->clone = i;
		/* fio makes clone numjobs-1 first, clone 1 last (add_job()) */
		j->thread_number = i ? thread + n - i : thread;
		if (i) {
			/* clones never wait and never open a group */
			j->stonewall = FALSE;
			j->new_group = FALSE;
		}
		if ((j->stonewall || j->new_group) && priv->prev_group_jobs) {
			priv->prev_group_jobs = 0;
			priv->groupid++;
		}
		j->group_id = priv->groupid;
		priv->prev_group_jobs++;
		g_ptr_array_add(priv->pub.jobs, j);
	}
	return TRUE;
}

gboolean wbsim_fio_parse_sections(struct wbsim_fio_file *file,
				  GPtrArray *sections, const char *base_dir,
				  const struct wbsim_fio_env *env,
				  gboolean implicit_stonewall, GError **error)
{
	struct fio_file_priv *priv = fio_priv(file);
	g_autoptr(GPtrArray) docs =
		g_ptr_array_new_with_free_func((GDestroyNotify)wbsim_ini_doc_free);
	g_autoptr(GPtrArray) stack = g_ptr_array_new_with_free_func(g_free);
	gboolean stonewall_next = implicit_stonewall;
	guint s;

	for (s = 0; s < sections->len; s++) {
		const struct wbsim_ini_section *sec = sections->pdata[s];
		g_autoptr(GPtrArray) entries =
			g_ptr_array_new_with_free_func(g_free);
		const char *sec_file = fio_intern_file(file, sec->file);
		gboolean global = sec->name && strncmp(sec->name, "global", 6) == 0;
		struct fio_target t = { .is_global = global };
		struct wbsim_fio_job *job = NULL;
		const char *rw_file;
		unsigned int rw_line;

		g_ptr_array_add(stack, g_canonicalize_filename(sec->file, NULL));
		if (!expand_entries(file, entries, sec->entries, base_dir, stack,
				    docs, error))
			return FALSE;
		g_ptr_array_set_size(stack, 0);

		if (global) {
			t.job = priv->def;
			t.rw_file = &priv->def_rw_file;
			t.rw_line = &priv->def_rw_line;
			t.record = file->global_options;
			if (!apply_section(file, &t, entries, env, error))
				return FALSE;
			continue;
		}

		/* fio get_new_job(): a copy of the template, named after the section */
		job = fio_job_copy(priv->def);
		set_str(&job->name, sec->name);
		set_str(&job->section, sec->name);
		job->file = sec_file;
		job->line = sec->line;
		rw_file = priv->def_rw_file;
		rw_line = priv->def_rw_line;
		t.job = job;
		t.rw_file = &rw_file;
		t.rw_line = &rw_line;
		t.record = job->options;
		if (!apply_section(file, &t, entries, env, error) ||
		    !check_job(file, job, rw_file, rw_line, error)) {
			fio_job_free(job);
			return FALSE;
		}
		if (stonewall_next) {
			job->stonewall = TRUE;
			stonewall_next = FALSE;
		}
		if (!add_job(priv, job, error)) {
			fio_job_free(job);
			return FALSE;
		}
	}
	return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Public entry points                                                      */

static gboolean fio_env_check(const struct wbsim_fio_env *env, GError **error)
{
	if (!env || !env->ncpus || !env->pagesize || !env->mb_memory) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
			    "the simulated machine for $ncpus/$mb_memory/$pagesize is missing or has a zero field");
		return FALSE;
	}
	return TRUE;
}

static gboolean fio_parse_doc(struct wbsim_fio_file *file, const char *text,
			      gssize len, const char *name, const char *base_dir,
			      const struct wbsim_fio_env *env,
			      gboolean implicit_stonewall, GError **error)
{
	struct wbsim_ini_doc *doc = NULL;
	gboolean ok;

	if (!wbsim_ini_lex(text, len, name, WBSIM_INI_INCLUDE, &doc, error))
		return FALSE;
	fio_intern_file(file, name);
	ok = wbsim_fio_parse_sections(file, doc->sections, base_dir, env,
				      implicit_stonewall, error);
	wbsim_ini_doc_free(doc);
	return ok;
}

gboolean wbsim_fio_parse_string(const char *text, gssize len,
				const char *display_name, const char *base_dir,
				const struct wbsim_fio_env *env,
				struct wbsim_fio_file **out, GError **error)
{
	struct wbsim_fio_file *file;

	wbsim_check_arg(text != NULL && out != NULL, FALSE, error);
	if (!fio_env_check(env, error))
		return FALSE;
	file = wbsim_fio_file_new();
	if (!fio_parse_doc(file, text, len, display_name ? display_name : "<string>",
			   base_dir, env, FALSE, error)) {
		wbsim_fio_file_free(file);
		return FALSE;
	}
	*out = file;
	return TRUE;
}

gboolean wbsim_fio_parse_files(const char *const *paths,
			       const struct wbsim_fio_env *env,
			       struct wbsim_fio_file **out, GError **error)
{
	struct wbsim_fio_file *file;
	guint i;

	wbsim_check_arg(paths != NULL && paths[0] != NULL && out != NULL, FALSE, error);
	if (!fio_env_check(env, error))
		return FALSE;
	file = wbsim_fio_file_new();
	for (i = 0; paths[i]; i++) {
		g_autofree char *text = NULL, *dir = NULL;
		g_autoptr(GError) local = NULL;
		gsize len;

		if (!wbsim_read_file(paths[i], WBSIM_TEXT_FILE_MAX, &text, &len, &local)) {
			wbsim_read_file_error(error, paths[i], local);
			wbsim_fio_file_free(file);
			return FALSE;
		}
		dir = g_path_get_dirname(paths[i]);
		if (!fio_parse_doc(file, text, len, paths[i], dir, env, i > 0,
				   error)) {
			wbsim_fio_file_free(file);
			return FALSE;
		}
	}
	*out = file;
	return TRUE;
}

gboolean wbsim_fio_parse_file(const char *path,
			      const struct wbsim_fio_env *env,
			      struct wbsim_fio_file **out, GError **error)
{
	const char *paths[] = { path, NULL };

	wbsim_check_arg(path != NULL, FALSE, error);
	return wbsim_fio_parse_files(paths, env, out, error);
}
