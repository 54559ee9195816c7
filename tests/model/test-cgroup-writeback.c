/* SPDX-License-Identifier: MIT */
/*
 * test-cgroup-writeback.c - cgroup writeback in whole runs: a lone cgroup
 * behaves like the root-only model, a cgroup removed with dirty inodes
 * loses nothing (--check, then every page written), foreign flushes fail
 * against a removed cgroup's wb only when it is unreachable, and the
 * bdi's total write bandwidth returns to zero once nothing writes; the
 * two dying_wb variants of E7 test 1: the sibling's stall under today's
 * kernel ends with the killed wb's periodic writeback (the first one at the
 * same wakeup whatever the expiry, a later one no later with a shorter
 * expiry), under the other its lag stays within a throttle pause or two.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "model-harness.h"

/* Four sequential writers on a 200 MB/s device, throttled: the dirty
 * limits of a 1 GiB machine are reached within the first second. */
#define MACHINE "[machine]\ncpus = 4\nmemory = 1G\n" \
	"[device]\npreset = ideal\nbandwidth = 200000000/s\n" \
	"[filesystem]\ntype = xfs\n"
#define WRITERS "[fio:w]\nrw=write\nbs=64k\nsize=256m\ntime_based\nruntime=4s\nnumjobs=4\n"

static uint64_t total_io(const struct wbsim_run_result *r)
{
	uint64_t bytes = 0;

	for (guint i = 0; i < r->jobs->len; i++)
		bytes += ((struct wbsim_job_result *)r->jobs->pdata[i])->io_bytes;
	return bytes;
}

static const struct wbsim_memcg_result *memcg_of(const struct wbsim_run_result *r,
						 const char *path)
{
	const struct wbsim_memcg_result *m = wbsim_run_result_memcg(r, path);

	if (!m)
		fail_msg("no memcg %s in the results", path);
	return m;
}

/* One cgroup with no limit and no sibling: its memcg domain sees about
 * what the global one sees, so the writers get the same bandwidth as
 * without cgroups (within 3%), and the device does the same work. */
static void test_lone_cgroup_like_root(void **state)
{
	struct wbsim_run_result *root = run_text(MACHINE WRITERS, NULL, TRUE);
	struct wbsim_run_result *cg = run_text(MACHINE WRITERS
					       "[events]\nat = 0s cgroup-create /solo\n"
					       "at = 0s cgroup-move w /solo\n", NULL, TRUE);
	double a = (double)total_io(root), b = (double)total_io(cg);

	(void)state;
	assert_false(root->cgroups);
	assert_true(cg->cgroups);
	/* the writers were throttled: 4 s at 200 MB/s, not what they could copy */
	assert_true(a < 4.5 * 200e6 + 1e9);
	assert_true(b > 0.97 * a && b < 1.03 * a);
	/* the lone cgroup's wb did the flushing */
	assert_true(((struct wbsim_cgwb_result *)cg->cgwbs->pdata[1])->pages_written > 0);
	assert_string_equal(((struct wbsim_cgwb_result *)cg->cgwbs->pdata[1])->memcg, "/solo");
	assert_int_equal(cg->isw_done, 0);
	wbsim_run_result_free(root);
	wbsim_run_result_free(cg);
}

/* Two cgroups append to the same files; the first owns the inodes and is
 * removed at 1 s while they are dirty; the writers stop at 4 s and the
 * filesystem is unmounted at 8 s. Under --check every counter matched
 * the pages all along; at the end every dirtied page was written, the
 * memcgs hold no dirty page, and the bdi's total write bandwidth is 0. */
