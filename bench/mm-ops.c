// SPDX-License-Identifier: GPL-2.0
/*
 * bench/mm-ops.c - the memory-management operations every process pays
 * for, each in every placement it has (see bench.h).  Iteration counts
 * keep a round to a few million guest instructions.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

#define RW (PROT_READ | PROT_WRITE)
#define FORK_VMAS 1000
#define MUNMAP_VMAS 64

static void touch(struct op_state *st, char *start, size_t pages)
{
	for (size_t i = 0; i < pages; i++)
		start[i * st->page] = 1;
}

/*
 * The common layout: PAGES at st->area with PROT, written if writable;
 * neighbours around [area, area + SPAN pages) for NEXT_*; the area itself
 * sealed for REFUSED.
 */
static int place(struct op_state *st, size_t pages, size_t span, int prot)
{
	st->pages = pages;
	if (bench_reserve(st))
		return -1;
	if (pages && bench_map(st, st->area, pages, prot))
		return -1;
	if (pages && (prot & PROT_WRITE))
		touch(st, st->area, pages);
	if (IS_NEXT(st->placement) &&
	    bench_neighbours(st, st->area, st->area + span * st->page))
		return -1;
	if (st->placement == REFUSED && pages)
		return bench_seal(st, st->area, pages);
	return 0;
}

/* mprotect R <-> RW of a whole one-page VMA */
static int setup_one_page(struct op_state *st) { return place(st, 1, 1, RW); }

static int mprotect_pair(struct op_state *st)
{
	size_t len = st->pages * st->page;

	if (bench_expect(st, mprotect(st->area, len, PROT_READ), "mprotect R"))
		return -1;
	return bench_expect(st, mprotect(st->area, len, RW), "mprotect RW");
}

/* mprotect of the middle page of three: split into three, merge back */
static int setup_three_pages(struct op_state *st) { return place(st, 3, 3, RW); }

static int mprotect_split(struct op_state *st)
{
	char *middle = st->area + st->page;

	if (bench_expect(st, mprotect(middle, st->page, PROT_READ), "mprotect R"))
		return -1;
	return bench_expect(st, mprotect(middle, st->page, RW), "mprotect RW");
}

/*
 * mmap + munmap of N pages; refused: mmap(MAP_FIXED) over it and munmap.
 * Timed call pair by call pair: the page tables and maple nodes that
 * munmap frees by RCU made whole rounds vary by 2% with the ticks.
 */
static int setup_mmap(struct op_state *st, size_t pages)
{
	if (place(st, st->placement == REFUSED ? pages : 0, pages, RW))
		return -1;
	st->pages = pages;
	return 0;
}
static int setup_mmap_1(struct op_state *st) { return setup_mmap(st, 1); }
static int setup_mmap_16(struct op_state *st) { return setup_mmap(st, 16); }

static int mmap_munmap(struct op_state *st)
{
	size_t len = st->pages * st->page;
	void *p = mmap(st->area, len, RW, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
		       -1, 0);

	if (bench_expect_ptr(st, p, st->area, "mmap"))
		return -1;
	return bench_expect(st, munmap(st->area, len), "munmap");
}

/* munmap of a range of 64 one-page VMAs (alternately R and RW) */
static int map_vmas(struct op_state *st, size_t count)
{
	for (size_t i = 0; i < count; i++)
		if (bench_map(st, st->area + i * st->page, 1,
			      i % 2 ? PROT_READ : RW))
			return -1;
	return 0;
}

static int setup_munmap_vmas(struct op_state *st)
{
	if (place(st, 0, MUNMAP_VMAS, RW))
		return -1;
	st->pages = MUNMAP_VMAS;
	if (st->placement != REFUSED)
		return 0;
	if (map_vmas(st, MUNMAP_VMAS))
		return -1;
	return bench_seal(st, st->area, MUNMAP_VMAS);
}

static int prepare_munmap_vmas(struct op_state *st)
{
	return st->placement == REFUSED ? 0 : map_vmas(st, MUNMAP_VMAS);
}

