/* SPDX-License-Identifier: MIT */
/*
 * scenario/config-private.h - internals of the configuration: the private
 * state of struct wbsim_config, the key table's lookups, the loader's
 * hooks, events and [measure] moments. The values themselves are parsed,
 * printed and described by the one grammar of core/param.h.
 */
#ifndef WBSIM_SCENARIO_CONFIG_PRIVATE_H
#define WBSIM_SCENARIO_CONFIG_PRIVATE_H

#include "scenario/config.h"
#include "core/ini-lexer.h"
#include "defs/setting.h"
#include "core/param.h"

/* Where a value came from: a file and line, "override", or the default. */
struct wbsim_config_origin {
	char *file;		/* NULL = default */
	unsigned int line;	/* 0 for options */
	unsigned int instance;	/* which loaded file (duplicate detection) */
	char *raw;		/* the value as written */
};

/**
 * struct wbsim_config_private - what struct wbsim_config keeps hidden
 * @origins: one per row of the key table
 * @fio_sections: inline fio sections (struct wbsim_ini_section *, names
 *	without the "fio:" prefix), in file order
 * @fio_sections_file: file of the first inline fio section
 * @fio_sections_line: its line
 * @fio_sections_instance: the loaded file that holds them
 * @fio_sections_dir: that file's directory (fio include lines are relative to it)
 * @next_instance: counter for wbsim_config_origin.instance
 * @sweep_lines: the [sweep] lines (struct wbsim_config_sweep_line *), in
 *	order (run/sweep.h)
 */
struct wbsim_config_private {
	struct wbsim_config_origin *origins;
	GPtrArray *fio_sections;
	char *fio_sections_file;
	unsigned int fio_sections_line;
	unsigned int fio_sections_instance;
	char *fio_sections_dir;
	unsigned int next_instance;
	GPtrArray *sweep_lines;
};

/* -- [costs] (config-costs.c) -------------------------------------------- */
struct wbsim_cpu_costs;
/* Every [costs] line a cost table key or a filesystem's "FS.KEY" cost,
 * its value in the row's grammar; messages name the line. */
gboolean wbsim_config_check_costs(const struct wbsim_config *cfg, GError **error);
/* The run's cost table: the built-in profile, then [costs]' table keys. */
gboolean wbsim_config_costs_apply(const struct wbsim_config *cfg,
				  struct wbsim_cpu_costs *costs, GError **error);
/*
 * The settings wbsim_fs_new() takes for the scenario's filesystem: its
 * [costs] "TYPE.KEY" lines (as KEY), then [filesystem]'s, in order; the
 * strings are @cfg's.
 */
GArray *wbsim_config_fs_settings(const struct wbsim_config *cfg);
/* --dump-config's [costs] lines after host: every cost the run takes. */
void wbsim_config_dump_costs(GString *out, const struct wbsim_config *cfg);
/* The key reference's [costs] rows, each with the built-in profile's value
 * as its default, written by @row. */
void wbsim_config_costs_markdown(GString *out,
				 void (*row)(GString *, const char *,
					     const struct wbsim_param *, const char *));

/* One [sweep] line, KEY = VALUES, as read (checked by run/sweep.c). */
struct wbsim_config_sweep_line {
	char *key;		/* "section.key" */
	char *value;
	char *file;
	unsigned int line;
	unsigned int instance;
	char *base_dir;		/* the file's directory (for file-name values) */
};
void wbsim_config_sweep_line_free(gpointer data);

/* -- the scenario key table (config.c) ----------------------------------- */
/* Row of the table for [@section] @key, or NULL. */
const struct wbsim_param *wbsim_config_find_key(const char *section,
						const char *key, size_t *index);
/* TRUE if @section is a section of the scenario file (not fio:*). */
gboolean wbsim_config_is_section(const char *section);

/*
 * wbsim_config_set_value() - set [@section] @key = @value, as a line at
 * @file:@line (@line 0: @file is a parameter's name such as "override") read in
 * loaded-file @instance. Relative paths are resolved against @base_dir.
 * Errors are fully formatted: "FILE:LINE: [section] key = value: ...".
 */
gboolean wbsim_config_set_value(struct wbsim_config *cfg, const char *section,
				const char *key, const char *value,
				const char *file, unsigned int line,
				unsigned int instance, const char *base_dir,
				GError **error);

/*
 * The most samples of the time series a run takes ([run] series_interval
 * apart): what bounds a run's simulated length against its memory and time.
 * 10^6 is 27.8 hours at the default 100 ms.
 */
#define WBSIM_RUN_MAX_SAMPLES 1000000u
/*
 * "FILE:LINE: [SECTION] KEY = RAW" of the line that set a scenario key
 * ("override: ..." for an override), "[SECTION] KEY (the default)" if none did.
 */
