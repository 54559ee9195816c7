/* SPDX-License-Identifier: MIT */
/*
 * mm/page-cache.c - per-mapping page state in hierarchical bitmaps
 * (kernel: the page cache xarray marks DIRTY / WRITEBACK / TOWRITE and the
 * folio flags PG_dirty / PG_writeback; mm/page-writeback.c,
 * mm/truncate.c).
 *
 * Level 0 of a bitmap has one bit per page; bit j of level l + 1 is set
 * iff word j of level l is non-zero; the top level is one word. Level 0
 * has a power-of-two number of words, grown on demand to cover the
 * highest page ever marked, stored in 64-word leaves that are allocated
 * only while non-zero (one level-1 word summarises one leaf). Range
 * operations visit only the non-zero words of the bitmap that drives them
 * (found through the summaries), so their cost follows the marked pages,
 * not the file size.
 */
#include <string.h>
#include <glib.h>

#include "core/bitops.h"
#include "mm/page-cache.h"

#define WORD_BITS 64

/* ---------------------------------------------------------------------- */
/* Hierarchical bitmap                                                     */

/* Level-0 words per leaf: one level-1 word summarises one leaf. */
#define LEAF_WORDS 64

/* Where level-0 word @w is stored, or NULL while it is zero in no leaf. */
static inline const uint64_t *hbm_word_ptr(const struct wbsim_hbitmap *bm, uint64_t w)
{
	const uint64_t *leaf;

	if (!bm->nlevels || w >= bm->nwords[0])
		return NULL;
	leaf = bm->leaf[w / LEAF_WORDS];
	return leaf ? &leaf[w % LEAF_WORDS] : NULL;
}

static uint64_t hbm_word(const struct wbsim_hbitmap *bm, uint64_t w)
{
	const uint64_t *p = hbm_word_ptr(bm, w);

	return p ? *p : 0;
}

/* Word @w of level @l, for any level. */
static uint64_t hbm_level_word(const struct wbsim_hbitmap *bm, unsigned int l,
			       uint64_t w)
{
	return l ? bm->level[l][w] : hbm_word(bm, w);
}

/* Recompute level @l (l >= 1) from level l - 1. */
static void hbm_rebuild_level(struct wbsim_hbitmap *bm, unsigned int l)
{
	for (size_t j = 0; j < bm->nwords[l]; j++) {
		uint64_t v = 0;

		for (unsigned int b = 0; b < WORD_BITS; b++) {
			size_t i = j * WORD_BITS + b;

			if (i < bm->nwords[l - 1] && hbm_level_word(bm, l - 1, i))
				v |= UINT64_C(1) << b;
		}
		bm->level[l][j] = v;
	}
}

/*
 * Make level 0 cover word @w: power-of-two sizes of at least one leaf;
 * new leaf pointers and summary words are zero.
 */
static void hbm_grow(struct wbsim_hbitmap *bm, uint64_t w)
{
	unsigned int old_levels = bm->nlevels;
	size_t want = LEAF_WORDS, n;
	unsigned int l = 0;

	if (old_levels && w < bm->nwords[0])
		return;
	while (want <= w)
		want <<= 1;
	for (n = want;; n = (n + WORD_BITS - 1) / WORD_BITS) {
		size_t old = l < old_levels ? bm->nwords[l] : 0;

		if (n > old && l == 0) {
			size_t o = old / LEAF_WORDS, nl = n / LEAF_WORDS;

			bm->leaf = g_renew(uint64_t *, bm->leaf, nl);
			memset(bm->leaf + o, 0, (nl - o) * sizeof(uint64_t *));
			bm->nwords[0] = n;
		} else if (n > old) {
			bm->level[l] = g_renew(uint64_t, bm->level[l], n);
			memset(bm->level[l] + old, 0, (n - old) * sizeof(uint64_t));
			bm->nwords[l] = n;
		}
		l++;
		if (n == 1)
			break;
	}
	bm->nlevels = l;
	/* New top levels summarise the old top, which may be non-zero. */
	for (l = old_levels ? old_levels : 1; l < bm->nlevels; l++)
		hbm_rebuild_level(bm, l);
}

