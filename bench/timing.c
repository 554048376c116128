// SPDX-License-Identifier: GPL-2.0
/*
 * bench/timing.c - rounds of a fixed number of iterations, after untimed
 * warm-up rounds; the median round, in nanoseconds per iteration.  Under
 * guest/run --icount, CLOCK_MONOTONIC counts guest instructions (one per
 * nanosecond), so the figure is instructions per iteration.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "bench.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Without a prepare step, one pair of clock reads times the whole round. */
static int round_whole(const struct mm_op *op, struct op_state *st,
		       uint64_t *ns)
{
	uint64_t start = now_ns();

	for (unsigned i = 0; i < op->iterations; i++)
		if (op->iterate(st))
			return -1;
	*ns = now_ns() - start;
	return 0;
}

/* With one, only the iterations are timed. */
static int round_prepared(const struct mm_op *op, struct op_state *st,
			  uint64_t *ns)
{
	uint64_t start;

	*ns = 0;
	for (unsigned i = 0; i < op->iterations; i++) {
		if (op->prepare(st))
			return -1;
		start = now_ns();
		if (op->iterate(st))
			return -1;
		*ns += now_ns() - start;
	}
	return 0;
}

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int bench_time(const struct mm_op *op, struct op_state *st, double *ns)
{
	unsigned rounds = op->rounds ? op->rounds : BENCH_ROUNDS;
	unsigned warmup = op->rounds ? op->warmup : BENCH_WARMUP;
	double per_iteration[16];
	uint64_t total;

	if (rounds > sizeof(per_iteration) / sizeof(per_iteration[0]))
		rounds = sizeof(per_iteration) / sizeof(per_iteration[0]);
	for (unsigned r = 0; r < warmup + rounds; r++) {
		if ((op->prepare ? round_prepared : round_whole)(op, st, &total))
			return -1;
		if (r >= warmup)
			per_iteration[r - warmup] = (double)total /
				op->iterations / (op->calls ? op->calls : 1);
	}
	qsort(per_iteration, rounds, sizeof(per_iteration[0]), compare_double);
	st->round_min = per_iteration[0];
	st->round_max = per_iteration[rounds - 1];
	*ns = rounds % 2 ? per_iteration[rounds / 2] :
		(per_iteration[rounds / 2 - 1] + per_iteration[rounds / 2]) / 2;
	return 0;
}
