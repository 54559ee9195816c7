/* SPDX-License-Identifier: MIT */
/*
 * block/device.c - the device-model registry (fio's ioengine list and
 * check_engine_ops()), parameter tables applied from settings, preset files
 * and their search path, and the device object that ties a model to its
 * request queue.
 */
#include <string.h>

#include <wbsim/error.h>
#include "core/arg-check.h"
#include "core/registry.h"
#include "block/blk.h"
#include "core/ini-lexer.h"
#include "core/cpu-costs.h"
#include "core/data-dirs.h"
#include "core/param.h"

/* ------------------------------------------------------------------------ */
/* Registry                                                                 */

static const void *const builtins[] = {
	&wbsim_ideal_ops, &wbsim_pmem_ops, &wbsim_nvme_ops,
	&wbsim_hdd_ops, &wbsim_raid0_ops, &wbsim_loop_ops,
};
static struct wbsim_registry registry =
	WBSIM_REGISTRY_INIT_PARAMS("device model", struct wbsim_device_ops, builtins,
				   params, priv_size, 0);

static gboolean check_ops(const struct wbsim_device_ops *ops, GError **error)
{
	const char *name = ops->name ? ops->name : "(null)";

	if (!ops->name || !ops->name[0])
		goto bad_name;
	if (ops->version != WBSIM_DEVICE_OPS_VERSION) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
			    "device model '%s': version %u, expected %u", name,
			    ops->version, WBSIM_DEVICE_OPS_VERSION);
		return FALSE;
	}
	if (!ops->init) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
			    "device model '%s': missing hook init", name);
		return FALSE;
	}
	if ((ops->flags & WBSIM_DEVICE_SYNC_COPY) && !ops->copy_time) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
			    "device model '%s': missing hook copy_time", name);
		return FALSE;
	}
	if (!(ops->flags & WBSIM_DEVICE_SYNC_COPY) && !ops->queue_rq) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
			    "device model '%s': missing hook queue_rq", name);
		return FALSE;
	}
	return TRUE;	/* the parameter table: wbsim_registry_add() */
bad_name:
	g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
		    "device model without a name");
	return FALSE;
}

gboolean wbsim_device_register(const struct wbsim_device_ops *ops, GError **error)
{
	wbsim_check_arg(ops != NULL, FALSE, error);
	return check_ops(ops, error) && wbsim_registry_add(&registry, ops, error);
}

const struct wbsim_device_ops *wbsim_device_find_ops(const char *name)
{
	return wbsim_registry_lookup(&registry, name);
}

char **wbsim_device_model_names(void)
{
	return wbsim_registry_names(&registry);
}

static char *registry_names(void)
{
	g_auto(GStrv) names = wbsim_registry_names(&registry);

	return g_strjoinv(", ", names);
}

/* ------------------------------------------------------------------------ */
/* Parameters                                                               */

/* The parameters every device has; fields of struct wbsim_device. */
static const struct wbsim_param common_params[] = {
	{ "scheduler", WBSIM_PARAM_STRING, offsetof(struct wbsim_device, scheduler),
	  NULL, "name", 0, 0,
	  "I/O scheduler: none or mq-deadline (default: the model's)" },
	{ "nr_requests", WBSIM_PARAM_UINT, offsetof(struct wbsim_device, nr_requests),
	  "0", "requests", 0, 1e6,
	  "request queue tags; 0: as the kernel sets it" },
	{ "max_sectors_kb", WBSIM_PARAM_UINT, offsetof(struct wbsim_device, max_sectors_kb),
	  "1280", "KiB", 4, 65536,
	  "largest request in KiB (BLK_DEF_MAX_SECTORS_CAP)" },
	{ "wbt", WBSIM_PARAM_BOOL, offsetof(struct wbsim_device, wbt), "1", NULL, 0, 0,
	  "blk-wbt writeback throttling (on by default, as in the kernel)" },
	{ .name = NULL },
};

const struct wbsim_param *wbsim_device_common_params(void)
{
	return common_params;
}

static gboolean apply_one(const struct wbsim_param *p, void *base,
			  const char *model, const struct wbsim_setting *s,
			  GError **error)
{
	g_autofree char *owner = g_strdup_printf("device model %s:", model);

	return wbsim_param_apply(p, base, s ? s->value : p->def, owner,
				 s ? s->file : NULL, s ? s->line : 0, error);
}

