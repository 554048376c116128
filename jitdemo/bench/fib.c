/* fib.c - examples/fib.jit in C: doubly recursive Fibonacci. */
#include "bench.h"

const int bench_arity = 1;

static int64_t fib(int64_t n)
{
	if (n < 2)
		return n;
	return wrap_add(fib(wrap_sub(n, 1)), fib(wrap_sub(n, 2)));
}

int64_t bench_entry(const int64_t *args) { return fib(args[0]); }
