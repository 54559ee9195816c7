/* SPDX-License-Identifier: MIT */
/*
 * test-machine.c - lib/machine: a machine built from its description (the
 * knobs it reads, the message of a memory too small, with the line the
 * caller names), and the start of its door (machine/sys.h): open and
 * close count the openers, ftruncate and fallocate set the size as the
 * kernel does, fsync and fadvise of a clean file return at once, and
 * a task makes, enters, leaves and removes a cgroup.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "machine/sys.h"
#include "core/cpu-costs.h"
#include "mm/page-writeback.h"

#define MIB ((uint64_t)1 << 20)

static char *where(const void *arg, const char *section, const char *key)
{
	return g_strdup_printf("%s:7: [%s] %s", (const char *)arg, section, key);
}

/* The defaults of a scenario, on @memory bytes of RAM. */
static gboolean build(struct wbsim_machine *m, struct wbsim_cpu_costs *costs,
		      struct wbsim_machine_knobs *k, uint64_t memory, GError **error)
{
	struct wbsim_machine_spec spec = {
		.seed = 1, .cpus = 4, .cpu_speed = 100, .hz = 1000, .memory = memory,
		.costs = costs, .device_preset = "ideal", .fs_type = "ideal", .knobs = k,
		.where = where, .where_arg = "demo.ini",
	};

	wbsim_cpu_costs_init(costs);
	*k = (struct wbsim_machine_knobs){
		.dirty_ratio = 20, .dirty_background_ratio = 10,
		.dirty_expire_centisecs = 3000, .dirty_writeback_centisecs = 500,
		.wb_contexts = WBSIM_CONTEXTS_AUTO, .wb_affinity = "inode",
		.folio_size = WBSIM_FOLIO_SIZE_AUTO,
	};
	*m = (struct wbsim_machine){ 0 };
	return wbsim_machine_build(m, &spec, error);
}

static void test_build(void **state)
{
	struct wbsim_machine m;
	struct wbsim_cpu_costs costs;
	struct wbsim_machine_knobs k;
	g_autoptr(GError) error = NULL;

	(void)state;
	assert_true(build(&m, &costs, &k, 2048 * MIB, &error));
	/* contexts = auto on a device that does not rotate: one per CPU */
	assert_int_equal(m.bdi.nr_wb_ctx, 4);
	assert_true(m.vm.dirty_expire_ns == 30 * WBSIM_NSEC_PER_SEC);
	assert_true(m.vm.dirty_writeback_ns == 5 * WBSIM_NSEC_PER_SEC);
	assert_int_equal(m.vm.dirty.vm_dirty_ratio, 20);
	assert_int_equal(m.folio_pages, 0);
	wbsim_machine_clear(&m);

	/* 520 MiB: the kernel's own 512 MiB and the memory map take it all */
	assert_false(build(&m, &costs, &k, 520 * MIB, &error));
	assert_string_equal(error->message,
			    "demo.ini:7: [machine] memory: leaves no memory for the page cache "
			    "(the kernel keeps about 520 MiB): expected at least 521m");
	wbsim_machine_clear(&m);
}

static void returned(void *arg)
{
	(*(int *)arg)++;
}

static void test_sys(void **state)
{
	struct wbsim_machine m;
	struct wbsim_cpu_costs costs;
	struct wbsim_machine_knobs k;
	struct wbsim_sys_call call;
	wbsim_task task;
	struct wbsim_inode *a, *b;
	int done = 0;

	(void)state;
	assert_true(build(&m, &costs, &k, 2048 * MIB, NULL));
	wbsim_task_init(&task, "fio", WBSIM_TASK_DIRTIER);
	wbsim_sys_call_init(&call, &m, &task);

	a = wbsim_sys_open(&m, "/mnt/d/f");
	assert_non_null(a);
	assert_int_equal(a->openers, 1);
	b = wbsim_sys_open(&m, "/mnt/d/f");
	assert_ptr_equal(a, b);
	assert_int_equal(a->openers, 2);
	assert_int_equal(m.inodes->len, 1);
	assert_ptr_not_equal(wbsim_sys_open(&m, "/mnt/d/g"), a);
	assert_int_equal(m.inodes->len, 2);

	wbsim_sys_ftruncate(&m, a, 12345);
	assert_true(a->size == 12345);
	wbsim_sys_ftruncate(&m, a, 0);
	assert_true(wbsim_sys_fallocate(&m, a, 1 * MIB, true));
	assert_true(a->size == 0);	/* FALLOC_FL_KEEP_SIZE */
	assert_true(wbsim_sys_fallocate(&m, a, 2 * MIB, false));
	assert_true(a->size == 2 * MIB);

	/* nothing dirty, nothing under writeback: they return at once */
	wbsim_sys_fsync(&call, a, returned, &done);
	assert_int_equal(done, 1);
	wbsim_sys_fsync(&call, NULL, returned, &done);
	assert_int_equal(done, 2);
	wbsim_sys_fadvise_dontneed(&call, a, 0, 2 * MIB, returned, &done);
	assert_int_equal(done, 3);

	wbsim_sys_close(&m, a);
	assert_int_equal(a->openers, 1);
	wbsim_sys_close(&m, a);
	assert_int_equal(a->openers, 0);

	wbsim_sys_call_clear(&call);
	wbsim_task_clear(&task);
	wbsim_machine_clear(&m);
}

/* fio's cgroup=: mkdir, the task's pid into cgroup.procs, back out, rmdir */
static void test_sys_cgroup(void **state)
{
	struct wbsim_machine m;
	struct wbsim_cpu_costs costs;
	struct wbsim_machine_knobs k;
	wbsim_task task;
	struct wbsim_dirtier d;
	struct wbsim_memcg *cg;
	g_autoptr(GError) error = NULL;

	(void)state;
	assert_true(build(&m, &costs, &k, 2048 * MIB, NULL));
	wbsim_task_init(&task, "fio", WBSIM_TASK_DIRTIER);
	wbsim_dirtier_init(&d, &task);

	/* in no cgroup yet: leaving for the root is nothing */
	wbsim_sys_cgroup_attach(&m, &d, NULL);
	assert_null(d.memcg);
	cg = wbsim_sys_cgroup_mkdir(&m, "/e7/a", &error);
	assert_non_null(cg);
	assert_ptr_equal(wbsim_sys_cgroup_mkdir(&m, "/e7/a", &error), cg);
	wbsim_sys_cgroup_attach(&m, &d, cg);
	assert_ptr_equal(d.memcg, cg);
	assert_false(wbsim_sys_cgroup_rmdir(&m, "/e7"));	/* has a child */
	assert_false(wbsim_sys_cgroup_rmdir(&m, "/e7/a"));	/* the task is in it */
	wbsim_sys_cgroup_attach(&m, &d, NULL);
	assert_null(d.memcg);	/* the root: a task in no cgroup of its own */
	assert_true(wbsim_sys_cgroup_rmdir(&m, "/e7/a"));
	assert_false(wbsim_sys_cgroup_rmdir(&m, "/e7/a"));	/* none any more */
	assert_true(wbsim_sys_cgroup_rmdir(&m, "/e7"));

	wbsim_task_clear(&task);
	wbsim_machine_clear(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build),
		cmocka_unit_test(test_sys),
		cmocka_unit_test(test_sys_cgroup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
