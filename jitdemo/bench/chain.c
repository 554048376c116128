/* chain.c - examples/chain.jit in C: a loop-free tree of calls, each level
 * calling the next twice; 2^22 calls of the leaf. */
#include "bench.h"

const int bench_arity = 1;

static int64_t c22(int64_t x) { return wrap_add(wrap_mul(x, 7), 1); }

#define LEVEL(k, next) \
	static int64_t c##k(int64_t x) { return next(wrap_add(x, k)) ^ next(wrap_mul(x, 3)); }

LEVEL(21, c22) LEVEL(20, c21) LEVEL(19, c20) LEVEL(18, c19) LEVEL(17, c18)
LEVEL(16, c17) LEVEL(15, c16) LEVEL(14, c15) LEVEL(13, c14) LEVEL(12, c13)
LEVEL(11, c12) LEVEL(10, c11) LEVEL(9, c10) LEVEL(8, c9) LEVEL(7, c8)
LEVEL(6, c7) LEVEL(5, c6) LEVEL(4, c5) LEVEL(3, c4) LEVEL(2, c3)
LEVEL(1, c2) LEVEL(0, c1)


int64_t bench_entry(const int64_t *args) { return c0(args[0]); }
