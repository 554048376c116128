/* ackermann.c - examples/ackermann.jit in C. */
#include "bench.h"

const int bench_arity = 2;

static int64_t ack(int64_t m, int64_t n)
{
	if (m == 0)
		return wrap_add(n, 1);
	if (n == 0)
		return ack(wrap_sub(m, 1), 1);
	return ack(wrap_sub(m, 1), ack(m, wrap_sub(n, 1)));
}

int64_t bench_entry(const int64_t *args) { return ack(args[0], args[1]); }
