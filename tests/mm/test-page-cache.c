/* SPDX-License-Identifier: MIT */
/*
 * test-page-cache.c - per-mapping page state (lib/mm/page-cache.c): exact
 * counts of every operation, searches across word and summary boundaries,
 * memory of a fully dirty 1 GiB file and of a sparse 4 TiB one, and 10^5
 * random operations (counts and searches among them) compared against a
 * naive byte-per-page model.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <glib.h>
#include "mm/page-cache.h"

#define NONE WBSIM_PGOFF_NONE

static void test_mark_and_writeback(void **state)
{
	struct wbsim_page_cache pc;
	struct wbsim_pc_writeback_counts wc;
	bool last;

	(void)state;
	assert_true(wbsim_page_cache_init(&pc, 1));
	/* 100 pages across two words, then an overlapping range */
	assert_int_equal(wbsim_page_cache_mark_dirty(&pc, 10, 100), 100);
	assert_int_equal(wbsim_page_cache_mark_dirty(&pc, 100, 20), 10);
	assert_int_equal(wbsim_page_cache_nr(&pc, WBSIM_PC_DIRTY), 110);
	assert_int_equal(wbsim_page_cache_nr(&pc, WBSIM_PC_PRESENT), 110);
	assert_int_equal(wbsim_page_cache_next_dirty(&pc, 0), 10);
	assert_int_equal(wbsim_page_cache_next_dirty(&pc, 119), 119);
	assert_int_equal(wbsim_page_cache_next_dirty(&pc, 120), NONE);
	assert_int_equal(wbsim_page_cache_dirty_run(&pc, 10, 1000), 110);
	assert_int_equal(wbsim_page_cache_dirty_run(&pc, 10, 50), 50);
	assert_int_equal(wbsim_page_cache_dirty_run(&pc, 9, 50), 0);

	/* write back [0, 64): 54 dirty pages start, 10 clean skipped */
	wbsim_page_cache_start_writeback(&pc, 0, 64, &wc);
	assert_int_equal(wc.started, 54);
	assert_int_equal(wc.skipped_clean, 10);
	assert_int_equal(wc.skipped_writeback, 0);
	assert_true(wc.first);
	assert_int_equal(wbsim_page_cache_nr(&pc, WBSIM_PC_DIRTY), 56);
	assert_int_equal(wbsim_page_cache_nr(&pc, WBSIM_PC_WRITEBACK), 54);
	assert_int_equal(wbsim_page_cache_next_dirty(&pc, 0), 64);

	/* redirty 5 pages under writeback: they count as newly dirty */
	assert_int_equal(wbsim_page_cache_mark_dirty(&pc, 20, 5), 5);
	assert_int_equal(wbsim_page_cache_dirty_run(&pc, 20, 100), 0);
	assert_int_equal(wbsim_page_cache_run(&pc, WBSIM_PC_DIRTY, 20, 100,
					      false), 5);
	wbsim_page_cache_start_writeback(&pc, 20, 10, &wc);
	assert_int_equal(wc.started, 0);
	assert_int_equal(wc.skipped_writeback, 5);
	assert_int_equal(wc.skipped_clean, 5);
	assert_false(wc.first);

	/* completion of [0, 30): 30 - 10 not under writeback = 20 */
	assert_int_equal(wbsim_page_cache_end_writeback(&pc, 0, 30, &last), 20);
	assert_false(last);
	assert_int_equal(wbsim_page_cache_end_writeback(&pc, 30, 34, &last), 34);
	assert_true(last);
	assert_int_equal(wbsim_page_cache_nr(&pc, WBSIM_PC_WRITEBACK), 0);
	assert_int_equal(wbsim_page_cache_nr(&pc, WBSIM_PC_DIRTY), 61);
	assert_int_equal(wbsim_page_cache_end_writeback(&pc, 0, 1000, &last), 0);
	assert_false(last);
	wbsim_page_cache_destroy(&pc);
}

