/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench/bench.h - what the parts of bench-mm share: a case, the state an
 * operation works on, and the helpers that map, seal and time.
 *
 * Every case runs in a fresh child of a process that seals nothing.  A
 * case is an operation (mm-ops.c, seal-cost.c) in one placement:
 *   PLAIN          nothing but the operation's memory in its window;
 *   FAR_UNSEALED   a read-exec region elsewhere in the window, unsealed;
 *   FAR_SEAL       the same region, sealed: the process has seals;
 *   NEXT_UNSEALED  read-exec regions as the operation's direct neighbours;
 *   NEXT_SEAL      the same neighbours, sealed;
 *   REFUSED        the operation targets a sealed region and must be
 *                  refused: its cost is the cost of a refusal.
 * Each *_SEAL placement has an *_UNSEALED twin with the very same VMAs
 * (count, places, protections, neighbours: read-exec never merges with
 * the operation's R or RW memory, sealed or not), so that the two differ
 * only by the seal.
 */
#ifndef SEALJIT_BENCH_H
#define SEALJIT_BENCH_H

#include <stddef.h>
#include <stdint.h>

enum placement {
	PLAIN, FAR_UNSEALED, FAR_SEAL, NEXT_UNSEALED, NEXT_SEAL, REFUSED,
	PLACEMENTS
};

#define IS_FAR(p) ((p) == FAR_UNSEALED || (p) == FAR_SEAL)
#define IS_NEXT(p) ((p) == NEXT_UNSEALED || (p) == NEXT_SEAL)
#define PLACED(p) (1u << (p))
#define ALL_BUT_REFUSED (PLACED(PLAIN) | PLACED(FAR_UNSEALED) | \
	PLACED(FAR_SEAL) | PLACED(NEXT_UNSEALED) | PLACED(NEXT_SEAL))
#define ALL_PLACEMENTS (ALL_BUT_REFUSED | PLACED(REFUSED))

/* What one case reports. */
enum outcome { MEASURED, NOT_APPLICABLE, FAILED };

struct op_state {
	enum placement placement;
	size_t page;
	char *window;		/* a free stretch of address space (WINDOW) */
	char *area;		/* the operation's memory, inside window */
	char *other;		/* a second address (mremap's destination) */
	size_t pages;		/* the operation's size, in pages */
	uintptr_t brk_base;	/* brk: the break the loop returns to */
	unsigned index;		/* seal-cost: the next region to seal */
	size_t next;		/* seal-arenas: the next arena of the set */
	enum outcome outcome;	/* set with why when an iteration fails */
	char why[160];
	char note[64];		/* extra field printed after the value */
	unsigned long maps;	/* lines of /proc/self/maps after setup */
	double round_min, round_max;	/* ns per iteration, timed rounds */
};

/*
 * An operation.  setup prepares the memory for st->placement; prepare (may
 * be NULL) runs untimed before each iteration, which is then timed on its
 * own (the median iteration is reported); iterate is timed and
 * returns 0, or -1 after bench_fail()/bench_na().  rounds of 0 takes the
 * default rounds and warm-up.  finish (may be NULL) runs after timing and fills st->note.
 */
struct mm_op {
	const char *name;
	unsigned iterations;		/* per round */
	unsigned placements;		/* bit set of 1 << enum placement */
	unsigned rounds, warmup;
	unsigned calls;			/* per iteration, to report per call (0: 1) */
	int (*setup)(struct op_state *st);
	int (*prepare)(struct op_state *st);
	int (*iterate)(struct op_state *st);
	int (*finish)(struct op_state *st);
	const char *unit;		/* what one iteration is */
};

#define BENCH_ROUNDS 5		/* timed rounds; the median is reported */
#define BENCH_WARMUP 1		/* untimed rounds before them */
#define BENCH_WINDOW (1UL << 30)	/* bytes of address space per case */

extern const struct mm_op mm_ops[];	/* mm-ops.c, NULL-name terminated */
extern const struct mm_op seal_ops[];	/* seal-cost.c, likewise */

/* mapping.c */
int bench_reserve(struct op_state *st);
int bench_map(struct op_state *st, void *addr, size_t pages, int prot);
int bench_seal(struct op_state *st, void *addr, size_t pages);
int bench_neighbours(struct op_state *st, char *start, char *end);
int bench_extra_region(struct op_state *st, char *at);
int bench_vmas_in(const void *start, const void *end, unsigned long *count);

/* outcome.c */
int bench_fail(struct op_state *st, const char *what);
int bench_na(struct op_state *st, const char *why);
int bench_expect(struct op_state *st, long rc, const char *what);
int bench_expect_ptr(struct op_state *st, void *got, void *want,
		     const char *what);

/* timing.c */
int bench_time(const struct mm_op *op, struct op_state *st, double *ns);
int bench_each(struct op_state *st);

/* cases.c */
unsigned bench_case_count(void);
const char *bench_case_name(unsigned index, char *buf, size_t size);
int bench_case_find(const char *name, unsigned *index);
void bench_case_get(unsigned index, const struct mm_op **op,
		    enum placement *placement);

#endif /* SEALJIT_BENCH_H */
