/* SPDX-License-Identifier: MIT */
/*
 * core/fifo-list.h - a first-in first-out list of objects linked through a
 * pointer field of their own, with a head and a tail: the kernel's struct
 * bio_list (bio_list_add(), bio_list_pop()) and struct rq_list
 * (rq_list_add_tail(), rq_list_peek()), for any type and any link field.
 * The block layer queues its waiting bios and requests this way (tag and
 * wbt sleepers, completions for the IRQ task, the plug) and so do the
 * device models (the NVMe write buffer, the HDD cache, the loop worker):
 * adding and taking the oldest cost O(1) and no allocation.
 *
 * A list is declared with WBSIM_FIFO_LIST(type), a struct of two pointers;
 * the operations are macros, since the element type and its link field
 * vary. Their arguments are evaluated more than once: pass plain names
 * (&q->wait, rq), not expressions with side effects.
 *
 *	WBSIM_FIFO_LIST(struct wbsim_bio) wait;
 *
 *	wbsim_fifo_list_add_tail(&q->wait, bio, bi_next);
 *	while ((bio = wbsim_fifo_list_first(&q->wait)) && can_go(bio)) {
 *		wbsim_fifo_list_del_first(&q->wait, bio, bi_next);
 *		go(bio);
 *	}
 */
#ifndef WBSIM_CORE_FIFO_LIST_H
#define WBSIM_CORE_FIFO_LIST_H

#include <stddef.h>

/* The list of @type objects: @head the oldest, @tail the newest. */
#define WBSIM_FIFO_LIST(type) struct { type *head, *tail; }

/* Make @fl empty (it forgets its objects, which are not touched). */
#define wbsim_fifo_list_init(fl) ((fl)->head = (fl)->tail = NULL)

#define wbsim_fifo_list_empty(fl) ((fl)->head == NULL)

/* The oldest object, or NULL. */
#define wbsim_fifo_list_first(fl) ((fl)->head)

/* The newest object, or NULL. */
#define wbsim_fifo_list_last(fl) ((fl)->tail)

/* Add @obj after the newest; its @link is cleared first. */
#define wbsim_fifo_list_add_tail(fl, obj, link)				\
	do {								\
		(obj)->link = NULL;					\
		if ((fl)->tail)						\
			(fl)->tail->link = (obj);			\
		else							\
			(fl)->head = (obj);				\
		(fl)->tail = (obj);					\
	} while (0)

/*
 * Unlink @obj, which must be wbsim_fifo_list_first(@fl) (peek, decide,
 * then take: the waiters go in order while the resource lasts); its @link
 * is cleared.
 */
#define wbsim_fifo_list_del_first(fl, obj, link)			\
	do {								\
		(fl)->head = (obj)->link;				\
		if (!(fl)->head)					\
			(fl)->tail = NULL;				\
		(obj)->link = NULL;					\
	} while (0)

#endif /* WBSIM_CORE_FIFO_LIST_H */
