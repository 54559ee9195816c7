/* SPDX-License-Identifier: MIT */
/*
 * vm.c - machine-wide memory state, the jiffies clock, and the global dirty
 * domain's completion proportions (kernel: mm/page-writeback.c globals,
 * writeout_period(), __wb_writeout_add()).
 */
#include <wbsim/error.h>
#include "mm/vm.h"
#include "mm/dirty-limits.h"
#include "defs/backing-dev-defs.h"

static void writeout_period(wbsim_sim *sim, void *arg);

void wbsim_vm_init(struct wbsim_vm *vm, wbsim_sim *sim, unsigned int hz,
		   unsigned int nr_cpus, uint64_t total_bytes, uint64_t unreclaimable_bytes)
{
	*vm = (struct wbsim_vm){ 0 };
	vm->sim = sim;
	wbsim_vm_dirty_init(&vm->dirty, hz, nr_cpus);
	vm->jiffy_ns = WBSIM_NSEC_PER_SEC / hz;
	vm->total_pages = total_bytes / WBSIM_PAGE_SIZE;
	vm->unreclaimable_pages = MIN(unreclaimable_bytes / WBSIM_PAGE_SIZE, vm->total_pages);
	vm->cpu_dirty = g_new0(struct wbsim_cpu_dirty, nr_cpus);
	wbsim_wb_domain_init(&vm->dom, wbsim_jiffies(vm));
	wbsim_timer_init(&vm->period_timer, writeout_period, vm);
	wbsim_memcg_tree_init(vm);
}

void wbsim_vm_clear(struct wbsim_vm *vm)
{
	g_clear_pointer(&vm->cpu_dirty, g_free);
	wbsim_memcg_tree_clear(&vm->memcgs);
}

uint64_t wbsim_vm_dirtyable_memory(const struct wbsim_vm *vm)
{
	/* Free and file LRU pages together; reserves are part of the
	 * unreclaimable share, so totalreserve is 0 here. */
	return wbsim_global_dirtyable_memory(vm->total_pages - vm->unreclaimable_pages, 0, 0);
}

void wbsim_global_dirty_limits(const struct wbsim_vm *vm, uint64_t *bg_thresh,
			       uint64_t *thresh)
{
	struct wbsim_dtc gdtc = { .avail = wbsim_vm_dirtyable_memory(vm) };

	wbsim_domain_dirty_limits(&vm->dirty, &gdtc, false);
	*bg_thresh = gdtc.bg_thresh;
	*thresh = gdtc.thresh;
}

/* writeout_period(): age the completion proportions every 3 s while
 * completions keep coming; the timer stops when the domain goes idle. */
static void writeout_period(wbsim_sim *sim, void *arg)
{
	struct wbsim_vm *vm = arg;
	uint64_t now = wbsim_jiffies(vm);

	if (wbsim_writeout_period(&vm->dom, now, vm->dirty.hz))
		wbsim_timer_arm(sim, &vm->period_timer,
				wbsim_jiffy_time(vm, vm->dom.period_time));
}

/* The same for a memcg's domain (its own period timer). */
static void memcg_writeout_period(wbsim_sim *sim, void *arg)
{
	struct wbsim_memcg *memcg = arg;
	struct wbsim_vm *vm = memcg->vm;

	if (wbsim_writeout_period(&memcg->dom, wbsim_jiffies(vm), vm->dirty.hz))
		wbsim_timer_arm(sim, &memcg->period_timer,
				wbsim_jiffy_time(vm, memcg->dom.period_time));
}

void wbsim_vm_memcg_domain_init(struct wbsim_vm *vm, struct wbsim_memcg *memcg)
{
	memcg->vm = vm;
	wbsim_wb_domain_init(&memcg->dom, wbsim_jiffies(vm));
	wbsim_timer_init(&memcg->period_timer, memcg_writeout_period, memcg);
}

/* __wb_writeout_add(): the global domain, and the memcg domain of a
 * non-root wb */
void wbsim_vm_writeout_add(struct wbsim_vm *vm, struct wbsim_wb *wb, uint64_t nr)
{
	uint64_t now = wbsim_jiffies(vm);
	struct wbsim_memcg *memcg = wb->memcg;

	if (wbsim_wb_domain_writeout_add(&vm->dom, &wb->completions,
					 wb->bdi->dirty.max_prop_frac, nr, now, vm->dirty.hz))
		wbsim_timer_arm(vm->sim, &vm->period_timer,
				wbsim_jiffy_time(vm, vm->dom.period_time));
	if (memcg && memcg->parent &&
	    wbsim_wb_domain_writeout_add(&memcg->dom, &wb->memcg_completions,
					 wb->bdi->dirty.max_prop_frac, nr, now, vm->dirty.hz))
		wbsim_timer_arm(vm->sim, &memcg->period_timer,
				wbsim_jiffy_time(vm, memcg->dom.period_time));
}

gboolean wbsim_vm_check(const struct wbsim_vm *vm, GError **error)
{
	/* a counter that went below zero reads as a huge unsigned number */
	const uint64_t wrapped = UINT64_C(1) << 62;

	if (vm->nr_file_dirty >= wrapped || vm->nr_writeback >= wrapped) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_SIMULATION, "global counter below zero");
		return FALSE;
	}
	if (vm->nr_dirtied != vm->nr_written + vm->nr_file_dirty + vm->nr_writeback) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_SIMULATION,
			    "dirtied %" G_GUINT64_FORMAT " != written %" G_GUINT64_FORMAT
			    " + dirty + writeback", vm->nr_dirtied, vm->nr_written);
		return FALSE;
	}
	return TRUE;
}
