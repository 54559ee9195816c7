/* SPDX-License-Identifier: MIT */
/* test-bitops.c - wbsim_hweight64() (whichever way it counts on this build
 * and CPU) and its portable fallback agree with a bit-by-bit count. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <wbsim/sim.h>
#include "core/bitops.h"
#include "core/sim.h"

static uint64_t naive(uint64_t w)
{
	uint64_t n = 0;

	for (; w; w >>= 1)
		n += w & 1;
	return n;
}

static void check(uint64_t w)
{
	assert_int_equal(wbsim_hweight64(w), naive(w));
	assert_int_equal(wbsim_hweight64_soft(w), naive(w));
}

static void test_hweight64(void **state)
{
	wbsim_rng rng;

	check(0);
	check(~UINT64_C(0));
	for (int b = 0; b < 64; b++) {
		check(UINT64_C(1) << b);
		check(~(UINT64_C(1) << b));
		check((UINT64_C(1) << b) - 1);
	}
	wbsim_rng_seed(&rng, 19);
	for (int i = 0; i < 100000; i++) {
		uint64_t w = wbsim_rng_next(&rng);

		check(w);
		check(w & wbsim_rng_next(&rng));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hweight64),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
