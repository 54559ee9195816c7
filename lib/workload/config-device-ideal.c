/* SPDX-License-Identifier: MIT */
/*
 * config-device-ideal.c - the parameter table of the built-in "ideal"
 * device preset: fixed bandwidth and latency, no seeks, no internal state.
 *
 * Interim home: lib/block/device-ideal.c will own this table (and struct
 * wbsim_device_ideal_params) once the device models land; config-params.c
 * then points its builtin_sets[] entry there.
 */
#include <wbsim/config.h>
#include "workload/config-private.h"
#include "workload/config-device-ideal.h"

#define P(field) offsetof(struct wbsim_device_ideal_params, field)

static const struct wbsim_config_key ideal_keys[] = {
	{ "device", "bandwidth", WBSIM_CFG_SIZE, P(bandwidth), "1g", "bytes/s",
	  1, UINT64_MAX, NULL, NULL, 0,
	  "Transfer rate for reads and writes alike." },
	{ "device", "latency", WBSIM_CFG_TIME, P(latency), "100us", "",
	  0, 10 * G_GUINT64_CONSTANT(1000000000), NULL, NULL, 0,
	  "Fixed service time added to every request." },
	{ "device", "queue_depth", WBSIM_CFG_UINT, P(queue_depth), "32",
	  "requests", 1, 65536, NULL, NULL, 0,
	  "Requests the device works on at once." },
	{ "device", "max_sectors_kb", WBSIM_CFG_UINT, P(max_sectors_kb), "1280",
	  "KiB", 4, 1048576, NULL, NULL, 0,
	  "Largest request the block layer builds (queue/max_sectors_kb)." },
};

const struct wbsim_config_param_set wbsim_device_ideal_param_set = {
	"device", "ideal", ideal_keys, G_N_ELEMENTS(ideal_keys),
	sizeof(struct wbsim_device_ideal_params),
	"A device with fixed bandwidth and latency and no seek cost: the reference against which real presets are compared.",
};
