/* SPDX-License-Identifier: MIT */
/* link-fixture: rooms a and b call each other (a circle), c calls a. */
int fixture_a(int n);
int fixture_b(int n);

int fixture_a(int n)
{
	return n > 0 ? fixture_b(n - 1) : 0;
}