static void test_towrite_truncate_invalidate(void **state)
{
	struct wbsim_page_cache pc;
	struct wbsim_pc_writeback_counts wc;
	struct wbsim_pc_truncate_counts tc;

	(void)state;
	wbsim_page_cache_init(&pc, 1);
	wbsim_page_cache_mark_dirty(&pc, 0, 200);
	wbsim_page_cache_start_writeback(&pc, 0, 50, &wc);
	wbsim_page_cache_end_writeback(&pc, 0, 40, NULL);
	/* now: 0..39 clean, 40..49 writeback, 50..199 dirty */
	assert_int_equal(wbsim_tag_pages_for_writeback(&pc, 0, WBSIM_PC_MAX_PAGES),
			 150);
	assert_int_equal(wbsim_tag_pages_for_writeback(&pc, 100, 200), 0);
	assert_int_equal(wbsim_page_cache_next_towrite(&pc, 0), 50);
	/* starting writeback clears TOWRITE */
	wbsim_page_cache_start_writeback(&pc, 50, 14, &wc);
	assert_int_equal(wc.started, 14);
	assert_int_equal(wbsim_page_cache_next_towrite(&pc, 0), 64);
	assert_int_equal(wbsim_page_cache_nr(&pc, WBSIM_PC_TOWRITE), 136);
	/* dirtying after the tag does not tag */
	wbsim_page_cache_mark_dirty(&pc, 300, 10);
	assert_int_equal(wbsim_page_cache_next_towrite(&pc, 200), NONE);

	/* invalidate drops only clean cached pages: 0..39 */
	assert_int_equal(wbsim_page_cache_invalidate(&pc, 0, 1000), 40);
	assert_int_equal(wbsim_page_cache_nr(&pc, WBSIM_PC_PRESENT), 170);

	/* truncate [60, 400): 60..63 under writeback stay; 64..199 and
	 * 300..309 dirty are cancelled */
	wbsim_page_cache_truncate(&pc, 60, 340, &tc);
	assert_int_equal(tc.busy_writeback, 4);
	assert_int_equal(tc.cancelled_dirty, 146);
	assert_int_equal(tc.dropped_clean, 0);
	assert_int_equal(wbsim_page_cache_nr(&pc, WBSIM_PC_DIRTY), 0);
	assert_int_equal(wbsim_page_cache_nr(&pc, WBSIM_PC_TOWRITE), 0);
	assert_int_equal(wbsim_page_cache_nr(&pc, WBSIM_PC_PRESENT), 24);
	/* finish IO, truncate everything: the state is freed */
	wbsim_page_cache_end_writeback(&pc, 0, 1000, NULL);
	wbsim_page_cache_truncate(&pc, 0, WBSIM_PC_MAX_PAGES, &tc);
	assert_int_equal(tc.dropped_clean, 24);
	assert_int_equal(tc.cancelled_dirty, 0);
	assert_int_equal(wbsim_page_cache_mem_bytes(&pc),
			 sizeof(struct wbsim_page_cache));
	wbsim_page_cache_destroy(&pc);
}

static void test_search_boundaries(void **state)
{
	struct wbsim_page_cache pc;
	/* word (64), level-1 (4096), level-2 (262144) boundaries and far */
	const uint64_t idx[] = { 63, 64, 4095, 4096, 262143, 262144,
				 262144 * 5 + 17, UINT64_C(1) << 28 };
	const size_t n = sizeof(idx) / sizeof(idx[0]);

	(void)state;
	wbsim_page_cache_init(&pc, 1);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(wbsim_page_cache_mark_dirty(&pc, idx[i], 1), 1);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(wbsim_page_cache_next_dirty(&pc, idx[i]), idx[i]);
		assert_int_equal(wbsim_page_cache_next_dirty(&pc, idx[i] - 1),
				 i && idx[i - 1] == idx[i] - 1 ? idx[i - 1] :
				 idx[i]);
		assert_int_equal(wbsim_page_cache_next_dirty(&pc, idx[i] + 1),
				 i + 1 < n ? idx[i + 1] : NONE);
	}
	assert_int_equal(wbsim_page_cache_next_dirty(&pc, 0), 63);
	assert_int_equal(wbsim_page_cache_dirty_run(&pc, 63, 10), 2);
	assert_int_equal(wbsim_page_cache_dirty_run(&pc, 4095, 10), 2);
	assert_int_equal(wbsim_page_cache_dirty_run(&pc, 262143, 10), 2);
	/* clear the middle ones: searches jump over emptied summaries */
	wbsim_page_cache_truncate(&pc, 64, 262144 * 5 - 64,
				  &(struct wbsim_pc_truncate_counts){ 0 });
	assert_int_equal(wbsim_page_cache_next_dirty(&pc, 64), 262144 * 5 + 17);
	assert_int_equal(wbsim_page_cache_nr(&pc, WBSIM_PC_DIRTY), 3);
	wbsim_page_cache_destroy(&pc);
}

