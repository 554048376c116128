/* modsum.c - examples/modsum.jit in C: a 2-D loop with % 7. */
#include "bench.h"

const int bench_arity = 1;

static int64_t modsum(int64_t n)
{
	int64_t sum = 0;
	for (int64_t i = 0; i < n; i++)
		for (int64_t j = 0; j < n; j++)
			sum = wrap_add(sum, (wrap_mul(i, j) % 7) ^ wrap_add(i, j));
	return sum;
}

int64_t bench_entry(const int64_t *args) { return modsum(args[0]); }