/*
 * Store @val in level-0 word @w, keeping weight and summaries exact; a
 * leaf is allocated on its first set bit and freed when it empties.
 */
static void hbm_store(struct wbsim_hbitmap *bm, uint64_t w, uint64_t val)
{
	const uint64_t lw = w / LEAF_WORDS;
	uint64_t *leaf, old;

	if (!bm->nlevels || w >= bm->nwords[0]) {
		if (!val)
			return;
		hbm_grow(bm, w);
	}
	leaf = bm->leaf[lw];
	if (!leaf) {
		if (!val)
			return;
		leaf = bm->leaf[lw] = g_new0(uint64_t, LEAF_WORDS);
		bm->nleaves++;
	}
	old = leaf[w % LEAF_WORDS];
	leaf[w % LEAF_WORDS] = val;
	bm->weight += wbsim_hweight64(val);
	bm->weight -= wbsim_hweight64(old);
	/* a word that stays non-zero changes no summary (the common case) */
	if (!old == !val)
		return;
	/* propagate zero <-> non-zero changes upward */
	for (unsigned int l = 1; l < bm->nlevels && !old != !val; l++) {
		uint64_t idx = w / WORD_BITS, bit = UINT64_C(1) << (w % WORD_BITS);

		old = bm->level[l][idx];
		val = val ? old | bit : old & ~bit;
		bm->level[l][idx] = val;
		w = idx;
	}
	/* level-1 word lw summarises exactly this leaf */
	if (!bm->level[1][lw]) {
		g_free(bm->leaf[lw]);
		bm->leaf[lw] = NULL;
		bm->nleaves--;
	}
}

/* Smallest set bit >= @pos of level @l, or WBSIM_PGOFF_NONE. */
static uint64_t hbm_find_level(const struct wbsim_hbitmap *bm, unsigned int l,
			       uint64_t pos)
{
	uint64_t w = pos / WORD_BITS, word, nw;

	if (w >= bm->nwords[l])
		return WBSIM_PGOFF_NONE;
	word = hbm_level_word(bm, l, w) & (~UINT64_C(0) << (pos % WORD_BITS));
	if (word)
		return w * WORD_BITS + (uint64_t)__builtin_ctzll(word);
	if (l + 1 >= bm->nlevels)
		return WBSIM_PGOFF_NONE;
	nw = hbm_find_level(bm, l + 1, w + 1);
	if (nw == WBSIM_PGOFF_NONE)
		return WBSIM_PGOFF_NONE;
	return nw * WORD_BITS +
	       (uint64_t)__builtin_ctzll(hbm_level_word(bm, l, nw));
}

static uint64_t hbm_find_next(const struct wbsim_hbitmap *bm, uint64_t pos)
{
	if (!bm->nlevels)
		return WBSIM_PGOFF_NONE;
	return hbm_find_level(bm, 0, pos);
}

/* Index of the next non-zero level-0 word >= @w, or WBSIM_PGOFF_NONE. */
static uint64_t hbm_next_word(const struct wbsim_hbitmap *bm, uint64_t w)
{
	uint64_t p = hbm_find_next(bm, w * WORD_BITS);

	return p == WBSIM_PGOFF_NONE ? p : p / WORD_BITS;
}

uint64_t wbsim_page_cache_next_word(const struct wbsim_page_cache *pc,
				    enum wbsim_pc_mark mark, uint64_t w)
{
	if (w >= WBSIM_PC_MAX_PAGES / WORD_BITS)
		return WBSIM_PGOFF_NONE;
	return hbm_next_word(&pc->marks[mark], w);
}