static void test_memory_1gib(void **state)
{
	struct wbsim_page_cache pc;
	struct wbsim_pc_writeback_counts wc;
	const uint64_t pages = UINT64_C(1) << 18;	/* 1 GiB */
	/* a full mark: 64 leaf pointers + 64 leaves of 512 B + 64 + 1
	 * summary words */
	const size_t full = 64 * 8 + 64 * 512 + 65 * 8;
	/* an emptied mark keeps pointers and summaries only */
	const size_t empty = 64 * 8 + 65 * 8;
	/* the four bitmaps' headers, allocated with the first dirty page */
	const size_t marks = WBSIM_PC_NR_MARKS * sizeof(struct wbsim_hbitmap);
	size_t mem;

	(void)state;
	wbsim_page_cache_init(&pc, 1);
	/* a mapping without pages costs its struct only */
	assert_int_equal(wbsim_page_cache_mem_bytes(&pc), sizeof(pc));
	assert_int_equal(wbsim_page_cache_mark_dirty(&pc, 0, pages), pages);
	mem = wbsim_page_cache_mem_bytes(&pc);
	assert_int_equal(mem, sizeof(pc) + marks + 2 * full);	/* PRESENT, DIRTY */
	wbsim_page_cache_start_writeback(&pc, 0, pages, &wc);
	assert_int_equal(wc.started, pages);
	/* DIRTY's leaves are freed, WRITEBACK has its own */
	assert_int_equal(wbsim_page_cache_mem_bytes(&pc),
			 sizeof(pc) + marks + 2 * full + empty);
	wbsim_page_cache_mark_dirty(&pc, 0, pages);
	wbsim_tag_pages_for_writeback(&pc, 0, pages);
	mem = wbsim_page_cache_mem_bytes(&pc);
	assert_true(mem <= 256 * 1024);		/* all four marks full */
	assert_int_equal(mem, sizeof(pc) + marks + 4 * full);
	wbsim_page_cache_destroy(&pc);
}

static void test_memory_sparse(void **state)
{
	struct wbsim_page_cache pc;
	const uint64_t far = (UINT64_C(1) << 30) - 1;	/* last page of 4 TiB */
	size_t mem;

	(void)state;
	wbsim_page_cache_init(&pc, 1);
	wbsim_page_cache_mark_dirty(&pc, far, 1);
	wbsim_page_cache_mark_dirty(&pc, 0, 1);
	mem = wbsim_page_cache_mem_bytes(&pc);
	/*
	 * Per mark: 2^18 leaf pointers (2 MiB), summaries of 2^18 + 2^12 +
	 * 2^6 + 1 words, two 512 B leaves; a flat bitmap would need 128 MiB
	 * per mark.
	 */
	assert_int_equal(mem, sizeof(pc) + WBSIM_PC_NR_MARKS * sizeof(struct wbsim_hbitmap) +
			 2 * ((size_t)(UINT64_C(1) << 18) * 8 +
			      ((UINT64_C(1) << 18) + 4096 + 64 + 1) * 8 +
			      2 * 512));
	assert_int_equal(wbsim_page_cache_next_dirty(&pc, 1), far);
	assert_int_equal(wbsim_page_cache_next_dirty(&pc, far + 1), NONE);
	wbsim_page_cache_destroy(&pc);
}

