/* SPDX-License-Identifier: MIT */
/*
 * defs/page-cache-defs.h - the page state of one mapping as struct
 * wbsim_inode embeds it (defs/backing-dev-defs.h); its marks and the
 * operations on them are mm/page-cache.h's. A neutral definition: it
 * includes no folder of lib/.
 */
#ifndef WBSIM_DEFS_PAGE_CACHE_DEFS_H
#define WBSIM_DEFS_PAGE_CACHE_DEFS_H

#include <stdint.h>

struct wbsim_hbitmap;

/**
 * struct wbsim_page_cache - page state of one mapping
 * @marks: one hierarchical bitmap per mark, allocated when the first page
 *	is dirtied and freed when the mapping empties; until then a shared,
 *	read-only set of empty bitmaps (a scenario of 500,000 files keeps
 *	most of them without a cached page)
 * @writeback_index: where the next cyclic writeback pass starts
 * @folio_order: folios have 1 << @folio_order pages
 */
struct wbsim_page_cache {
	struct wbsim_hbitmap *marks;
	uint64_t writeback_index;
	unsigned int folio_order;
};

#endif /* WBSIM_DEFS_PAGE_CACHE_DEFS_H */
