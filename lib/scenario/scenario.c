/* SPDX-License-Identifier: MIT */
/*
 * scenario.c - the scenario loader: reads scenario.ini through the shared
 * INI lexer (so every message has a file and line), follows [scenario]
 * include = FILE in place, applies the overrides, checks, and resolves
 * the fio workload against the simulated machine.
 *
 * Override rule: within one file a key may be set once (except repeatable
 * keys); a file read later (an include line, or the including file after
 * the include line) replaces what an earlier file set.
 */
#include <string.h>

#include <wbsim/error.h>
#include <wbsim/scenario.h>
#include <wbsim/version.h>
#include "core/arg-check.h"
#include "core/ini-lexer.h"
#include "core/read-file.h"
#include "scenario/config-private.h"
#include "fio/fio-parser.h"
#include "scenario/config-sweep.h"

/* Deeper than any sane preset chain; stops runaway self-similar includes. */
#define SCENARIO_MAX_INCLUDE_DEPTH 16

struct wbsim_scenario {
	struct wbsim_config *cfg;
	struct wbsim_fio_file *fio;
	GPtrArray *docs;	/* struct wbsim_ini_doc *: own the fio sections */
	char *top_file;		/* display name of the top scenario file */
};

struct loader {
	struct wbsim_scenario *scn;
	GPtrArray *stack_canon;	/* char *: canonical names being read */
	GPtrArray *stack_shown;	/* char *: their display names */
};

static const char *file_error_reason(const GError *e)
{
	if (e->domain != G_FILE_ERROR)
		return e->message;
	switch (e->code) {
	case G_FILE_ERROR_NOENT:
		return "no such file";
	case G_FILE_ERROR_ACCES:
		return "permission denied";
	case G_FILE_ERROR_ISDIR:
		return "is a directory";
	default:
		return e->message;
	}
}

/* Read @path; on failure "WHERE: cannot read PATH: reason". */
static gboolean read_text(const char *where, const char *path, char **text,
			  gsize *len, GError **error)
{
	g_autoptr(GError) local = NULL;

	if (wbsim_read_file(path, WBSIM_TEXT_FILE_MAX, text, len, &local))
		return TRUE;
	g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_IO, "%scannot read %s: %s",
		    where, path, file_error_reason(local));
	return FALSE;
}

/* Binary garbage is refused before lexing, with the line it starts on. */
static gboolean check_text(const char *file, const char *text, gsize len,
			   GError **error)
{
	const char *end = NULL;
	unsigned int line = 1;

	if (g_utf8_validate(text, len, &end) && !memchr(text, '\0', len))
		return TRUE;
	if (!end || (gsize)(end - text) > len)
		end = memchr(text, '\0', len);
	for (const char *p = text; p < end; p++)
		line += *p == '\n';
	g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_PARSE,
		    "%s:%u: not a text file: expected UTF-8 text without NUL bytes",
		    file, line);
	return FALSE;
}

static gboolean load_text(struct loader *ld, const char *text, gsize len,
			  const char *shown, const char *base_dir,
			  GError **error);

/*
 * A scenario line before the first [section]: said in scenario terms (the
 * shared lexer words it for fio job files).
 */
static gboolean check_first_line(const char *file, const char *text,
				 gsize len, GError **error)
{
	const char *p = text, *end = text + len;
	unsigned int line = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *le = nl ? nl : end;
		g_autofree char *copy = g_strndup(p, le - p);
		char *s = wbsim_ini_strip_line(copy);

		line++;
		if (*s) {
			if (*s == '[')
				return TRUE;
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_PARSE,
				    "%s:%u: %s: outside any section: expected a [section] line first",
				    file, line, s);
			return FALSE;
		}
		p = nl ? nl + 1 : end;
	}
	return TRUE;
}