/* The I/O schedulers a device may name (queue/scheduler). */
#define SCHEDULER_EXPECTED "expected none or mq-deadline"
static const struct {
	const char *name;
	enum wbsim_blk_sched sched;
} schedulers[] = {
	{ "none", WBSIM_SCHED_NONE },
	{ "mq-deadline", WBSIM_SCHED_MQ_DEADLINE },
};

/* The scheduler called @name into *@sched; FALSE if there is none. */
static gboolean scheduler_lookup(const char *name, enum wbsim_blk_sched *sched)
{
	for (size_t i = 0; i < G_N_ELEMENTS(schedulers); i++)
		if (strcmp(schedulers[i].name, name) == 0) {
			*sched = schedulers[i].sched;
			return TRUE;
		}
	return FALSE;
}

/* The row of @table called @key and its index, or NULL. */
static const struct wbsim_param *
find_param(const struct wbsim_param *table, const char *key, size_t *idx)
{
	const struct wbsim_param *p = wbsim_param_find(table, key);

	if (p)
		*idx = (size_t)(p - table);
	return p;
}

static char *source_of(const struct wbsim_setting *s)
{
	if (s->file && s->line)
		return g_strdup_printf("%s:%u", s->file, s->line);
	return g_strdup(s->file ? s->file : "set");
}

/* ------------------------------------------------------------------------ */
/* Devices                                                                  */

static void device_free_params(struct wbsim_device *dev)
{
	const struct wbsim_device_ops *ops = dev->ops;
	size_t n = 0;

	for (const struct wbsim_param *p = ops->params; p && p->name; p++, n++) {
		wbsim_param_free_field(p, dev->priv);
		if (dev->model_src)
			g_free(dev->model_src[n]);
	}
	g_free(dev->model_src);
	for (size_t i = 0; i < G_N_ELEMENTS(dev->common_src); i++)
		g_free(dev->common_src[i]);
	g_free(dev->scheduler);
}

void wbsim_device_free(struct wbsim_device *dev)
{
	if (!dev)
		return;
	if (dev->queue)
		wbsim_blk_queue_free(dev->queue);
	if (dev->ops->exit && dev->priv)
		dev->ops->exit(dev);
	device_free_params(dev);
	g_free(dev->priv);
	g_free(dev->name);
	g_free(dev);
}

