/* SPDX-License-Identifier: MIT */
/*
 * defs/setting.h - one "key = value" of a scenario, a device preset or a
 * [filesystem] section as the loaders hand it to the models' parsers
 * (lib/block/device.c, lib/fs/alloc/fs.c): a neutral definition, included
 * by lib/scenario, lib/run, lib/block and lib/fs/alloc alike.
 */
#ifndef WBSIM_DEFS_SETTING_H
#define WBSIM_DEFS_SETTING_H

/**
 * struct wbsim_setting - one "key = value" of a preset or a scenario
 * @key: the parameter name
 * @value: its text
 * @file: where it was written, for messages (may be NULL)
 * @line: line in @file (0: unknown)
 */
struct wbsim_setting {
	const char *key;
	const char *value;
	const char *file;
	unsigned int line;
};

#endif /* WBSIM_DEFS_SETTING_H */
