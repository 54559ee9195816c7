/* SPDX-License-Identifier: MIT */
/*
 * scenario-find.c - scenarios found by name (scenario-find.h), the way
 * device presets are (lib/block/device.c): a search path, then the source
 * tree's folder for the program in its build folder, or the installed
 * folder beside the program for an installed one, then the configured
 * PREFIX/share/wbsim/scenarios.
 */
#include <string.h>

#include "scenario-find.h"
#include "scenario-dirs.h"

char **wbsim_scenario_dirs(void)
{
	GPtrArray *dirs = g_ptr_array_new();
	const char *env = g_getenv("WBSIM_SCENARIO_PATH");
	g_autofree char *exe = NULL, *exe_dir = NULL;

	if (env && env[0]) {
		g_auto(GStrv) parts = g_strsplit(env, ":", -1);

		for (char **p = parts; *p; p++)
			if (**p)
				g_ptr_array_add(dirs, g_strdup(*p));
	}
	exe = g_file_read_link("/proc/self/exe", NULL);
	exe_dir = exe ? g_path_get_dirname(exe) : NULL;
	if (exe_dir && strcmp(exe_dir, WBSIM_BUILD_SIM_DIR) == 0) {
		/* the program in its build folder: the source tree's */
		g_ptr_array_add(dirs, g_strdup(WBSIM_SOURCE_SCENARIO_DIR));
	} else if (exe_dir) {
		/* installed: beside the program (BINDIR/../share/wbsim/scenarios),
		 * so a relocated or DESTDIR-staged install finds its own */
		g_ptr_array_add(dirs, g_build_filename(exe_dir, "..", WBSIM_SCENARIO_SUBDIR, NULL));
	}
	g_ptr_array_add(dirs, g_strdup(WBSIM_INSTALL_SCENARIO_DIR));
	g_ptr_array_add(dirs, NULL);
	return (char **)g_ptr_array_free(dirs, FALSE);
}

/* NAME.ini, or NAME when it already ends in .ini, in @dir; NULL if none */
static char *find_in(const char *dir, const char *arg)
{
	g_autofree char *file = g_str_has_suffix(arg, ".ini") ? g_strdup(arg)
							      : g_strconcat(arg, ".ini", NULL);
	char *path = g_build_filename(dir, file, NULL);

	if (g_file_test(path, G_FILE_TEST_IS_REGULAR))
		return path;
	g_free(path);
	return NULL;
}

char *wbsim_scenario_find(const char *arg)
{
	g_auto(GStrv) dirs = NULL;

	if (strchr(arg, '/') || g_file_test(arg, G_FILE_TEST_EXISTS) || !*arg)
		return g_strdup(arg);
	dirs = wbsim_scenario_dirs();
	for (char **d = dirs; *d; d++) {
		char *path = find_in(*d, arg);

		if (path)
			return path;
	}
	return g_strdup(arg);
}

/* The [scenario] description of @path, its first line; "" if none. */
static char *scenario_description(const char *path)
{
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	gboolean in_scenario = FALSE;

	if (!g_file_get_contents(path, &text, NULL, NULL))
		return g_strdup("");
	lines = g_strsplit(text, "\n", -1);
	for (char **l = lines; *l; l++) {
		const char *s = *l + strspn(*l, " \t");

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

static gint compare_str(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

char *wbsim_scenario_list(void)
{
	g_auto(GStrv) dirs = wbsim_scenario_dirs();
	g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	g_autoptr(GPtrArray) names = g_ptr_array_new();
	GString *out = g_string_new(NULL);

	for (char **d = dirs; *d; d++) {
		g_autoptr(GDir) dir = g_dir_open(*d, 0, NULL);
		const char *f;

		while (dir && (f = g_dir_read_name(dir))) {
			g_autofree char *path = NULL;

			if (!g_str_has_suffix(f, ".ini"))
				continue;
			path = g_build_filename(*d, f, NULL);
			if (!g_file_test(path, G_FILE_TEST_IS_REGULAR))
				continue;
			if (!g_hash_table_contains(seen, f)) {
				char *name = g_strndup(f, strlen(f) - 4);

				g_hash_table_insert(seen, g_strdup(f), scenario_description(path));
				g_ptr_array_add(names, name);
			}
		}
	}
	g_ptr_array_sort(names, compare_str);
	for (guint i = 0; i < names->len; i++) {
		g_autofree char *file = g_strconcat(names->pdata[i], ".ini", NULL);

		g_string_append_printf(out, "%-46s %s\n", (char *)names->pdata[i],
				       (char *)g_hash_table_lookup(seen, file));
		g_free(names->pdata[i]);
	}
	return g_string_free(out, FALSE);
}
