/* SPDX-License-Identifier: MIT */
/*
 * fio-units.c - numbers printed the way fio prints them in its normal
 * output: at most N significant digits (4 by default), a unit prefix, and
 * a power-of-2 value beside a power-of-10 one, as in
 * "BW=98.8MiB/s (104MB/s)" or "io=8192KiB (8389kB)".
 *
 * The rule (fio's num2str(), written here from its observed behaviour):
 * while the integer has more digits than allowed, divide it by 1000 (1024
 * for IEC prefixes), keeping only the remainder of the LAST division. If no
 * division happened, print the integer. Otherwise, if there is room for at
 * least one decimal after the integer part and the point, print the last
 * remainder / 1000 as decimals; if not, round the integer up when the last
 * remainder is at least half a unit. A fraction that rounds up to 1 carries
 * into the integer and keeps its zero decimals (99999999 prints as "100.0M",
 * five digits): that is fio's (3.x), kept so that the figures match fio's
 * byte for byte. Remainders of earlier divisions are dropped.
 */
#include <inttypes.h>
#include <glib.h>
#include "report/report.h"

static const char *const si_prefix[] = { "", "k", "M", "G", "T", "P", "E" };
static const char *const iec_prefix[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
static const char *const unit_suffix[] = {
	[WBSIM_N2S_NONE] = "",
	[WBSIM_N2S_PERSEC] = "/s",
	[WBSIM_N2S_BYTE] = "B",
	[WBSIM_N2S_BIT] = "bit",
	[WBSIM_N2S_BYTEPERSEC] = "B/s",
	[WBSIM_N2S_BITPERSEC] = "bit/s",
};

static unsigned int count_digits(uint64_t v)
{
	unsigned int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/**
 * wbsim_num2str() - format a number as fio's num2str() does
 * @num: the value (bytes, bytes/s, a count)
 * @maxlen: significant digits (fio's sig_figs, 4 by default)
 * @pow2: IEC prefixes (Ki, Mi: steps of 1024) instead of SI (k, M: 1000)
 * @unit: the unit written after the prefix
 *
 * Return: a newly allocated string ("98.8MiB/s", "8389kB", "25.3k").
 */
char *wbsim_num2str(uint64_t num, unsigned int maxlen, gboolean pow2,
		    enum wbsim_n2s_unit unit)
{
	const unsigned int thousand = pow2 ? 1024 : 1000;
	const char *const *prefix = pow2 ? iec_prefix : si_prefix;
	const char *suffix = unit_suffix[unit];
	unsigned int post = 0, modulo = 0, digits;
	gboolean divided = FALSE;
	char fmt[16], frac[G_ASCII_DTOSTR_BUF_SIZE];

	if (unit == WBSIM_N2S_BIT || unit == WBSIM_N2S_BITPERSEC)
		num *= 8;

	while (post < G_N_ELEMENTS(si_prefix) && count_digits(num) > maxlen) {
		modulo = (unsigned int)(num % thousand);
		num /= thousand;
		divided = TRUE;
		post++;
	}
	/* beyond exa: fio falls back to no prefix */
	if (post >= G_N_ELEMENTS(si_prefix))
		post = 0;

	if (!divided)
		return g_strdup_printf("%" PRIu64 "%s%s", num, prefix[post], suffix);

	digits = count_digits(num);
	if (maxlen <= digits + 1) {
		/* no room for a decimal: round on the last remainder */
		if (modulo >= thousand / 2)
			num++;
		return g_strdup_printf("%" PRIu64 "%s%s", num, prefix[post], suffix);
	}

	g_snprintf(fmt, sizeof(fmt), "%%.%uf", maxlen - digits - 1);
	g_ascii_formatd(frac, sizeof(frac), fmt, (double)modulo / (double)thousand);
	/* frac is "0.xx", or "1.00" when it rounded up: carry */
	if (frac[0] == '1')
		num++;
	return g_strdup_printf("%" PRIu64 ".%s%s%s", num, frac + 2, prefix[post], suffix);
}

/**
 * wbsim_fio_num_pair() - fio's "value (alternative)" pair, 4 digits
 * @num: the value
 * @kb_base: the job's kb_base: 1024 puts the power-of-2 value first and the
 *	power-of-10 one in brackets; 1000 the other way round
 * @unit: the unit
 *
 * Return: a newly allocated string, e.g. "100MiB/s (105MB/s)".
 */
char *wbsim_fio_num_pair(uint64_t num, unsigned int kb_base,
			 enum wbsim_n2s_unit unit)
{
	gboolean i2p = kb_base != 1000;
	g_autofree char *a = wbsim_num2str(num, 4, i2p, unit);
	g_autofree char *b = wbsim_num2str(num, 4, !i2p, unit);

	return g_strdup_printf("%s (%s)", a, b);
}
