/* SPDX-License-Identifier: MIT */
/* link-fixture: b calls back into a. */
int fixture_a(int n);
int fixture_b(int n);

int fixture_b(int n)
{
	return n > 0 ? fixture_a(n - 1) + 1 : 0;
}