static int munmap_vmas(struct op_state *st)
{
	return bench_expect(st, munmap(st->area, st->pages * st->page), "munmap");
}

/* mremap move of 4 pages there and back (refused: there, twice) */
static int setup_mremap(struct op_state *st)
{
	st->other = st->area + 8 * st->page;
	return place(st, 4, 12, RW);
}

static int move(struct op_state *st, char *from, char *to)
{
	size_t len = st->pages * st->page;

	return bench_expect_ptr(st, mremap(from, len, len,
					   MREMAP_MAYMOVE | MREMAP_FIXED, to),
				to, "mremap");
}

static int mremap_move(struct op_state *st)
{
	if (move(st, st->area, st->other))
		return -1;
	if (st->placement == REFUSED)
		return move(st, st->area, st->other);
	return move(st, st->other, st->area);
}

/* madvise(MADV_DONTNEED) of 16 written pages (refused: read-only, sealed) */
static int setup_madvise(struct op_state *st)
{
	return place(st, 16, 16, st->placement == REFUSED ? PROT_READ : RW);
}

static int prepare_madvise(struct op_state *st)
{
	if (st->placement != REFUSED)
		touch(st, st->area, st->pages);
	return 0;
}

static int madvise_dontneed(struct op_state *st)
{
	return bench_expect(st, madvise(st->area, st->pages * st->page,
					MADV_DONTNEED), "madvise");
}

/*
 * brk one page up and back down, from a heap of 16 pages; the NEXT_*
 * neighbour is the next VMA above the heap, one page clear of its growth.
 * Refused: the heap's top page is sealed and brk tries to shrink into it
 * (brk reports a refusal by returning the old break).
 */
static int setup_brk(struct op_state *st)
{
	uintptr_t now = (uintptr_t)sbrk(0);
	uintptr_t base = (now + 17 * st->page - 1) & ~(uintptr_t)(st->page - 1);

	if (bench_reserve(st))
		return -1;
	if (sbrk((intptr_t)(base - now)) == (void *)-1)
		return bench_fail(st, "grow the heap");
	st->brk_base = base;
	st->pages = 1;
	if (IS_NEXT(st->placement))
		return bench_extra_region(st, (char *)base + 2 * st->page);
	if (st->placement == REFUSED)
		return bench_seal(st, (char *)base - st->page, 1);
	return 0;
}

static int brk_to(struct op_state *st, uintptr_t want)
{
	uintptr_t got = (uintptr_t)syscall(SYS_brk, want);

	if (st->placement == REFUSED && got == st->brk_base)
		return 0;
	if (st->placement == REFUSED && got == want)
		return bench_na(st, "not refused: brk shrank into the sealed page");
	if (got != want)
		return bench_fail(st, "brk did not move");
	return 0;
}

static int brk_grow_shrink(struct op_state *st)
{
	if (st->placement == REFUSED)
		return brk_to(st, st->brk_base - st->page) ||
			brk_to(st, st->brk_base - st->page);
	return brk_to(st, st->brk_base + st->page) || brk_to(st, st->brk_base);
}

/* mlock + munlock of 4 written pages */
static int setup_four_pages(struct op_state *st) { return place(st, 4, 4, RW); }

static int mlock_munlock(struct op_state *st)
{
	size_t len = st->pages * st->page;

	if (bench_expect(st, mlock(st->area, len), "mlock"))
		return -1;
	return bench_expect(st, munlock(st->area, len), "munlock");
}

/* fork + exit + wait of a process with 1,000 more VMAs (R and written RW) */
static int setup_fork(struct op_state *st)
{
	if (place(st, 0, FORK_VMAS, RW) || map_vmas(st, FORK_VMAS))
		return -1;
	for (size_t i = 0; i < FORK_VMAS; i += 2)
		touch(st, st->area + i * st->page, 1);
	return 0;
}

