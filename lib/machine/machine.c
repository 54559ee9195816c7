/* SPDX-License-Identifier: MIT */
/*
 * machine.c - the simulated machine: built from its description (CPUs and
 * their costs, the device, the filesystem on it, the memory the kernel
 * leaves to the page cache after a PMEM reservation, the vm knobs, the
 * bdi), its files and directories looked up or created by path, and freed.
 */
#include <string.h>
#include <wbsim/error.h>
#include <wbsim/affinity.h>
#include "machine/machine.h"
#include "fs/bdi.h"
#include "mm/dirty-limits.h"
#include "block/blk.h"
#include "fs/alloc/fs.h"
#include "core/sim.h"

/*
 * Memory the kernel never counts as dirtyable: the struct page array (64
 * bytes per 4 KiB page, 1/64 of RAM, not even in MemTotal), and a fixed
 * 512 MiB for the kernel's text and slab, the watermark reserves
 * (totalreserve_pages) and the anonymous memory of the running programs on
 * an otherwise idle server. A machine preset value, the same for every
 * scenario.
 */
#define MEMMAP_SHIFT 6
#define BASE_UNRECLAIMABLE (UINT64_C(512) << 20)

/* -- files ---------------------------------------------------------------- */

static wbsim_fs_inode *machine_dir(struct wbsim_machine *m, const char *dir)
{
	wbsim_fs_inode *d;
	g_autofree char *parent = NULL;

	if (strcmp(dir, "/") == 0 || strcmp(dir, ".") == 0 || strcmp(dir, "/mnt") == 0)
		return wbsim_fs_root(m->fs);	/* the filesystem is mounted on /mnt */
	if ((d = g_hash_table_lookup(m->dirs, dir)))
		return d;
	parent = g_path_get_dirname(dir);
	d = wbsim_fs_mkdir(m->fs, machine_dir(m, parent));
	g_hash_table_insert(m->dirs, g_strdup(dir), d);
	return d;
}

struct wbsim_inode *wbsim_machine_open(struct wbsim_machine *m, const char *path,
				       gboolean *created)
{
	struct wbsim_inode *inode = g_hash_table_lookup(m->files, path);
	g_autofree char *dir = NULL;
	wbsim_fs_inode *fi;

	*created = FALSE;
	if (inode)
		return inode;
	dir = g_path_get_dirname(path);
	fi = wbsim_fs_create(m->fs, machine_dir(m, dir));
	if (!fi)
		return NULL;
	inode = wbsim_inode_new(&m->bdi, fi, path, m->folio_pages, m->per_block_accounting);
	/* keyed by the inode's own copy of the path (freed with it) */
	g_hash_table_insert(m->files, inode->name, inode);
	g_ptr_array_add(m->inodes, inode);
	*created = TRUE;
	return inode;
}

void wbsim_machine_fail(struct wbsim_machine *m, const GError *error)
{
	wbsim_bdi_fail(&m->bdi, error);
}

/* The first "FILE:LINE: [SECTION] KEY = VALUE" of a message. */
static char *where(const struct wbsim_machine_spec *spec, const char *section, const char *key)
{
	return spec->where ? spec->where(spec->where_arg, section, key)
			   : g_strdup_printf("[%s] %s", section, key);
}

