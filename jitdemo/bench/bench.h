/*
 * bench.h - the plain C twin of one example: bench_main.c parses the
 * example's arguments (NAME.args), times bench_entry() and prints
 * "RESULT MILLISECONDS".  Built at -O0 and -O2 by `make bench`.
 * Arithmetic wraps like the bytecode's: it goes through uint64_t.
 */
#ifndef JITDEMO_BENCH_H
#define JITDEMO_BENCH_H

#include <stdint.h>

extern const int bench_arity;
int64_t bench_entry(const int64_t *args);

static inline int64_t wrap_add(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static inline int64_t wrap_sub(int64_t a, int64_t b) { return (int64_t)((uint64_t)a - (uint64_t)b); }
static inline int64_t wrap_mul(int64_t a, int64_t b) { return (int64_t)((uint64_t)a * (uint64_t)b); }

#endif
