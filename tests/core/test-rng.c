/* SPDX-License-Identifier: MIT */
/* test-rng.c - fixed-seed streams of the generator, checked against values
 * computed by an independent implementation of splitmix64 + xoshiro256**
 * (a few lines of Python, big integers), and distribution properties. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <cmocka.h>
#include <wbsim/sim.h>
#include "core/sim.h"

static void test_known_streams(void **state)
{
	static const uint64_t seed0[5] = {
		0x99ec5f36cb75f2b4ULL, 0xbf6e1f784956452aULL, 0x1a5f849d4933e6e0ULL,
		0x6aa594f1262d2d2cULL, 0xbba5ad4a1f842e59ULL,
	};
	static const uint64_t seed42[5] = {
		0x15780b2e0c2ec716ULL, 0x6104d9866d113a7eULL, 0xae17533239e499a1ULL,
		0xecb8ad4703b360a1ULL, 0xfde6dc7fe2ec5e64ULL,
	};
	wbsim_rng rng;

	wbsim_rng_seed(&rng, 0);
	for (int i = 0; i < 5; i++)
		assert_int_equal(wbsim_rng_next(&rng), seed0[i]);
	wbsim_rng_seed(&rng, 42);
	for (int i = 0; i < 5; i++)
		assert_int_equal(wbsim_rng_next(&rng), seed42[i]);
}

static void test_below_and_uniform_known(void **state)
{
	static const uint64_t below7[5] = { 700, 278, 839, 981, 990 };
	wbsim_rng rng;

	wbsim_rng_seed(&rng, 7);
	for (int i = 0; i < 5; i++)
		assert_int_equal(wbsim_rng_below(&rng, 1000), below7[i]);
	wbsim_rng_seed(&rng, 9);
	assert_float_equal(wbsim_rng_uniform(&rng), 0.0025834396857136177, 1e-17);
	assert_float_equal(wbsim_rng_uniform(&rng), 0.25148937241585745, 1e-16);
	assert_int_equal(wbsim_rng_below(&rng, 0), 0);
	assert_int_equal(wbsim_rng_below(&rng, 1), 0);
}

/* Bounded draws cover the range evenly (chi-square with 9 degrees of
 * freedom below the 0.999 quantile, 27.88) and the exponential draw has the
 * requested mean. */
static void test_distributions(void **state)
{
	wbsim_rng rng;
	unsigned int counts[10] = { 0 };
	const int n = 200000;
	double chi2 = 0, sum = 0;

	wbsim_rng_seed(&rng, 2026);
	for (int i = 0; i < n; i++)
		counts[wbsim_rng_below(&rng, 10)]++;
	for (int i = 0; i < 10; i++) {
		double d = counts[i] - n / 10.0;

		chi2 += d * d / (n / 10.0);
	}
	assert_true(chi2 < 27.88);
	for (int i = 0; i < n; i++) {
		double x = wbsim_rng_exponential(&rng, 5.0);

		assert_true(x >= 0);
		sum += x;
	}
	/* Standard error of the mean is 5/sqrt(n) = 0.011. */
	assert_true(fabs(sum / n - 5.0) < 0.06);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_streams),
		cmocka_unit_test(test_below_and_uniform_known),
		cmocka_unit_test(test_distributions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
