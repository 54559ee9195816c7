/* SPDX-License-Identifier: MIT */
/*
 * fs/alloc/extent-map.c - the two-level sorted-array extent map described
 * in extent-map.h.
 */
#include <stdbool.h>
#include <string.h>
#include "fs/alloc/extent-map.h"

void wbsim_emap_init(struct wbsim_emap *map, uint64_t max_delalloc,
		     uint64_t max_unwritten, uint64_t max_written)
{
	memset(map, 0, sizeof(*map));
	map->max_len[WBSIM_EXT_DELALLOC] = max_delalloc ? max_delalloc : 1;
	map->max_len[WBSIM_EXT_UNWRITTEN] = max_unwritten ? max_unwritten : 1;
	map->max_len[WBSIM_EXT_WRITTEN] = max_written ? max_written : 1;
}

void wbsim_emap_reset(struct wbsim_emap *map)
{
	map->seq++;
	for (size_t i = 0; i < map->nr_leaves; i++)
		g_free(map->index[i].leaf);
	map->nr_leaves = 0;
	map->nr_extents = 0;
	memset(map->extents, 0, sizeof(map->extents));
	memset(map->blocks, 0, sizeof(map->blocks));
}

void wbsim_emap_clear(struct wbsim_emap *map)
{
	wbsim_emap_reset(map);
	g_free(map->index);
	map->index = NULL;
	map->cap_leaves = 0;
}

static struct wbsim_extent *at(struct wbsim_emap *map, const struct wbsim_emap_cursor *cur)
{
	if (cur->leaf >= map->nr_leaves || cur->slot >= map->index[cur->leaf].nr)
		return NULL;
	return &map->index[cur->leaf].leaf->ext[cur->slot];
}

/* Leaf @i's first extent was inserted, removed or moved: refresh its key. */
static inline void leaf_key(struct wbsim_emap *map, size_t i)
{
	if (i < map->nr_leaves)
		map->index[i].key = map->index[i].leaf->ext[0].lblk;
}

/*
 * The searches below start where interpolation puts @lblk between two known
 * keys and gallop from there (steps 1, 2, 4, ... until the answer is
 * bracketed, then a binary search of the bracket). A random 4 KiB writer
 * spreads a file's extents about evenly over its blocks, so the guess is
 * within a slot or two and a seek touches two or three cache lines where a
 * binary search from the middle touches one per halving; on a map whose
 * keys are far from even the gallop costs at most twice the binary
 * search's steps. The guess only decides where the search starts: the
 * slot found is the same as a binary search's.
 */
static inline size_t interpolate(uint64_t x, uint64_t lo_key, uint64_t hi_key, size_t n)
{
	double g;

	if (x <= lo_key || hi_key <= lo_key)
		return 0;
	if (x >= hi_key)
		return n - 1;
	g = (double)(x - lo_key) / (double)(hi_key - lo_key) * (double)n;
	return g >= (double)(n - 1) ? n - 1 : (size_t)g;
}

/*
 * The first of @n sorted items whose key is above @lblk (@n if none), from
 * guess @g < @n: gallop away from the guess (1, 2, 4... items) to bracket
 * it, then a binary search. @key_at gives item @i's key; it is a constant
 * at each (inlined) call, so this costs no indirect call on the seek path.
 */
