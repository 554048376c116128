/* hash.c - examples/hash.jit in C: multiplies and logical shifts. */
#include "bench.h"

const int bench_arity = 1;

static int64_t shr(int64_t v, int count) { return (int64_t)((uint64_t)v >> count); }

static int64_t hash(int64_t n)
{
	int64_t h = 5381;
	for (int64_t i = 0; i < n; i++) {
		h = wrap_add(wrap_mul(h, 33), i);
		h ^= shr(h, 15);
		h = wrap_mul(h, INT64_C(-7046029254386353131));
		h ^= shr(h, 29);
	}
	return h;
}

int64_t bench_entry(const int64_t *args) { return hash(args[0]); }
