/* SPDX-License-Identifier: MIT */
/*
 * core/host-profile.c - the built-in host profile, lexed once from the text
 * lib/core/embed-text.py made of lib/core/hosts/lab-v1045.inc.
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
	const char *host;		/* [costs] host */
};

static gpointer profile_load(gpointer unused)
{
	struct host_profile *p = g_new0(struct host_profile, 1);
	g_autoptr(GError) error = NULL;

	(void)unused;
	p->by_key = g_hash_table_new(g_str_hash, g_str_equal);
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

const char *wbsim_host_profile_name(void)
{
	return wbsim_host_profile_text_name;
}
