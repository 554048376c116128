// SPDX-License-Identifier: GPL-2.0
/*
 * bench/mapping.c - where a case's memory goes: a free window of address
 * space, fixed mappings inside it, seals, and VMA counts.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "bench.h"
#include "sealjit/mseal.h"

#define EXTRA_PAGES 4	/* the size of a far region or of a neighbour */
#define EXTRA_PROT (PROT_READ | PROT_EXEC)	/* code, as a JIT seals it */

/*
 * The window: a free stretch of address space, aligned to its size (same
 * offsets into the page tables every time).  FAR_* add their region near
 * its top, far from the operation's memory (which starts 16 pages in),
 * in the same place whether sealed or not.
 */
int bench_reserve(struct op_state *st)
{
	/* twice the window, to align it */
	void *p = mmap(NULL, 2 * BENCH_WINDOW, PROT_NONE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED || munmap(p, 2 * BENCH_WINDOW))
		return bench_fail(st, "reserve an address window");
	st->window = (char *)(((uintptr_t)p + BENCH_WINDOW - 1) &
			      ~(uintptr_t)(BENCH_WINDOW - 1));
	st->area = st->window + 16 * st->page;
	if (IS_FAR(st->placement))
		return bench_extra_region(st, st->window + BENCH_WINDOW -
					  64 * st->page);
	return 0;
}

int bench_map(struct op_state *st, void *addr, size_t pages, int prot)
{
	void *p = mmap(addr, pages * st->page, prot,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

	if (p == addr)
		return 0;
	if (p != MAP_FAILED)
		errno = EEXIST;	/* a kernel that ignored MAP_FIXED_NOREPLACE */
	return bench_fail(st, "mmap a fixed region");
}

/*
 * Seal with every type through our ABI; where the kernel has upstream's
 * 3-argument form instead (EINVAL for ours), with that.  No mseal() at
 * all makes the case not applicable.
 */
int bench_seal(struct op_state *st, void *addr, size_t pages)
{
	static enum mseal_abi form = MSEAL_ABI_TYPES;	/* learnt once */

	if (mseal_seal(addr, pages * st->page, MM_SEAL_ALL, &form) == 0)
		return 0;
	if (form == MSEAL_ABI_NONE)
		return bench_na(st, "no mseal() (ENOSYS)");
	return bench_fail(st, "mseal");
}

/*
 * A read-exec region of EXTRA_PAGES at AT, sealed for the *_SEAL
 * placements, left unsealed for their *_UNSEALED twins.
 */
int bench_extra_region(struct op_state *st, char *at)
{
	if (bench_map(st, at, EXTRA_PAGES, EXTRA_PROT))
		return -1;
	if (st->placement == FAR_SEAL || st->placement == NEXT_SEAL)
		return bench_seal(st, at, EXTRA_PAGES);
	return 0;
}

/* Extra regions directly below START and directly above END. */
int bench_neighbours(struct op_state *st, char *start, char *end)
{
	return bench_extra_region(st, start - EXTRA_PAGES * st->page) ||
		bench_extra_region(st, end) ? -1 : 0;
}

/* How many lines of /proc/self/maps overlap [start, end). */
int bench_vmas_in(const void *start, const void *end, unsigned long *count)
{
	uintptr_t lo = (uintptr_t)start, hi = (uintptr_t)end;
	uintmax_t from, to;
	char line[512];
	FILE *maps = fopen("/proc/self/maps", "r");

	if (!maps)
		return -1;
	*count = 0;
	while (fgets(line, sizeof(line), maps)) {
		if (sscanf(line, "%" SCNxMAX "-%" SCNxMAX, &from, &to) == 2 &&
		    from < hi && to > lo)
			(*count)++;
		/* a line longer than the buffer: skip its rest */
		while (!strchr(line, '\n') && fgets(line, sizeof(line), maps))
			;
	}
	fclose(maps);
	return 0;
}
