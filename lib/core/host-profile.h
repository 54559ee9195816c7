/* SPDX-License-Identifier: MIT */
/*
 * core/host-profile.h - the built-in host profile: the [costs] section of
 * the file lib/core/meson.build compiles into the library
 * (default_host_profile: lib/core/hosts/lab-v1272.inc), from which every CPU cost takes its default:
 * the cost table's rows (core/cpu-costs.c) by their key, a filesystem
 * model's cost rows (WBSIM_PARAM_COST) as "FS.KEY". A scenario's [costs]
 * overrides them, and a host profile of another host is an include file
 * of the same form (lab/calibrate writes one).
 */
#ifndef WBSIM_CORE_HOST_PROFILE_H
#define WBSIM_CORE_HOST_PROFILE_H

#include "core/ini-lexer.h"

/*
 * wbsim_host_profile_lookup() - the built-in profile's line for @key
 * ("copy_page_ns", "xfs.alloc_ns"), or NULL where it has none. The
 * entry's @file and @line locate it for messages. The profile is lexed
 * once, on the first call (thread-safe); a profile that does not lex is a
 * build error, reported as a critical warning.
 */
const struct wbsim_ini_entry *wbsim_host_profile_lookup(const char *key);

/* wbsim_host_profile_keys() - every key of the built-in [costs], in file
 * order (NULL-terminated, static). */
const char *const *wbsim_host_profile_keys(void);

/* wbsim_host_profile_host() - its [costs] host: the kernel build it was
 * measured on ("" where it names none). */
const char *wbsim_host_profile_host(void);

/*
 * wbsim_host_profile_source() - where the built-in profile's value of @key
 * comes from, in the profile's words: the ';' comment lines right above
 * the value, joined, without their leading "KEY:" ("" where it has none).
 * The one record of a cost's source: --list-keys and --explain-costs print
 * it, lab/calibrate writes it.
 */
const char *wbsim_host_profile_source(const char *key);

/* wbsim_host_profile_name() - the profile's file, as messages name it. */
const char *wbsim_host_profile_name(void);

#endif /* WBSIM_CORE_HOST_PROFILE_H */
