/* SPDX-License-Identifier: MIT */
/*
 * fs/alloc/ioend.c - per-inode lists of completed writes waiting for the
 * filesystem's completion work (see ioend.h). The merge follows
 * iomap_ioend_try_merge(): the next ioend must start where this one ends
 * and be of the same kind (unwritten or not); the device-contiguity and
 * error checks are left out (the models never fail a write).
 */
#include "fs/alloc/ioend.h"

void wbsim_ioend_cache_init(struct wbsim_ioend_cache *cache)
{
	wbsim_freelist_init(&cache->ioends, sizeof(struct wbsim_ioend));
	cache->spare = NULL;
	wbsim_freelist_init(&cache->queues, sizeof(struct wbsim_ioend_queue));
}

void wbsim_ioend_cache_clear(struct wbsim_ioend_cache *cache)
{
	wbsim_freelist_clear(&cache->ioends, NULL, NULL);
	wbsim_freelist_clear(&cache->queues, NULL, NULL);
	if (cache->spare)
		g_ptr_array_free(g_steal_pointer(&cache->spare), TRUE);
}

gboolean wbsim_ioend_list_add(struct wbsim_ioend_list *list, struct wbsim_ioend_cache *cache,
			      uint64_t first, uint64_t nr, unsigned int flags,
			      wbsim_event_fn done, void *arg)
{
	struct wbsim_ioend *io = wbsim_freelist_alloc(&cache->ioends);
	gboolean was_empty;

	io->first = first;
	io->nr = nr;
	io->flags = flags;
	io->done = done;
	io->arg = arg;
	if (!list->items)
		list->items = cache->spare ? g_steal_pointer(&cache->spare) : g_ptr_array_new();
	was_empty = list->items->len == 0;
	g_ptr_array_add(list->items, io);
	return was_empty;
}

GPtrArray *wbsim_ioend_list_splice(struct wbsim_ioend_list *list)
{
	GPtrArray *a = list->items;

	if (!a || !a->len)
		return NULL;
	list->items = NULL;
	return a;
}

static gint ioend_cmp(gconstpointer a, gconstpointer b)
{
	const struct wbsim_ioend *x = *(struct wbsim_ioend *const *)a;
	const struct wbsim_ioend *y = *(struct wbsim_ioend *const *)b;

	return x->first < y->first ? -1 : x->first > y->first;
}

void wbsim_ioend_sort_merge(GPtrArray *ioends)
{
	guint out = 0;

	g_ptr_array_sort(ioends, ioend_cmp);
	for (guint i = 0; i < ioends->len; i++) {
		struct wbsim_ioend *io = g_ptr_array_index(ioends, i);
		struct wbsim_ioend *prev = out ? g_ptr_array_index(ioends, out - 1) : NULL;

		if (prev && prev->first + prev->nr == io->first &&
		    (prev->flags & WBSIM_FS_IO_UNWRITTEN) == (io->flags & WBSIM_FS_IO_UNWRITTEN)) {
			struct wbsim_ioend *tail = prev;

			while (tail->next_merged)
				tail = tail->next_merged;
			tail->next_merged = io;
			prev->nr += io->nr;
			continue;
		}
		ioends->pdata[out++] = io;
	}
	g_ptr_array_set_size(ioends, out);
}

void wbsim_ioend_finish(wbsim_sim *sim, struct wbsim_ioend_queue *q, struct wbsim_ioend *ioend)
{
	while (ioend) {
		struct wbsim_ioend *next = ioend->next_merged;

		ioend->done(sim, ioend->arg);
		wbsim_freelist_free(&q->cache->ioends, ioend);
		ioend = next;
	}
}

void wbsim_ioends_free(struct wbsim_ioend_cache *cache, GPtrArray *ioends)
{
	if (!ioends)
		return;
	for (guint i = 0; i < ioends->len; i++) {
		struct wbsim_ioend *io = g_ptr_array_index(ioends, i);

		while (io) {
			struct wbsim_ioend *next = io->next_merged;

			wbsim_freelist_free(&cache->ioends, io);
			io = next;
		}
	}
	if (cache->spare) {
		g_ptr_array_free(ioends, TRUE);
	} else {
		g_ptr_array_set_size(ioends, 0);
		cache->spare = ioends;
	}
}

void wbsim_ioend_list_clear(struct wbsim_ioend_list *list, struct wbsim_ioend_cache *cache)
{
	wbsim_ioends_free(cache, list->items);
	list->items = NULL;
}

struct wbsim_ioend_queue *wbsim_ioend_queue_of(struct wbsim_ioend_queue **slot,
					       struct wbsim_ioend_cache *cache)
{
	if (!*slot) {
		*slot = wbsim_freelist_alloc(&cache->queues);
		(*slot)->cache = cache;
	}
	return *slot;
}

void wbsim_ioend_queue_add(struct wbsim_ioend_queue *q, struct wbsim_workqueue *wq,
			   void (*fn)(struct wbsim_work *work, wbsim_task *worker), void *arg,
			   uint64_t first, uint64_t nr, unsigned int flags,
			   wbsim_event_fn done, void *done_arg)
{
	if (!q->work.fn)
		wbsim_work_init(&q->work, fn, arg);
	if (wbsim_ioend_list_add(&q->list, q->cache, first, nr, flags, done, done_arg))
		wbsim_queue_work_item(wq, &q->work);
}

gboolean wbsim_ioend_queue_begin(struct wbsim_ioend_queue *q, wbsim_task *worker)
{
	q->running = wbsim_ioend_list_splice(&q->list);
	q->next = 0;
	q->worker = worker;
	if (q->running)
		return TRUE;
	wbsim_work_done(&q->work);
	return FALSE;
}

struct wbsim_ioend *wbsim_ioend_queue_peek(struct wbsim_ioend_queue *q)
{
	if (q->next < q->running->len)
		return g_ptr_array_index(q->running, q->next);
	wbsim_ioends_free(q->cache, q->running);
	q->running = NULL;
	wbsim_work_done(&q->work);
	return NULL;
}

struct wbsim_ioend *wbsim_ioend_queue_pop(struct wbsim_ioend_queue *q)
{
	struct wbsim_ioend *io = g_ptr_array_index(q->running, q->next);

	q->running->pdata[q->next++] = NULL;
	return io;
}

void wbsim_ioend_queue_free(struct wbsim_ioend_queue **slot)
{
	struct wbsim_ioend_queue *q = *slot;

	if (!q)
		return;		/* never used */
	wbsim_ioend_list_clear(&q->list, q->cache);
	wbsim_ioends_free(q->cache, q->running);
	wbsim_freelist_free(&q->cache->queues, q);
	*slot = NULL;
}