gboolean wbsim_machine_build(struct wbsim_machine *m, const struct wbsim_machine_spec *spec,
			     GError **error)
{
	const struct wbsim_machine_knobs *k = spec->knobs;
	uint64_t ram = spec->memory, unreclaimable, reserved;
	struct wbsim_bdi_params bp = { .name = "259:0" };
	const struct wbsim_affinity_ops *aff;
	struct wbsim_blk_queue *q;

	m->sim = wbsim_sim_new(spec->seed);
	m->cpus = wbsim_cpus_new(m->sim, spec->cpus, error);
	if (!m->cpus)
		return FALSE;
	wbsim_cpus_set_speed(m->cpus, spec->cpu_speed);
	wbsim_cpus_set_autogroup(m->cpus, spec->sched_autogroup);
	wbsim_cpus_set_idle_exit_latency(m->cpus, spec->idle_exit_latency, spec->idle_poll_window,
					 spec->idle_poll_latency);
	wbsim_cpus_set_idle_wake_cost(m->cpus, spec->idle_wake_cost);
	wbsim_cpus_set_idle_exit_cost(m->cpus, spec->idle_exit_cost, spec->idle_poll_cost);
	m->costs = *spec->costs;
	m->dirs = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	m->files = g_hash_table_new(g_str_hash, g_str_equal);
	m->inodes = g_ptr_array_new();
	m->warnings = g_ptr_array_new_with_free_func(g_free);
	/* Large folios: the folio size is the filesystem's in both modes
	 * (allocation, the writeback walk); whole-folio accounting charges a
	 * folio's worth at each accounting point, per-block accounting only
	 * the blocks (iomap's per-block dirty state says which). */
	/* 0: chosen per file by the write that fills its empty cache */
	m->folio_pages = k->folio_size == WBSIM_FOLIO_SIZE_AUTO ? 0 :
			 (unsigned int)(k->folio_size / WBSIM_PAGE_SIZE);
	m->per_block_accounting = k->dirty_accounting == WBSIM_DIRTY_ACCOUNTING_PER_BLOCK;

	m->dev = wbsim_device_new_from_preset(m->sim, m->cpus, &m->costs, spec->device_preset,
					      spec->dev_set, spec->n_dev, error);
	if (!m->dev)
		return FALSE;
	{
		g_autoptr(GError) local = NULL;

		m->fs = wbsim_fs_new(spec->fs_type, m->sim, m->cpus,
				     wbsim_device_capacity(m->dev) << WBSIM_SECTOR_SHIFT,
				     spec->fs_set, spec->n_fs, &local);
		if (!m->fs) {
			/* the layout on this device: say which lines chose both */
			g_autofree char *fw = where(spec, "filesystem", "type");
			g_autofree char *dw = where(spec, "device", "preset");

			g_set_error(error, local->domain, local->code,
				    "%s on %s (%" G_GUINT64_FORMAT " bytes): %s", fw, dw,
				    wbsim_device_capacity(m->dev) << WBSIM_SECTOR_SHIFT,
				    local->message);
			return FALSE;
		}
		wbsim_fs_set_rwsem_costs(m->fs, m->costs.rwsem_sleep_ns, m->costs.rwsem_wake_ns);
	}

	/*
	 * PMEM emulated on DRAM lives in RAM reserved at boot (memmap=S!O):
	 * [machine] memmap, which the kernel never sees, whatever the device;
	 * without it, a pmem device reserves its own capacity. (Loading the
	 * scenario checked both against the RAM, with their lines.)
	 */
	reserved = spec->memmap;
	if (wbsim_device_get_ops(m->dev)->flags & WBSIM_DEVICE_RAM_BACKED) {
		uint64_t cap = wbsim_device_capacity(m->dev) << WBSIM_SECTOR_SHIFT;

		if (!reserved)
			reserved = cap;
		if (cap > reserved) {
			g_autofree char *w = where(spec, "machine", "memmap");

			g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
				    "%s: the PMEM device of %" G_GUINT64_FORMAT " bytes does not "
				    "fit in the %" G_GUINT64_FORMAT " bytes reserved: expected a "
				    "memmap of at least the device's capacity", w, cap, reserved);
			return FALSE;
		}
	}
	if (reserved >= ram) {
		/* the reservation is too large, not the memory */
		g_autofree char *w = spec->memmap ? where(spec, "machine", "memmap")
						  : where(spec, "device", "preset");

		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "%s: reserves %" G_GUINT64_FORMAT " bytes of RAM for PMEM, "
			    "nothing of [machine] memory = %" G_GUINT64_FORMAT
			    " bytes is left: expected a reservation below the memory",
			    w, reserved, ram);
		return FALSE;
	}
	ram -= reserved;
	unreclaimable = (ram >> MEMMAP_SHIFT) + BASE_UNRECLAIMABLE;
	if (unreclaimable >= ram) {
		g_autofree char *w = where(spec, "machine", "memory");
		/* the least RAM with something left: ram - ram/64 > BASE */
		uint64_t least = reserved + BASE_UNRECLAIMABLE / 63 * 64 + (UINT64_C(1) << 20);

		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "%s: leaves no memory for the page cache (the kernel keeps about "
			    "%" G_GUINT64_FORMAT " MiB%s): expected at least %" G_GUINT64_FORMAT "m",
			    w, unreclaimable >> 20, reserved ? ", after the PMEM reservation" : "",
			    least >> 20);
		return FALSE;
	}
	wbsim_vm_init(&m->vm, m->sim, spec->hz, spec->cpus, ram, unreclaimable);
	m->vm.dirty.dirty_background_ratio = (unsigned int)k->dirty_background_ratio;
	m->vm.dirty.dirty_background_bytes = k->dirty_background_bytes;
	m->vm.dirty.vm_dirty_ratio = (unsigned int)k->dirty_ratio;
	m->vm.dirty.vm_dirty_bytes = k->dirty_bytes;
	m->vm.dirty_expire_ns = k->dirty_expire_centisecs * 10 * WBSIM_NSEC_PER_MSEC;
	m->vm.dirty_writeback_ns = k->dirty_writeback_centisecs * 10 * WBSIM_NSEC_PER_MSEC;
	/* writeback_set_ratelimit() at boot */
	wbsim_writeback_set_ratelimit(&m->vm.dirty, &m->vm.dom, wbsim_vm_dirtyable_memory(&m->vm));

	q = wbsim_device_queue(m->dev);
	aff = wbsim_affinity_lookup(k->wb_affinity);
	if (!aff) {
		g_set_error(error, WBSIM_ERROR, WBSIM_ERROR_INVALID_VALUE,
			    "[writeback] affinity = %s: no such policy is registered",
			    k->wb_affinity);
		return FALSE;
	}
	bp.nr_wb_ctx = wbsim_machine_nr_contexts(k, spec->cpus, wbsim_device_rotational(m->dev));
	bp.affinity = aff;
	bp.strictlimit = k->strictlimit;
	bp.max_bytes = k->bdi_max_bytes;
	bp.memcgs = &m->vm.memcgs;
	bp.dying_wb_reachable = k->dying_wb == WBSIM_DYING_WB_REACHABLE;
	bp.max_request_pages = (uint64_t)wbsim_blk_queue_max_sectors(q) >>
			       (WBSIM_PAGE_SHIFT - WBSIM_SECTOR_SHIFT);
	wbsim_bdi_init(&m->bdi, &m->vm, m->cpus, &m->costs, q, (struct wbsim_fs *)m->fs, &bp);
	return TRUE;
}

void wbsim_machine_clear(struct wbsim_machine *m)
{
	if (m->bdi.wb_ctx)
		wbsim_bdi_clear(&m->bdi);
	/* before the inodes: its keys are their names */
	if (m->files)
		g_hash_table_destroy(m->files);
	if (m->inodes) {
		for (guint i = 0; i < m->inodes->len; i++)
			wbsim_inode_free(m->inodes->pdata[i]);
		g_ptr_array_free(m->inodes, TRUE);
	}
	if (m->dirs)
		g_hash_table_destroy(m->dirs);
	if (m->fs)
		wbsim_fs_free(m->fs);
	if (m->dev)
		wbsim_device_free(m->dev);
	if (m->vm.cpu_dirty)
		wbsim_vm_clear(&m->vm);
	wbsim_cpus_free(m->cpus);
	wbsim_sim_free(m->sim);
	if (m->warnings)
		g_ptr_array_free(m->warnings, TRUE);
}

