/* SPDX-License-Identifier: MIT */
/*
 * run-bundled.c - a program of one's own that runs a scenario bundled
 * with wbsim by its name, wherever the program and the install are: the
 * library finds the scenario (wbsim_scenario_find(): $WBSIM_SCENARIO_PATH,
 * then the scenarios installed beside the program or the shared library,
 * then `pkg-config --variable=scenariodir wbsim`), loads it with the
 * overrides given, runs it and prints each job's bandwidth and the total,
 * as fio's "Run status group" line computes it.
 *
 * Usage: run-bundled NAME [SECTION.KEY=VALUE...]
 *        run-bundled --list
 *
 * A name that matches no bundled scenario is refused with the library's
 * message (exit status 2): the folders searched and the nearest name.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <wbsim/wbsim.h>

int main(int argc, char **argv)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *path = NULL;
	g_autoptr(wbsim_scenario) scn = NULL;
	g_autoptr(wbsim_result) r = NULL;
	const struct wbsim_result_summary *sum;
	const struct wbsim_result_job *job;

	if (argc < 2) {
		fprintf(stderr, "usage: run-bundled NAME [SECTION.KEY=VALUE...] | --list\n");
		return 2;
	}
	if (strcmp(argv[1], "--list") == 0) {
		g_autofree char *list = wbsim_scenario_list();

		fputs(list, stdout);
		return 0;
	}
	path = wbsim_scenario_find(argv[1], &error);
	if (path)
		scn = wbsim_scenario_load(path, (const char *const *)argv + 2, &error);
	if (!scn) {
		fprintf(stderr, "run-bundled: %s\n", error->message);
		return 2;
	}
	r = wbsim_run(scn, &(const wbsim_run_opts) { .name = argv[1] }, &error);
	if (!r) {
		fprintf(stderr, "run-bundled: %s\n", error->message);
		return 1;
	}
	for (unsigned int j = 0; (job = wbsim_result_job(r, j)); j++)
		printf("job %-12s %12" PRIu64 " bytes  %10.0f KiB/s\n", job->name,
		       job->bytes, job->bw_kibps);
	sum = wbsim_result_summary(r);
	printf("total %-10s %12" PRIu64 " bytes  %10" PRIu64 " B/s (fio's group bw=)\n", "",
	       sum->total_bytes, sum->total_bw_bytes_per_s);
	return 0;
}