static void hbm_free(struct wbsim_hbitmap *bm)
{
	if (bm->nlevels)
		for (size_t i = 0; i < bm->nwords[0] / LEAF_WORDS; i++)
			g_free(bm->leaf[i]);
	g_free(bm->leaf);
	bm->leaf = NULL;
	for (unsigned int l = 0; l < WBSIM_HBITMAP_MAX_LEVELS; l++) {
		g_free(bm->level[l]);
		bm->level[l] = NULL;
		bm->nwords[l] = 0;
	}
	bm->nlevels = 0;
	bm->nleaves = 0;
	bm->weight = 0;
}

static size_t hbm_mem_bytes(const struct wbsim_hbitmap *bm)
{
	size_t s;

	if (!bm->nlevels)
		return 0;
	s = bm->nwords[0] / LEAF_WORDS * sizeof(uint64_t *) +
	    bm->nleaves * LEAF_WORDS * sizeof(uint64_t);
	for (unsigned int l = 1; l < bm->nlevels; l++)
		s += bm->nwords[l] * sizeof(uint64_t);
	return s;
}

/* ---------------------------------------------------------------------- */
/* Page cache                                                              */

/*
 * The marks of a mapping without pages: read, never written (the const
 * puts them in read-only memory, so a store into them faults). Only
 * wbsim_page_cache_mark_dirty() sets bits where none are; it gives the
 * mapping bitmaps of its own first.
 */
static const struct wbsim_hbitmap no_marks[WBSIM_PC_NR_MARKS];

static void pc_marks_reset(struct wbsim_page_cache *pc)
{
	pc->marks = (struct wbsim_hbitmap *)no_marks;
}

/* Give @pc bitmaps of its own before it gets its first page. */
static void pc_marks_own(struct wbsim_page_cache *pc)
{
	if (pc->marks == no_marks)
		pc->marks = g_new0(struct wbsim_hbitmap, WBSIM_PC_NR_MARKS);
}

/**
 * wbsim_page_cache_init() - an empty mapping
 * @pc: the state
 * @folio_pages: pages per folio: a power of two up to 2^20; 0 means 1
 *
 * Return: false (and 1-page folios) if @folio_pages is not a power of two
 * up to 2^20.
 */
bool wbsim_page_cache_init(struct wbsim_page_cache *pc, uint64_t folio_pages)
{
	memset(pc, 0, sizeof(*pc));
	pc_marks_reset(pc);
	if (folio_pages == 0)
		return true;
	if ((folio_pages & (folio_pages - 1)) || folio_pages > (1U << 20))
		return false;
	pc->folio_order = (unsigned int)__builtin_ctzll(folio_pages);
	return true;
}

/**
 * wbsim_page_cache_destroy() - free the bitmaps (the state becomes empty)
 * @pc: the state
 */
void wbsim_page_cache_destroy(struct wbsim_page_cache *pc)
{
	if (pc->marks == no_marks || !pc->marks)
		return;
	for (int m = 0; m < WBSIM_PC_NR_MARKS; m++)
		hbm_free(&pc->marks[m]);
	g_free(pc->marks);
	pc_marks_reset(pc);
}

/**
 * wbsim_page_cache_folio_pages() - pages per folio
 * @pc: the state
 *
 * Return: 1 << folio_order.
 */
uint64_t wbsim_page_cache_folio_pages(const struct wbsim_page_cache *pc)
{
	return UINT64_C(1) << pc->folio_order;
}

/**
 * wbsim_page_cache_nr() - number of pages with a mark
 * @pc: the state
 * @mark: the mark
 *
 * Return: the count (e.g. dirty pages, pages under writeback).
 */
uint64_t wbsim_page_cache_nr(const struct wbsim_page_cache *pc,
			     enum wbsim_pc_mark mark)
{
	return pc->marks[mark].weight;
}

/**
 * wbsim_page_cache_test() - does page @index have @mark?
 * @pc: the state
 * @mark: the mark
 * @index: page index
 *
 * Return: true if set.
 */
