/* digits.c - examples/digits.jit in C: / 10 and % 10 in a loop. */
#include "bench.h"

const int bench_arity = 1;

static int64_t digitsum(int64_t n)
{
	int64_t sum = 0;
	for (int64_t i = 0; i < n; i++)
		for (int64_t x = i; x != 0; x /= 10)
			sum = wrap_add(sum, x % 10);
	return sum;
}

int64_t bench_entry(const int64_t *args) { return digitsum(args[0]); }