static void removed_cgroup_case(const char *variant, uint64_t *failures, uint64_t *flushes)
{
	g_autofree char *text = g_strdup_printf(
		"[machine]\ncpus = 4\nmemory = 2G\n"
		"[device]\npreset = ideal\nbandwidth = 200000000/s\n"
		"[filesystem]\ntype = xfs\n"
		"[writeback]\ndying_wb = %s\n"
		"[events]\nat = 0s cgroup-create /p memory.max=512M\n"
		"at = 0s cgroup-create /p/a\nat = 0s cgroup-create /p/b\n"
		"at = 0s cgroup-move old /p/a\nat = 0s cgroup-move new /p/b\n"
		"at = 1s cgroup-remove /p/a\n"
		"at = 8s umount\n"
		"[fio:old]\nrw=write\nbs=64k\nfile_append=1\ninvalidate=0\nnrfiles=20\n"
		"filename_format=f.$filenum\nsize=4g\nrate=50m\ntime_based\nruntime=4s\n"
		"[fio:new]\nrw=write\nbs=64k\nfile_append=1\ninvalidate=0\nnrfiles=20\n"
		"filename_format=f.$filenum\nsize=4g\nrate=50m\ntime_based\nruntime=4s\n",
		variant);
	struct wbsim_run_result *r = run_text(text, NULL, TRUE);
	const struct wbsim_memcg_result *a = memcg_of(r, "/p/a"), *b = memcg_of(r, "/p/b");
	int col = series_col(r, "bdi_write_bw_kib_s");
	double peak = 0;

	assert_true(r->nr_dirtied > 10000);
	assert_int_equal(r->nr_written, r->nr_dirtied);
	assert_int_equal(r->device_stats.bytes, r->nr_written * 4096);
	assert_false(a->online);
	assert_int_equal(a->nr_file_dirty + a->nr_writeback, 0);
	assert_int_equal(b->nr_file_dirty + b->nr_writeback, 0);
	for (guint i = 0; i < r->cgwbs->len; i++) {
		const struct wbsim_cgwb_result *wb = r->cgwbs->pdata[i];

		assert_int_equal(wb->dirty + wb->writeback, 0);
	}
	/* bandwidth: present while writing, gone when nothing is dirty */
	assert_true(col >= 0);
	for (guint i = 0; i < series_rows(r); i++)
		peak = MAX(peak, series_at(r, i, col));
	assert_true(peak > 0);
	assert_int_equal(r->tot_write_bandwidth, 0);
	assert_true(series_at(r, series_rows(r) - 1, col) == 0);
	*failures = b->frn_flush_failures;
	*flushes = b->frn_flushes;
	wbsim_run_result_free(r);
}

static void test_removed_cgroup_loses_nothing(void **state)
{
	uint64_t fail_u, n_u, fail_r, n_r;

	(void)state;
	removed_cgroup_case("unreachable", &fail_u, &n_u);
	removed_cgroup_case("reachable", &fail_r, &n_r);
	/* the survivor asked for flushes of the removed cgroup's wb: they
	 * fail only when killed wbs are unreachable */
	assert_true(n_u > 0);
	assert_true(fail_u > 0);
	assert_true(n_r > 0);
	assert_int_equal(fail_r, 0);
}

/*
 * E7 test 1 in small: /q/a (job old) and /q/b (job new) append at
 * 200 MB/s each to the same 20 files under a 512 MiB parent limit; /q/a
 * is removed at 1 s with its wb owning every inode. The sibling's pages
 * on those inodes are charged to /q/b, so /q/b's memcg domain throttles
 * new, while only the killed wb can write them.
 */
#define MAX_PAUSE_NS (200 * WBSIM_NSEC_PER_MSEC)	/* balance_dirty_pages' longest sleep */
#define REMOVE_S 1.0

