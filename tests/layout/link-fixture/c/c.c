/* SPDX-License-Identifier: MIT */
/* link-fixture: c calls a, and nobody calls c: no circle through c. */
int fixture_a(int n);
int fixture_c(int n);

int fixture_c(int n)
{
	return fixture_a(n);
}
