/* SPDX-License-Identifier: MIT */
/*
 * test-machine.c - lib/machine: a machine built from its description (the
 * knobs it reads, the message of a memory too small, with the line the
 * caller names), and its door (machine/sys.h): open and
 * close count the openers, ftruncate and fallocate set the size as the
 * kernel does, fsync and fadvise of a clean file return at once, and
 * a task makes, enters, leaves and removes a cgroup; a buffered write's
 * steps (wbsim_sys_write_*()): i_rwsem taken and handed over (after the
 * system call's entry on a CPU, for wbsim_sys_write_enter()), the sleep
 * on a folio writeback holds counted as a lock wait, the delalloc
 * reservation ending the write's checks, one -ENOSPC flush per write,
 * the throttle (nothing for an inode without a wb, and io_uring's punting
 * set only by a call that was made), io_uring's punt cost, and the run's
 * failure.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "machine/sys.h"
#include "core/cpu-costs.h"
#include "core/sim.h"
#include "mm/page-writeback.h"
#include "defs/writeback.h"
#include <wbsim/error.h>

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
		.seed = 1, .cpus = 4, .cpu_speed = 100, .hz = 1000, .memory = memory, .sched_autogroup = TRUE,
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

static void resumed(wbsim_sim *sim, void *arg)
{
	(void)sim;
	(*(int *)arg)++;
}

/* Writeback unlocks the folio of page 2 of @arg. */
static void folio_unlock(wbsim_sim *sim, void *arg)
{
	struct wbsim_inode *inode = arg;

	inode->wb_locked_folio = WBSIM_PGOFF_NONE;
	wbsim_inode_wake(inode, sim);
}

