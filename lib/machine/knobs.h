/* SPDX-License-Identifier: MIT */
/*
 * machine/knobs.h - the knobs of the simulated machine's kernel: the vm.*
 * sysctls of [vm] and the bdi's and writeback design's of [writeback]
 * (struct wbsim_machine_knobs), which a scenario's configuration holds,
 * and their table (knobs.c). A new knob is a field here and a row there.
 */
#ifndef WBSIM_MACHINE_KNOBS_H
#define WBSIM_MACHINE_KNOBS_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>
#include <wbsim/param.h>

/**
 * enum wbsim_dirty_accounting - [writeback] dirty_accounting
 * @WBSIM_DIRTY_ACCOUNTING_WHOLE_FOLIO: dirtying any byte of a folio makes the
 *	whole folio dirty, accounted and written back
 * @WBSIM_DIRTY_ACCOUNTING_PER_BLOCK: only the blocks dirtied are accounted
 *	and written back (the granular accounting series)
 */
enum wbsim_dirty_accounting {
	WBSIM_DIRTY_ACCOUNTING_WHOLE_FOLIO,
	WBSIM_DIRTY_ACCOUNTING_PER_BLOCK,
};

/**
 * enum wbsim_dying_wb - [writeback] dying_wb
 * @WBSIM_DYING_WB_UNREACHABLE: a killed cgroup wb leaves the bdi's index at
 *	once: foreign flushes to it fail (today's kernel)
 * @WBSIM_DYING_WB_REACHABLE: a killed wb stays findable until released,
 *	and a replaced wb's inodes are switched to its successor
 */
enum wbsim_dying_wb {
	WBSIM_DYING_WB_UNREACHABLE,
	WBSIM_DYING_WB_REACHABLE,
};

/* [writeback] contexts = cpus: one context per simulated CPU. */
#define WBSIM_CONTEXTS_CPUS WBSIM_PARAM_SPECIAL(0)
/* [writeback] contexts = auto: 1 on a rotational device, else one per CPU. */
#define WBSIM_CONTEXTS_AUTO WBSIM_PARAM_SPECIAL(1)
/* [writeback] folio_size = auto: the filesystem's choice for each write. */
#define WBSIM_FOLIO_SIZE_AUTO WBSIM_PARAM_SPECIAL(0)

/**
 * struct wbsim_machine_knobs - the knobs of the machine's kernel
 * @dirty_ratio: vm.dirty_ratio, percent (0 when dirty_bytes is set)
 * @dirty_bytes: vm.dirty_bytes, bytes (0: use dirty_ratio)
 * @dirty_background_ratio: vm.dirty_background_ratio, percent
 * @dirty_background_bytes: vm.dirty_background_bytes, bytes
 * @dirty_expire_centisecs: vm.dirty_expire_centisecs, 1/100 s
 * @dirty_writeback_centisecs: vm.dirty_writeback_centisecs, 1/100 s
 * @wb_contexts: writeback contexts per bdi: a number, WBSIM_CONTEXTS_CPUS
 *	or WBSIM_CONTEXTS_AUTO
 * @wb_affinity: the name of a registered affinity policy
 * @strictlimit: BDI_CAP_STRICTLIMIT
 * @bdi_max_bytes: the bdi's max_bytes knob (0: none)
 * @folio_size: bytes of a page-cache folio, or WBSIM_FOLIO_SIZE_AUTO
 * @dirty_accounting: enum wbsim_dirty_accounting
 * @dying_wb: enum wbsim_dying_wb
 */
struct wbsim_machine_knobs {
	uint64_t dirty_ratio;
	uint64_t dirty_bytes;
	uint64_t dirty_background_ratio;
	uint64_t dirty_background_bytes;
	uint64_t dirty_expire_centisecs;
	uint64_t dirty_writeback_centisecs;

	uint64_t wb_contexts;
	char *wb_affinity;
	gboolean strictlimit;
	uint64_t bdi_max_bytes;
	uint64_t folio_size;
	unsigned int dirty_accounting;
	unsigned int dying_wb;
};

/*
 * The rows of [vm] and [writeback], in documentation order, ending with a
 * NULL name; their offsets are in struct wbsim_machine_knobs. The scenario's
 * key table takes them in (lib/scenario/config.c: wbsim_config_keys()).
 */
extern const struct wbsim_param wbsim_machine_knob_keys[];

/* The writeback contexts per bdi [writeback] contexts makes on @cpus CPUs
 * and a @rotational device or not. */
unsigned int wbsim_machine_nr_contexts(const struct wbsim_machine_knobs *k, unsigned int cpus,
				       bool rotational);

#endif /* WBSIM_MACHINE_KNOBS_H */