char *wbsim_config_key_where(const struct wbsim_config *cfg, const char *section,
			     const char *key);

/* -- scenario loader (scenario.c) ---------------------------------------- */
/*
 * wbsim_scenario_read() - a scenario file read and checked as far as the
 * scenario itself goes: its keys, includes, overrides, fio job file and
 * events, with @hook (if not NULL) called after the overrides and before
 * the checks (a sweep point's values). The public loaders
 * (wbsim_scenario_load(), run/scenario-load.c) then build the machine
 * once, as a run would, to refuse at load what the run would refuse.
 * wbsim_scenario_read_string(): the same of a text.
 */
typedef gboolean (*wbsim_scenario_hook)(struct wbsim_config *cfg, void *arg,
					GError **error);
struct wbsim_scenario;
struct wbsim_scenario *wbsim_scenario_read(const char *path, const char *const *overrides,
					   wbsim_scenario_hook hook, void *arg, GError **error);
struct wbsim_scenario *wbsim_scenario_read_string(const char *text, const char *display_name,
						  const char *base_dir,
						  const char *const *overrides, GError **error);

/* -- events (config-events.c) -------------------------------------------- */
/*
 * wbsim_config_parse_event() - parse "TIME ACTION [ARGS]" into @ev (its
 * file and line are left to the caller). The error message is the reason.
 */
gboolean wbsim_config_parse_event(const char *value,
				  struct wbsim_config_event *ev,
				  GError **error);
void wbsim_config_event_free(gpointer data);

/*
 * struct wbsim_config_event_line - an [events] line as loaded: the public
 * struct (cfg->events holds a pointer to it, so it comes first), the
 * action's row in the action table (scenario/event-actions.c) and its arguments,
 * parsed once when the line was read. Allocate with
 * wbsim_config_event_new(); every event of cfg->events is one.
 */
struct wbsim_event_action;
struct wbsim_config_event_line {
	struct wbsim_config_event ev;
	const struct wbsim_event_action *action;
	void *args;
};
struct wbsim_config_event *wbsim_config_event_new(void);

static inline const struct wbsim_config_event_line *
wbsim_config_event_line(const struct wbsim_config_event *ev)
{
	return (const struct wbsim_config_event_line *)ev;
}

/* -- [measure] moments (config-measure.c) -------------------------------- */
/*
 * wbsim_config_parse_moment() - parse a MOMENT of [measure] extents into
 * @mo (its file and line are left to the caller); a moment already in
 * @earlier (struct wbsim_config_moment *) is an error. The error message
 * is the reason.
 */
gboolean wbsim_config_parse_moment(const char *value, const GPtrArray *earlier,
				   struct wbsim_config_moment *mo,
				   GError **error);
void wbsim_config_moment_free(gpointer data);
void wbsim_config_override_free(gpointer data);

/* The device layer's section ops (config-device.c). */
extern const struct wbsim_config_section_ops wbsim_device_section_ops;
/* The filesystem layer's section ops (config-fs.c). */
extern const struct wbsim_config_section_ops wbsim_fs_section_ops;

/*
 * A scratch machine on which the device (and filesystem) of a scenario is
 * built once to check its parameters (config-device.c).
 */
struct wbsim_device;
struct wbsim_config_scratch {
	wbsim_sim *sim;
	wbsim_cpus *cpus;
	struct wbsim_device *dev;
};
/* Build the scenario's device on a scratch machine @sc (as its check at
 * load does); FALSE with @error set where it cannot be built. */
gboolean wbsim_config_scratch_device(const struct wbsim_config *cfg,
				     struct wbsim_config_scratch *sc, GError **error);
/*
 * wbsim_config_explain_costs() - what one buffered 4 KiB write and one
 * written-back 4 KiB page cost on @cfg's machine, step by step, for
 * wbsim_scenario_explain_costs() (explain-costs.c); @fio's first job gives
 * the engine, @name names the scenario.
 */
struct wbsim_fio_file;
char *wbsim_config_explain_costs(const struct wbsim_config *cfg,
				 const struct wbsim_fio_file *fio, const char *name,
				 GError **error);
/* Free the scratch machine and zero @sc. */
void wbsim_config_scratch_clear(struct wbsim_config_scratch *sc);
/* struct wbsim_setting copies (pointing into @overrides) of overrides. */
GArray *wbsim_config_settings(const GPtrArray *overrides);

/*
 * wbsim_config_check_events() - the checks of [events] that need the
 * workload: a cgroup-move names a job of @fio. Errors name file and line.
 */
struct wbsim_fio_file;
gboolean wbsim_config_check_events(const struct wbsim_config *cfg,
				   const struct wbsim_fio_file *fio, GError **error);


#endif /* WBSIM_SCENARIO_CONFIG_PRIVATE_H */
