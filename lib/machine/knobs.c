/* SPDX-License-Identifier: MIT */
/*
 * knobs.c - the knobs of the machine's kernel, [vm] and [writeback]: one
 * table (struct wbsim_param rows, the grammar of core/param.c, as the
 * device and filesystem models' tables are) that the scenario's key table
 * takes in (lib/scenario/config.c), so a knob is a row here and a field of
 * struct wbsim_machine_knobs, which wbsim_machine_build() reads.
 */
#include <wbsim/affinity.h>
#include "machine/knobs.h"

#define K(field) offsetof(struct wbsim_machine_knobs, field)
#define KIB ((uint64_t)1 << 10)
#define MIB ((uint64_t)1 << 20)

/* [writeback] dirty_accounting, in enum wbsim_dirty_accounting order */
static const char *const accounting_names[] = { "whole-folio", "per-block", NULL };

/* [writeback] dying_wb, in enum wbsim_dying_wb order */
static const char *const dying_wb_names[] = { "unreachable", "reachable", NULL };

/* [writeback] folio_size's word: WBSIM_FOLIO_SIZE_AUTO */
static const char *const folio_size_words[] = { "auto", NULL };

/* WBSIM_CONTEXTS_CPUS, WBSIM_CONTEXTS_AUTO, in WBSIM_CONFIG_SPECIAL order */
static const char *const contexts_words[] = { "cpus", "auto", NULL };

const struct wbsim_param wbsim_machine_knob_keys[] = {
	{ .section = "vm", .name = "dirty_ratio", .type = WBSIM_PARAM_PERCENT,
	  .offset = K(dirty_ratio), .def = "20", .unit = "% of memory", .max = 100,
	  .help = "vm.dirty_ratio: dirty page limit where writers are throttled. Exclusive with dirty_bytes (setting dirty_bytes alone makes it 0)." },
	{ .section = "vm", .name = "dirty_bytes", .type = WBSIM_PARAM_SIZE,
	  .offset = K(dirty_bytes), .def = "0", .unit = "bytes", .min = 8 * KIB, .flags = WBSIM_PARAM_ZERO_OR_RANGE,
	  .help = "vm.dirty_bytes: the same limit in bytes; 0 = use dirty_ratio. The kernel's minimum is two pages." },
	{ .section = "vm", .name = "dirty_background_ratio", .type = WBSIM_PARAM_PERCENT,
	  .offset = K(dirty_background_ratio), .def = "10", .unit = "% of memory", .max = 100,
	  .help = "vm.dirty_background_ratio: dirty level where background writeback starts. Exclusive with dirty_background_bytes." },
	{ .section = "vm", .name = "dirty_background_bytes", .type = WBSIM_PARAM_SIZE,
	  .offset = K(dirty_background_bytes), .def = "0", .unit = "bytes", .min = 8 * KIB, .flags = WBSIM_PARAM_ZERO_OR_RANGE,
	  .help = "vm.dirty_background_bytes: the same level in bytes; 0 = use dirty_background_ratio." },
	{ .section = "vm", .name = "dirty_expire_centisecs", .type = WBSIM_PARAM_CENTISECS,
	  .offset = K(dirty_expire_centisecs), .def = "3000", .unit = "1/100 s", .max = 100000000,
	  .help = "vm.dirty_expire_centisecs: age at which dirty data is written back by the periodic (kupdate) writeback." },
	{ .section = "vm", .name = "dirty_writeback_centisecs", .type = WBSIM_PARAM_CENTISECS,
	  .offset = K(dirty_writeback_centisecs), .def = "500", .unit = "1/100 s", .max = 100000000,
	  .help = "vm.dirty_writeback_centisecs: interval of the periodic writeback wakeups; 0 disables them." },

	{ .section = "writeback", .name = "contexts", .type = WBSIM_PARAM_UINT,
	  .offset = K(wb_contexts), .def = "1", .unit = "contexts", .min = 1, .max = 4096, .names = contexts_words,
	  .help = "Writeback contexts (flusher threads) per bdi, nr_wb_ctx: a number, cpus (one per CPU), or auto (1 on a rotational device, else one per CPU). 1 is today's kernel." },
	{ .section = "writeback", .name = "affinity", .type = WBSIM_PARAM_NAME,
	  .offset = K(wb_affinity), .def = "inode", .unit = "", .names_fn = wbsim_affinity_names,
	  .help = "Which context writes an inode back: inode = inode number modulo contexts, for the inode's life; none = any context (the earlier variant); or a policy a program registered with wbsim_affinity_register() (include/wbsim/affinity.h)." },
	{ .section = "writeback", .name = "strictlimit", .type = WBSIM_PARAM_BOOL,
	  .offset = K(strictlimit), .def = "false", .unit = "",
	  .help = "BDI_CAP_STRICTLIMIT: throttle on the device's own share of the dirty limit even below the global freerun level." },
	{ .section = "writeback", .name = "max_bytes", .type = WBSIM_PARAM_SIZE,
	  .offset = K(bdi_max_bytes), .def = "0", .unit = "bytes",
	  .help = "The bdi's max_bytes knob (/sys/class/bdi/*/max_bytes): caps the device's share of the dirty threshold at this many bytes, converted once into max_ratio against the global threshold of the moment it is set (the start of the run), as bdi_set_max_bytes() does; 0 = no cap (max_ratio 100%)." },
	{ .section = "writeback", .name = "folio_size", .type = WBSIM_PARAM_SIZE,
	  .offset = K(folio_size), .def = "auto", .unit = "bytes", .min = 4096, .max = 2 * MIB,
	  .names = folio_size_words,
	  .help = "Page-cache folio size of the files: auto = the folio the kernel's buffered write path allocates for the write that finds the file's page cache empty (its length rounded down to a power of two, bounded by its alignment and by the filesystem's largest folio: 2m on xfs and ext4, 4k on f2fs and ideal), kept for the file's folios until its cache is empty again; or a power of two from 4k to 2m for every file." },
	{ .section = "writeback", .name = "dirty_accounting", .type = WBSIM_PARAM_ENUM,
	  .offset = K(dirty_accounting), .def = "whole-folio", .unit = "", .names = accounting_names,
	  .help = "How a dirtied large folio is accounted: whole-folio = the four accounting points (dirtied, cleared for writeback, writeback start and end) count the whole folio, though iomap writes back only its dirty blocks (today's kernels); per-block = they count only the blocks dirtied, as the granular dirty accounting series proposes. The folio size and what is written are the same in both; with 4k folios the two are one." },
	{ .section = "writeback", .name = "dying_wb", .type = WBSIM_PARAM_ENUM,
	  .offset = K(dying_wb), .def = "unreachable", .unit = "", .names = dying_wb_names,
	  .help = "Cgroup writeback: what becomes of the wb of a removed cgroup, or of a cgroup whose io association changed. unreachable = today's kernel: a killed wb leaves the index at once, so foreign flushes aimed at it fail (-ENOENT) while its inodes stay attached to it; reachable = the kernel change that keeps a killed wb findable until it is released and switches a replaced wb's inodes to its successor." },
	{ .name = NULL },
};

unsigned int wbsim_machine_nr_contexts(const struct wbsim_machine_knobs *k, unsigned int cpus,
				       bool rotational)
{
	if (k->wb_contexts == WBSIM_CONTEXTS_CPUS)
		return cpus;
	if (k->wb_contexts == WBSIM_CONTEXTS_AUTO)
		return rotational ? 1 : cpus;
	return (unsigned int)k->wb_contexts;
}