static struct wbsim_device *
device_new(wbsim_sim *sim, wbsim_cpus *cpus, const struct wbsim_cpu_costs *costs,
	   const char *name, const char *model,
	   const struct wbsim_setting *const *settings, size_t nr, GError **error)
{
	const struct wbsim_device_ops *ops = wbsim_device_find_ops(model);
	struct wbsim_device *dev;
	size_t nparams = 0;
	enum wbsim_blk_sched sched;
	unsigned int nr_requests;

	if (!ops) {
		g_autofree char *names = registry_names();

		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_MISSING,
			    "unknown device model '%s': expected one of %s",
			    model, names);
		return NULL;
	}
	for (const struct wbsim_param *p = ops->params; p && p->name; p++)
		nparams++;

	dev = g_new0(struct wbsim_device, 1);
	dev->ops = ops;
	dev->name = g_strdup(name ? name : model);
	dev->sim = sim;
	dev->cpus = cpus;
	dev->costs = costs ? costs : wbsim_cpu_costs_default();
	dev->priv = g_malloc0(MAX(ops->priv_size, 1));
	dev->model_src = g_new0(char *, nparams + 1);

	/* defaults first, then the settings in order: a later one wins */
	for (const struct wbsim_param *p = common_params; p->name; p++)
		if (!apply_one(p, dev, model, NULL, error))
			goto fail;
	g_free(dev->scheduler);
	dev->scheduler = g_strdup(ops->default_scheduler ? ops->default_scheduler
				  : (ops->flags & WBSIM_DEVICE_ROTATIONAL) ?
				  "mq-deadline" : "none");
	for (const struct wbsim_param *p = ops->params; p && p->name; p++)
		if (p->def && !apply_one(p, dev->priv, model, NULL, error))
			goto fail;
	for (size_t i = 0; i < nr; i++) {
		const struct wbsim_setting *s = settings[i];
		const struct wbsim_param *p;
		size_t idx;

		if ((p = find_param(ops->params, s->key, &idx))) {
			if (!apply_one(p, dev->priv, model, s, error))
				goto fail;
			g_free(dev->model_src[idx]);
			dev->model_src[idx] = source_of(s);
		} else if ((p = find_param(common_params, s->key, &idx))) {
			if (strcmp(s->key, "scheduler") == 0 &&
			    !scheduler_lookup(s->value, &sched)) {
				g_autofree char *owner = g_strdup_printf("device model %s:", model);

				wbsim_param_value_error(error, WBSIM_ERROR_INVALID_VALUE,
							s->file, s->line, owner, s->key,
							s->value, SCHEDULER_EXPECTED);
				goto fail;
			}
			if (!apply_one(p, dev, model, s, error))
				goto fail;
			g_free(dev->common_src[idx]);
			dev->common_src[idx] = source_of(s);
		} else {
			g_autoptr(GString) names = g_string_new(NULL);
			g_autofree char *owner = g_strdup_printf("device model %s:", model);

			if (!wbsim_param_check_renamed(error, "device", owner, s->key, s->value,
						       s->file, s->line))
				goto fail;
			wbsim_param_append_names(names, ops->params);
			wbsim_param_append_names(names, common_params);
			wbsim_param_set_unknown_key(error, owner, s->key, names->str,
						    s->file, s->line);
			goto fail;
		}
	}
	{
		size_t idx = 0;

		for (const struct wbsim_param *p = ops->params; p && p->name;
		     p++, idx++) {
			if (!p->def && !dev->model_src[idx]) {
				g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_MISSING,
					    "device %s (model %s): required parameter "
					    "'%s' (%s) is not set", dev->name, model,
					    p->name, p->help);
				goto fail;
			}
		}
	}
	if (!scheduler_lookup(dev->scheduler, &sched)) {
		/* a model's default_scheduler: no file names it */
		g_autofree char *owner = g_strdup_printf("device %s (model %s):",
							 dev->name, model);

		wbsim_param_value_error(error, WBSIM_ERROR_INVALID_VALUE, NULL, 0,
					owner, "scheduler", dev->scheduler,
					SCHEDULER_EXPECTED);
		goto fail;
	}
	if (!ops->init(dev, error)) {
		g_prefix_error(error, "device %s (model %s): ", dev->name, model);
		goto fail;
	}
	if (dev->hw_queue_depth == 0)
		dev->hw_queue_depth = 1;
	/*
	 * Tags as the kernel sets them: the tag set's depth without a
	 * scheduler; twice min(depth, BLKDEV_DEFAULT_RQ = 128) with one
	 * (blk_mq_init_sched()).
	 */
	nr_requests = dev->nr_requests;
	if (nr_requests == 0)
		nr_requests = sched == WBSIM_SCHED_NONE ? dev->hw_queue_depth :
			      2 * MIN(dev->hw_queue_depth, 128u);
	dev->queue = wbsim_blk_queue_new(dev, sched, nr_requests,
					 (uint32_t)(dev->max_sectors_kb * 2));
	return dev;
fail:
	dev->queue = NULL;
	/* init may not have run: skip the exit hook */
	device_free_params(dev);
	g_free(dev->priv);
	g_free(dev->name);
	g_free(dev);
	return NULL;
}

struct wbsim_device *wbsim_device_new(wbsim_sim *sim, wbsim_cpus *cpus,
				      const struct wbsim_cpu_costs *costs,
				      const char *model,
				      const struct wbsim_setting *settings,
				      size_t nr_settings, GError **error)
{
	g_autofree const struct wbsim_setting **list = NULL;

	wbsim_check_arg(sim && cpus && model, NULL, error);
	wbsim_check_arg(settings || !nr_settings, NULL, error);
	list = g_new0(const struct wbsim_setting *, nr_settings + 1);
	for (size_t i = 0; i < nr_settings; i++)
		list[i] = &settings[i];
	return device_new(sim, cpus, costs, NULL, model, list, nr_settings, error);
}

/* ------------------------------------------------------------------------ */
/* Presets                                                                  */

/*
 * Presets are found as scenarios are (core/data-dirs.h): $WBSIM_PRESET_PATH,
 * then the source tree's lib/block/presets or the folders of an install.
 */
char **wbsim_device_preset_names(void)
{
	return wbsim_data_names(&wbsim_data_presets);
}

