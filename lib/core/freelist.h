/* SPDX-License-Identifier: MIT */
/*
 * core/freelist.h - a pool of objects of one size with a free list, for
 * the states the model makes and ends at the rate of its I/O (bios, map
 * calls, ioends): a kmem_cache in spirit, without the slabs' per-CPU
 * layers. Objects come from chunks the pool owns; an ended object waits
 * on the free list (linked through its first word) and is the next one
 * handed out (last in, first out). Nothing goes back to malloc before
 * wbsim_freelist_clear(), which frees every chunk at once, so objects
 * still in use when a simulation stops need no list of their own.
 *
 * Under AddressSanitizer a freed object is poisoned (all but its link
 * word), so a use after wbsim_freelist_free() is still reported.
 */
#ifndef WBSIM_CORE_FREELIST_H
#define WBSIM_CORE_FREELIST_H

#include <stddef.h>
#include <stdint.h>

/* Objects are aligned as malloc() aligns them. */
#define WBSIM_FREELIST_ALIGN 16
/* The first chunk's objects; each later chunk doubles, up to the last. */
#define WBSIM_FREELIST_CHUNK_MIN 16
#define WBSIM_FREELIST_CHUNK_MAX 1024

struct wbsim_freelist_chunk;

/**
 * struct wbsim_freelist - objects of one size (private fields)
 * @size: bytes of an object, a multiple of WBSIM_FREELIST_ALIGN
 * @free: ended objects, linked through their first word
 * @next, @end: the newest chunk's slots never handed out
 * @chunks: the newest chunk (each links the one before)
 * @nr_live: objects handed out and not freed
 */
struct wbsim_freelist {
	size_t size;
	void *free;
	char *next, *end;
	struct wbsim_freelist_chunk *chunks;
	size_t nr_live;
};

/* An empty pool of objects of @size bytes (at least one pointer's). */
void wbsim_freelist_init(struct wbsim_freelist *fl, size_t size);
/* An object, zeroed as g_malloc0() gives it: the last one freed, else a
 * new slot. */
void *wbsim_freelist_alloc(struct wbsim_freelist *fl);
/* @obj (from this pool) has ended: it waits for the next alloc. */
void wbsim_freelist_free(struct wbsim_freelist *fl, void *obj);
/*
 * wbsim_freelist_clear() - free every chunk. @live (may be NULL) is called
 * first on each object still in use, in the order they were first handed
 * out, to free what it owns. The pool is left empty, ready for use.
 */
void wbsim_freelist_clear(struct wbsim_freelist *fl, void (*live)(void *obj, void *data),
			  void *data);

#endif /* WBSIM_CORE_FREELIST_H */
