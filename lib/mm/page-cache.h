/* SPDX-License-Identifier: MIT */
/*
 * mm/page-cache.h - per-inode (per mapping) page state: which pages are
 * cached, dirty, under writeback, tagged TOWRITE, and the writeback_index
 * (kernel: the page cache xarray with its DIRTY / WRITEBACK / TOWRITE
 * marks, include/linux/pagemap.h, mm/page-writeback.c).
 *
 * Each mark is a hierarchical bitmap: level 0 has one bit per page, every
 * higher level one bit per non-zero word of the level below, up to a single
 * top word. "Next marked page at or after i" costs O(levels) word reads,
 * whatever the sparseness. Level 0 lives in 512-byte leaves (4096 pages)
 * that exist only while they hold a marked page; the summaries and the
 * leaf pointers cost 16 bytes per 4096 pages up to the highest page ever
 * marked. A fully dirty 1 GiB file costs 33 KiB per mark in use; a mark
 * whose pages were all cleared keeps only the summaries.
 *
 * Ranges are [index, index + nr) in pages. With folios of 2^k pages every
 * operation works on whole folios (the range is widened to folio
 * boundaries) and counts pages, as the kernel's accounting does.
 */
#ifndef WBSIM_MM_PAGE_CACHE_H
#define WBSIM_MM_PAGE_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "defs/page-cache-defs.h"

/* "No such page" from the search functions. */
#define WBSIM_PGOFF_NONE UINT64_MAX
/* Highest supported page index + 1 (2^40 pages = 4 PiB). */
#define WBSIM_PC_MAX_PAGES (UINT64_C(1) << 40)
#define WBSIM_HBITMAP_MAX_LEVELS 7

/**
 * struct wbsim_hbitmap - a hierarchical bitmap (private to page-cache.c)
 * @leaf: level 0, one bit per page, in leaves of 64 words (4096 pages)
 *	allocated while they hold a set bit; @nwords[0] / 64 pointers
 * @level: levels 1 and up (flat); @level[0] is unused
 * @nwords: words per level (level 0: covered by @leaf)
 * @nlevels: number of levels in use (0 = nothing allocated)
 * @nleaves: leaves allocated
 * @weight: number of bits set in level 0
 */
struct wbsim_hbitmap {
	uint64_t **leaf;
	uint64_t *level[WBSIM_HBITMAP_MAX_LEVELS];
	size_t nwords[WBSIM_HBITMAP_MAX_LEVELS];
	unsigned int nlevels;
	size_t nleaves;
	uint64_t weight;
};

/**
 * enum wbsim_pc_mark - per-page state bits
 * @WBSIM_PC_PRESENT: the page is in the page cache (clean or not)
 * @WBSIM_PC_DIRTY: PG_dirty / DIRTY mark
 * @WBSIM_PC_WRITEBACK: PG_writeback / WRITEBACK mark
 * @WBSIM_PC_TOWRITE: TOWRITE mark (sync passes)
 * @WBSIM_PC_NR_MARKS: number of marks
 *
 * DIRTY, WRITEBACK and TOWRITE pages are PRESENT; TOWRITE pages are DIRTY;
 * a page may be DIRTY and under WRITEBACK at once (redirtied during IO).
 */
enum wbsim_pc_mark {
	WBSIM_PC_PRESENT,
	WBSIM_PC_DIRTY,
	WBSIM_PC_WRITEBACK,
	WBSIM_PC_TOWRITE,
	WBSIM_PC_NR_MARKS,
};

/**
 * struct wbsim_pc_writeback_counts - result of starting writeback
 * @started: pages that went dirty -> writeback (accounting points b, c)
 * @skipped_writeback: dirty pages skipped because still under writeback
 * @skipped_clean: pages in the range that were not dirty
 * @first: the mapping had no page under writeback before (the inode
 *	enters writeback: wb writeback_inodes++)
 */
struct wbsim_pc_writeback_counts {
	uint64_t started;
	uint64_t skipped_writeback;
	uint64_t skipped_clean;
	bool first;
};

/**
 * struct wbsim_pc_truncate_counts - result of truncating a range
 * @dropped_clean: clean pages removed from the cache
 * @cancelled_dirty: dirty pages removed (folio_account_cleaned() counts)
 * @busy_writeback: pages left because under writeback (wait and retry)
 */
struct wbsim_pc_truncate_counts {
	uint64_t dropped_clean;
	uint64_t cancelled_dirty;
	uint64_t busy_writeback;
};