static struct wbsim_run_result *dying_case(const char *variant, unsigned int writeback_cs,
					   unsigned int expire_cs, wbsim_time_t *new_lag)
{
	g_autofree char *text = g_strdup_printf(
		"[machine]\ncpus = 4\nmemory = 2G\n"
		"[device]\npreset = ideal\nbandwidth = 2000000000/s\n"
		"[filesystem]\ntype = xfs\n"
		"[vm]\ndirty_writeback_centisecs = %u\ndirty_expire_centisecs = %u\n"
		"[writeback]\ndying_wb = %s\n"
		"[events]\nat = 0s cgroup-create /q memory.max=512M\n"
		"at = 0s cgroup-create /q/a\nat = 0s cgroup-create /q/b\n"
		"at = 0s cgroup-move old /q/a\nat = 0s cgroup-move new /q/b\n"
		"at = 1s cgroup-remove /q/a\n"
		"[fio:global]\nrw=write\nbs=64k\nfile_append=1\ninvalidate=0\nnrfiles=20\n"
		"filename_format=f.$filenum\nsize=8g\nrate=200m\ntime_based\nruntime=16s\n"
		"[fio:old]\n[fio:new]\n",
		writeback_cs, expire_cs, variant);
	struct wbsim_run_result *r = run_text(text, NULL, FALSE);

	*new_lag = ((struct wbsim_job_result *)r->jobs->pdata[1])->max_lag_ns;
	return r;
}

/* The killed wb's first writeback after the removal (the first 100 ms
 * sample whose dying dirty pages fall below half the previous one's), and
 * the sibling's worst lag up to then (three samples later, as the lag
 * stops growing within them). */
static void first_stall(const struct wbsim_run_result *r, double *t_write, double *peak_ms)
{
	int c_lag = series_col(r, "job1_lag_ms");
	int c_dying = series_col(r, "memcg:/q/a:dying_wb_dirty_pages");

	assert_true(c_lag >= 0 && c_dying >= 0);
	*t_write = -1;
	*peak_ms = 0;
	for (guint i = series_row_at(r, REMOVE_S); i + 1 < series_rows(r); i++) {
		double t = series_at(r, i + 1, 0);

		if (*t_write < 0 && series_at(r, i + 1, c_dying) < series_at(r, i, c_dying) / 2)
			*t_write = t;
		if (*t_write >= 0 && t > *t_write + 0.3)
			break;
		*peak_ms = MAX(*peak_ms, series_at(r, i + 1, c_lag));
	}
}

/* Today's kernel: the sibling's foreign flushes to the killed wb fail,
 * and its pages wait for the killed wb's own flusher, which wakes every
 * dirty_writeback_interval and then finds its WB_RECLAIMABLE over its
 * share of the dead memcg's background threshold. The stall lasts until
 * that writeback: the lag stops growing only when the killed wb's dirty
 * pages fall, within one interval of the removal; a shorter interval
 * shortens it. */
static void test_unreachable_stall_ends_with_periodic_writeback(void **state)
{
	wbsim_time_t lag5, lag2;
	struct wbsim_run_result *r = dying_case("unreachable", 500, 3000, &lag5);
	int c_lag = series_col(r, "job1_lag_ms");
	int c_dying = series_col(r, "memcg:/q/a:dying_wb_dirty_pages");
	double t_stop = -1, t_write = -1;

	(void)state;
	assert_true(c_lag >= 0 && c_dying >= 0);
	assert_true(memcg_of(r, "/q/b")->frn_flush_failures > 0);
	assert_true(lag5 > 2 * MAX_PAUSE_NS);
	for (guint i = series_row_at(r, REMOVE_S); i + 1 < series_rows(r); i++) {
		double t = series_at(r, i + 1, 0);

		if (t_write < 0 && series_at(r, i + 1, c_dying) < series_at(r, i, c_dying) / 2)
			t_write = t;
		if (t_stop < 0 && series_at(r, i, c_lag) > 2 * MAX_PAUSE_NS / 1e6 &&
		    series_at(r, i + 1, c_lag) < series_at(r, i, c_lag))
			t_stop = t;
	}
	/* the first stall ends at the killed wb's first writeback after the
	 * removal (within three 100 ms samples), which comes within one
	 * dirty_writeback_interval (plus its own run) of the removal */
	assert_true(t_write > REMOVE_S && t_write <= REMOVE_S + 5.0 + 0.5);
	assert_true(t_stop >= t_write - 0.05 && t_stop <= t_write + 0.3);
	wbsim_run_result_free(r);

	wbsim_run_result_free(dying_case("unreachable", 200, 3000, &lag2));
	assert_true(lag2 < lag5);
}