char *wbsim_device_find_preset(const char *name, GError **error)
{
	g_auto(GStrv) dirs = NULL, names = NULL;
	g_autofree char *file = NULL, *searched = NULL;
	const char *near;
	char *path;

	wbsim_check_arg(name != NULL, NULL, error);
	if (strchr(name, '/')) {
		if (g_file_test(name, G_FILE_TEST_IS_REGULAR))
			return g_strdup(name);
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_MISSING,
			    "device preset file '%s' does not exist", name);
		return NULL;
	}
	file = g_strconcat(name, ".ini", NULL);
	if (!wbsim_data_find(&wbsim_data_presets, file, &path, error))
		return NULL;
	if (path)
		return path;
	dirs = wbsim_data_dirs(&wbsim_data_presets);
	searched = g_strjoinv(", ", dirs);
	names = wbsim_device_preset_names();
	near = wbsim_closest_name(name, (const char *const *)names);
	g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_MISSING,
		    "unknown device preset '%s': no %s in %s%s%s%s", name, file,
		    dirs[0] ? searched : "(no preset directories)",
		    near ? " (did you mean " : "", near ? near : "", near ? "?)" : "");
	return NULL;
}

struct wbsim_device *
wbsim_device_new_from_preset(wbsim_sim *sim, wbsim_cpus *cpus,
			     const struct wbsim_cpu_costs *costs,
			     const char *preset,
			     const struct wbsim_setting *overrides,
			     size_t nr_overrides, GError **error)
{
	g_autofree char *path = NULL;
	g_autofree char *name = NULL;
	struct wbsim_ini_doc *doc = NULL;
	struct wbsim_ini_section *dev_sec = NULL;
	g_autoptr(GArray) preset_settings = NULL;
	g_autoptr(GPtrArray) list = NULL;
	const char *model = NULL;
	const struct wbsim_ini_entry *model_entry = NULL;
	struct wbsim_device *dev = NULL;

	wbsim_check_arg(sim && cpus && preset, NULL, error);
	wbsim_check_arg(overrides || !nr_overrides, NULL, error);
	path = wbsim_device_find_preset(preset, error);
	if (!path)
		return NULL;
	if (!wbsim_ini_lex_file(path, WBSIM_INI_OPEN_START, &doc, error))
		return NULL;
	for (guint i = 0; i < doc->sections->len; i++) {
		struct wbsim_ini_section *sec = doc->sections->pdata[i];

		/* any file may be named: its line is not quoted back */
		if (!sec->name) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_PARSE,
				    "%s:%u: not a device preset: a line before any section: "
				    "expected a [device] section of key = value lines",
				    sec->file, sec->line);
			goto out;
		}
		if (strcmp(sec->name, "device") != 0) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_UNKNOWN_KEY,
				    "%s:%u: unknown section [%s]: expected [device]",
				    sec->file, sec->line, sec->name);
			goto out;
		}
		if (dev_sec) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_PARSE,
				    "%s:%u: second [device] section: expected one",
				    sec->file, sec->line);
			goto out;
		}
		dev_sec = sec;
	}
	if (!dev_sec) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_MISSING,
			    "%s: no [device] section", path);
		goto out;
	}
	preset_settings = g_array_new(FALSE, TRUE, sizeof(struct wbsim_setting));
	for (guint i = 0; i < dev_sec->entries->len; i++) {
		struct wbsim_ini_entry *e = dev_sec->entries->pdata[i];
		struct wbsim_setting s = { e->key, e->value, e->file, e->line };

		if (!e->value) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_PARSE,
				    "%s:%u: %s: no value: expected key = value",
				    e->file, e->line, e->key);
			goto out;
		}
		/* as in scenario files: a key once (the later one silently won) */
		for (guint j = 0; j < i; j++) {
			const struct wbsim_ini_entry *o = dev_sec->entries->pdata[j];

			if (strcmp(o->key, e->key) == 0) {
				g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_PARSE,
					    "%s:%u: [device] %s = %s: duplicate key (first set at line %u)",
					    e->file, e->line, e->key, e->value, o->line);
				goto out;
			}
		}
		if (strcmp(e->key, "model") == 0) {
			model = e->value;
			model_entry = e;
			continue;
		}
		g_array_append_val(preset_settings, s);
	}
	if (!model) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_MISSING,
			    "%s:%u: [device] has no model = key", dev_sec->file,
			    dev_sec->line);
		goto out;
	}
	if (!wbsim_device_find_ops(model)) {
		g_autoptr(GError) local = NULL;

		/* device_new() words it; the preset's line goes in front */
		device_new(sim, cpus, costs, model, model, NULL, 0, &local);
		g_set_error(error, WBSIM_ERROR, local ? local->code : WBSIM_ERROR_INVALID_VALUE,
			    "%s:%u: [device] model = %s: %s", model_entry->file, model_entry->line,
			    model, local ? local->message : "unknown device model");
		goto out;
	}
	list = g_ptr_array_new();
	for (guint i = 0; i < preset_settings->len; i++)
		g_ptr_array_add(list, &g_array_index(preset_settings,
						     struct wbsim_setting, i));
	for (size_t i = 0; i < nr_overrides; i++)
		g_ptr_array_add(list, (gpointer)&overrides[i]);
	name = strchr(preset, '/') ? g_path_get_basename(preset) : g_strdup(preset);
	if (g_str_has_suffix(name, ".ini"))
		name[strlen(name) - 4] = '\0';
	dev = device_new(sim, cpus, costs, name, model,
			 (const struct wbsim_setting *const *)list->pdata,
			 list->len, error);