bool wbsim_page_cache_test(const struct wbsim_page_cache *pc,
			   enum wbsim_pc_mark mark, uint64_t index)
{
	if (index >= WBSIM_PC_MAX_PAGES)
		return false;
	return (hbm_word(&pc->marks[mark], index / WORD_BITS) >>
		(index % WORD_BITS)) & 1;
}

/**
 * wbsim_page_cache_mem_bytes() - memory held by the state
 * @pc: the state
 *
 * Return: bytes of the struct and all bitmap levels.
 */
size_t wbsim_page_cache_mem_bytes(const struct wbsim_page_cache *pc)
{
	size_t s = sizeof(*pc);

	if (pc->marks == no_marks)
		return s;
	s += WBSIM_PC_NR_MARKS * sizeof(*pc->marks);
	for (int m = 0; m < WBSIM_PC_NR_MARKS; m++)
		s += hbm_mem_bytes(&pc->marks[m]);
	return s;
}

/* Widen [index, index + nr) to whole folios, clipped to MAX_PAGES. */
static bool pc_range(const struct wbsim_page_cache *pc, uint64_t index,
		     uint64_t nr, uint64_t *start, uint64_t *end)
{
	uint64_t f = UINT64_C(1) << pc->folio_order;
	uint64_t e;

	if (index >= WBSIM_PC_MAX_PAGES || nr == 0)
		return false;
	e = nr > WBSIM_PC_MAX_PAGES - index ? WBSIM_PC_MAX_PAGES : index + nr;
	*start = index & ~(f - 1);
	*end = (e + f - 1) & ~(f - 1);
	return true;
}

/* Bits of word @w inside [start, end). */
static uint64_t word_mask(uint64_t w, uint64_t start, uint64_t end)
{
	uint64_t lo = w == start / WORD_BITS ? start % WORD_BITS : 0;
	uint64_t hi = w == (end - 1) / WORD_BITS ? (end - 1) % WORD_BITS :
		      WORD_BITS - 1;

	return (~UINT64_C(0) << lo) & (~UINT64_C(0) >> (WORD_BITS - 1 - hi));
}

static void pc_store(struct wbsim_page_cache *pc, enum wbsim_pc_mark mark,
		     uint64_t w, uint64_t val)
{
	if (hbm_word(&pc->marks[mark], w) != val)
		hbm_store(&pc->marks[mark], w, val);
}

static uint64_t popcount(uint64_t x)
{
	return wbsim_hweight64(x);
}

/* Bit 0 of every aligned group of @g bits (@g a power of two up to 64):
 * 0x0101...01 for 8. */
static uint64_t group_lowest_bits(unsigned int g)
{
	return g == WORD_BITS ? 1 : ~UINT64_C(0) / ((UINT64_C(1) << g) - 1);
}

/* Of the aligned groups of @g bits of @x, how many have a bit set: each
 * group's bits are folded onto its lowest (@lowest: group_lowest_bits()). */
static inline uint64_t groups_set(uint64_t x, unsigned int g, uint64_t lowest)
{
	for (unsigned int s = 1; s < g; s <<= 1)
		x |= x >> s;
	return wbsim_hweight64(x & lowest);
}

uint64_t wbsim_page_cache_count_folios(const struct wbsim_page_cache *pc,
				       enum wbsim_pc_mark mark, uint64_t folio_pages)
{
	const struct wbsim_hbitmap *bm = &pc->marks[mark];
	uint64_t count = 0;