/* [scenario] include = FILE, at @e of a file whose directory is @base_dir. */
static gboolean load_include(struct loader *ld, const struct wbsim_ini_entry *e,
			     const char *base_dir, GError **error)
{
	g_autofree char *where = wbsim_param_where(e->file, e->line);
	g_autofree char *path = NULL, *canon = NULL, *text = NULL, *dir = NULL;
	gsize len;
	gboolean ok;

	if (!e->value || !*e->value) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_PARSE,
			    "%s[scenario] include: no value: expected 'include = FILE'",
			    where);
		return FALSE;
	}
	if (g_path_is_absolute(e->value) || !base_dir || strcmp(base_dir, ".") == 0)
		path = g_strdup(e->value);
	else
		path = g_build_filename(base_dir, e->value, NULL);
	canon = g_canonicalize_filename(path, NULL);
	for (guint i = 0; i < ld->stack_canon->len; i++) {
		if (strcmp(ld->stack_canon->pdata[i], canon) == 0) {
			GString *chain = g_string_new(NULL);

			for (guint j = i; j < ld->stack_shown->len; j++)
				g_string_append_printf(chain, "%s -> ",
						       (char *)ld->stack_shown->pdata[j]);
			g_string_append(chain, path);
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_PARSE,
				    "%s[scenario] include = %s: circular include: %s",
				    where, e->value, chain->str);
			g_string_free(chain, TRUE);
			return FALSE;
		}
	}
	if (ld->stack_canon->len >= SCENARIO_MAX_INCLUDE_DEPTH) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_PARSE,
			    "%s[scenario] include = %s: includes nested deeper than %d files",
			    where, e->value, SCENARIO_MAX_INCLUDE_DEPTH);
		return FALSE;
	}
	{
		g_autofree char *w = g_strdup_printf("%s[scenario] include = %s: ",
						     where, e->value);

		if (!read_text(w, path, &text, &len, error))
			return FALSE;
	}
	g_ptr_array_add(ld->stack_canon, g_steal_pointer(&canon));
	g_ptr_array_add(ld->stack_shown, g_strdup(path));
	dir = g_path_get_dirname(path);
	ok = load_text(ld, text, len, path, dir, error);
	g_ptr_array_remove_index(ld->stack_canon, ld->stack_canon->len - 1);
	g_ptr_array_remove_index(ld->stack_shown, ld->stack_shown->len - 1);
	return ok;
}

/* An inline [fio:NAME] section: keep it (the document stays alive). */
static gboolean add_fio_section(struct loader *ld, struct wbsim_ini_section *s,
				unsigned int instance, const char *base_dir,
				GError **error)
{
	struct wbsim_config_private *priv = ld->scn->cfg->priv;

	if (!s->name[4]) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_PARSE,
			    "%s:%u: [%s]: expected a job name after 'fio:' ([fio:global] or [fio:NAME])",
			    s->file, s->line, s->name);
		return FALSE;
	}
	if (priv->fio_sections->len && priv->fio_sections_instance != instance) {
		/* a later file's inline jobs replace an earlier file's */
		g_ptr_array_set_size(priv->fio_sections, 0);
	}
	if (!priv->fio_sections->len) {
		g_free(priv->fio_sections_file);
		priv->fio_sections_file = g_strdup(s->file);
		priv->fio_sections_line = s->line;
		priv->fio_sections_instance = instance;
		g_free(priv->fio_sections_dir);
		priv->fio_sections_dir = g_strdup(base_dir ? base_dir : ".");
	}
	g_ptr_array_add(priv->fio_sections, s);
	return TRUE;
}

