/* SPDX-License-Identifier: MIT */
/*
 * data-dirs.c - the folders device presets and scenarios are found in by
 * name (core/data-dirs.h): where the running program and the shared
 * library are decides between the source tree and an install.
 */
#include <dlfcn.h>	/* dladdr(): _GNU_SOURCE, meson.build */
#include <string.h>
#include <sys/stat.h>

#include <wbsim/error.h>
#include "core/data-dirs.h"
#include "core/read-file.h"
#include "core/data-dirs-conf.h"

const struct wbsim_data_kind wbsim_data_presets = {
	.what = "device preset",
	.env = "WBSIM_PRESET_PATH",
	.source = "lib/block/presets",
	.subdir = "wbsim/presets",
};

const struct wbsim_data_kind wbsim_data_scenarios = {
	.what = "scenario",
	.env = "WBSIM_SCENARIO_PATH",
	.source = "scenarios",
	.subdir = "wbsim/scenarios",
};

/* TRUE if @path is inside the build tree this library was built in. */
static gboolean in_build_tree(const char *path)
{
	size_t n = strlen(WBSIM_BUILD_ROOT);

	return path && n && strncmp(path, WBSIM_BUILD_ROOT, n) == 0 && path[n] == '/';
}

/*
 * The shared libwbsim this code runs in, or NULL when it is linked
 * statically into the program (dladdr() then names the program).
 */
static char *shared_library_path(void)
{
	Dl_info info;
	g_autofree char *base = NULL;

	/* an object of the library's own: ISO C converts no function pointer */
	if (!dladdr(&wbsim_data_presets, &info) || !info.dli_fname ||
	    !g_path_is_absolute(info.dli_fname))
		return NULL;
	base = g_path_get_basename(info.dli_fname);
	if (!g_str_has_prefix(base, "libwbsim.so"))
		return NULL;
	return g_strdup(info.dli_fname);
}

/*
 * DATADIR/@subdir relative to the folder of the installed file @file
 * that lies @depth folders below PREFIX (a program in BINDIR: 1); NULL
 * when DATADIR is absolute (step 4 has it).
 */
static char *beside(const char *file, unsigned int depth, const char *subdir)
{
	g_autofree char *dir = g_path_get_dirname(file);
	g_autoptr(GString) up = g_string_new(dir);
	g_autofree char *path = NULL;

	if (g_path_is_absolute(WBSIM_DATADIR))
		return NULL;
	for (unsigned int i = 0; i < depth; i++)
		g_string_append(up, "/..");
	path = g_build_filename(up->str, WBSIM_DATADIR, subdir, NULL);
	/* "PREFIX/bin/../share/..." as "PREFIX/share/...", for messages */
	return g_canonicalize_filename(path, "/");
}

/* Folders between PREFIX and the library (LIBDIR's components); 0: unknown. */
static unsigned int libdir_depth(void)
{
	const char *libdir = WBSIM_LIBDIR;
	size_t n = strlen(WBSIM_PREFIX);
	unsigned int depth = 0;

	if (g_path_is_absolute(libdir)) {
		if (strncmp(libdir, WBSIM_PREFIX, n) != 0 || libdir[n] != '/')
			return 0;
		libdir += n;
	}
	for (const char *p = libdir; *p; p++)
		if (*p != '/' && (p == libdir || p[-1] == '/'))
			depth++;
	return depth;
}

static void add_dir(GPtrArray *dirs, char *dir)
{
	if (!dir)
		return;
	for (guint i = 0; i < dirs->len; i++) {
		if (strcmp(dirs->pdata[i], dir) == 0) {
			g_free(dir);
			return;
		}
	}
	g_ptr_array_add(dirs, dir);
}

char **wbsim_data_dirs(const struct wbsim_data_kind *kind)
{
	GPtrArray *dirs = g_ptr_array_new();
	const char *env = g_getenv(kind->env);
	g_autofree char *exe = g_file_read_link("/proc/self/exe", NULL);
	g_autofree char *lib = shared_library_path();
	g_autofree char *source = g_build_filename(WBSIM_SOURCE_ROOT, kind->source, NULL);
	gboolean in_tree = in_build_tree(exe) || in_build_tree(lib);
	unsigned int depth = libdir_depth();

	if (env && env[0]) {
		g_auto(GStrv) parts = g_strsplit(env, ":", -1);

		for (char **p = parts; *p; p++)
			if (**p)
				add_dir(dirs, g_strdup(*p));
	}
	if (in_tree)
		add_dir(dirs, g_strdup(source));
	else if (exe)
		add_dir(dirs, beside(exe, 1, kind->subdir));
	if (!in_tree && lib && depth)
		add_dir(dirs, beside(lib, depth, kind->subdir));
	add_dir(dirs, g_build_filename(WBSIM_INSTALL_DATADIR, kind->subdir, NULL));
	if (!in_tree)
		add_dir(dirs, g_strdup(source));
	g_ptr_array_add(dirs, NULL);
	return (char **)g_ptr_array_free(dirs, FALSE);
}

gboolean wbsim_data_find(const struct wbsim_data_kind *kind, const char *file,
			 char **path, GError **error)
{
	g_auto(GStrv) dirs = wbsim_data_dirs(kind);

	*path = NULL;
	for (char **d = dirs; *d; d++) {
		g_autofree char *p = g_build_filename(*d, file, NULL);
		struct stat st;

		/* stat(), not lstat(): a symbolic link to a file is that file */
		if (stat(p, &st) != 0 || S_ISDIR(st.st_mode))
			continue;
		if (!S_ISREG(st.st_mode)) {
			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_IO,
				    "%s: not a regular file (%s): expected a %s file",
				    p, wbsim_file_kind(st.st_mode), kind->what);
			return FALSE;
		}
		*path = g_steal_pointer(&p);
		return TRUE;
	}
	return TRUE;
}

static gint compare_str(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

char **wbsim_data_names(const struct wbsim_data_kind *kind)
{
	g_auto(GStrv) dirs = wbsim_data_dirs(kind);
	g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);
	GPtrArray *names = g_ptr_array_new();

	for (char **d = dirs; *d; d++) {
		g_autoptr(GDir) dir = g_dir_open(*d, 0, NULL);
		const char *f;

		while (dir && (f = g_dir_read_name(dir))) {
			g_autofree char *path = NULL;
			char *name;

			if (!g_str_has_suffix(f, ".ini") || strlen(f) == 4)
				continue;
			path = g_build_filename(*d, f, NULL);
			if (!g_file_test(path, G_FILE_TEST_IS_REGULAR))
				continue;
			name = g_strndup(f, strlen(f) - 4);
			if (g_hash_table_contains(seen, name)) {
				g_free(name);
				continue;
			}
			g_hash_table_add(seen, name);
			g_ptr_array_add(names, name);
		}
	}
	g_ptr_array_sort(names, compare_str);
	g_ptr_array_add(names, NULL);
	return (char **)g_ptr_array_free(names, FALSE);
}
