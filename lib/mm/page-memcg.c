/* SPDX-License-Identifier: MIT */
/*
 * page-memcg.c - per-page memcg ids of a mapping (the kernel keeps
 * folio->memcg_data in each folio; the simulator's page cache has no
 * per-page structure, so the ids live in sparse chunks beside it).
 */
#include "mm/page-memcg.h"
#include "mm/memcontrol.h"

#define CHUNK_SHIFT 6
#define CHUNK_PAGES (UINT64_C(1) << CHUNK_SHIFT)

/*
 * The first chunk is held inline, the others in a hash table made for the
 * second: most files of a many-file workload have one chunk, and a hash
 * table each was some 300 bytes of 500,000 files' memory.
 */
struct wbsim_page_memcg {
	uint64_t first_index;	/* chunk index of @first */
	uint16_t *first;	/* uint16_t[CHUNK_PAGES], or NULL */
	GHashTable *chunks;	/* chunk index (uint64_t *) -> uint16_t[CHUNK_PAGES], or NULL */
	/* the last chunk looked up: writes and writeback walk in order */
	uint64_t last_index;
	uint16_t *last;
};

static guint chunk_hash(gconstpointer p)
{
	uint64_t v = *(const uint64_t *)p;

	return (guint)(v ^ (v >> 32));
}

static gboolean chunk_equal(gconstpointer a, gconstpointer b)
{
	return *(const uint64_t *)a == *(const uint64_t *)b;
}

struct wbsim_page_memcg *wbsim_page_memcg_new(void)
{
	struct wbsim_page_memcg *pm = g_new0(struct wbsim_page_memcg, 1);

	pm->last_index = UINT64_MAX;
	return pm;
}

void wbsim_page_memcg_free(struct wbsim_page_memcg *pm)
{
	if (!pm)
		return;
	if (pm->chunks)
		g_hash_table_destroy(pm->chunks);
	g_free(pm->first);
	g_free(pm);
}

static uint16_t *chunk_of(const struct wbsim_page_memcg *pm, uint64_t c)
{
	struct wbsim_page_memcg *mut = (struct wbsim_page_memcg *)pm;
	uint16_t *ids;

	if (c == pm->last_index)
		return pm->last;
	if (pm->first && c == pm->first_index)
		ids = pm->first;
	else
		ids = pm->chunks ? g_hash_table_lookup(pm->chunks, &c) : NULL;
	/* remember only hits: a miss may be filled by a later set */
	if (ids) {
		mut->last_index = c;
		mut->last = ids;
	}
	return ids;
}

unsigned int wbsim_page_memcg_get(const struct wbsim_page_memcg *pm, uint64_t index)
{
	const uint16_t *ids;

	if (!pm)
		return WBSIM_ROOT_MEMCG_ID;
	ids = chunk_of(pm, index >> CHUNK_SHIFT);
	if (!ids || !ids[index & (CHUNK_PAGES - 1)])
		return WBSIM_ROOT_MEMCG_ID;
	return ids[index & (CHUNK_PAGES - 1)];
}

void wbsim_page_memcg_set(struct wbsim_page_memcg *pm, uint64_t index, unsigned int id)
{
	uint64_t c = index >> CHUNK_SHIFT;
	uint16_t *ids = chunk_of(pm, c);

	if (!ids) {
		uint64_t *key;

		if (id == WBSIM_ROOT_MEMCG_ID)
			return;	/* absent means root */
		ids = g_new0(uint16_t, CHUNK_PAGES);
		if (!pm->first) {
			pm->first = ids;
			pm->first_index = c;
		} else {
			if (!pm->chunks)
				pm->chunks = g_hash_table_new_full(chunk_hash, chunk_equal,
								   g_free, g_free);
			key = g_new(uint64_t, 1);
			*key = c;
			g_hash_table_insert(pm->chunks, key, ids);
		}
		pm->last_index = c;
		pm->last = ids;
	}
	g_assert(id <= UINT16_MAX);
	ids[index & (CHUNK_PAGES - 1)] = id == WBSIM_ROOT_MEMCG_ID ? 0 : (uint16_t)id;
}

size_t wbsim_page_memcg_mem_bytes(const struct wbsim_page_memcg *pm)
{
	if (!pm)
		return 0;
	size_t n = (pm->first ? 1 : 0) + (pm->chunks ? g_hash_table_size(pm->chunks) : 0);

	return sizeof(*pm) + n * (CHUNK_PAGES * sizeof(uint16_t) + sizeof(uint64_t) +
				  3 * sizeof(void *));
}
