/* gcd.c - examples/gcd.jit in C: the sum of gcd(i, j) for 1 <= i, j <= n. */
#include "bench.h"

const int bench_arity = 1;

static int64_t gcd(int64_t a, int64_t b)
{
	while (b != 0) {
		int64_t r = a % b;
		a = b;
		b = r;
	}
	return a;
}

static int64_t gcd_sum(int64_t n)
{
	int64_t sum = 0;
	for (int64_t i = 1; i <= n; i++)
		for (int64_t j = 1; j <= n; j++)
			sum = wrap_add(sum, gcd(i, j));
	return sum;
}

int64_t bench_entry(const int64_t *args) { return gcd_sum(args[0]); }