static gboolean load_text(struct loader *ld, const char *text, gsize len,
			  const char *shown, const char *base_dir,
			  GError **error)
{
	struct wbsim_config *cfg = ld->scn->cfg;
	struct wbsim_ini_doc *doc = NULL;
	unsigned int instance;

	if (!check_text(shown, text, len, error))
		return FALSE;
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) {
		/* else "outside any section" for a line that looks like a header */
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_PARSE,
			    "%s:1: a byte order mark (U+FEFF) starts the file: expected UTF-8 text without one",
			    shown);
		return FALSE;
	}
	if (!check_first_line(shown, text, len, error))
		return FALSE;
	if (!wbsim_ini_lex(text, len, shown, 0, &doc, error))
		return FALSE;
	g_ptr_array_add(ld->scn->docs, doc);
	instance = cfg->priv->next_instance++;

	for (guint i = 0; i < doc->sections->len; i++) {
		struct wbsim_ini_section *s = doc->sections->pdata[i];

		if (g_str_has_prefix(s->name, "fio:")) {
			if (!add_fio_section(ld, s, instance, base_dir, error))
				return FALSE;
			continue;
		}
		if (!wbsim_config_is_section(s->name)) {
			/* report the header itself; set_value words it */
			return wbsim_config_set_value(cfg, s->name, "", NULL,
						      s->file, s->line, instance,
						      base_dir, error);
		}
		for (guint j = 0; j < s->entries->len; j++) {
			const struct wbsim_ini_entry *e = s->entries->pdata[j];

			if (strcmp(s->name, "scenario") == 0 &&
			    strcmp(e->key, "include") == 0) {
				if (!load_include(ld, e, base_dir, error))
					return FALSE;
				continue;
			}
			if (!wbsim_config_set_value(cfg, s->name, e->key,
						    e->value, e->file, e->line,
						    instance, base_dir, error))
				return FALSE;
		}
	}
	return TRUE;
}

/*
 * The inline [fio:NAME] sections as the fio parser wants them: names
 * without the "fio:" prefix, and fio's "include FILE" lines (lexed here as
 * a bare key, since scenario files have no include directive) as entries
 * with key "include". Shallow: entry files and lines stay the scenario's,
 * so fio's messages point into the scenario file.
 */
static gboolean is_fio_include(const struct wbsim_ini_entry *e)
{
	return !e->value && g_str_has_prefix(e->key, "include") &&
	       (e->key[7] == ' ' || e->key[7] == '\t');
}

static GPtrArray *fio_sections_for_parser(const GPtrArray *sections)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(wbsim_ini_section_free);

	for (guint i = 0; i < sections->len; i++) {
		const struct wbsim_ini_section *s = sections->pdata[i];
		struct wbsim_ini_section *c = wbsim_ini_section_new(s->name + 4, s->file,
								   s->line);

		for (guint j = 0; j < s->entries->len; j++) {
			const struct wbsim_ini_entry *e = s->entries->pdata[j];
			struct wbsim_ini_entry *ce = g_new0(struct wbsim_ini_entry, 1);

			ce->file = e->file;
			ce->line = e->line;
			if (is_fio_include(e)) {
				ce->key = g_strdup("include");
				ce->value = g_strstrip(g_strdup(e->key + 7));
			} else {
				ce->key = g_strdup(e->key);
				ce->value = g_strdup(e->value);
			}
			g_ptr_array_add(c->entries, ce);
		}
		g_ptr_array_add(out, c);
	}
	return out;
}

/*
 * A workload of [global] sections only: fio refuses it ("No job(s)
 * defined"); running nothing would look like a successful run.
 */
static gboolean check_some_job(const struct wbsim_fio_file *fio,
			       const char *file, unsigned int line,
			       GError **error)
{
	g_autofree char *where = NULL;

	if (fio->jobs->len)
		return TRUE;
	where = line ? g_strdup_printf("%s:%u", file, line) : g_strdup(file);
	g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_MISSING,
		    "%s: no job defined: expected a job section besides [global]",
		    where);
	return FALSE;
}

