// SPDX-License-Identifier: GPL-2.0
/*
 * bench/timing.c - rounds of a fixed number of iterations, after untimed
 * warm-up rounds; the median round, in nanoseconds per iteration, or for
 * an operation with a prepare step the median iteration.  Under
 * guest/run --icount, CLOCK_MONOTONIC counts guest instructions (one per
 * nanosecond), so the figure is instructions per iteration.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "bench.h"

static uint64_t clock_cost;	/* ns one pair of clock reads adds */

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

/*
 * With one, each iteration is timed on its own, into SAMPLES (NULL in a
 * warm-up round), less the cost of the clock reads themselves.
 */
static int round_prepared(const struct mm_op *op, struct op_state *st,
			  uint64_t *ns, double *samples)
{
	uint64_t start, took;

	*ns = 0;
	for (unsigned i = 0; i < op->iterations; i++) {
		if (op->prepare(st))
			return -1;
		start = now_ns();
		if (op->iterate(st))
			return -1;
		took = now_ns() - start;
		took = took > clock_cost ? took - clock_cost : 0;
		*ns += took;
		if (samples)
			samples[i] = (double)took;
	}
	return 0;
}

/* A prepare step that prepares nothing: the iterations are timed one by one. */
int bench_each(struct op_state *st)
{
	(void)st;
	return 0;
}

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *values, size_t count)
{
	qsort(values, count, sizeof(values[0]), compare_double);
	return count % 2 ? values[count / 2] :
		(values[count / 2 - 1] + values[count / 2]) / 2;
}

/* The median of back-to-back clock read pairs, once per process. */
static void measure_clock_cost(void)
{
	double pairs[101];
	uint64_t start;

	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		start = now_ns();
		pairs[i] = (double)(now_ns() - start);
	}
	clock_cost = (uint64_t)median(pairs, sizeof(pairs) / sizeof(pairs[0]));
}

/*
 * Without a prepare step: the median round, per iteration.  With one: the
 * median of every timed iteration, so that an interrupt, or deferred work
 * (RCU callbacks freeing VMAs and maple nodes, a slab refill) landing in a
 * few of them moves nothing; a round's figure then varied with where the
 * timer ticks fell, by up to 5%.
 */
int bench_time(const struct mm_op *op, struct op_state *st, double *ns)
{
	unsigned rounds = op->rounds ? op->rounds : BENCH_ROUNDS;
	unsigned warmup = op->rounds ? op->warmup : BENCH_WARMUP;
	unsigned per_call = op->calls ? op->calls : 1;
	double per_iteration[16], *samples = NULL;
	uint64_t total;
	int rc = -1;

	if (rounds > sizeof(per_iteration) / sizeof(per_iteration[0]))
		rounds = sizeof(per_iteration) / sizeof(per_iteration[0]);
	if (op->prepare) {
		measure_clock_cost();
		samples = calloc((size_t)rounds * op->iterations, sizeof(*samples));
		if (!samples)
			return bench_fail(st, "allocate the samples");
	}
	for (unsigned r = 0; r < warmup + rounds; r++) {
		if (op->prepare ? round_prepared(op, st, &total, r < warmup ? NULL :
				samples + (size_t)(r - warmup) * op->iterations) :
		    round_whole(op, st, &total))
			goto out;
		if (r >= warmup)
			per_iteration[r - warmup] = (double)total /
				op->iterations / per_call;
	}
	*ns = samples ? median(samples, (size_t)rounds * op->iterations) / per_call :
		median(per_iteration, rounds);
	qsort(per_iteration, rounds, sizeof(per_iteration[0]), compare_double);
	st->round_min = per_iteration[0];
	st->round_max = per_iteration[rounds - 1];
	rc = 0;
out:
	free(samples);
	return rc;
}
