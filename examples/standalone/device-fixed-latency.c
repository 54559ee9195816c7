/* SPDX-License-Identifier: MIT */
/*
 * device-fixed-latency.c - a device model written outside libwbsim's tree:
 * a disk that finishes every request after a fixed time plus its transfer
 * at a fixed rate, QUEUE_DEPTH requests at once. It declares its parameters
 * in a table (wbsim/param.h), checks the table and fills its struct the
 * way the library will, registers itself by name, and runs one scenario
 * whose preset names it.
 *
 * Usage: device-fixed-latency [LATENCY [RATE]]   (default 100us 500m/s)
 *
 * Prints the parameters as the table parsed them, then the device's and
 * the job's figures. The output depends only on the arguments.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <glib/gstdio.h>
#include <wbsim/wbsim.h>

#define QUEUE_DEPTH 4

/* The parameters, parsed into the device's private struct. */
struct fixed_dev {
	wbsim_time_t latency;	/* ns, a time with its unit: "100us" */
	uint64_t rate;		/* bytes/s: "500m/s" */
	uint64_t capacity;	/* bytes: "64g" */
	struct wbsim_device *dev;
};

static const struct wbsim_param fixed_params[] = {
	{ "latency", WBSIM_PARAM_TIME, offsetof(struct fixed_dev, latency), "100us",
	  NULL, 1, 1e9, "time of one request before its transfer" },
	{ "rate", WBSIM_PARAM_RATE, offsetof(struct fixed_dev, rate), "500m/s",
	  NULL, 1, 0, "transfer rate of one request" },
	{ "capacity", WBSIM_PARAM_SIZE, offsetof(struct fixed_dev, capacity), "64g",
	  NULL, 1 << 20, 0, "size of the device" },
	{ .name = NULL },
};

static gboolean fixed_init(struct wbsim_device *dev, GError **error)
{
	struct fixed_dev *d = wbsim_device_priv(dev);

	(void)error;
	d->dev = dev;
	wbsim_device_set_limits(dev, d->capacity / 512, QUEUE_DEPTH, FALSE);
	return TRUE;
}

struct fixed_io {
	struct fixed_dev *d;
	struct wbsim_request *rq;
};

static void fixed_done(wbsim_sim *sim, void *arg)
{
	struct fixed_io *io = arg;

	(void)sim;
	wbsim_device_end_request(io->d->dev, io->rq);
	g_free(io);
}

static void fixed_queue_rq(struct wbsim_device *dev, struct wbsim_request *rq)
{
	struct fixed_dev *d = wbsim_device_priv(dev);
	struct fixed_io *io = g_new(struct fixed_io, 1);
	uint64_t bytes = rq->nr_sectors * 512;

	io->d = d;
	io->rq = rq;
	wbsim_sim_schedule_after(wbsim_device_sim(dev),
				 d->latency + bytes * UINT64_C(1000000000) / d->rate,
				 fixed_done, io);
}

static const struct wbsim_device_ops fixed_ops = {
	.name = "fixed-latency",
	.version = WBSIM_DEVICE_OPS_VERSION,
	.help = "fixed time per request plus its transfer, depth 4",
	.params = fixed_params,
	.priv_size = sizeof(struct fixed_dev),
	.default_scheduler = "none",
	.init = fixed_init,
	.queue_rq = fixed_queue_rq,
};

/* The table checked and parsed as the library will parse a preset. */
static gboolean show_params(const char *latency, const char *rate, GError **error)
{
	struct fixed_dev p = { 0 };

	if (!wbsim_param_table_check(fixed_params, sizeof(p), error) ||
	    !wbsim_param_table_defaults(fixed_params, &p, error))
		return FALSE;
	printf("defaults  latency %" PRIu64 " ns  rate %" PRIu64 " B/s  capacity %" PRIu64 " B\n",
	       p.latency, p.rate, p.capacity);
	if (!wbsim_param_table_set(fixed_params, &p, "latency", latency, error) ||
	    !wbsim_param_table_set(fixed_params, &p, "rate", rate, error))
		return FALSE;
	printf("set       latency %" PRIu64 " ns  rate %" PRIu64 " B/s\n", p.latency, p.rate);
	wbsim_param_table_clear(fixed_params, &p);
	return TRUE;
}

/* One job writing 64 MiB through the page cache onto the model. */
static gboolean run(const char *dir, const char *latency, const char *rate, GError **error)
{
	g_autofree char *preset = g_build_filename(dir, "fixed.ini", NULL);
	g_autofree char *text = g_strdup_printf("[device]\nmodel = fixed-latency\n"
						"latency = %s\nrate = %s\n", latency, rate);
	g_autoptr(wbsim_scenario_builder) b = wbsim_scenario_builder_new("fixed");
	g_autoptr(wbsim_scenario) scn = NULL;
	g_autoptr(wbsim_result) r = NULL;
	const struct wbsim_result_summary *sum;
	const struct wbsim_result_job *job;

	if (!g_file_set_contents(preset, text, -1, error))
		return FALSE;
	if (!wbsim_scenario_builder_set(b, "device.preset", preset, error) ||
	    !wbsim_scenario_builder_add_fio_job(b, "w", "rw=write\nbs=1m\nsize=64m\nend_fsync=1\n",
						 error))
		return FALSE;
	scn = wbsim_scenario_builder_build(b, error);
	r = scn ? wbsim_run(scn, NULL, error) : NULL;	/* the preset is read here */
	g_unlink(preset);
	if (!r)
		return FALSE;
	sum = wbsim_result_summary(r);
	printf("device    %" PRIu64 " bytes in %" PRIu64 " requests, utilisation %.2f\n",
	       sum->device_bytes, sum->device_requests, sum->device_utilisation);
	for (unsigned int i = 0; (job = wbsim_result_job(r, i)); i++)
		printf("job %-5s %" PRIu64 " bytes in %.3f s: %.0f KiB/s\n", job->name, job->bytes,
		       job->runtime_ns / 1e9, job->bw_kibps);
	return TRUE;
}

int main(int argc, char **argv)
{
	const char *latency = argc > 1 ? argv[1] : "100us";
	const char *rate = argc > 2 ? argv[2] : "500m/s";
	g_autoptr(GError) error = NULL;
	g_autofree char *dir = NULL;
	gboolean ok;

	if (!show_params(latency, rate, &error) ||
	    !wbsim_device_register(&fixed_ops, &error) ||
	    !(dir = g_dir_make_tmp("fixed-latency-XXXXXX", &error))) {
		fprintf(stderr, "device-fixed-latency: %s\n", error->message);
		return 2;
	}
	ok = run(dir, latency, rate, &error);
	g_rmdir(dir);
	if (!ok) {
		fprintf(stderr, "device-fixed-latency: %s\n", error->message);
		return 1;
	}
	return 0;
}
