/* SPDX-License-Identifier: MIT */
/*
 * fs/alloc/freespace.c - free extents of a group, indexed by start and by
 * size (see freespace.h).
 */
#include "fs/alloc/freespace.h"

struct free_ext {
	uint64_t start;
	uint64_t len;
};

/* How many neighbours on each side the near search looks at before it
 * falls back to best fit by size (xfs_alloc_ag_vextent_near bounds its
 * left/right walk the same way). */
#define NEAR_SCAN 64

static gint cmp_start(gconstpointer a, gconstpointer b, gpointer unused)
{
	const struct free_ext *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static gint cmp_size(gconstpointer a, gconstpointer b, gpointer unused)
{
	const struct free_ext *x = a, *y = b;

	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

static void add_ext(struct wbsim_freespace *fsp, uint64_t start, uint64_t len)
{
	struct free_ext *e = g_new(struct free_ext, 1);

	e->start = start;
	e->len = len;
	g_tree_insert(fsp->by_start, e, e);
	g_tree_insert(fsp->by_size, e, e);
}

static void del_ext(struct wbsim_freespace *fsp, struct free_ext *e)
{
	g_tree_remove(fsp->by_size, e);
	g_tree_remove(fsp->by_start, e);
	g_free(e);
}

/*
 * Make @e [start, start + len) in place. The new range lies where the old
 * one did, between the same neighbours (a trim, or a merge with the hole
 * beside it), so its place by start holds: only the by-size tree, whose
 * key changes, takes it out and back.
 */
static void resize_ext(struct wbsim_freespace *fsp, struct free_ext *e, uint64_t start,
		       uint64_t len)
{
	g_tree_remove(fsp->by_size, e);
	e->start = start;
	e->len = len;
	g_tree_insert(fsp->by_size, e, e);
}

void wbsim_freespace_init(struct wbsim_freespace *fsp, uint64_t base, uint64_t size)
{
	fsp->base = base;
	fsp->size = size;
	fsp->free = size;
	fsp->one_start = base;
	fsp->by_start = NULL;
	fsp->by_size = NULL;
}

/* Make the trees from the one extent (first change that splits it). */
static void make_trees(struct wbsim_freespace *fsp)
{
	if (fsp->by_start)
		return;
	fsp->by_start = g_tree_new_full(cmp_start, NULL, NULL, NULL);
	fsp->by_size = g_tree_new_full(cmp_size, NULL, NULL, NULL);
	if (fsp->free)
		add_ext(fsp, fsp->one_start, fsp->free);
}

/* Without trees: the one free extent, or NULL when nothing is free. */
static const struct free_ext *one_ext(const struct wbsim_freespace *fsp, struct free_ext *e)
{
	if (!fsp->free)
		return NULL;
	e->start = fsp->one_start;
	e->len = fsp->free;
	return e;
}

static gboolean free_one(gpointer key, gpointer value, gpointer data)
{
	g_free(value);
	return FALSE;
}

void wbsim_freespace_clear(struct wbsim_freespace *fsp)
{
	if (!fsp->by_start)
		return;
	g_tree_foreach(fsp->by_start, free_one, NULL);
	g_tree_destroy(fsp->by_start);
	g_tree_destroy(fsp->by_size);
	fsp->by_start = NULL;
	fsp->by_size = NULL;
}

/* The free extent with the largest start <= bno, or NULL. */
static struct free_ext *at_or_before(struct wbsim_freespace *fsp, uint64_t bno)
{
	struct free_ext key = { .start = bno };
	GTreeNode *n = g_tree_upper_bound(fsp->by_start, &key);

	n = n ? g_tree_node_previous(n) : g_tree_node_last(fsp->by_start);
	return n ? g_tree_node_value(n) : NULL;
}

static struct free_ext *containing(struct wbsim_freespace *fsp, uint64_t bno)
{
	struct free_ext *e = at_or_before(fsp, bno);

	return e && bno < e->start + e->len ? e : NULL;
}

/* The free extent holding @bno, from the trees or the one extent (in @buf). */
static const struct free_ext *find_containing(struct wbsim_freespace *fsp, uint64_t bno,
					      struct free_ext *buf)
{
	const struct free_ext *e;

	if (fsp->by_start)
		return containing(fsp, bno);
	e = one_ext(fsp, buf);
	return e && e->start <= bno && bno < e->start + e->len ? e : NULL;
}

gboolean wbsim_freespace_is_free(struct wbsim_freespace *fsp, uint64_t bno)
{
	struct free_ext buf;

	return find_containing(fsp, bno, &buf) != NULL;
}

uint64_t wbsim_freespace_free_run(struct wbsim_freespace *fsp, uint64_t bno)
{
	struct free_ext buf;
	const struct free_ext *e = find_containing(fsp, bno, &buf);

	return e ? e->start + e->len - bno : 0;
}

gboolean wbsim_freespace_take(struct wbsim_freespace *fsp, uint64_t start, uint64_t len)
{
	struct free_ext *e;
	uint64_t e_start, e_end;

	if (!len)
		return TRUE;
	if (!fsp->by_start) {
		uint64_t end = fsp->one_start + fsp->free;

		if (!fsp->free || start < fsp->one_start || start + len > end)
			return FALSE;
		/* from either end, the rest is still one extent */
		if (start == fsp->one_start) {
			fsp->one_start += len;
			fsp->free -= len;
			return TRUE;
		}
		if (start + len == end) {
			fsp->free -= len;
			return TRUE;
		}
		make_trees(fsp);
	}
	e = containing(fsp, start);
	if (!e || start + len > e->start + e->len)
		return FALSE;
	e_start = e->start;
	e_end = e->start + e->len;
	fsp->free -= len;
	/* what is left of @e: its head, its tail, or both (a new extent) */
	if (e_start < start) {
		resize_ext(fsp, e, e_start, start - e_start);
		if (start + len < e_end)
			add_ext(fsp, start + len, e_end - start - len);
	} else if (start + len < e_end) {
		resize_ext(fsp, e, start + len, e_end - start - len);
	} else {
		del_ext(fsp, e);
	}
	return TRUE;
}

void wbsim_freespace_give(struct wbsim_freespace *fsp, uint64_t start, uint64_t len)
{
	struct free_ext *left, *right;
	struct free_ext key;
	GTreeNode *n;

	if (!len)
		return;
	make_trees(fsp);
	left = at_or_before(fsp, start);
	key.start = start;
	n = g_tree_upper_bound(fsp->by_start, &key);
	right = n ? g_tree_node_value(n) : NULL;
	g_return_if_fail(!left || left->start + left->len <= start);
	g_return_if_fail(!right || start + len <= right->start);
	fsp->free += len;
	if (left && left->start + left->len != start)
		left = NULL;
	if (right && right->start != start + len)
		right = NULL;
	/* merged into a neighbour in place, or a new extent */
	if (left && right) {
		uint64_t right_len = right->len;

		del_ext(fsp, right);
		resize_ext(fsp, left, left->start, left->len + len + right_len);
	} else if (left) {
		resize_ext(fsp, left, left->start, left->len + len);
	} else if (right) {
		resize_ext(fsp, right, start, len + right->len);
	} else {
		add_ext(fsp, start, len);
	}
}

uint64_t wbsim_freespace_longest(struct wbsim_freespace *fsp)
{
	GTreeNode *n;

	if (!fsp->by_start)
		return fsp->free;
	n = g_tree_node_last(fsp->by_size);

	return n ? ((struct free_ext *)g_tree_node_value(n))->len : 0;
}

static void consider(const struct free_ext *e, uint64_t goal, uint64_t want,
		     uint64_t *best_diff, uint64_t *best_start)
{
	uint64_t s, diff;

	if (e->len < want)
		return;
	s = goal < e->start ? e->start : goal;
	if (s + want > e->start + e->len)
		s = e->start + e->len - want;
	diff = s > goal ? s - goal : goal - s;
	if (diff < *best_diff) {
		*best_diff = diff;
		*best_start = s;
	}
}

/* wbsim_freespace_near() of the one extent: it is the placement if long
 * enough, else the longest there is. */
static uint64_t one_near(struct wbsim_freespace *fsp, uint64_t goal, uint64_t want,
			 uint64_t *start)
{
	uint64_t best_diff = G_MAXUINT64, best_start = 0;
	struct free_ext buf;
	const struct free_ext *e = one_ext(fsp, &buf);

	if (!e)
		return 0;
	consider(e, goal, want, &best_diff, &best_start);
	if (best_diff != G_MAXUINT64) {
		*start = best_start;
		return want;
	}
	*start = e->start;
	return e->len;
}

uint64_t wbsim_freespace_near(struct wbsim_freespace *fsp, uint64_t goal, uint64_t want,
			      uint64_t *start)
{
	uint64_t best_diff = G_MAXUINT64, best_start = 0;
	struct free_ext key = { .start = goal };
	GTreeNode *right, *left, *n;

	if (!fsp->by_start)
		return one_near(fsp, goal, want, start);
	right = g_tree_upper_bound(fsp->by_start, &key);
	left = right ? g_tree_node_previous(right) : g_tree_node_last(fsp->by_start);
	if (!fsp->free)
		return 0;
	/* walk outwards from the goal, stopping a side once it cannot win */
	for (int i = 0; i < NEAR_SCAN && (left || right); i++) {
		if (left) {
			const struct free_ext *e = g_tree_node_value(left);

			if (e->start + e->len <= goal && goal - (e->start + e->len) > best_diff)
				left = NULL;
			else {
				consider(e, goal, want, &best_diff, &best_start);
				left = g_tree_node_previous(left);
			}
		}
		if (right) {
			const struct free_ext *e = g_tree_node_value(right);

			if (e->start - goal > best_diff)
				right = NULL;
			else {
				consider(e, goal, want, &best_diff, &best_start);
				right = g_tree_node_next(right);
			}
		}
	}
	if (best_diff != G_MAXUINT64) {
		*start = best_start;
		return want;
	}
	/* best fit by size: the smallest extent of at least want blocks */
	key.len = want;
	key.start = 0;
	n = g_tree_lower_bound(fsp->by_size, &key);
	if (n) {
		*start = ((struct free_ext *)g_tree_node_value(n))->start;
		return want;
	}
	/* nothing long enough: the longest there is */
	n = g_tree_node_last(fsp->by_size);
	if (!n)
		return 0;
	*start = ((struct free_ext *)g_tree_node_value(n))->start;
	return ((struct free_ext *)g_tree_node_value(n))->len;
}

/* The first placement in @e at or after @from, aligned, of @want blocks. */
static gboolean fit_in(const struct wbsim_freespace *fsp, const struct free_ext *e,
		       uint64_t from, uint64_t want, uint64_t align, uint64_t *start)
{
	uint64_t s = MAX(e->start, from);
	uint64_t rel = s - fsp->base;

	if (e->start + e->len <= from)
		return FALSE;
	rel = (rel + align - 1) / align * align;
	s = fsp->base + rel;
	if (s + want <= e->start + e->len) {
		*start = s;
		return TRUE;
	}
	return FALSE;
}

gboolean wbsim_freespace_first_fit(struct wbsim_freespace *fsp, uint64_t from,
				   uint64_t want, uint64_t align, uint64_t *start)
{
	struct free_ext key = { .start = from };
	GTreeNode *n;

	if (wbsim_freespace_longest(fsp) < want)
		return FALSE;
	if (!align)
		align = 1;
	if (!fsp->by_start) {
		struct free_ext buf;
		const struct free_ext *e = one_ext(fsp, &buf);

		return e && fit_in(fsp, e, from, want, align, start);
	}
	n = g_tree_upper_bound(fsp->by_start, &key);
	n = n ? g_tree_node_previous(n) : g_tree_node_last(fsp->by_start);
	if (!n)
		n = g_tree_node_first(fsp->by_start);
	for (; n; n = g_tree_node_next(n))
		if (fit_in(fsp, g_tree_node_value(n), from, want, align, start))
			return TRUE;
	return FALSE;
}

uint64_t wbsim_freespace_first_any(struct wbsim_freespace *fsp, uint64_t from,
				   uint64_t *start)
{
	struct free_ext buf;
	const struct free_ext *e = find_containing(fsp, from, &buf);
	struct free_ext key = { .start = from };
	GTreeNode *n;

	if (e) {
		*start = from;
		return e->start + e->len - from;
	}
	if (!fsp->by_start) {
		/* the one extent, if it lies after @from */
		e = one_ext(fsp, &buf);
		if (!e || e->start < from)
			return 0;
		*start = e->start;
		return e->len;
	}
	n = g_tree_upper_bound(fsp->by_start, &key);
	if (!n)
		return 0;
	e = g_tree_node_value(n);
	*start = e->start;
	return e->len;
}

size_t wbsim_freespace_nr_extents(struct wbsim_freespace *fsp)
{
	if (!fsp->by_start)
		return fsp->free ? 1 : 0;
	return (size_t)g_tree_nnodes(fsp->by_start);
}

struct check_state {
	uint64_t sum;
	uint64_t prev_end;
	gboolean first;
	gboolean ok;
	uint64_t lo, hi;
};

static gboolean check_one(gpointer key, gpointer value, gpointer data)
{
	struct check_state *st = data;
	const struct free_ext *e = value;

	if (!e->len || e->start < st->lo || e->start + e->len > st->hi)
		st->ok = FALSE;
	/* neighbours must be separated by a used block, else they would merge */
	if (!st->first && e->start <= st->prev_end)
		st->ok = FALSE;
	st->first = FALSE;
	st->prev_end = e->start + e->len;
	st->sum += e->len;
	return !st->ok;
}

gboolean wbsim_freespace_check(struct wbsim_freespace *fsp)
{
	struct check_state st = {
		.first = TRUE, .ok = TRUE, .lo = fsp->base, .hi = fsp->base + fsp->size,
	};

	if (!fsp->by_start)
		return fsp->free <= fsp->size && (!fsp->free ||
		       (fsp->one_start >= st.lo && fsp->one_start + fsp->free <= st.hi));
	g_tree_foreach(fsp->by_start, check_one, &st);
	return st.ok && st.sum == fsp->free &&
	       g_tree_nnodes(fsp->by_start) == g_tree_nnodes(fsp->by_size);
}