	if (!bm->nlevels || !bm->weight)
		return 0;
	if (folio_pages == 1)
		return bm->weight;
	if (folio_pages & (folio_pages - 1)) {
		/* not a power of two: folio by folio */
		for (uint64_t pos = 0, next;
		     (next = wbsim_page_cache_next(pc, mark, pos)) != WBSIM_PGOFF_NONE;
		     pos = (next / folio_pages + 1) * folio_pages)
			count++;
		return count;
	}
	if (folio_pages < WORD_BITS) {
		/* groups of bits of the non-zero words, found from the summary
		 * level (its word l summarises leaf l) */
		unsigned int g = (unsigned int)folio_pages;
		uint64_t lowest = group_lowest_bits(g);

		for (size_t l = 0; l < bm->nwords[1]; l++)
			for (uint64_t s = bm->level[1][l]; s; s &= s - 1)
				count += groups_set(bm->leaf[l][__builtin_ctzll(s)], g, lowest);
		return count;
	}
	/* a folio spans whole words: groups of bits of the summary level,
	 * whose bit j says word j is non-zero */
	if (folio_pages / WORD_BITS <= WORD_BITS) {
		unsigned int g = (unsigned int)(folio_pages / WORD_BITS);
		uint64_t lowest = group_lowest_bits(g);

		for (size_t i = 0; i < bm->nwords[1]; i++)
			count += groups_set(bm->level[1][i], g, lowest);
		return count;
	}
	/* a folio spans whole summary words */
	for (size_t i = 0; i < bm->nwords[1]; i += folio_pages / (WORD_BITS * WORD_BITS)) {
		uint64_t any = 0;

		for (size_t j = i; j < MIN(bm->nwords[1], i + folio_pages / (WORD_BITS * WORD_BITS)); j++)
			any |= bm->level[1][j];
		count += any != 0;
	}
	return count;
}

/* Start loading the word of page @index into the cache. */
static inline void hbm_prefetch(const struct wbsim_hbitmap *bm, uint64_t index)
{
	const uint64_t *p = hbm_word_ptr(bm, index / WORD_BITS);

	if (p)
		__builtin_prefetch(p, 1);
}

void wbsim_page_cache_prefetch(const struct wbsim_page_cache *pc, uint64_t index)
{
	hbm_prefetch(&pc->marks[WBSIM_PC_PRESENT], index);
	hbm_prefetch(&pc->marks[WBSIM_PC_DIRTY], index);
}

/**
 * wbsim_page_cache_mark_dirty() - dirty a range (whole folios)
 * @pc: the state
 * @index: first page
 * @nr: number of pages
 *
 * Models the page-state part of filemap_dirty_folio() for every folio in
 * the range; pages become present (cached) and dirty.
 *
 * Return: pages that went clean -> dirty, the count the kernel accounts
 * (folio_account_dirtied()); re-dirtying a dirty page costs nothing.
 */
uint64_t wbsim_page_cache_mark_dirty(struct wbsim_page_cache *pc,
				     uint64_t index, uint64_t nr)
{
	uint64_t start, end, count = 0;

	if (!pc_range(pc, index, nr, &start, &end))
		return 0;
	pc_marks_own(pc);
	for (uint64_t w = start / WORD_BITS; w <= (end - 1) / WORD_BITS; w++) {
		uint64_t m = word_mask(w, start, end);
		uint64_t d = hbm_word(&pc->marks[WBSIM_PC_DIRTY], w);
		uint64_t p = hbm_word(&pc->marks[WBSIM_PC_PRESENT], w);

		count += popcount(m & ~d);
		/* pc_store() without its second read of the words just read */
		if ((d | m) != d)
			hbm_store(&pc->marks[WBSIM_PC_DIRTY], w, d | m);
		if ((p | m) != p)
			hbm_store(&pc->marks[WBSIM_PC_PRESENT], w, p | m);
	}
	return count;
}

/**
 * wbsim_page_cache_count() - pages with @mark in a range
 * @pc: the state
 * @mark: the mark
 * @index: first page
 * @nr: number of pages (not widened to folios)
 *
 * Return: how many of the pages [index, index + nr) have @mark; a word
 * at a time, so a write's few pages cost a word read or two.
 */
uint64_t wbsim_page_cache_count(const struct wbsim_page_cache *pc,
				enum wbsim_pc_mark mark, uint64_t index, uint64_t nr)
{
	const struct wbsim_hbitmap *bm = &pc->marks[mark];
	uint64_t end, w, count = 0;