/* The steps of a buffered write(2), one by one. */
static void test_sys_write_steps(void **state)
{
	struct wbsim_machine m;
	struct wbsim_cpu_costs costs;
	struct wbsim_machine_knobs k;
	struct wbsim_sys_call c1, c2;
	wbsim_task t1, t2;
	struct wbsim_dirtier d;
	struct wbsim_inode *a;
	wbsim_time_t waited, ran;
	int n1 = 0, n2 = 0;

	(void)state;
	assert_true(build(&m, &costs, &k, 2048 * MIB, NULL));
	wbsim_task_init(&t1, "fio", WBSIM_TASK_DIRTIER);
	wbsim_task_init(&t2, "fio", WBSIM_TASK_DIRTIER);
	wbsim_sys_call_init(&c1, &m, &t1);
	wbsim_sys_call_init(&c2, &m, &t2);
	wbsim_sys_copy_process(&d, &t1);
	assert_ptr_equal(d.task, &t1);
	assert_null(d.memcg);
	assert_int_equal(d.pauses, 0);
	a = wbsim_sys_open(&m, "/mnt/f");
	/* the costs the steps are checked against are there to see */
	assert_true(costs.rwsem_wake_ns > 0 && costs.syscall_entry_ns > 0);

	/* i_rwsem: the first writer takes it, the second waits for the
	 * unlock, which costs the first the waking */
	wbsim_sys_write_inode_lock(&c1, a, resumed, &n1);
	wbsim_sys_write_inode_lock(&c2, a, resumed, &n2);
	wbsim_sim_run(m.sim);
	assert_int_equal(n1, 1);
	assert_int_equal(n2, 0);
	assert_true(wbsim_sys_write_inode_unlock(&c1, a) == costs.rwsem_wake_ns);
	wbsim_sim_run(m.sim);
	assert_int_equal(n2, 1);
	assert_true(wbsim_sys_write_inode_unlock(&c2, a) == 0);
	/* a write that enters the kernel first: the entry on its CPU, then
	 * the lock */
	ran = t2.cpu_ns;
	wbsim_sys_write_enter(&c2, a, resumed, &n2);
	wbsim_sim_run(m.sim);
	assert_int_equal(n2, 2);
	assert_true(t2.cpu_ns - ran == costs.syscall_entry_ns);
	assert_true(wbsim_sys_write_inode_unlock(&c2, a) == 0);

	/* write_begin's folio lock: only a write that spans the folio
	 * sleeps, and its sleep is a lock wait of its task */
	a->wb_locked_folio = 2;
	assert_false(wbsim_sys_write_folio_locked(&m, a, 0, 8192));
	assert_true(wbsim_sys_write_folio_locked(&m, a, 8191, 2));
	assert_false(wbsim_sys_write_wait_folio_lock(&c1, a, 12288, 4096, resumed, &n1));
	waited = t1.lock_wait_ns;
	assert_true(wbsim_sys_write_wait_folio_lock(&c1, a, 8192, 4096, resumed, &n1));
	wbsim_sim_schedule_after(m.sim, WBSIM_NSEC_PER_MSEC, folio_unlock, a);
	wbsim_sim_run(m.sim);
	assert_int_equal(n1, 2);
	assert_true(t1.lock_wait_ns - waited == WBSIM_NSEC_PER_MSEC);

	/* the ideal filesystem: no free-space push, the reservation always
	 * succeeds and ends the write's checks */
	assert_false(wbsim_sys_write_free_space_low(&c1));
	c1.cleared_space = c1.nonda_switched = true;
	assert_true(wbsim_sys_write_reserve_delalloc(&c1, a, 0, 4096));
	assert_false(c1.cleared_space);
	assert_false(c1.nonda_switched);

	/* -ENOSPC: one flush (nothing dirty: it ends at once), then the retry;
	 * a second -ENOSPC of the same write fails it */
	assert_true(wbsim_sys_write_enospc(&c1, resumed, &n1));
	wbsim_sim_run(m.sim);
	assert_int_equal(n1, 3);
	assert_false(wbsim_sys_write_enospc(&c1, resumed, &n1));
	wbsim_sim_run(m.sim);
	assert_int_equal(n1, 3);

	/* the ideal filesystem's writes hold no lock of its own */
	assert_false(wbsim_sys_write_ilock(&c1, a, resumed, &n1));

	wbsim_sys_call_clear(&c1);
	wbsim_sys_call_clear(&c2);
	wbsim_task_clear(&t1);
	wbsim_task_clear(&t2);
	wbsim_machine_clear(&m);
}

