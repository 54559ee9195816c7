/* SPDX-License-Identifier: MIT */
/*
 * mm/page-memcg.h - the memcg each page of a mapping is charged to
 * (folio_memcg()), kept only for mappings that ever had a page charged to
 * a memcg other than the root: chunks of 64 pages, each an array of
 * 16-bit css ids, allocated when a page in the chunk is first charged.
 * 0 in the array means the root memcg.
 */
#ifndef WBSIM_MM_PAGE_MEMCG_H
#define WBSIM_MM_PAGE_MEMCG_H

#include <stdint.h>
#include <glib.h>

struct wbsim_page_memcg;

/* A new, empty map (every page: root). */
struct wbsim_page_memcg *wbsim_page_memcg_new(void);
void wbsim_page_memcg_free(struct wbsim_page_memcg *pm);

/* The css id of page @index (WBSIM_ROOT_MEMCG_ID when none is recorded;
 * @pm may be NULL). */
unsigned int wbsim_page_memcg_get(const struct wbsim_page_memcg *pm, uint64_t index);

/* Record css id @id for page @index. */
void wbsim_page_memcg_set(struct wbsim_page_memcg *pm, uint64_t index, unsigned int id);

/* Bytes used (for the memory test and benchmark). */
size_t wbsim_page_memcg_mem_bytes(const struct wbsim_page_memcg *pm);

#endif /* WBSIM_MM_PAGE_MEMCG_H */