	if (index >= WBSIM_PC_MAX_PAGES || nr == 0 || !bm->weight)
		return 0;
	end = nr > WBSIM_PC_MAX_PAGES - index ? WBSIM_PC_MAX_PAGES : index + nr;
	/* the words of the range that hold a set bit, found through the
	 * summaries (a sparse mark over a long range costs its set words) */
	wbsim_pc_for_each_marked_word(pc, mark, w, index, end)
		count += popcount(hbm_word(bm, w) & word_mask(w, index, end));
	return count;
}

/**
 * wbsim_page_cache_next() - first page at or after @index with @mark
 * @pc: the state
 * @mark: the mark
 * @index: where to start
 *
 * Return: the page index, or WBSIM_PGOFF_NONE.
 */
uint64_t wbsim_page_cache_next(const struct wbsim_page_cache *pc,
			       enum wbsim_pc_mark mark, uint64_t index)
{
	if (index >= WBSIM_PC_MAX_PAGES)
		return WBSIM_PGOFF_NONE;
	return hbm_find_next(&pc->marks[mark], index);
}

/**
 * wbsim_page_cache_next_dirty() - first dirty page at or after @index
 * @pc: the state
 * @index: where to start
 *
 * Return: the page index, or WBSIM_PGOFF_NONE.
 */
uint64_t wbsim_page_cache_next_dirty(const struct wbsim_page_cache *pc,
				     uint64_t index)
{
	return wbsim_page_cache_next(pc, WBSIM_PC_DIRTY, index);
}

/**
 * wbsim_page_cache_next_towrite() - first TOWRITE page at or after @index
 * @pc: the state
 * @index: where to start
 *
 * Return: the page index, or WBSIM_PGOFF_NONE.
 */
uint64_t wbsim_page_cache_next_towrite(const struct wbsim_page_cache *pc,
				       uint64_t index)
{
	return wbsim_page_cache_next(pc, WBSIM_PC_TOWRITE, index);
}

/**
 * wbsim_page_cache_run() - length of the run of @mark pages at @index
 * @pc: the state
 * @mark: the mark
 * @index: first page of the run
 * @max: cap on the length
 * @exclude_writeback: pages under writeback end the run
 *
 * With folios of several pages the cap is raised so that the run ends on
 * a folio boundary (the kernel writes whole folios; nr_to_write may go
 * below zero by the rest of the last folio).
 *
 * Return: number of consecutive pages from @index (0 if @index itself
 * does not qualify), at most @max (rounded up to the folio end).
 */
uint64_t wbsim_page_cache_run(const struct wbsim_page_cache *pc,
			      enum wbsim_pc_mark mark, uint64_t index,
			      uint64_t max, bool exclude_writeback)
{
	uint64_t n = 0, pos = index;
	uint64_t f = UINT64_C(1) << pc->folio_order;

	if (index >= WBSIM_PC_MAX_PAGES)
		return 0;
	if (f > 1 && max < WBSIM_PC_MAX_PAGES)
		max = ((index + max + f - 1) & ~(f - 1)) - index;
	while (n < max) {
		uint64_t w = pos / WORD_BITS, off = pos % WORD_BITS;
		uint64_t bits = hbm_word(&pc->marks[mark], w);
		uint64_t ones;

		if (exclude_writeback)
			bits &= ~hbm_word(&pc->marks[WBSIM_PC_WRITEBACK], w);
		bits >>= off;
		ones = ~bits ? (uint64_t)__builtin_ctzll(~bits) : WORD_BITS;
		n += ones;
		if (ones < WORD_BITS - off)
			break;
		pos += ones;
	}
	return n < max ? n : max;
}

/**
 * wbsim_page_cache_dirty_run() - writable dirty run at @index
 * @pc: the state
 * @index: first page
 * @max: cap on the length
 *
 * The pages a WB_SYNC_NONE writeback can put in one request: dirty and not
 * still under writeback.
 *
 * Return: the run length in pages, at most @max.
 */
uint64_t wbsim_page_cache_dirty_run(const struct wbsim_page_cache *pc,
				    uint64_t index, uint64_t max)
{
	return wbsim_page_cache_run(pc, WBSIM_PC_DIRTY, index, max, true);
}

