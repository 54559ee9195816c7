/* SPDX-License-Identifier: MIT */
/*
 * workload/config-device-ideal.h - parameters of the "ideal" device preset
 * (interim home until lib/block/device-ideal.c owns them).
 */
#ifndef WBSIM_WORKLOAD_CONFIG_DEVICE_IDEAL_H
#define WBSIM_WORKLOAD_CONFIG_DEVICE_IDEAL_H

#include <stdint.h>
#include <wbsim/sim.h>

/**
 * struct wbsim_device_ideal_params - [device] preset = ideal
 * @bandwidth: bytes/s
 * @latency: ns per request
 * @queue_depth: requests in flight
 * @max_sectors_kb: largest request, KiB
 */
struct wbsim_device_ideal_params {
	uint64_t bandwidth;
	wbsim_time_t latency;
	uint64_t queue_depth;
	uint64_t max_sectors_kb;
};

#endif /* WBSIM_WORKLOAD_CONFIG_DEVICE_IDEAL_H */