static int fork_exit_wait(struct op_state *st)
{
	int status;
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	if (pid < 0)
		return bench_fail(st, "fork");
	if (waitpid(pid, &status, 0) != pid || status != 0)
		return bench_fail(st, "wait for the forked child");
	return 0;
}

/*
 * A signal delivered to the process and returned from: the frame written,
 * the handler entered, rt_sigreturn.  Not an mm call, but a path every
 * process takes that the key patches touch (the kernel-series' 6.1
 * patches 54 and 57, 6.12 patches 31 and 34: the sealed keys looked up at
 * delivery and at return).  tgkill() straight, no raise(): its signal
 * mask calls would be most of the cost.
 */
static pid_t self_pid, self_tid;

static void on_signal(int sig) { (void)sig; }

static int setup_signal(struct op_state *st)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	if (sigaction(SIGUSR1, &sa, NULL))
		return bench_fail(st, "sigaction");
	self_pid = getpid();
	self_tid = (pid_t)syscall(SYS_gettid);
	return place(st, 0, 0, RW);
}

static int signal_return(struct op_state *st)
{
	return bench_expect(st, (int)syscall(SYS_tgkill, self_pid, self_tid, SIGUSR1), "tgkill");
}

const struct mm_op mm_ops[] = {
	{ .name = "mprotect-pair", .iterations = 500, .placements = ALL_PLACEMENTS,
	  .setup = setup_one_page, .iterate = mprotect_pair,
	  .unit = "mprotect R + mprotect RW" },
	{ .name = "mprotect-split", .iterations = 300, .placements = ALL_PLACEMENTS,
	  .setup = setup_three_pages, .iterate = mprotect_split,
	  .unit = "mprotect R + RW of the middle of 3 pages" },
	{ .name = "mmap-munmap-1", .iterations = 400, .placements = ALL_PLACEMENTS,
	  .setup = setup_mmap_1, .prepare = bench_each, .iterate = mmap_munmap,
	  .unit = "mmap + munmap, 1 page" },
	{ .name = "mmap-munmap-16", .iterations = 400, .placements = ALL_PLACEMENTS,
	  .setup = setup_mmap_16, .prepare = bench_each, .iterate = mmap_munmap,
	  .unit = "mmap + munmap, 16 pages" },
	{ .name = "munmap-64vmas", .iterations = 20, .placements = ALL_PLACEMENTS,
	  .setup = setup_munmap_vmas, .prepare = prepare_munmap_vmas,
	  .iterate = munmap_vmas, .unit = "munmap of 64 VMAs" },
	{ .name = "mremap-move", .iterations = 300, .placements = ALL_PLACEMENTS,
	  .setup = setup_mremap, .iterate = mremap_move,
	  .unit = "2 mremap moves of 4 pages" },
	{ .name = "madvise-dontneed", .iterations = 200, .placements = ALL_PLACEMENTS,
	  .setup = setup_madvise, .prepare = prepare_madvise,
	  .iterate = madvise_dontneed, .unit = "madvise DONTNEED of 16 pages" },
	{ .name = "brk-grow-shrink", .iterations = 500, .placements = ALL_PLACEMENTS,
	  .setup = setup_brk, .iterate = brk_grow_shrink,
	  .unit = "brk +1 page, -1 page" },
	{ .name = "mlock-munlock", .iterations = 300, .placements = ALL_BUT_REFUSED,
	  .setup = setup_four_pages, .iterate = mlock_munlock,
	  .unit = "mlock + munlock of 4 pages" },
	{ .name = "fork-1000vmas", .iterations = 10, .placements = ALL_BUT_REFUSED,
	  .setup = setup_fork, .iterate = fork_exit_wait,
	  .unit = "fork + exit + wait, 1000 VMAs" },
	{ .name = "signal-return", .iterations = 500,
	  .placements = PLACED(PLAIN) | PLACED(FAR_UNSEALED) | PLACED(FAR_SEAL),
	  .setup = setup_signal, .iterate = signal_return,
	  .unit = "a signal delivered and returned from" },
	{ .name = NULL },
};