static gboolean resolve_workload(struct wbsim_scenario *scn, GError **error)
{
	struct wbsim_config *cfg = scn->cfg;
	struct wbsim_config_private *priv = cfg->priv;
	struct wbsim_fio_env env = {
		.ncpus = (unsigned int)cfg->cpus,
		/* MemTotal: RAM the kernel sees (memmap beyond it is refused) */
		.mb_memory = (cfg->memory - MIN(cfg->memmap, cfg->memory)) >> 20,
		.pagesize = (unsigned int)cfg->page_size,
	};
	size_t idx;

	wbsim_config_find_key("workload", "fio", &idx);
	if (cfg->fio_file && priv->fio_sections->len) {
		const struct wbsim_config_origin *o = &priv->origins[idx];
		g_autofree char *where = wbsim_param_where(o->file, o->line);

		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "%s[workload] fio = %s: the workload is also given inline ([%s] at %s:%u): expected exactly one of the two forms",
			    where, o->raw,
			    ((struct wbsim_ini_section *)priv->fio_sections->pdata[0])->name,
			    priv->fio_sections_file, priv->fio_sections_line);
		return FALSE;
	}
	if (cfg->fio_file) {
		const struct wbsim_config_origin *o = &priv->origins[idx];
		g_autofree char *where = wbsim_param_where(o->file, o->line);
		g_autofree char *w = g_strdup_printf("%s[workload] fio = %s: ",
						     where, o->raw);
		g_autofree char *text = NULL, *dir = NULL;
		gsize len;

		if (!read_text(w, cfg->fio_file, &text, &len, error))
			return FALSE;
		dir = g_path_get_dirname(cfg->fio_file);
		if (!wbsim_fio_parse_string(text, len, cfg->fio_file, dir,
					    &env, &scn->fio, error))
			return FALSE;
		return check_some_job(scn->fio, cfg->fio_file, 0, error);
	}
	if (priv->fio_sections->len) {
		g_autoptr(GPtrArray) sections =
			fio_sections_for_parser(priv->fio_sections);

		scn->fio = wbsim_fio_file_new();
		if (!wbsim_fio_parse_sections(scn->fio, sections,
					      priv->fio_sections_dir, &env,
					      FALSE, error))
			return FALSE;
		return check_some_job(scn->fio, priv->fio_sections_file,
				      priv->fio_sections_line, error);
	}
	g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_MISSING,
		    "%s: no workload: expected [workload] fio = FILE or inline [fio:NAME] sections",
		    scn->top_file);
	return FALSE;
}

void wbsim_scenario_free(struct wbsim_scenario *scn)
{
	if (!scn)
		return;
	wbsim_config_free(scn->cfg);
	wbsim_fio_file_free(scn->fio);
	g_ptr_array_unref(scn->docs);
	g_free(scn->top_file);
	g_free(scn);
}

static void doc_free(gpointer data)
{
	wbsim_ini_doc_free(data);
}

static struct wbsim_scenario *scenario_load(const char *text, gsize len,
					    const char *shown,
					    const char *base_dir,
					    const char *const *overrides,
					    wbsim_scenario_hook hook,
					    void *hook_arg, GError **error)
{
	struct wbsim_scenario *scn = g_new0(struct wbsim_scenario, 1);
	struct loader ld = { scn, NULL, NULL };
	gboolean ok;

	scn->cfg = wbsim_config_new();
	scn->docs = g_ptr_array_new_with_free_func(doc_free);
	scn->top_file = g_strdup(shown);
	ld.stack_canon = g_ptr_array_new_with_free_func(g_free);
	ld.stack_shown = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_add(ld.stack_canon, g_canonicalize_filename(shown, NULL));
	g_ptr_array_add(ld.stack_shown, g_strdup(shown));

	ok = load_text(&ld, text, len, shown, base_dir, error);
	for (size_t i = 0; ok && overrides && overrides[i]; i++)
		ok = wbsim_config_set_override(scn->cfg, overrides[i], error);
	ok = ok && (!hook || hook(scn->cfg, hook_arg, error));
	ok = ok && wbsim_config_check(scn->cfg, error);
	ok = ok && resolve_workload(scn, error);
	ok = ok && wbsim_config_check_events(scn->cfg, scn->fio, error);

	g_ptr_array_unref(ld.stack_canon);
	g_ptr_array_unref(ld.stack_shown);
	if (!ok) {
		wbsim_scenario_free(scn);
		return NULL;
	}
	return scn;
}

