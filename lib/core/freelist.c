/* SPDX-License-Identifier: MIT */
/*
 * core/freelist.c - a pool of objects of one size with a free list (see
 * freelist.h).
 */
#include "core/freelist.h"
#include <string.h>
#include <glib.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define FL_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define FL_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define FL_POISON(p, n) ((void)(p), (void)(n))
#define FL_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

struct wbsim_freelist_chunk {
	struct wbsim_freelist_chunk *prev;
	size_t nr;			/* slots */
	_Alignas(WBSIM_FREELIST_ALIGN) char slots[];
};

void wbsim_freelist_init(struct wbsim_freelist *fl, size_t size)
{
	*fl = (struct wbsim_freelist){ 0 };
	size = MAX(size, sizeof(void *));
	fl->size = (size + WBSIM_FREELIST_ALIGN - 1) / WBSIM_FREELIST_ALIGN * WBSIM_FREELIST_ALIGN;
}

/* A new chunk, twice the last one's slots (WBSIM_FREELIST_CHUNK_MIN..MAX). */
static void freelist_grow(struct wbsim_freelist *fl)
{
	size_t nr = fl->chunks ? MIN(fl->chunks->nr * 2, WBSIM_FREELIST_CHUNK_MAX)
			       : WBSIM_FREELIST_CHUNK_MIN;
	struct wbsim_freelist_chunk *c = g_malloc(sizeof(*c) + nr * fl->size);

	c->prev = fl->chunks;
	c->nr = nr;
	fl->chunks = c;
	fl->next = c->slots;
	fl->end = c->slots + nr * fl->size;
}

void *wbsim_freelist_alloc(struct wbsim_freelist *fl)
{
	void *obj = fl->free;

	if (obj) {
		fl->free = *(void **)obj;
		FL_UNPOISON(obj, fl->size);
	} else {
		if (fl->next == fl->end)
			freelist_grow(fl);
		obj = fl->next;
		fl->next += fl->size;
	}
	fl->nr_live++;
	return memset(obj, 0, fl->size);
}

void wbsim_freelist_free(struct wbsim_freelist *fl, void *obj)
{
	*(void **)obj = fl->free;
	fl->free = obj;
	fl->nr_live--;
	/* the link word stays readable: the next alloc follows it */
	FL_POISON((char *)obj + sizeof(void *), fl->size - sizeof(void *));
}

void wbsim_freelist_clear(struct wbsim_freelist *fl, void (*live)(void *obj, void *data),
			  void *data)
{
	size_t size = fl->size;

	if (live && fl->nr_live) {
		/* teardown only: which slots are on the free list */
		GHashTable *ended = g_hash_table_new(NULL, NULL);
		GPtrArray *order = g_ptr_array_new();

		for (void *obj = fl->free; obj; obj = *(void **)obj)
			g_hash_table_add(ended, obj);
		for (struct wbsim_freelist_chunk *c = fl->chunks; c; c = c->prev)
			g_ptr_array_add(order, c);
		/* oldest chunk first; the newest one is used up to fl->next */
		for (guint i = order->len; i-- > 0;) {
			struct wbsim_freelist_chunk *c = order->pdata[i];
			char *end = i == 0 ? fl->next : c->slots + c->nr * size;

			for (char *obj = c->slots; obj < end; obj += size)
				if (!g_hash_table_contains(ended, obj))
					live(obj, data);
		}
		g_ptr_array_free(order, TRUE);
		g_hash_table_destroy(ended);
	}
	while (fl->chunks) {
		struct wbsim_freelist_chunk *c = fl->chunks;

		fl->chunks = c->prev;
		FL_UNPOISON(c->slots, c->nr * size);
		g_free(c);
	}
	wbsim_freelist_init(fl, size);
}