out:
	wbsim_ini_doc_free(doc);
	return dev;
}

/* ------------------------------------------------------------------------ */
/* Accessors                                                                */

struct wbsim_blk_queue *wbsim_device_queue(struct wbsim_device *dev)
{
	return dev->queue;
}

const char *wbsim_device_name(const struct wbsim_device *dev)
{
	return dev->name;
}

const struct wbsim_device_ops *wbsim_device_get_ops(const struct wbsim_device *dev)
{
	return dev->ops;
}

uint64_t wbsim_device_capacity(const struct wbsim_device *dev)
{
	return dev->capacity;
}

gboolean wbsim_device_rotational(const struct wbsim_device *dev)
{
	return dev->rotational;
}

void *wbsim_device_priv(struct wbsim_device *dev)
{
	return dev->priv;
}

wbsim_sim *wbsim_device_sim(struct wbsim_device *dev)
{
	return dev->sim;
}

wbsim_cpus *wbsim_device_cpus(struct wbsim_device *dev)
{
	return dev->cpus;
}

const struct wbsim_cpu_costs *wbsim_device_costs(struct wbsim_device *dev)
{
	return dev->costs;
}

void wbsim_device_set_limits(struct wbsim_device *dev, uint64_t capacity_sectors,
			     unsigned int hw_queue_depth, gboolean rotational)
{
	dev->capacity = capacity_sectors;
	dev->hw_queue_depth = MAX(hw_queue_depth, 1u);
	dev->rotational = rotational;
}

void wbsim_device_set_write_cache(struct wbsim_device *dev, gboolean volatile_cache)
{
	dev->write_cache = volatile_cache;
}

void wbsim_device_set_hw_queues(struct wbsim_device *dev, unsigned int nr_queues)
{
	g_return_if_fail(dev != NULL && nr_queues > 0);
	dev->nr_hw_queues = nr_queues;
}

void wbsim_device_end_request(struct wbsim_device *dev, struct wbsim_request *rq)
{
	wbsim_blk_queue_end_request(dev->queue, rq);
}

char *wbsim_device_describe(const struct wbsim_device *dev)
{
	GString *s = g_string_new(NULL);
	size_t idx = 0;

	g_string_append_printf(s, "model = %s\n", dev->ops->name);
	for (const struct wbsim_param *p = dev->ops->params; p && p->name;
	     p++, idx++) {
		g_autofree char *v = wbsim_param_format_value(
			p->type, (const char *)dev->priv + p->offset);

		g_string_append_printf(s, "%s = %s ; %s\n", p->name, v,
				       dev->model_src[idx] ? dev->model_src[idx]
				       : "default");
	}
	idx = 0;
	for (const struct wbsim_param *p = common_params; p->name; p++, idx++) {
		g_autofree char *v = wbsim_param_format_value(
			p->type, (const char *)dev + p->offset);

		g_string_append_printf(s, "%s = %s ; %s\n", p->name, v,
				       dev->common_src[idx] ? dev->common_src[idx]
				       : "default");
	}
	return g_string_free(s, FALSE);
}
