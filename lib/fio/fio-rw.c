/* SPDX-License-Identifier: MIT */
/*
 * fio-rw.c - fio's rw= patterns: which of them write (their names:
 * wbsim_fio_rw_name(), inline in defs/fio.h).
 */
#include "defs/fio.h"

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