/**
 * wbsim_page_cache_start_writeback() - clear dirty for IO, set writeback
 * @pc: the state
 * @index: first page
 * @nr: number of pages (widened to whole folios)
 * @counts: what happened
 *
 * Models folio_clear_dirty_for_io() + __folio_start_writeback() (clearing
 * TOWRITE, no keep_write) for the dirty folios of the range that are not
 * still under writeback; those are skipped as WB_SYNC_NONE does.
 */
void wbsim_page_cache_start_writeback(struct wbsim_page_cache *pc,
				      uint64_t index, uint64_t nr,
				      struct wbsim_pc_writeback_counts *counts)
{
	uint64_t start, end, w;
	bool none_before = pc->marks[WBSIM_PC_WRITEBACK].weight == 0;

	memset(counts, 0, sizeof(*counts));
	if (!pc_range(pc, index, nr, &start, &end))
		return;
	wbsim_pc_for_each_marked_word(pc, WBSIM_PC_DIRTY, w, start, end) {
		uint64_t d, wb, go, busy;
		d = hbm_word(&pc->marks[WBSIM_PC_DIRTY], w);
		wb = hbm_word(&pc->marks[WBSIM_PC_WRITEBACK], w);
		go = word_mask(w, start, end) & d & ~wb;
		busy = word_mask(w, start, end) & d & wb;
		counts->started += popcount(go);
		counts->skipped_writeback += popcount(busy);
		if (!go)
			continue;
		pc_store(pc, WBSIM_PC_DIRTY, w, d & ~go);
		pc_store(pc, WBSIM_PC_WRITEBACK, w, wb | go);
		pc_store(pc, WBSIM_PC_TOWRITE, w,
			 hbm_word(&pc->marks[WBSIM_PC_TOWRITE], w) & ~go);
	}
	counts->skipped_clean = (end - start) - counts->started -
				counts->skipped_writeback;
	counts->first = none_before && counts->started > 0;
}

/**
 * wbsim_page_cache_end_writeback() - IO completion over a range
 * @pc: the state
 * @index: first page
 * @nr: number of pages (widened to whole folios)
 * @last: if not NULL, set to true when the mapping has no page under
 *	writeback left after this call (and had some in the range)
 *
 * Models the page-state part of __folio_end_writeback().
 *
 * Return: pages that left writeback (accounting point d).
 */
uint64_t wbsim_page_cache_end_writeback(struct wbsim_page_cache *pc,
					uint64_t index, uint64_t nr,
					bool *last)
{
	uint64_t start, end, w, count = 0;

	if (last)
		*last = false;
	if (!pc_range(pc, index, nr, &start, &end))
		return 0;
	wbsim_pc_for_each_marked_word(pc, WBSIM_PC_WRITEBACK, w, start, end) {
		uint64_t wb, m;
		wb = hbm_word(&pc->marks[WBSIM_PC_WRITEBACK], w);
		m = word_mask(w, start, end) & wb;
		count += popcount(m);
		pc_store(pc, WBSIM_PC_WRITEBACK, w, wb & ~m);
	}
	if (last)
		*last = count > 0 && pc->marks[WBSIM_PC_WRITEBACK].weight == 0;
	return count;
}

/**
 * wbsim_tag_pages_for_writeback() - copy DIRTY to TOWRITE over a range
 * @pc: the state
 * @index: first page
 * @nr: number of pages (WBSIM_PC_MAX_PAGES or more: to the end)
 *
 * Models tag_pages_for_writeback() (start of a sync or tagged pass).
 *
 * Return: pages newly tagged.
 */