/*
 * The expiry against the stall, by the kernel's rules. The killed wb
 * wakes every dirty_writeback_interval whatever the expiry, and at each
 * wakeup wb_do_writeback() runs kupdate (wb_check_old_data_flush(): every
 * inode dirtied more than dirty_expire ago, all its dirty pages) before
 * background writeback (wb_check_background_flush(): down to the
 * threshold only). So:
 * - the first stall is the same under a 5 s and a 30 s expiry: it ends at
 *   the same wakeup (the same sample), with the same worst lag (1%);
 * - a shorter expiry never lengthens the worst lag: kupdate writes every
 *   expired inode at each wakeup, where background writeback stops at the
 *   threshold and may leave some of the killed wb's inodes dirty;
 * - with a 5 s expiry, every inode the killed wb owns is written in full
 *   at each wakeup, mostly the sibling's pages, so wbc_detach_inode()'s
 *   owner vote switches each of them to the sibling's wb within the run:
 *   the killed wb holds no dirty page at the end, and the stall does not
 *   come back. (Under the 30 s expiry background writeback leaves some
 *   inodes to the killed wb, whose next wakeup a second stall waits for.)
 */
static void test_shorter_expiry_ends_stall_no_later(void **state)
{
	wbsim_time_t lag30, lag5;
	struct wbsim_run_result *r30 = dying_case("unreachable", 500, 3000, &lag30);
	struct wbsim_run_result *r5 = dying_case("unreachable", 500, 500, &lag5);
	int c_dying = series_col(r5, "memcg:/q/a:dying_wb_dirty_pages");
	double t30, peak30, t5, peak5;

	(void)state;
	first_stall(r30, &t30, &peak30);
	first_stall(r5, &t5, &peak5);
	assert_true(t30 > REMOVE_S);
	assert_true(fabs(t5 - t30) < 0.05);
	assert_true(peak30 > 2 * MAX_PAUSE_NS / 1e6);
	assert_true(fabs(peak5 - peak30) <= 0.01 * peak30);
	assert_true(lag5 <= lag30);
	assert_int_equal(r5->isw_done, 20);
	assert_true(series_at(r5, series_rows(r5) - 1, c_dying) == 0);
	wbsim_run_result_free(r30);
	wbsim_run_result_free(r5);
}

/* The kernel that keeps killed wbs findable: the sibling's foreign flush
 * reaches the killed wb at its first throttled pass (the flush wakes the
 * flusher, which then runs background writeback for its share), so the
 * sibling falls behind by at most a throttle pause or two. */
static void test_reachable_lag_bounded_by_pauses(void **state)
{
	wbsim_time_t lag;
	struct wbsim_run_result *r = dying_case("reachable", 500, 3000, &lag);

	(void)state;
	/* the killed wb of /q/a ran the sibling's foreign flushes */
	for (guint i = 0; i < r->cgwbs->len; i++) {
		const struct wbsim_cgwb_result *wb = r->cgwbs->pdata[i];

		if (strcmp(wb->memcg, "/q/a") == 0) {
			assert_true(wb->dying);
			assert_true(wb->foreign_works > 0);
		}
	}
	assert_true(lag <= 2 * MAX_PAUSE_NS);
	wbsim_run_result_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lone_cgroup_like_root),
		cmocka_unit_test(test_removed_cgroup_loses_nothing),
		cmocka_unit_test(test_unreachable_stall_ends_with_periodic_writeback),
		cmocka_unit_test(test_shorter_expiry_ends_stall_no_later),
		cmocka_unit_test(test_reachable_lag_bounded_by_pauses),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