bool wbsim_page_cache_init(struct wbsim_page_cache *pc, uint64_t folio_pages);
void wbsim_page_cache_destroy(struct wbsim_page_cache *pc);
uint64_t wbsim_page_cache_folio_pages(const struct wbsim_page_cache *pc);
uint64_t wbsim_page_cache_nr(const struct wbsim_page_cache *pc,
			     enum wbsim_pc_mark mark);
bool wbsim_page_cache_test(const struct wbsim_page_cache *pc,
			   enum wbsim_pc_mark mark, uint64_t index);
size_t wbsim_page_cache_mem_bytes(const struct wbsim_page_cache *pc);

/*
 * wbsim_page_cache_count_folios() - how many aligned folios of
 * @folio_pages pages have a page with @mark: a word of bits at a time (the
 * summary level's for folios of 64 pages or more), not a search per folio.
 */
uint64_t wbsim_page_cache_count_folios(const struct wbsim_page_cache *pc,
				       enum wbsim_pc_mark mark, uint64_t folio_pages);
/*
 * wbsim_page_cache_prefetch() - a hint, no state change: start loading the
 * words a write to page @index will test and mark (PRESENT and DIRTY), so
 * that a caller that knows its next write ahead hides their cache misses.
 */
void wbsim_page_cache_prefetch(const struct wbsim_page_cache *pc, uint64_t index);
uint64_t wbsim_page_cache_mark_dirty(struct wbsim_page_cache *pc,
				     uint64_t index, uint64_t nr);
uint64_t wbsim_page_cache_count(const struct wbsim_page_cache *pc,
				enum wbsim_pc_mark mark, uint64_t index, uint64_t nr);
uint64_t wbsim_page_cache_next(const struct wbsim_page_cache *pc,
			       enum wbsim_pc_mark mark, uint64_t index);
/*
 * wbsim_page_cache_next_word() - the first word of 64 pages at or after
 * word @w (pages 64 * @w to 64 * @w + 63) that holds a page with @mark,
 * found through the summaries; WBSIM_PGOFF_NONE if none.
 */
uint64_t wbsim_page_cache_next_word(const struct wbsim_page_cache *pc,
				    enum wbsim_pc_mark mark, uint64_t w);

/**
 * wbsim_pc_for_each_marked_word() - iterate over the words with a mark
 * @pc: the state
 * @mark: the mark
 * @w: a uint64_t, the index of the current word (pages 64 * @w to
 *	64 * @w + 63)
 * @start: first page of the range
 * @end: page after the range (@end > @start)
 *
 * Runs the body for each word that overlaps [@start, @end) and holds a page
 * with @mark, in ascending order, skipping the unmarked words through the
 * summaries (kernel: xas_for_each_marked()); the body masks the word to the
 * range itself. The next word is looked for after the body, so the body may
 * change the marks of the current word. @pc, @mark and @end are evaluated
 * at every step.
 */
#define wbsim_pc_for_each_marked_word(pc, mark, w, start, end)		\
	for ((w) = wbsim_page_cache_next_word((pc), (mark), (start) / 64);	\
	     (w) <= ((end) - 1) / 64;					\
	     (w) = wbsim_page_cache_next_word((pc), (mark), (w) + 1))
uint64_t wbsim_page_cache_next_dirty(const struct wbsim_page_cache *pc,
				     uint64_t index);
uint64_t wbsim_page_cache_next_towrite(const struct wbsim_page_cache *pc,
				       uint64_t index);
uint64_t wbsim_page_cache_run(const struct wbsim_page_cache *pc,
			      enum wbsim_pc_mark mark, uint64_t index,
			      uint64_t max, bool exclude_writeback);
uint64_t wbsim_page_cache_dirty_run(const struct wbsim_page_cache *pc,
				    uint64_t index, uint64_t max);
void wbsim_page_cache_start_writeback(struct wbsim_page_cache *pc,
				      uint64_t index, uint64_t nr,
				      struct wbsim_pc_writeback_counts *counts);
uint64_t wbsim_page_cache_end_writeback(struct wbsim_page_cache *pc,
					uint64_t index, uint64_t nr,
					bool *last);
uint64_t wbsim_tag_pages_for_writeback(struct wbsim_page_cache *pc,
				       uint64_t index, uint64_t nr);
void wbsim_page_cache_truncate(struct wbsim_page_cache *pc, uint64_t index,
			       uint64_t nr,
			       struct wbsim_pc_truncate_counts *counts);
uint64_t wbsim_page_cache_invalidate(struct wbsim_page_cache *pc,
				     uint64_t index, uint64_t nr);

#endif /* WBSIM_MM_PAGE_CACHE_H */
