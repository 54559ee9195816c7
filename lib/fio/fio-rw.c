/* SPDX-License-Identifier: MIT */
/*
 * fio-rw.c - fio's rw= patterns: their names (fio io_ddir.h ddir_str())
 * and which of them write.
 */
#include "defs/fio.h"

static const char *const rw_names[] = {
	[WBSIM_FIO_READ] = "read",
	[WBSIM_FIO_WRITE] = "write",
	[WBSIM_FIO_RANDREAD] = "randread",
	[WBSIM_FIO_RANDWRITE] = "randwrite",
	[WBSIM_FIO_RW] = "rw",
	[WBSIM_FIO_RANDRW] = "randrw",
	[WBSIM_FIO_TRIM] = "trim",
	[WBSIM_FIO_RANDTRIM] = "randtrim",
	[WBSIM_FIO_TRIMWRITE] = "trimwrite",
	[WBSIM_FIO_RANDTRIMWRITE] = "randtrimwrite",
};

const char *wbsim_fio_rw_name(enum wbsim_fio_rw rw)
{
	if ((unsigned int)rw < G_N_ELEMENTS(rw_names))
		return rw_names[rw];
	return "?";
}

gboolean wbsim_fio_rw_writes(enum wbsim_fio_rw rw)
{
	switch (rw) {
	case WBSIM_FIO_WRITE:
	case WBSIM_FIO_RANDWRITE:
	case WBSIM_FIO_RW:
	case WBSIM_FIO_RANDRW:
	case WBSIM_FIO_TRIMWRITE:
	case WBSIM_FIO_RANDTRIMWRITE:
		return TRUE;
	default:
		return FALSE;
	}
}
