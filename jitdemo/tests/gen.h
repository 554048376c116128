/*
 * gen.h - a seeded generator of random well-formed programs for the
 * differential test: straight-line code over every opcode, if/else,
 * early returns, bounded counted loops, calls along an acyclic call graph,
 * dead code, and now and then a recursion deep enough to trap.  Each
 * program terminates: loops are counted and the static cost of every
 * function is bounded.
 */
#ifndef JITDEMO_GEN_H
#define JITDEMO_GEN_H

#include <stdint.h>

struct rng {
	uint64_t state;
};

void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
uint64_t rng_below(struct rng *r, uint64_t n);
int64_t rng_interesting(struct rng *r);	/* edge values and random ones */

struct generated {
	char *text;		/* assembler source, malloc'd */
	const char *entry;	/* function to call: "f0" */
	int entry_arity;
};

/* Returns 0 or -1 (out of memory). */
int gen_program(uint64_t seed, struct generated *out);

/*
 * The divide shape: probe(x, y) divides, takes the modulo of and
 * multiplies by one constant (edge or random) each of the dividends
 * p, p + 1, p - 1 and -p, for p = x >> s (arithmetic) and p = y << s,
 * s = 0..63: with x = INT64_MIN or INT64_MAX and y = +-1 that is every
 * +-2^k, +-(2^k +- 1), INT64_MIN and INT64_MAX.  A constant dividend
 * joins in once.  Every result is folded into a hash, h = (h ^ v) * odd:
 * a bijection of v, so one wrong result changes what probe returns.
 * The dividend sits in a register home, a frame home (the function also
 * calls) or a spilled slot, as the seed picks.
 */
#define GEN_DIVIDE_CASES_PER_CALL (3 + 64 * 2 * 4 * 3)

struct divide_program {
	struct generated prog;	/* entry "probe", arity 2 */
	int64_t divisor;
	int64_t x, y;		/* the arguments to call it with */
};

int gen_divide_program(uint64_t seed, struct divide_program *out);
void gen_free(struct generated *g);

#endif