static inline __attribute__((always_inline)) size_t
gallop_above(const void *items, size_t n, size_t g, uint64_t lblk,
	     uint64_t (*key_at)(const void *items, size_t i))
{
	size_t lo, hi, step = 1;

	if (key_at(items, g) <= lblk) {
		lo = g + 1;
		for (;;) {
			size_t probe = lo + step - 1;

			if (probe >= n) {
				hi = n;
				break;
			}
			if (key_at(items, probe) > lblk) {
				hi = probe;
				break;
			}
			lo = probe + 1;
			step *= 2;
		}
	} else {
		hi = g;
		for (;;) {
			if (hi < step) {
				lo = 0;
				break;
			}
			if (key_at(items, hi - step) <= lblk) {
				lo = hi - step + 1;
				break;
			}
			hi -= step;
			step *= 2;
		}
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (key_at(items, mid) <= lblk)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static inline uint64_t index_key(const void *items, size_t i)
{
	return ((const struct wbsim_emap_index *)items)[i].key;
}

/* First index in [0, @n) whose key is above @lblk (@n if none), from guess @g < @n. */
static size_t keys_above(const struct wbsim_emap_index *index, size_t n, size_t g,
			 uint64_t lblk)
{
	return gallop_above(index, n, g, lblk, index_key);
}

/* Index of the last leaf whose first extent starts at or before @lblk (0 if none). */
static size_t find_leaf(const struct wbsim_emap *map, uint64_t lblk)
{
	const struct wbsim_emap_index *index = map->index;
	size_t n = map->nr_leaves, above;

	if (n == 1 || lblk < index[0].key)
		return 0;
	if (lblk >= index[n - 1].key)
		return n - 1;
	above = keys_above(index, n, interpolate(lblk, index[0].key, index[n - 1].key, n - 1),
			   lblk);
	return above - 1;
}

static inline uint64_t extent_end_key(const void *items, size_t i)
{
	return wbsim_ext_end(&((const struct wbsim_extent *)items)[i]);
}

/*
 * First slot of the @nr extents @ext whose extent ends after @lblk (@nr if
 * none), from guess @g < @nr. Extents are sorted and do not overlap, so
 * their ends are sorted as their starts are.
 */
static uint32_t slot_ending_after(const struct wbsim_extent *ext, uint32_t nr, uint32_t g,
				  uint64_t lblk)
{
	return (uint32_t)gallop_above(ext, nr, g, lblk, extent_end_key);
}

/*
 * Is the extent at (@l, @s) the first one that ends after @lblk? Then a
 * search for @lblk would end there, with the cursor at (@l, @s).
 */
static bool seek_ends_at(const struct wbsim_emap *map, size_t l, uint32_t s,
			 uint64_t lblk)
{
	const struct wbsim_emap_leaf *leaf, *prev;

	if (l >= map->nr_leaves)
		return false;
	leaf = map->index[l].leaf;
	if (s >= map->index[l].nr || wbsim_ext_end(&leaf->ext[s]) <= lblk)
		return false;
	if (s)
		return wbsim_ext_end(&leaf->ext[s - 1]) <= lblk;
	if (!l)
		return true;
	prev = map->index[l - 1].leaf;
	return wbsim_ext_end(&prev->ext[map->index[l - 1].nr - 1]) <= lblk;
}

/*
 * Can a seek for @lblk end in leaf @l or @l + 1? It ends in the last leaf
 * that starts at or before @lblk or in the one after, so not unless that
 * leaf is one of @l - 1 .. @l + 1. Read from the index alone: a seek at
 * random then skips the hint's extents, which are rarely in the cache.
 */
static bool hint_near(const struct wbsim_emap *map, size_t l, uint64_t lblk)
{
	const struct wbsim_emap_index *index = map->index;

	if (l >= map->nr_leaves)
		return false;
	if (l && lblk < index[l - 1].key)
		return false;
	return l + 2 >= map->nr_leaves || lblk < index[l + 2].key;
}

/* Where in leaf @l a search for @lblk starts: interpolated between the
 * leaf's key and the next leaf's, which bounds its blocks (the last leaf
 * has none: its middle). */
static inline __attribute__((always_inline)) uint32_t
slot_guess(const struct wbsim_emap *map, size_t l, uint64_t lblk)
{
	const struct wbsim_emap_index *ix = &map->index[l];

	if (l + 1 < map->nr_leaves)
		return (uint32_t)interpolate(lblk, ix[0].key, ix[1].key, ix->nr);
	return ix->nr / 2;
}

struct wbsim_extent *wbsim_emap_seek(struct wbsim_emap *map, uint64_t lblk,
				     struct wbsim_emap_cursor *cur)
{
	struct wbsim_emap_cursor h = map->hint;
	const struct wbsim_emap_index *ix;
	uint32_t lo, g;

	cur->leaf = 0;
	cur->slot = 0;
	if (!map->nr_leaves)
		return NULL;
	/*
	 * The same extent again (a write, then its reservation and the
	 * punch and set of that), or the next one (writeback walking the
	 * file): no search.
	 */
	if (hint_near(map, h.leaf, lblk)) {
		if (seek_ends_at(map, h.leaf, h.slot, lblk))
			goto found;
		if (h.slot + 1 >= map->index[h.leaf].nr) {
			h.leaf++;
			h.slot = 0;
		} else {
			h.slot++;
		}
		if (seek_ends_at(map, h.leaf, h.slot, lblk)) {
			map->hint = h;
			goto found;
		}
	}
	cur->leaf = find_leaf(map, lblk);
	ix = &map->index[cur->leaf];
	g = slot_guess(map, cur->leaf, lblk);
	lo = slot_ending_after(ix->leaf->ext, ix->nr, g, lblk);
	cur->slot = lo;
	if (lo == ix->nr && cur->leaf + 1 < map->nr_leaves) {
		cur->leaf++;
		cur->slot = 0;
	}
	map->hint = *cur;
	return at(map, cur);
found:
	*cur = h;
	return &map->index[h.leaf].leaf->ext[h.slot];
}

void wbsim_emap_prefetch(const struct wbsim_emap *map, uint64_t lblk)
{
	size_t l;

	if (!map->nr_leaves)
		return;
	/* the index is small and read often; the leaves are where a seek
	 * at random misses */
	l = find_leaf(map, lblk);
	__builtin_prefetch(&map->index[l].leaf->ext[slot_guess(map, l, lblk)]);
}

struct wbsim_extent *wbsim_emap_lookup(struct wbsim_emap *map, uint64_t lblk)
{
	struct wbsim_emap_cursor cur;
	struct wbsim_extent *e = wbsim_emap_seek(map, lblk, &cur);

	return e && e->lblk <= lblk ? e : NULL;
}

struct wbsim_extent *wbsim_emap_first(struct wbsim_emap *map, struct wbsim_emap_cursor *cur)
{
	cur->leaf = 0;
	cur->slot = 0;
	return at(map, cur);
}

struct wbsim_extent *wbsim_emap_last(struct wbsim_emap *map, struct wbsim_emap_cursor *cur)
{
	if (!map->nr_leaves) {
		cur->leaf = 0;
		cur->slot = 0;
		return NULL;
	}
	cur->leaf = map->nr_leaves - 1;
	cur->slot = map->index[cur->leaf].nr - 1;
	return at(map, cur);
}

struct wbsim_extent *wbsim_emap_next(struct wbsim_emap *map, struct wbsim_emap_cursor *cur)
{
	if (cur->leaf >= map->nr_leaves)
		return NULL;
	if (cur->slot + 1 < map->index[cur->leaf].nr) {
		cur->slot++;
	} else {
		cur->leaf++;
		cur->slot = 0;
	}
	return at(map, cur);
}

struct wbsim_extent *wbsim_emap_prev(struct wbsim_emap *map, struct wbsim_emap_cursor *cur)
{
	if (cur->slot > 0) {
		cur->slot--;
	} else {
		if (cur->leaf == 0 || cur->leaf > map->nr_leaves)
			return NULL;
		cur->leaf--;
		cur->slot = map->index[cur->leaf].nr - 1;
	}
	return at(map, cur);
}

struct wbsim_extent *wbsim_emap_prev_of(struct wbsim_emap *map, uint64_t lblk)
{
	struct wbsim_emap_cursor cur;
	struct wbsim_extent *e = wbsim_emap_seek(map, lblk, &cur);

	if (e && e->lblk < lblk)
		return e;
	if (!e) {
		/* every extent ends at or before lblk */
		return wbsim_emap_last(map, &cur);
	}
	return wbsim_emap_prev(map, &cur);
}

static struct wbsim_emap_leaf *leaf_alloc(uint32_t cap)
{
	struct wbsim_emap_leaf *leaf =
		g_malloc(sizeof(*leaf) + cap * sizeof(leaf->ext[0]));

	leaf->cap = cap;
	return leaf;
}

/* Room for one more leaf in the index. */
static void index_grow(struct wbsim_emap *map)
{
	if (map->nr_leaves < map->cap_leaves)
		return;
	map->cap_leaves = map->cap_leaves ? map->cap_leaves * 2 : 4;
	map->index = g_renew(struct wbsim_emap_index, map->index, map->cap_leaves);
}

/* Insert @e before position @cur (which may be one past the end). */
static void insert_at(struct wbsim_emap *map, struct wbsim_emap_cursor *cur,
		      const struct wbsim_extent *e)
{
	struct wbsim_emap_index *ix;
	struct wbsim_emap_leaf *leaf;

	if (!map->nr_leaves) {
		index_grow(map);
		map->index[0].leaf = leaf_alloc(WBSIM_EMAP_LEAF_MIN);
		map->index[0].nr = 0;
		map->nr_leaves = 1;
		cur->leaf = 0;
		cur->slot = 0;
	}
	if (cur->leaf >= map->nr_leaves) {
		/* one past the end: append to the last leaf */
		cur->leaf = map->nr_leaves - 1;
		cur->slot = map->index[cur->leaf].nr;
	}
	ix = &map->index[cur->leaf];
	leaf = ix->leaf;
	if (ix->nr == WBSIM_EMAP_LEAF_MAX) {
		/* split the full leaf in two halves */
		struct wbsim_emap_leaf *right = leaf_alloc(WBSIM_EMAP_LEAF_MAX);
		uint32_t half = WBSIM_EMAP_LEAF_MAX / 2, rnr = ix->nr - half;

		memcpy(right->ext, leaf->ext + half, rnr * sizeof(leaf->ext[0]));
		index_grow(map);
		memmove(map->index + cur->leaf + 2, map->index + cur->leaf + 1,
			(map->nr_leaves - cur->leaf - 1) * sizeof(map->index[0]));
		map->index[cur->leaf].nr = half;
		map->index[cur->leaf + 1].leaf = right;
		map->index[cur->leaf + 1].nr = rnr;
		map->nr_leaves++;
		leaf_key(map, cur->leaf + 1);
		if (cur->slot > half) {
			cur->leaf++;
			cur->slot -= half;
		}
		ix = &map->index[cur->leaf];
		leaf = ix->leaf;
	} else if (ix->nr == leaf->cap) {
		leaf->cap = MIN(leaf->cap * 2, WBSIM_EMAP_LEAF_MAX);
		leaf = g_realloc(leaf, sizeof(*leaf) + leaf->cap * sizeof(leaf->ext[0]));
		ix->leaf = leaf;
	}
	memmove(leaf->ext + cur->slot + 1, leaf->ext + cur->slot,
		(ix->nr - cur->slot) * sizeof(leaf->ext[0]));
	leaf->ext[cur->slot] = *e;
	ix->nr++;
	if (!cur->slot)
		leaf_key(map, cur->leaf);
	map->nr_extents++;
	map->extents[e->state]++;
	map->blocks[e->state] += e->len;
}

/* Delete the extent at @cur; @cur then points at the following one. */
static void delete_at(struct wbsim_emap *map, struct wbsim_emap_cursor *cur)
{
	struct wbsim_emap_index *ix = &map->index[cur->leaf];
	struct wbsim_emap_leaf *leaf = ix->leaf;

	map->blocks[leaf->ext[cur->slot].state] -= leaf->ext[cur->slot].len;
	map->extents[leaf->ext[cur->slot].state]--;
	map->nr_extents--;
	memmove(leaf->ext + cur->slot, leaf->ext + cur->slot + 1,
		(ix->nr - cur->slot - 1) * sizeof(leaf->ext[0]));
	ix->nr--;
	if (!ix->nr) {
		g_free(leaf);
		memmove(map->index + cur->leaf, map->index + cur->leaf + 1,
			(map->nr_leaves - cur->leaf - 1) * sizeof(map->index[0]));
		map->nr_leaves--;
		cur->slot = 0;
	} else if (!cur->slot) {
		leaf_key(map, cur->leaf);
	} else if (cur->slot == ix->nr) {
		cur->leaf++;
		cur->slot = 0;
	}
}

void wbsim_emap_punch(struct wbsim_emap *map, uint64_t lblk, uint64_t len)
{
	uint64_t end = lblk + len;
	struct wbsim_emap_cursor cur;
	struct wbsim_extent *e;

	map->seq++;
	if (!len)
		return;
	e = wbsim_emap_seek(map, lblk, &cur);
	while (e && e->lblk < end) {
		uint64_t e_end = wbsim_ext_end(e);

		if (e->lblk < lblk && e_end > end) {
			/* the range is inside e: keep the head, add the tail */
			struct wbsim_extent tail = *e;

			tail.lblk = end;
			tail.len = e_end - end;
			if (tail.state != WBSIM_EXT_DELALLOC)
				tail.pblk = e->pblk + (end - e->lblk);
			map->blocks[e->state] -= e_end - lblk;
			e->len = lblk - e->lblk;
			/* insert_at() counts the tail's blocks back in */
			wbsim_emap_next(map, &cur);
			insert_at(map, &cur, &tail);
			return;
		}
		if (e->lblk < lblk) {
			map->blocks[e->state] -= e_end - lblk;
			e->len = lblk - e->lblk;
			e = wbsim_emap_next(map, &cur);
			continue;
		}
		if (e_end > end) {
			uint64_t cut = end - e->lblk;

			map->blocks[e->state] -= cut;
			e->lblk = end;
			e->len -= cut;
			if (e->state != WBSIM_EXT_DELALLOC)
				e->pblk += cut;
			if (!cur.slot)
				leaf_key(map, cur.leaf);
			return;
		}
		delete_at(map, &cur);
		e = at(map, &cur);
	}
}

static gboolean can_merge(const struct wbsim_extent *a, const struct wbsim_extent *b)
{
	/* a directly before b */
	if (a->state != b->state || wbsim_ext_end(a) != b->lblk)
		return FALSE;
	return a->state == WBSIM_EXT_DELALLOC || a->pblk + a->len == b->pblk;
}

/* can_merge(), unless the map forbids it there (a barrier) or now (unmerged). */
static gboolean may_merge(const struct wbsim_emap *map, const struct wbsim_extent *a,
			  const struct wbsim_extent *b)
{
	if (map->no_merge || !can_merge(a, b))
		return FALSE;
	return !map->barrier || !map->barrier(map->barrier_data, b->lblk);
}

/* Set one piece of at most max_len blocks into the hole [lblk, lblk+len). */
static void set_piece(struct wbsim_emap *map, const struct wbsim_extent *n)
{
	uint64_t max = map->max_len[n->state];
	struct wbsim_emap_cursor cur, pcur;
	struct wbsim_extent *next, *prev;
	gboolean left, right;

	next = wbsim_emap_seek(map, n->lblk, &cur);
	pcur = cur;
	if (next)
		prev = wbsim_emap_prev(map, &pcur);
	else
		prev = wbsim_emap_last(map, &pcur);
	left = prev && may_merge(map, prev, n);
	right = next && may_merge(map, n, next);
	if (left && right && prev->len + n->len + next->len <= max) {
		uint64_t nlen = next->len;

		prev->len += n->len + nlen;
		map->blocks[n->state] += n->len;
		/* delete next; the count of its blocks moves into prev */
		map->blocks[n->state] += nlen;
		delete_at(map, &cur);
		return;
	}
	if (left && prev->len + n->len <= max) {
		prev->len += n->len;
		map->blocks[n->state] += n->len;
		return;
	}
	if (right && n->len + next->len <= max) {
		next->lblk = n->lblk;
		next->pblk = n->pblk;
		next->len += n->len;
		map->blocks[n->state] += n->len;
		if (!cur.slot)
			leaf_key(map, cur.leaf);
		return;
	}
	insert_at(map, &cur, n);
}

void wbsim_emap_fill_hole(struct wbsim_emap *map, uint64_t lblk, uint64_t len,
			  enum wbsim_ext_state state, uint64_t pblk)
{
	uint64_t max = map->max_len[state];

	map->seq++;
	while (len) {
		struct wbsim_extent n = {
			.lblk = lblk,
			.pblk = state == WBSIM_EXT_DELALLOC ? 0 : pblk,
			.len = MIN(len, max),
			.state = state,
		};

		set_piece(map, &n);
		lblk += n.len;
		if (state != WBSIM_EXT_DELALLOC)
			pblk += n.len;
		len -= n.len;
	}
}

void wbsim_emap_set(struct wbsim_emap *map, uint64_t lblk, uint64_t len,
		    enum wbsim_ext_state state, uint64_t pblk)
{
	if (!len)
		return;
	wbsim_emap_punch(map, lblk, len);
	wbsim_emap_fill_hole(map, lblk, len, state, pblk);
}

void wbsim_emap_set_unmerged(struct wbsim_emap *map, uint64_t lblk, uint64_t len,
			     enum wbsim_ext_state state, uint64_t pblk)
{
	map->no_merge = TRUE;
	wbsim_emap_set(map, lblk, len, state, pblk);
	map->no_merge = FALSE;
}

void wbsim_emap_set_barrier(struct wbsim_emap *map, wbsim_emap_barrier_fn fn,
			    const void *data)
{
	map->barrier = fn;
	map->barrier_data = data;
}

gboolean wbsim_emap_check(const struct wbsim_emap *map)
{
	uint64_t count = 0, blocks[WBSIM_EXT_NR_STATES] = { 0 };
	uint64_t extents[WBSIM_EXT_NR_STATES] = { 0 };
	const struct wbsim_extent *prev = NULL;

	for (size_t i = 0; i < map->nr_leaves; i++) {
		const struct wbsim_emap_leaf *leaf = map->index[i].leaf;
		uint32_t nr = map->index[i].nr;

		if (!nr || nr > leaf->cap || leaf->cap > WBSIM_EMAP_LEAF_MAX ||
		    map->index[i].key != leaf->ext[0].lblk)
			return FALSE;
		for (uint32_t s = 0; s < nr; s++) {
			const struct wbsim_extent *e = &leaf->ext[s];

			if (!e->len || e->state >= WBSIM_EXT_NR_STATES ||
			    e->len > map->max_len[e->state])
				return FALSE;
			if (prev && wbsim_ext_end(prev) > e->lblk)
				return FALSE;
			count++;
			extents[e->state]++;
			blocks[e->state] += e->len;
			prev = e;
		}
	}
	if (count != map->nr_extents || memcmp(extents, map->extents, sizeof(extents)))
		return FALSE;
	return memcmp(blocks, map->blocks, sizeof(blocks)) == 0;
}