struct wbsim_scenario *wbsim_scenario_read(const char *path, const char *const *overrides,
					   wbsim_scenario_hook hook, void *arg, GError **error)
{
	g_autofree char *text = NULL, *dir = NULL;
	gsize len;

	wbsim_check_arg(path != NULL, NULL, error);
	{
		g_autoptr(GError) local = NULL;

		if (!wbsim_read_file(path, WBSIM_TEXT_FILE_MAX, &text, &len, &local)) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_IO,
				    "%s: cannot read: %s", path,
				    file_error_reason(local));
			return NULL;
		}
	}
	dir = g_path_get_dirname(path);
	return scenario_load(text, len, path, dir, overrides, hook, arg, error);
}

struct wbsim_scenario *wbsim_scenario_read_string(const char *text, const char *display_name,
						  const char *base_dir,
						  const char *const *overrides, GError **error)
{
	wbsim_check_arg(text != NULL, NULL, error);
	return scenario_load(text, strlen(text),
			     display_name ? display_name : "<string>",
			     base_dir, overrides, NULL, NULL, error);
}

const struct wbsim_config *wbsim_scenario_config(const struct wbsim_scenario *scn)
{
	g_return_val_if_fail(scn != NULL, NULL);
	return scn->cfg;
}

gboolean wbsim_scenario_add_sweep(struct wbsim_scenario *scn, const char *name,
				  const char *values, GError **error)
{
	wbsim_check_arg(scn != NULL && name != NULL && values != NULL, FALSE, error);
	return wbsim_sweep_add_line(scn->cfg, name, values, "wbsim_sweep_opts.sweeps", 0, 0,
				    NULL, error);
}

gboolean wbsim_scenario_workload(const struct wbsim_scenario *scn,
				 struct wbsim_scenario_workload *out, GError **error)
{
	wbsim_check_arg(scn != NULL && out != NULL, FALSE, error);
	*out = (struct wbsim_scenario_workload){ .time_limit_ns = scn->cfg->time_limit };
	for (guint i = 0; scn->fio && i < scn->fio->jobs->len; i++) {
		const struct wbsim_fio_job *job = scn->fio->jobs->pdata[i];

		out->nr_jobs++;
		out->runtime_ns = MAX(out->runtime_ns, (uint64_t)job->runtime_ns);
	}
	return TRUE;
}

const struct wbsim_fio_file *wbsim_scenario_fio(const struct wbsim_scenario *scn)
{
	g_return_val_if_fail(scn != NULL, NULL);
	return scn->fio;
}

/* What a job will do, for the summary (everything but its name and clone). */
static char *job_summary(const struct wbsim_fio_job *j)
{
	g_autofree char *bs = wbsim_format_size(j->bs[WBSIM_FIO_DDIR_WRITE]);
	g_autofree char *size = wbsim_format_size(j->size);
	GString *s = g_string_new(NULL);

	g_string_append_printf(s,
		"group=%u rw=%s bs=%s size=%s nrfiles=%u iodepth=%u ioengine=%s direct=%d",
		j->group_id, wbsim_fio_rw_name(j->rw), bs, size, j->nrfiles,
		j->iodepth, j->ioengine, j->direct ? 1 : 0);
	if (j->time_based) {
		g_autofree char *rt = wbsim_format_time(j->runtime_ns);

		g_string_append_printf(s, " time_based runtime=%s", rt);
	}
	if (j->fsync)
		g_string_append_printf(s, " fsync=%u", j->fsync);
	if (j->end_fsync)
		g_string_append(s, " end_fsync=1");
	return g_string_free(s, FALSE);
}

/*
 * One comment line per job after expansion: what the simulator will run.
 * Consecutive clones of one job that do the same are one line ("test.0-11").
 */
