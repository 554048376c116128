// SPDX-License-Identifier: GPL-2.0
/*
 * bench/seal-cost.c - what mseal() itself costs.
 *
 *   mseal-1page, mseal-64pages  one call on a fresh read-only region of
 *                               that size, a VMA of its own;
 *   seal-arenas-N               N adjacent 4-page arenas, mapped as one,
 *                               sealed one call each, as a JIT seals its
 *                               arenas; an iteration is one call, with the
 *                               number of VMAs the last N arenas are left
 *                               in (1 when identically sealed neighbours
 *                               merge).
 *
 * Seals cannot be undone, so every iteration seals memory of its own,
 * mapped beforehand (mseal-*) or untimed before it (seal-arenas-*: a
 * fresh set of N arenas before every N-th call).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/mman.h>

#include "bench.h"

#define ARENA_PAGES 4
#define PLAIN_ONLY (1u << PLAIN)

/* Regions of st->pages, one page apart so that no two merge. */
static char *region(struct op_state *st, unsigned index)
{
	return st->area + (size_t)index * (st->pages + 1) * st->page;
}

static int setup_regions(struct op_state *st, size_t pages, unsigned count)
{
	st->pages = pages;
	if (bench_reserve(st))
		return -1;
	for (unsigned i = 0; i < count; i++)
		if (bench_map(st, region(st, i), pages, PROT_READ))
			return -1;
	return 0;
}

/* (warm-up + timed rounds) x iterations regions */
static int setup_1page(struct op_state *st)
{
	return setup_regions(st, 1, (BENCH_WARMUP + BENCH_ROUNDS) * 200);
}

static int setup_64pages(struct op_state *st)
{
	return setup_regions(st, 64, (BENCH_WARMUP + BENCH_ROUNDS) * 200);
}

static int seal_next_region(struct op_state *st)
{
	return bench_seal(st, region(st, st->index++), st->pages);
}

/*
 * seal-arenas-N: st->pages is N arenas; st->index counts the sets mapped,
 * st->next the arena of the current set to seal next.
 */
static int setup_arenas(struct op_state *st, unsigned arenas)
{
	st->pages = (size_t)arenas * ARENA_PAGES;
	st->index = 0;
	st->next = 0;
	return bench_reserve(st);
}
static int setup_arenas_1(struct op_state *st) { return setup_arenas(st, 1); }
static int setup_arenas_100(struct op_state *st) { return setup_arenas(st, 100); }
static int setup_arenas_10000(struct op_state *st) { return setup_arenas(st, 10000); }

static int prepare_arena(struct op_state *st)
{
	if (st->next)
		return 0;
	st->other = region(st, st->index++);
	return bench_map(st, st->other, st->pages, PROT_READ);
}

static int seal_arena(struct op_state *st)
{
	char *arena = st->other + st->next * ARENA_PAGES * st->page;

	st->next = (st->next + 1) % (st->pages / ARENA_PAGES);
	return bench_seal(st, arena, ARENA_PAGES);
}

static int count_arena_vmas(struct op_state *st)
{
	unsigned long vmas;

	if (bench_vmas_in(st->other, st->other + st->pages * st->page, &vmas))
		return bench_fail(st, "read /proc/self/maps");
	snprintf(st->note, sizeof(st->note), "vmas=%lu", vmas);
	return 0;
}

const struct mm_op seal_ops[] = {
	{ .name = "mseal-1page", .iterations = 200, .placements = PLAIN_ONLY,
	  .setup = setup_1page, .prepare = bench_each, .iterate = seal_next_region,
	  .unit = "mseal of a 1-page VMA" },
	{ .name = "mseal-64pages", .iterations = 200, .placements = PLAIN_ONLY,
	  .setup = setup_64pages, .prepare = bench_each, .iterate = seal_next_region,
	  .unit = "mseal of a 64-page VMA" },
	{ .name = "seal-arenas-1", .iterations = 200, .placements = PLAIN_ONLY,
	  .setup = setup_arenas_1, .prepare = prepare_arena,
	  .iterate = seal_arena, .finish = count_arena_vmas,
	  .unit = "mseal of one 4-page arena, 1 arena" },
	{ .name = "seal-arenas-100", .iterations = 400, .placements = PLAIN_ONLY,
	  .setup = setup_arenas_100, .prepare = prepare_arena,
	  .iterate = seal_arena, .finish = count_arena_vmas,
	  .unit = "mseal of one 4-page arena, 100 adjacent" },
	{ .name = "seal-arenas-10000", .iterations = 10000, .placements = PLAIN_ONLY,
	  .rounds = 3, .warmup = 0,
	  .setup = setup_arenas_10000, .prepare = prepare_arena,
	  .iterate = seal_arena, .finish = count_arena_vmas,
	  .unit = "mseal of one 4-page arena, 10000 adjacent" },
	{ .name = NULL },
};
