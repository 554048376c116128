/* collatz.c - examples/collatz.jit in C. */
#include "bench.h"

const int bench_arity = 1;

static int64_t steps(int64_t n)
{
	int64_t count = 0;
	while (n != 1) {
		count = wrap_add(count, 1);
		if (n & 1)
			n = wrap_add(wrap_mul(n, 3), 1);
		else
			n = n < 0 ? ~(~n >> 1) : n >> 1;
	}
	return count;
}

static int64_t longest(int64_t limit)
{
	int64_t best = 0, best_steps = 0;
	for (int64_t n = 1; n < limit; n++) {
		int64_t s = steps(n);
		if (s > best_steps) {
			best_steps = s;
			best = n;
		}
	}
	return best;
}

int64_t bench_entry(const int64_t *args) { return longest(args[0]); }
