/* primes.c - examples/primes.jit in C: primes below n by trial division. */
#include "bench.h"

const int bench_arity = 1;

static int64_t is_prime(int64_t n)
{
	if (n < 2)
		return 0;
	for (int64_t d = 2; wrap_mul(d, d) <= n; d++)
		if (n % d == 0)
			return 0;
	return 1;
}

static int64_t count_primes(int64_t n)
{
	int64_t count = 0;
	for (int64_t i = 2; i < n; i++)
		count = wrap_add(count, is_prime(i));
	return count;
}

int64_t bench_entry(const int64_t *args) { return count_primes(args[0]); }
