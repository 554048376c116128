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
void gen_free(struct generated *g);

#endif
