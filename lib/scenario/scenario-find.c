/* SPDX-License-Identifier: MIT */
/*
 * scenario-find.c - scenarios found by name (wbsim/scenario.h:
 * wbsim_scenario_find(), _dirs(), _list()): "e1-pmem-xfs-parallel" is
 * the bundled scenario wherever the program runs from, searched in the
 * folders device presets are (core/data-dirs.h).
 */
#include <string.h>
#include <sys/stat.h>

#include <wbsim/error.h>
#include <wbsim/scenario.h>
#include "core/arg-check.h"
#include "core/data-dirs.h"
#include "core/param.h"
#include "core/read-file.h"

/*
 * How much of a scenario file --list-scenarios reads for its description:
 * the [scenario] section comes first in every bundled one, and a file of
 * any size costs no more than this.
 */
#define DESCRIPTION_HEAD_MAX ((gsize)64 << 10)

char **wbsim_scenario_dirs(void)
{
	return wbsim_data_dirs(&wbsim_data_scenarios);
}

/* Fail for @name, found nowhere: the folders searched, a near name. */
static void set_not_found(const char *name, const char *file, gboolean is_dir,
			  GError **error)
{
	g_auto(GStrv) dirs = wbsim_scenario_dirs();
	g_auto(GStrv) names = wbsim_data_names(&wbsim_data_scenarios);
	g_autofree char *searched = g_strjoinv(", ", dirs);
	g_autofree char *bare = g_str_has_suffix(name, ".ini") ?
		g_strndup(name, strlen(name) - 4) : g_strdup(name);
	const char *near = wbsim_closest_name(bare, (const char *const *)names);

	g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_MISSING,
		    "no scenario %s: %s, and no %s in %s%s%s%s", name,
		    is_dir ? "a folder, not a file" : "no such file", file, searched,
		    near ? " (did you mean " : "", near ? near : "", near ? "?)" : "");
}

char *wbsim_scenario_find(const char *name, GError **error)
{
	g_autofree char *file = NULL;
	struct stat st;
	gboolean here;
	char *path;

	wbsim_check_arg(name != NULL, NULL, error);
	if (!*name) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_ARGUMENT,
			    "an empty scenario name: expected a scenario file or the name of a bundled scenario");
		return NULL;
	}
	/*
	 * A path, or a file of that name here: what the caller named (the
	 * loader tells what is wrong with it). A folder here does not hide
	 * the bundled scenario of its name.
	 */
	here = stat(name, &st) == 0;
	if (strchr(name, '/') || (here && !S_ISDIR(st.st_mode)))
		return g_strdup(name);
	file = g_str_has_suffix(name, ".ini") ? g_strdup(name) : g_strconcat(name, ".ini", NULL);
	if (!wbsim_data_find(&wbsim_data_scenarios, file, &path, error))
		return NULL;
	if (!path)
		set_not_found(name, file, here, error);
	return path;
}

/*
 * @s for a terminal: a control character (C0, DEL, C1) or a byte that is
 * not UTF-8 as "\xNN", so that a description holding an escape sequence
 * is shown, not obeyed.
 */
static void append_escaped(GString *out, const char *s)
{
	const char *end = s + strlen(s);

	while (s < end) {
		gunichar c = g_utf8_get_char_validated(s, end - s);

		if (c == (gunichar)-1 || c == (gunichar)-2) {
			g_string_append_printf(out, "\\x%02x", (unsigned char)*s);
			s++;
		} else if (g_unichar_iscntrl(c)) {
			g_string_append_printf(out, "\\x%02x", (unsigned int)c);
			s = g_utf8_next_char(s);
		} else {
			const char *next = g_utf8_next_char(s);

			g_string_append_len(out, s, next - s);
			s = next;
		}
	}
}

/*
 * The [scenario] description of @path, its first line ("" if none), from
 * the file's first DESCRIPTION_HEAD_MAX bytes.
 */
static char *scenario_description(const char *path)
{
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	gboolean in_scenario = FALSE;
	gsize len = 0;

	if (!wbsim_read_file_head(path, DESCRIPTION_HEAD_MAX, &text, &len, NULL))
		return g_strdup("");
	lines = g_strsplit(text, "\n", -1);
	for (char **l = lines; *l; l++) {
		const char *s = *l + strspn(*l, " \t");

		/* a last line cut by the head's end is not read */
		if (!l[1] && len == DESCRIPTION_HEAD_MAX)
			break;
		if (*s == '[')
			in_scenario = g_str_has_prefix(s, "[scenario]");
		else if (in_scenario && g_str_has_prefix(s, "description") &&
			 strchr(s, '=')) {
			char *v = g_strdup(strchr(s, '=') + 1);

			return g_strstrip(v);
		}
	}
	return g_strdup("");
}

char *wbsim_scenario_list(void)
{
	g_auto(GStrv) names = wbsim_data_names(&wbsim_data_scenarios);
	GString *out = g_string_new(NULL);

	for (char **n = names; *n; n++) {
		g_autofree char *file = g_strconcat(*n, ".ini", NULL);
		g_autofree char *path = NULL;
		g_autofree char *desc = NULL;
		g_autoptr(GString) name = g_string_new(NULL);

		if (!wbsim_data_find(&wbsim_data_scenarios, file, &path, NULL) || !path)
			continue;
		desc = scenario_description(path);
		append_escaped(name, *n);
		g_string_append_printf(out, "%-46s ", name->str);
		append_escaped(out, desc);
		g_string_append_c(out, '\n');
	}
	return g_string_free(out, FALSE);
}