static void test_large_folios(void **state)
{
	struct wbsim_page_cache pc;
	struct wbsim_pc_writeback_counts wc;

	(void)state;
	assert_false(wbsim_page_cache_init(&pc, 3));
	assert_true(wbsim_page_cache_init(&pc, 16));
	assert_int_equal(wbsim_page_cache_folio_pages(&pc), 16);
	/* one page dirties its whole 16-page folio */
	assert_int_equal(wbsim_page_cache_mark_dirty(&pc, 5, 1), 16);
	assert_int_equal(wbsim_page_cache_next_dirty(&pc, 0), 0);
	/* a range spanning two folios dirties 32 pages, 16 of them new */
	assert_int_equal(wbsim_page_cache_mark_dirty(&pc, 15, 2), 16);
	wbsim_page_cache_start_writeback(&pc, 20, 1, &wc);
	assert_int_equal(wc.started, 16);
	assert_int_equal(wbsim_page_cache_next_dirty(&pc, 0), 0);
	assert_int_equal(wbsim_page_cache_next_dirty(&pc, 1), 1);
	assert_int_equal(wbsim_page_cache_nr(&pc, WBSIM_PC_DIRTY), 16);
	/* a run capped at 5 pages still covers its whole folio */
	assert_int_equal(wbsim_page_cache_dirty_run(&pc, 0, 5), 16);
	assert_int_equal(wbsim_page_cache_dirty_run(&pc, 0, 17), 16);
	/* redirty the folio under writeback and the next one: a run that
	 * may include writeback pages ends at the folio after the cap */
	wbsim_page_cache_mark_dirty(&pc, 16, 32);
	assert_int_equal(wbsim_page_cache_run(&pc, WBSIM_PC_DIRTY, 0, 17,
					      false), 32);
	assert_int_equal(wbsim_page_cache_dirty_run(&pc, 0, 17), 16);
	wbsim_page_cache_destroy(&pc);
}

/* ---------------------------------------------------------------------- */
/* Randomized comparison against a naive byte-per-page model               */

#define NV_PAGES 300000		/* crosses the level-2 boundary 262144 */
#define NV_BLOCK 1024

struct naive {
	uint8_t a[NV_PAGES];
	uint64_t cnt[WBSIM_PC_NR_MARKS];
	uint32_t blk[WBSIM_PC_NR_MARKS][NV_PAGES / NV_BLOCK + 1];
	uint64_t folio;
};

static bool nv_test(const struct naive *nv, int m, uint64_t i)
{
	return (nv->a[i] >> m) & 1;
}

static void nv_put(struct naive *nv, int m, uint64_t i, bool on)
{
	if (nv_test(nv, m, i) == on)
		return;
	nv->a[i] ^= (uint8_t)(1U << m);
	if (on) {
		nv->cnt[m]++;
		nv->blk[m][i / NV_BLOCK]++;
	} else {
		nv->cnt[m]--;
		nv->blk[m][i / NV_BLOCK]--;
	}
}

static void nv_range(const struct naive *nv, uint64_t index, uint64_t nr,
		     uint64_t *s, uint64_t *e)
{
	*s = index & ~(nv->folio - 1);
	*e = (index + nr + nv->folio - 1) & ~(nv->folio - 1);
	if (*e > NV_PAGES)
		*e = NV_PAGES;
}

enum { P = WBSIM_PC_PRESENT, D = WBSIM_PC_DIRTY, W = WBSIM_PC_WRITEBACK,
       T = WBSIM_PC_TOWRITE };

static uint64_t nv_next(const struct naive *nv, int m, uint64_t i)
{
	while (i < NV_PAGES) {
		if (i % NV_BLOCK == 0 && nv->blk[m][i / NV_BLOCK] == 0) {
			i += NV_BLOCK;
			continue;
		}
		if (nv_test(nv, m, i))
			return i;
		i++;
	}
	return NONE;
}

static uint64_t rnd_state;