static void dump_job_summary(GString *out, const struct wbsim_fio_file *fio)
{
	g_string_append_printf(out, "\n# fio workload: %u job%s after numjobs expansion\n",
			       fio->jobs->len, fio->jobs->len == 1 ? "" : "s");
	for (guint i = 0; i < fio->jobs->len;) {
		const struct wbsim_fio_job *j = fio->jobs->pdata[i];
		g_autofree char *what = job_summary(j);
		guint k = i + 1;

		for (; k < fio->jobs->len; k++) {
			const struct wbsim_fio_job *n = fio->jobs->pdata[k];
			g_autofree char *nwhat = NULL;

			if (strcmp(n->name, j->name) != 0 || n->clone == 0)
				break;
			nwhat = job_summary(n);
			if (strcmp(nwhat, what) != 0)
				break;
		}
		if (k - i > 1)
			g_string_append_printf(out, "#   %s.%u-%u: %s\n", j->name,
					       j->clone,
					       ((const struct wbsim_fio_job *)fio->jobs->pdata[k - 1])->clone,
					       what);
		else
			g_string_append_printf(out, "#   %s.%u: %s\n", j->name,
					       j->clone, what);
		i = k;
	}
}

/* An fio "include FILE" line, made independent of where the dump lands. */
static char *fio_include_line(const char *key, const char *dir)
{
	const char *name = key + strlen("include");
	g_autofree char *path = NULL;

	while (*name == ' ' || *name == '\t')
		name++;
	if (g_path_is_absolute(name) || strcmp(dir, ".") == 0)
		return g_strdup(key);
	path = g_build_filename(dir, name, NULL);
	return g_strdup_printf("include %s", path);
}

static void dump_fio_sections(GString *out, const GPtrArray *sections,
			      gboolean prefixed, const char *dir)
{
	for (guint i = 0; i < sections->len; i++) {
		const struct wbsim_ini_section *s = sections->pdata[i];

		g_string_append_printf(out, "\n[fio:%s]\n",
				       prefixed ? s->name + 4 : s->name);
		for (guint j = 0; j < s->entries->len; j++) {
			const struct wbsim_ini_entry *e = s->entries->pdata[j];

			if (is_fio_include(e)) {
				g_autofree char *inc = fio_include_line(e->key, dir);

				g_string_append_printf(out, "%s\n", inc);
			} else if (e->value) {
				g_string_append_printf(out, "%s=%s\n", e->key, e->value);
			} else {
				g_string_append_printf(out, "%s\n", e->key);
			}
		}
	}
}

char *wbsim_scenario_dump(const struct wbsim_scenario *scn)
{
	const struct wbsim_config_private *priv;
	GString *out;
	g_autofree char *cfg_text = NULL;

	g_return_val_if_fail(scn != NULL, NULL);
	priv = scn->cfg->priv;
	out = g_string_new(NULL);
	cfg_text = wbsim_config_dump(scn->cfg);

	g_string_append(out, "# Scenario as resolved by sim-writeback " WBSIM_VERSION_STRING
			     ": every default explicit, the fio jobs inline.\n");
	g_string_append(out, cfg_text);
	dump_job_summary(out, scn->fio);
	if (scn->cfg->fio_file) {
		struct wbsim_ini_doc *doc = NULL;

		/* already read and parsed once: lexing again cannot fail */
		g_autofree char *dir = g_path_get_dirname(scn->cfg->fio_file);

		if (wbsim_ini_lex_file(scn->cfg->fio_file, 0, &doc, NULL))
			dump_fio_sections(out, doc->sections, FALSE, dir);
		wbsim_ini_doc_free(doc);
	} else {
		dump_fio_sections(out, priv->fio_sections, TRUE,
				  priv->fio_sections_dir);
	}
	return g_string_free(out, FALSE);
}

char *wbsim_scenario_explain_costs(const struct wbsim_scenario *scn, GError **error)
{
	wbsim_check_arg(scn != NULL, NULL, error);
	return wbsim_config_explain_costs(scn->cfg, scn->fio, scn->top_file, error);
}

char *wbsim_scenario_keys_markdown(void)
{
	return wbsim_config_keys_markdown();
}