/* The throttle after a write, write(2)'s and io_uring's, and the punt. */
static void test_sys_write_throttle(void **state)
{
	struct wbsim_machine m;
	struct wbsim_cpu_costs costs;
	struct wbsim_machine_knobs k;
	struct wbsim_sys_call c;
	struct wbsim_sys_uring r;
	wbsim_task task;
	struct wbsim_dirtier d, sub;
	struct wbsim_inode *a, *b, *e;
	wbsim_time_t fs_cost, plain, punted;
	bool throttle = true;
	int n = 0;

	(void)state;
	assert_true(build(&m, &costs, &k, 2048 * MIB, NULL));
	wbsim_task_init(&task, "iou-wrk-1", WBSIM_TASK_DIRTIER);
	wbsim_sys_call_init(&c, &m, &task);
	wbsim_sys_copy_process(&d, &task);
	wbsim_sys_copy_process(&sub, &task);
	a = wbsim_sys_open(&m, "/mnt/a");
	b = wbsim_sys_open(&m, "/mnt/b");
	e = wbsim_sys_open(&m, "/mnt/e");

	/* one page dirtied: the ratelimit (32 pages) is far */
	plain = wbsim_sys_write(&m, &d, a, 0, 4096, 0, &throttle, &fs_cost);
	assert_false(throttle);
	assert_true(a->size == 4096);
	assert_non_null(a->wb);

	/* the ideal filesystem takes IOCB_NOWAIT writes: at a depth above 1
	 * the ring writes in two lanes (the fio thread inline, io-wq's
	 * worker the punted writes), at depth 1 one write at a time */
	assert_true(costs.uring_punt_ns > 0);
	wbsim_sys_uring_init(&r, &m, &sub, 4);
	assert_true(r.nowait);
	assert_true(wbsim_sys_uring_two_lanes(&r));
	assert_false(wbsim_sys_uring_inline_first(&r));
	assert_false(wbsim_sys_uring_punts(&r));
	wbsim_sys_uring_init(&r, &m, &sub, 1);
	assert_true(wbsim_sys_uring_inline_first(&r));
	assert_false(wbsim_sys_uring_two_lanes(&r));
	wbsim_sys_uring_init(&r, &m, &sub, 4);
	assert_true(wbsim_sys_uring_write(&r, &m, &d, b, 0, 4096, 0, &throttle, &fs_cost) == plain);
	/* a filesystem without IOCB_NOWAIT writes: every write punted */
	r.nowait = false;
	assert_true(wbsim_sys_uring_punts(&r));
	assert_false(wbsim_sys_uring_two_lanes(&r));
	punted = wbsim_sys_uring_write(&r, &m, &d, e, 0, 4096, 0, &throttle, &fs_cost);
	assert_true(punted == plain + costs.uring_punt_ns);
	r.nowait = true;
	/* b's timestamps were updated at tick 0: an inline attempt in the
	 * same tick goes on, one in the next tick fails for the update */
	assert_int_equal(wbsim_sys_uring_inline_eagain(&r, &m, b, 0), WBSIM_URING_INLINE);
	assert_int_equal(wbsim_sys_uring_inline_eagain(&r, &m, b, 4 * WBSIM_NSEC_PER_MSEC),
			 WBSIM_URING_EAGAIN_TIME);
	assert_int_equal(r.time_punts, 1);
	/* i_rwsem's trylock: free, then held (by the one who took it) */
	assert_true(wbsim_sys_write_inode_trylock(&c, e));
	assert_false(wbsim_sys_write_inode_trylock(&c, e));
	assert_int_equal(wbsim_sys_write_inode_unlock(&c, e), 0);
	assert_true(wbsim_sys_write_inode_trylock(&c, e));
	assert_int_equal(wbsim_sys_write_inode_unlock(&c, e), 0);

	/* far below the limits the throttle returns at once */
	assert_false(wbsim_sys_write_balance_dirty_pages(&c, &d, a, resumed, &n));
	/* an inode with no wb: no throttle call */
	assert_null(wbsim_sys_open(&m, "/mnt/clean")->wb);
	assert_false(wbsim_sys_write_balance_dirty_pages(&c, &d, wbsim_sys_open(&m, "/mnt/clean"),
							 resumed, &n));
	wbsim_sim_run(m.sim);
	assert_int_equal(n, 0);

	wbsim_sys_call_clear(&c);
	wbsim_task_clear(&task);
	wbsim_machine_clear(&m);
}

/* A task fails the run: the first failure stands, the simulation stops. */
static void test_machine_fail(void **state)
{
	struct wbsim_machine m;
	struct wbsim_cpu_costs costs;
	struct wbsim_machine_knobs k;
	g_autoptr(GError) e1 = g_error_new(WBSIM_ERROR, WBSIM_ERROR_SIMULATION, "first");
	g_autoptr(GError) e2 = g_error_new(WBSIM_ERROR, WBSIM_ERROR_SIMULATION, "second");

	(void)state;
	assert_true(build(&m, &costs, &k, 2048 * MIB, NULL));
	assert_null(m.bdi.failure);
	wbsim_machine_fail(&m, e1);
	wbsim_machine_fail(&m, e2);
	assert_string_equal(m.bdi.failure->message, "first");
	wbsim_machine_clear(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build),
		cmocka_unit_test(test_sys),
		cmocka_unit_test(test_sys_cgroup),
		cmocka_unit_test(test_sys_write_steps),
		cmocka_unit_test(test_sys_write_throttle),
		cmocka_unit_test(test_machine_fail),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