static uint64_t rnd(uint64_t bound)
{
	/* splitmix64: a fixed sequence for a fixed seed */
	uint64_t z = (rnd_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return bound ? z % bound : z;
}

static void random_ops(uint64_t folio, unsigned int nops)
{
	struct naive *nv = calloc(1, sizeof(*nv));
	struct wbsim_page_cache pc;

	assert_non_null(nv);
	nv->folio = folio;
	assert_true(wbsim_page_cache_init(&pc, folio));
	for (unsigned int op = 0; op < nops; op++) {
		uint64_t r = rnd(100), len, start, s, e, i, c = 0;

		start = rnd(2) ? rnd(20000) : 250000 + rnd(30000);
		len = rnd(100) < 70 ? 1 + rnd(64) :
		      rnd(100) < 90 ? 1 + rnd(2000) : 1 + rnd(40000);
		nv_range(nv, start, len, &s, &e);
		if (e > NV_PAGES - 64)
			continue;	/* keep the naive model in bounds */

		if (r < 25) {				/* dirty */
			for (i = s; i < e; i++) {
				c += !nv_test(nv, D, i);
				nv_put(nv, D, i, true);
				nv_put(nv, P, i, true);
			}
			assert_int_equal(wbsim_page_cache_mark_dirty(&pc, start,
								     len), c);
		} else if (r < 40) {			/* start writeback */
			struct wbsim_pc_writeback_counts wc;
			uint64_t busy = 0;
			bool none = nv->cnt[W] == 0;

			for (i = s; i < e; i++) {
				if (!nv_test(nv, D, i))
					continue;
				if (nv_test(nv, W, i)) {
					busy++;
					continue;
				}
				c++;
				nv_put(nv, D, i, false);
				nv_put(nv, T, i, false);
				nv_put(nv, W, i, true);
			}
			wbsim_page_cache_start_writeback(&pc, start, len, &wc);
			assert_int_equal(wc.started, c);
			assert_int_equal(wc.skipped_writeback, busy);
			assert_int_equal(wc.skipped_clean, (e - s) - c - busy);
			assert_int_equal(wc.first, none && c > 0);
		} else if (r < 55) {			/* end writeback */
			bool last;

			for (i = s; i < e; i++) {
				c += nv_test(nv, W, i);
				nv_put(nv, W, i, false);
			}
			assert_int_equal(wbsim_page_cache_end_writeback(&pc, start,
							len, &last), c);
			assert_int_equal(last, c > 0 && nv->cnt[W] == 0);
		} else if (r < 63) {			/* tag */
			for (i = s; i < e; i++) {
				if (nv_test(nv, D, i) && !nv_test(nv, T, i)) {
					c++;
					nv_put(nv, T, i, true);
				}
			}
			assert_int_equal(wbsim_tag_pages_for_writeback(&pc, start,
								       len), c);
		} else if (r < 66) {			/* truncate */
			struct wbsim_pc_truncate_counts tc;
			uint64_t busy = 0, cancel = 0;

			for (i = s; i < e; i++) {
				if (nv_test(nv, W, i)) {
					busy++;
					continue;
				}
				if (!nv_test(nv, P, i))
					continue;
				if (nv_test(nv, D, i))
					cancel++;
				else
					c++;
				nv_put(nv, P, i, false);
				nv_put(nv, D, i, false);
				nv_put(nv, T, i, false);
			}
			wbsim_page_cache_truncate(&pc, start, len, &tc);
			assert_int_equal(tc.dropped_clean, c);
			assert_int_equal(tc.cancelled_dirty, cancel);
			assert_int_equal(tc.busy_writeback, busy);
		} else if (r < 70) {			/* invalidate */
			for (i = s; i < e; i++) {
				if (nv_test(nv, P, i) && !nv_test(nv, D, i) &&
				    !nv_test(nv, W, i)) {
					c++;
					nv_put(nv, P, i, false);
				}
			}
			assert_int_equal(wbsim_page_cache_invalidate(&pc, start,
								     len), c);
		} else if (r < 90) {			/* next, count */
			int m = (int)rnd(WBSIM_PC_NR_MARKS);

			assert_int_equal(wbsim_page_cache_next(&pc, m, start),
					 nv_next(nv, m, start));
			/* count: the exact range, not widened to folios */
			for (i = start; i < start + len; i++)
				c += nv_test(nv, m, i);
			assert_int_equal(wbsim_page_cache_count(&pc, m, start, len), c);
		} else {				/* run */
			int m = (int)rnd(WBSIM_PC_NR_MARKS);
			bool excl = rnd(2);
			uint64_t max = 1 + rnd(3000);

			/* runs end on folio boundaries */
			max = ((start + max + nv->folio - 1) &
			       ~(nv->folio - 1)) - start;

			for (i = start; i < NV_PAGES && c < max; i++) {
				if (!nv_test(nv, m, i) ||
				    (excl && nv_test(nv, W, i)))
					break;
				c++;
			}
			assert_int_equal(wbsim_page_cache_run(&pc, m, start, max,
							      excl), c);
		}
		for (int m = 0; m < WBSIM_PC_NR_MARKS; m++)
			assert_int_equal(wbsim_page_cache_nr(&pc, m), nv->cnt[m]);
		if (op % 10000 == 9999) {
			for (i = 0; i < NV_PAGES; i++)
				for (int m = 0; m < WBSIM_PC_NR_MARKS; m++)
					assert_int_equal(
						wbsim_page_cache_test(&pc, m, i),
						nv_test(nv, m, i));
		}
	}
	/* the invariants of the model held throughout */
	for (uint64_t i = 0; i < NV_PAGES; i++) {
		if (nv_test(nv, D, i) || nv_test(nv, W, i))
			assert_true(nv_test(nv, P, i));
		if (nv_test(nv, T, i))
			assert_true(nv_test(nv, D, i));
	}
	wbsim_page_cache_destroy(&pc);
	free(nv);
}


/*
 * wbsim_page_cache_count_folios() against a count folio by folio: dirty
 * pages at three densities (scattered, runs, a dense stretch) over 2^21
 * pages, then for folio sizes from one page to 16,384 (below a word, a
 * word of summary bits, several summary words) and two that are not powers
 * of two.
 */
static void test_count_folios_vs_naive(void **state)
{
	const uint64_t pages = UINT64_C(1) << 21;
	const uint64_t sizes[] = { 1, 2, 4, 8, 16, 32, 64, 128, 512, 4096, 8192, 16384, 3, 24 };
	struct wbsim_page_cache pc;
	uint8_t *dirty = calloc(pages, 1);

	(void)state;
	assert_non_null(dirty);
	assert_true(wbsim_page_cache_init(&pc, 1));
	rnd_state = 20261202;
	for (int i = 0; i < 3000; i++) {		/* scattered pages */
		uint64_t p = rnd(pages);

		wbsim_page_cache_mark_dirty(&pc, p, 1);
		dirty[p] = 1;
	}
	for (int i = 0; i < 200; i++) {		/* runs */
		uint64_t p = rnd(pages - 5000), n = 1 + rnd(5000);

		wbsim_page_cache_mark_dirty(&pc, p, n);
		memset(dirty + p, 1, n);
	}
	for (uint64_t p = 1000000; p < 1300000; p++) {	/* dense, with holes */
		if (rnd(8)) {
			wbsim_page_cache_mark_dirty(&pc, p, 1);
			dirty[p] = 1;
		}
	}
	for (size_t k = 0; k < G_N_ELEMENTS(sizes); k++) {
		uint64_t f = sizes[k], naive = 0;

		for (uint64_t fo = 0; fo * f < pages; fo++) {
			for (uint64_t p = fo * f; p < MIN(pages, (fo + 1) * f); p++) {
				if (dirty[p]) {
					naive++;
					break;
				}
			}
		}
		assert_int_equal(wbsim_page_cache_count_folios(&pc, WBSIM_PC_DIRTY, f), naive);
	}
	/* nothing marked: none */
	assert_int_equal(wbsim_page_cache_count_folios(&pc, WBSIM_PC_WRITEBACK, 512), 0);
	wbsim_page_cache_destroy(&pc);
	free(dirty);
}

static void test_random_vs_naive(void **state)
{
	(void)state;
	rnd_state = 20261129;
	random_ops(1, 100000);
}

static void test_random_vs_naive_folios(void **state)
{
	(void)state;
	rnd_state = 4242;
	random_ops(4, 20000);
}

/*
 * wbsim_pc_for_each_marked_word(): exactly the words with a marked page
 * that overlap the range, in order, across leaves (4096 pages) and far
 * apart (2^30); the current word may be changed by the body.
 */
static void test_for_each_marked_word(void **state)
{
	static const uint64_t pages[] = {
		3, 64, 127, 130, 4095, 4096, 9000, UINT64_C(1) << 30,
	};
	/* their words: 0, 1, 1, 2, 63, 64, 140, 2^24 */
	static const uint64_t all[] = { 0, 1, 2, 63, 64, 140, UINT64_C(1) << 24 };
	struct wbsim_page_cache pc;
	uint64_t seen[16], w;
	size_t n = 0;

	(void)state;
	assert_true(wbsim_page_cache_init(&pc, 1));
	wbsim_pc_for_each_marked_word(&pc, WBSIM_PC_DIRTY, w, 0, WBSIM_PC_MAX_PAGES)
		fail_msg("an empty mapping has no marked word (%" PRIu64 ")", w);
	for (size_t i = 0; i < G_N_ELEMENTS(pages); i++)
		assert_int_equal(wbsim_page_cache_mark_dirty(&pc, pages[i], 1), 1);
	wbsim_pc_for_each_marked_word(&pc, WBSIM_PC_DIRTY, w, 0, WBSIM_PC_MAX_PAGES) {
		assert_true(n < G_N_ELEMENTS(seen));
		seen[n++] = w;
	}
	assert_int_equal(n, G_N_ELEMENTS(all));
	for (size_t i = 0; i < n; i++)
		assert_int_equal(seen[i], all[i]);

	/* [127, 4096): words 1 to 63, page 4096 (word 64) just outside */
	n = 0;
	wbsim_pc_for_each_marked_word(&pc, WBSIM_PC_DIRTY, w, 127, 4096)
		seen[n++] = w;
	assert_int_equal(n, 3);
	assert_int_equal(seen[0], 1);
	assert_int_equal(seen[1], 2);
	assert_int_equal(seen[2], 63);
	/* [4097, 8960): words 64 to 139; word 64 overlaps, though its
	 * marked page 4096 is outside (the body masks); word 140 (pages 8960
	 * to 9023) does not overlap, [4097, 8961) has it */
	n = 0;
	wbsim_pc_for_each_marked_word(&pc, WBSIM_PC_DIRTY, w, 4097, 8960)
		seen[n++] = w;
	assert_int_equal(n, 1);
	assert_int_equal(seen[0], 64);
	n = 0;
	wbsim_pc_for_each_marked_word(&pc, WBSIM_PC_DIRTY, w, 4097, 8961)
		seen[n++] = w;
	assert_int_equal(n, 2);
	assert_int_equal(seen[1], 140);
	/* another mark: only the words written back */
	wbsim_page_cache_start_writeback(&pc, 4095, 2, &(struct wbsim_pc_writeback_counts){ 0 });
	n = 0;
	wbsim_pc_for_each_marked_word(&pc, WBSIM_PC_WRITEBACK, w, 0, WBSIM_PC_MAX_PAGES)
		seen[n++] = w;
	assert_int_equal(n, 2);
	assert_int_equal(seen[0], 63);
	assert_int_equal(seen[1], 64);

	/* a body that clears the word it is on: the walk goes on after it */
	n = 0;
	wbsim_pc_for_each_marked_word(&pc, WBSIM_PC_PRESENT, w, 0, WBSIM_PC_MAX_PAGES) {
		wbsim_page_cache_invalidate(&pc, w * 64, 64);
		seen[n++] = w;
	}
	assert_int_equal(n, G_N_ELEMENTS(all));
	assert_int_equal(seen[6], UINT64_C(1) << 24);
	/* the clean pages are gone; the dirty and written-back ones stay */
	assert_int_equal(wbsim_page_cache_nr(&pc, WBSIM_PC_PRESENT), G_N_ELEMENTS(pages));
	wbsim_page_cache_destroy(&pc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mark_and_writeback),
		cmocka_unit_test(test_towrite_truncate_invalidate),
		cmocka_unit_test(test_search_boundaries),
		cmocka_unit_test(test_memory_1gib),
		cmocka_unit_test(test_memory_sparse),
		cmocka_unit_test(test_large_folios),
		cmocka_unit_test(test_random_vs_naive),
		cmocka_unit_test(test_random_vs_naive_folios),
		cmocka_unit_test(test_count_folios_vs_naive),
		cmocka_unit_test(test_for_each_marked_word),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
