/* SPDX-License-Identifier: MIT */
/*
 * core/host-profile.c - the built-in host profile, lexed once from the text
 * lib/core/embed-text.py made of the file lib/core/meson.build names
 * (default_host_profile: lib/core/hosts/lab-v1272.inc), with the comment
 * that stands above each of its values: where the value comes from.
 */
#include <string.h>

#include "core/host-profile.h"

/* host-profile-default.c, generated */
extern const char wbsim_host_profile_text[];
extern const char wbsim_host_profile_text_name[];

struct host_profile {
	struct wbsim_ini_doc *doc;
	GHashTable *by_key;		/* key -> struct wbsim_ini_entry * */
	GPtrArray *keys;		/* const char *, NULL-terminated */
	GHashTable *sources;		/* key -> char *: the comment above it */
	const char *host;		/* [costs] host */
};

/*
 * The ';' lines right above line @line (1-based) of @lines, joined with
 * blanks (a word broken at its hyphen joined again), their "; " and a
 * leading "KEY: " taken off: the profile's own
 * words for where @key's value comes from ("" where none stands there).
 */
static char *comment_above(char **lines, unsigned int line, const char *key)
{
	GString *out = g_string_new(NULL);
	unsigned int first = line - 1;	/* index of the value's line */
	g_autofree char *lead = g_strconcat(key, ":", NULL);

	while (first > 0 && lines[first - 1][0] == ';')
		first--;
	for (unsigned int i = first; i + 1 < line; i++) {
		const char *t = lines[i] + 1;

		while (*t == ' ')
			t++;
		/* a word the profile's writer broke at its hyphen ("cal-
		 * cached-xfs", Python's textwrap) joins again */
		if (out->len && !(out->len > 1 && out->str[out->len - 1] == '-' &&
				  g_ascii_isalnum(out->str[out->len - 2])))
			g_string_append_c(out, ' ');
		g_string_append(out, t);
	}
	if (g_str_has_prefix(out->str, lead)) {
		g_string_erase(out, 0, (gssize)strlen(lead));
		while (out->str[0] == ' ')
			g_string_erase(out, 0, 1);
	}
	return g_string_free(out, FALSE);
}

static gpointer profile_load(gpointer unused)
{
	struct host_profile *p = g_new0(struct host_profile, 1);
	g_autoptr(GError) error = NULL;

	(void)unused;
	g_auto(GStrv) lines = g_strsplit(wbsim_host_profile_text, "\n", -1);
	guint n_lines = g_strv_length(lines);

	p->by_key = g_hash_table_new(g_str_hash, g_str_equal);
	p->sources = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
	p->keys = g_ptr_array_new();
	p->host = "";
	if (!wbsim_ini_lex(wbsim_host_profile_text, -1, wbsim_host_profile_text_name, 0,
			   &p->doc, &error)) {
		g_critical("the built-in host profile: %s", error->message);
		g_ptr_array_add(p->keys, NULL);
		return p;
	}
	for (guint s = 0; s < p->doc->sections->len; s++) {
		const struct wbsim_ini_section *sec = p->doc->sections->pdata[s];

		if (g_strcmp0(sec->name, "costs") != 0)
			continue;
		for (guint i = 0; i < sec->entries->len; i++) {
			struct wbsim_ini_entry *e = sec->entries->pdata[i];

			/* [costs] host names the build: not a cost */
			if (strcmp(e->key, "host") == 0 && e->value)
				p->host = e->value;
			if (strcmp(e->key, "host") == 0 || !e->value)
				continue;
			if (!g_hash_table_contains(p->by_key, e->key))
				g_ptr_array_add(p->keys, e->key);
			g_hash_table_insert(p->by_key, e->key, e);
			if (e->line >= 1 && e->line <= n_lines)
				g_hash_table_insert(p->sources, e->key,
						    comment_above(lines, e->line, e->key));
		}
	}
	g_ptr_array_add(p->keys, NULL);
	return p;
}

static const struct host_profile *profile(void)
{
	static GOnce once = G_ONCE_INIT;

	return g_once(&once, profile_load, NULL);
}

const struct wbsim_ini_entry *wbsim_host_profile_lookup(const char *key)
{
	return key ? g_hash_table_lookup(profile()->by_key, key) : NULL;
}

const char *const *wbsim_host_profile_keys(void)
{
	return (const char *const *)profile()->keys->pdata;
}

const char *wbsim_host_profile_host(void)
{
	return profile()->host;
}

const char *wbsim_host_profile_source(const char *key)
{
	const char *s = key ? g_hash_table_lookup(profile()->sources, key) : NULL;

	return s ? s : "";
}

const char *wbsim_host_profile_name(void)
{
	return wbsim_host_profile_text_name;
}