uint64_t wbsim_tag_pages_for_writeback(struct wbsim_page_cache *pc,
				       uint64_t index, uint64_t nr)
{
	uint64_t start, end, w, count = 0;

	if (!pc_range(pc, index, nr, &start, &end))
		return 0;
	wbsim_pc_for_each_marked_word(pc, WBSIM_PC_DIRTY, w, start, end) {
		uint64_t t, m;
		m = word_mask(w, start, end) &
		    hbm_word(&pc->marks[WBSIM_PC_DIRTY], w);
		t = hbm_word(&pc->marks[WBSIM_PC_TOWRITE], w);
		count += popcount(m & ~t);
		pc_store(pc, WBSIM_PC_TOWRITE, w, t | m);
	}
	return count;
}

/* Free everything once the mapping is empty (e.g. truncated to 0). */
static void pc_shrink(struct wbsim_page_cache *pc)
{
	if (pc->marks[WBSIM_PC_PRESENT].weight)
		return;
	for (int m = 0; m < WBSIM_PC_NR_MARKS; m++)
		if (pc->marks[m].weight)
			return;
	wbsim_page_cache_destroy(pc);
}

/**
 * wbsim_page_cache_truncate() - remove a range from the cache
 * @pc: the state
 * @index: first page
 * @nr: number of pages (widened to whole folios)
 * @counts: what happened
 *
 * Models truncate_inode_pages_range() on the folios not under writeback:
 * dirty ones are cancelled (__folio_cancel_dirty(), counted for
 * folio_account_cleaned()), clean ones dropped. Folios under writeback
 * stay: the kernel waits for them; the caller waits and calls again.
 */
void wbsim_page_cache_truncate(struct wbsim_page_cache *pc, uint64_t index,
			       uint64_t nr,
			       struct wbsim_pc_truncate_counts *counts)
{
	uint64_t start, end, w;

	memset(counts, 0, sizeof(*counts));
	if (!pc_range(pc, index, nr, &start, &end))
		return;
	wbsim_pc_for_each_marked_word(pc, WBSIM_PC_PRESENT, w, start, end) {
		uint64_t p, wb, d, drop;
		p = hbm_word(&pc->marks[WBSIM_PC_PRESENT], w);
		wb = hbm_word(&pc->marks[WBSIM_PC_WRITEBACK], w);
		d = hbm_word(&pc->marks[WBSIM_PC_DIRTY], w);
		drop = word_mask(w, start, end) & p & ~wb;
		counts->busy_writeback += popcount(word_mask(w, start, end) & wb);
		counts->cancelled_dirty += popcount(drop & d);
		counts->dropped_clean += popcount(drop & ~d);
		pc_store(pc, WBSIM_PC_PRESENT, w, p & ~drop);
		pc_store(pc, WBSIM_PC_DIRTY, w, d & ~drop);
		pc_store(pc, WBSIM_PC_TOWRITE, w,
			 hbm_word(&pc->marks[WBSIM_PC_TOWRITE], w) & ~drop);
	}
	pc_shrink(pc);
}

/**
 * wbsim_page_cache_invalidate() - drop the clean cached pages of a range
 * @pc: the state
 * @index: first page
 * @nr: number of pages (widened to whole folios)
 *
 * Models invalidate_mapping_pages(): dirty pages and pages under
 * writeback are left alone.
 *
 * Return: pages dropped.
 */
uint64_t wbsim_page_cache_invalidate(struct wbsim_page_cache *pc,
				     uint64_t index, uint64_t nr)
{
	uint64_t start, end, w, count = 0;

	if (!pc_range(pc, index, nr, &start, &end))
		return 0;
	wbsim_pc_for_each_marked_word(pc, WBSIM_PC_PRESENT, w, start, end) {
		uint64_t p, drop;
		p = hbm_word(&pc->marks[WBSIM_PC_PRESENT], w);
		drop = word_mask(w, start, end) & p &
		       ~hbm_word(&pc->marks[WBSIM_PC_DIRTY], w) &
		       ~hbm_word(&pc->marks[WBSIM_PC_WRITEBACK], w);
		count += popcount(drop);
		pc_store(pc, WBSIM_PC_PRESENT, w, p & ~drop);
	}
	pc_shrink(pc);
	return count;
}
