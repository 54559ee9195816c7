/* SPDX-License-Identifier: MIT */
/*
 * core/cpu-costs.h - the library's side of wbsim/cpu-costs.h: the default
 * table (lib/core/cpu-costs.c, each value with its source) and the setter
 * behind a scenario's [costs] keys. Models read the table the run hands them
 * (wbsim_device_costs()); only the runner fills and changes it.
 */
#ifndef WBSIM_CORE_CPU_COSTS_H
#define WBSIM_CORE_CPU_COSTS_H

#include <wbsim/cpu-costs.h>
#include <wbsim/param.h>	/* struct wbsim_param */

/**
 * wbsim_cpu_costs_default() - the default cost table
 *
 * Return: a pointer to a static, read-only table; copy it to change it.
 */
const struct wbsim_cpu_costs *wbsim_cpu_costs_default(void);

/*
 * wbsim_cpu_costs_params() - the cost table as a parameter table (struct
 * wbsim_param, no textual defaults: they are wbsim_cpu_costs_default()).
 */
const struct wbsim_param *wbsim_cpu_costs_params(void);

/**
 * wbsim_cpu_costs_init() - fill @costs with the defaults
 * @costs: the table to fill
 */
void wbsim_cpu_costs_init(struct wbsim_cpu_costs *costs);

/**
 * wbsim_cpu_costs_set() - set one entry of @costs by its key
 * @costs: the table
 * @key: a field name of struct wbsim_cpu_costs ("copy_page_ns", ...)
 * @value: a time with a unit ("480ns", "1.2us") or a bare number of ns for
 *	the *_ns keys; a rate ("7.8GB/s", "7400MiB/s") or bare bytes per second
 *	for memcpy_bandwidth
 * @file: file named in error messages (may be NULL)
 * @line: line named in error messages (0: none)
 * @error: WBSIM_ERROR_UNKNOWN_KEY for an unknown key,
 *	WBSIM_ERROR_INVALID_VALUE for a value that does not parse or is 0
 *	where 0 is meaningless
 *
 * Return: TRUE on success; @costs is unchanged on failure.
 */
gboolean wbsim_cpu_costs_set(struct wbsim_cpu_costs *costs,
			     const char *key, const char *value,
			     const char *file, unsigned int line,
			     GError **error);

#endif /* WBSIM_CORE_CPU_COSTS_H */
