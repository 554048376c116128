// SPDX-License-Identifier: GPL-2.0
/*
 * race.c - `mmstress --threads N`: N threads race mseal() against mprotect,
 * munmap, mmap(MAP_FIXED), mremap(MREMAP_FIXED), madvise and fork on the
 * same RACE_PAGES pages.  No thread can predict a single answer, so the
 * invariants are the ones that hold in any interleaving:
 *
 *   errno    every answer is one the call can give (never EINVAL, EFAULT
 *            where not possible, no crash);
 *   order    no call that began after a pinning mseal() returned got past
 *            it (a global sequence number stamps every call's start and end);
 *   sealed   at the end every page a pinning mseal() sealed is mapped and
 *            shows at least those seal types in smaps;
 *   audit    then, single-threaded, every sealed page refuses munmap,
 *            mprotect (when so sealed) and mremap, and smaps is unchanged;
 *   fork     a child forked mid-race sees every seal completed before it.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mmstress.h"
#include "sealjit/smaps.h"

#ifndef MREMAP_FIXED
#define MREMAP_FIXED 2
#endif

#define RACE_PAGES 32
#define RACE_BASE (ARENA_ADDR + PG)
#define MAX_THREADS 16

enum rkind { R_MSEAL, R_MPROTECT, R_MUNMAP, R_MMAP, R_MREMAP, R_MADVISE, R_FORK };

struct rec {
	uint8_t kind, types;
	uint16_t first, n, tfirst;	/* pages; tfirst: mremap target */
	int err;
	uint64_t before;
	_Atomic uint64_t after;		/* 0 until the call returned */
};

struct worker {
	pthread_t tid;
	unsigned id;
	uint64_t rng, ncalls;
	struct rec *recs;
	uint64_t bad_errno, bad_fork;
	char first_bad[256];
};

static _Atomic uint64_t seq = 1;
static enum seal_mode mode;
static struct worker workers[MAX_THREADS];
static unsigned nworkers;
static char smaps_text[1 << 20];

/*
 * Is @err the error of a seal's refusal?  Upstream: EPERM.  The series:
 * EACCES for memory sealed with types, EPERM for memory that upstream's
 * call sealed last (6.1 patch 46); which memory a racing call meets first,
 * the race decides.
 */
static bool seal_refusal(int err)
{
	return err == EPERM || (mode == SEAL_FULL && err == EACCES);
}

static bool allowed(int kind, int err)
{
	if (!err)
		return true;
	switch (kind) {
	case R_MSEAL:
		/*
		 * mseal() itself refuses with EACCES only (MM_SEAL_MSEAL); it
		 * seals memory with fork advice too (6.1 patch 60).
		 */
		if (mode == SEAL_FULL)
			return err == ENOMEM || err == EACCES;
		return err == ENOMEM || err == EPERM;
	case R_MPROTECT: return err == ENOMEM || seal_refusal(err);
	case R_MUNMAP: case R_MMAP: return seal_refusal(err);
	case R_MREMAP: return err == EFAULT || seal_refusal(err);
	case R_MADVISE: return err == ENOMEM || seal_refusal(err);
	}
	return false;
}

static unsigned seal_types(uint64_t *rng)
{
	if (mode == SEAL_UPSTREAM || rng_below(rng, 4) == 0)
		return 0;
	return 1 + (unsigned)rng_below(rng, MM_SEAL_ALL);
}

static long issue(struct worker *w, struct rec *r)
{
	uintptr_t a = RACE_BASE + r->first * PG, len = r->n * PG;
	/* No MADV_DONTFORK: a fork child could not tell it from a lost seal. */
	static const int advs[] = { MADV_DONTNEED, MADV_FREE, MADV_PAGEOUT, MADV_DOFORK,
				    MADV_WIPEONFORK, MADV_WILLNEED, MADV_COLD };

	switch (r->kind) {
	case R_MSEAL:
		if (mode == SEAL_UPSTREAM)
			return syscall(__NR_mseal, a, len, 0UL);
		return sys_mseal((void *)a, len, r->types, 0);
	case R_MPROTECT:
		return syscall(SYS_mprotect, a, len, rng_below(&w->rng, 2) ? PROT_READ :
			       PROT_READ | PROT_WRITE);
	case R_MUNMAP: return syscall(SYS_munmap, a, len);
	case R_MMAP:
		return mmap((void *)a, len, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED ? -1 : 0;
	case R_MREMAP:
		return syscall(SYS_mremap, a, len, len, MREMAP_MAYMOVE | MREMAP_FIXED,
			       RACE_BASE + r->tfirst * PG) == -1 ? -1 : 0;
	case R_MADVISE:
		return syscall(SYS_madvise, a, len, advs[rng_below(&w->rng, 7)]);
	}
	return 0;
}

static int fork_child_check(uint64_t fork_before);

static void one_call(struct worker *w, struct rec *r)
{
	long ret;

	r->before = atomic_fetch_add(&seq, 1);
	if (r->kind == R_FORK) {
		pid_t pid = fork();
		int status = 0;

		if (pid == 0)
			_exit(fork_child_check(r->before));
		if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status)) {
			w->bad_fork++;
			snprintf(w->first_bad, sizeof(w->first_bad),
				 "fork child at seq %llu missed a completed seal (status %#x)",
				 (unsigned long long)r->before, status);
		}
		atomic_store(&r->after, atomic_fetch_add(&seq, 1));
		return;
	}
	ret = issue(w, r);
	r->err = ret == -1 ? errno : 0;
	atomic_store(&r->after, atomic_fetch_add(&seq, 1));
	if (!allowed(r->kind, r->err)) {
		if (!w->bad_errno++)
			snprintf(w->first_bad, sizeof(w->first_bad),
				 "kind %d pages %u+%u: errno %s is not one it can give",
				 r->kind, r->first, r->n, errno_name(r->err));
	}
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	for (uint64_t k = 0; k < w->ncalls; k++) {
		struct rec *r = &w->recs[k];
		uint64_t pick = rng_below(&w->rng, 100);

		r->first = (uint16_t)rng_below(&w->rng, RACE_PAGES);
		r->n = (uint16_t)(1 + rng_below(&w->rng, 4));
		if (r->first + r->n > RACE_PAGES)
			r->n = (uint16_t)(RACE_PAGES - r->first);
		r->kind = pick < 30 ? R_MSEAL : pick < 45 ? R_MPROTECT : pick < 55 ? R_MUNMAP :
			  pick < 67 ? R_MMAP : pick < 79 ? R_MREMAP : pick < 99 ? R_MADVISE : R_FORK;
		if (r->kind == R_MSEAL && mode == SEAL_NONE)
			r->kind = R_MADVISE;
		if (r->kind == R_MSEAL)
			r->types = (uint8_t)seal_types(&w->rng);
		if (r->kind == R_MREMAP) {
			r->tfirst = (uint16_t)rng_below(&w->rng, RACE_PAGES - r->n + 1);
			if (r->tfirst < r->first + r->n && r->tfirst + r->n > r->first)
				r->kind = R_MPROTECT;	/* overlapping moves are EINVAL */
		}
		one_call(w, r);
	}
	return NULL;
}

/* ---- reading seals back ---- */

static uint8_t page_seals[RACE_PAGES];
static bool page_mapped[RACE_PAGES];

/* Read by sealjit/smaps.h: no stdio, so that a forked child may. */
static int read_seals(void)
{
	struct smaps_mapping m;
	const char *at = smaps_text;

	memset(page_seals, 0, sizeof(page_seals));
	memset(page_mapped, 0, sizeof(page_mapped));
	if (!smaps_read("/proc/self/smaps", smaps_text, sizeof(smaps_text)))
		return -1;
	while (smaps_next(&at, &m)) {
		uint8_t cur = (uint8_t)m.seals;

		if (mode == SEAL_UPSTREAM && m.sl)
			cur = MM_SEAL_ALL;
		for (uintptr_t a = m.start > RACE_BASE ? m.start : RACE_BASE;
		     a < m.end && a < RACE_BASE + RACE_PAGES * PG; a += PG) {
			page_seals[(a - RACE_BASE) / PG] = cur;
			page_mapped[(a - RACE_BASE) / PG] = true;
		}
	}
	return 0;
}

static uint8_t full_types(uint8_t t)
{
	return t ? t : MM_SEAL_ALL;
}

/* In the child: every pinning seal done before the fork is there. */
/* The race's successful pinning seals, one at a time (their full types in
 * *types); start the cursor at { 0 }.  NULL after the last. */
struct cursor {
	unsigned t;
	uint64_t k;
};
static const struct rec *next_pinning_seal(struct cursor *c, uint8_t *types)
{
	for (; c->t < nworkers; c->t++, c->k = 0)
		while (c->k < workers[c->t].ncalls) {
			const struct rec *s = &workers[c->t].recs[c->k++];

			*types = full_types(s->types);
			if (s->kind == R_MSEAL && !s->err && (*types & MSEAL_TYPES_PIN))
				return s;
		}
	return NULL;
}

/* The first page of @s whose smaps (read_seals) lacks @types, or -1. */
static long page_without(const struct rec *s, uint8_t types)
{
	for (unsigned p = s->first; p < s->first + s->n; p++)
		if (!page_mapped[p] || (page_seals[p] & types) != types)
			return p;
	return -1;
}

static int fork_child_check(uint64_t fork_before)
{
	if (read_seals())
		return 2;
	const struct rec *r;
	uint8_t types;

	for (struct cursor c = { 0 }; (r = next_pinning_seal(&c, &types));) {
		uint64_t after = atomic_load(&r->after);

		if (after && after < fork_before && page_without(r, types) >= 0)
			return 1;
	}
	return 0;
}

/* ---- the checks after the race ---- */

static bool blocked_by(const struct rec *m, uint8_t types, unsigned page)
{
	bool in_src = page >= m->first && page < m->first + m->n;
	bool in_tgt = m->kind == R_MREMAP && page >= m->tfirst && page < m->tfirst + m->n;

	switch (m->kind) {
	case R_MPROTECT: return in_src && (types & MM_SEAL_MPROTECT);
	case R_MUNMAP: case R_MMAP: return in_src && (types & MSEAL_TYPES_PIN);
	case R_MREMAP: return (in_src || in_tgt) && (types & MSEAL_TYPES_PIN);
	}
	return false;
}

static uint64_t order_violations(char *first, size_t size)
{
	uint64_t bad = 0;
	const struct rec *s;
	uint8_t types;

	for (struct cursor c = { 0 }; (s = next_pinning_seal(&c, &types));)
		for (unsigned u = 0; u < nworkers; u++)
			for (uint64_t j = 0; j < workers[u].ncalls; j++) {
				struct rec *m = &workers[u].recs[j];

				if (m->err || m->before < s->after || m->kind == R_MSEAL)
					continue;
				for (unsigned p = s->first; p < s->first + s->n; p++)
					if (blocked_by(m, types, p)) {
						if (!bad++)
							snprintf(first, size, "kind %d on page %u at seq %llu succeeded after mseal(types %#x) returned at seq %llu",
								 m->kind, p, (unsigned long long)m->before,
								 types, (unsigned long long)s->after);
						break;
					}
			}
	return bad;
}

static uint64_t lost_seals(char *first, size_t size)
{
	uint64_t bad = 0;
	const struct rec *s;
	uint8_t types;
	long p;

	read_seals();
	for (struct cursor c = { 0 }; (s = next_pinning_seal(&c, &types));)
		if ((p = page_without(s, types)) >= 0 && !bad++)
			snprintf(first, size, "page %ld: sealed %#x, smaps shows %s%#x",
				 p, types, page_mapped[p] ? "" : "unmapped, ", page_seals[p]);
	return bad;
}

static uint64_t audit(char *first, size_t size)
{
	static uint8_t before[RACE_PAGES];
	static bool mapped_before[RACE_PAGES];
	uint64_t bad = 0;

	read_seals();
	memcpy(before, page_seals, sizeof(before));
	memcpy(mapped_before, page_mapped, sizeof(mapped_before));
	for (unsigned p = 0; p < RACE_PAGES; p++) {
		uintptr_t a = RACE_BASE + p * PG;
		uint8_t t = before[p];

		if (!mapped_before[p] || !(t & MSEAL_TYPES_PIN))
			continue;
		if (syscall(SYS_munmap, a, PG) == 0 || !seal_refusal(errno))
			bad++;
		if (mmap((void *)a, PG, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) !=
		    MAP_FAILED || !seal_refusal(errno))
			bad++;
		if (syscall(SYS_mremap, a, PG, 2 * PG, MREMAP_MAYMOVE) != -1 || !seal_refusal(errno))
			bad++;
		if ((t & MM_SEAL_MPROTECT) &&
		    (syscall(SYS_mprotect, a, PG, PROT_READ | PROT_WRITE | PROT_EXEC) == 0 ||
		     !seal_refusal(errno)))
			bad++;
		if (bad && !first[0])
			snprintf(first, size, "page %u sealed %#x: an attack was not refused", p, t);
	}
	read_seals();
	if (memcmp(before, page_seals, sizeof(before)) ||
	    memcmp(mapped_before, page_mapped, sizeof(mapped_before))) {
		bad++;
		snprintf(first, size, "smaps changed under the audit's refused calls");
	}
	return bad;
}

static int setup_race(void)
{
	if (mmap((void *)ARENA_ADDR, (RACE_PAGES + 2) * PG, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0) != (void *)ARENA_ADDR)
		return -1;
	for (unsigned i = 0; i < RACE_PAGES; i += 8)
		if (mmap((void *)(RACE_BASE + i * PG), 8 * PG, i % 16 ? PROT_READ : PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
			return -1;
	return 0;
}

static void invariant(struct tap *t, uint64_t bad, const char *what, const char *first)
{
	tap_ok(t, !bad, "%s (%llu violations)", what, (unsigned long long)bad);
	if (bad && first[0])
		tap_note("%s", first);
}

int run_race(const struct options *o)
{
	static char first[4][256];
	uint64_t bad_errno = 0, bad_fork = 0, total = 0, seals_ok = 0;
	const char *errno_first = "", *fork_first = "";

	mode = o->seal;
	nworkers = o->threads;
	if (setup_race()) {
		tap_skip_all("cannot reserve the race region");
		return 1;
	}
	for (unsigned t = 0; t < nworkers; t++) {
		struct worker *w = &workers[t];

		w->id = t;
		w->rng = o->seed * 1000003ULL + t;
		w->ncalls = o->calls / nworkers;
		w->recs = calloc(w->ncalls ? w->ncalls : 1, sizeof(*w->recs));
		if (!w->recs)
			return 2;
	}
	for (unsigned t = 0; t < nworkers; t++)
		pthread_create(&workers[t].tid, NULL, worker_main, &workers[t]);
	for (unsigned t = 0; t < nworkers; t++)
		pthread_join(workers[t].tid, NULL);
	for (unsigned t = 0; t < nworkers; t++) {
		struct worker *w = &workers[t];

		total += w->ncalls;
		bad_errno += w->bad_errno;
		bad_fork += w->bad_fork;
		if (w->bad_errno && !errno_first[0])
			errno_first = w->first_bad;
		if (w->bad_fork && !fork_first[0])
			fork_first = w->first_bad;
		for (uint64_t k = 0; k < w->ncalls; k++)
			seals_ok += w->recs[k].kind == R_MSEAL && !w->recs[k].err;
	}
	uint64_t bad_order = order_violations(first[0], sizeof(first[0]));
	uint64_t bad_lost = lost_seals(first[1], sizeof(first[1]));
	uint64_t bad_audit = audit(first[2], sizeof(first[2]));

	struct tap t;
	tap_start(&t);
	tap_plan(&t, 5);
	invariant(&t, bad_errno, "errno: every racing call gave an answer it can give", errno_first);
	invariant(&t, bad_order, "order: nothing got past a pinning seal after mseal() returned", first[0]);
	invariant(&t, bad_lost, "sealed: every pinning seal still shows in smaps after the race", first[1]);
	invariant(&t, bad_audit, "audit: sealed pages refuse munmap, mmap, mremap, mprotect; smaps unchanged",
		  first[2]);
	invariant(&t, bad_fork, "fork: children forked mid-race see every completed seal", fork_first);
	printf("# race: %u threads, %llu calls, %llu successful mseal() (seed %llu, model %s%s)\n",
	       nworkers, (unsigned long long)total, (unsigned long long)seals_ok,
	       (unsigned long long)o->seed, o->model, mode == SEAL_NONE ? ", --no-seal" : "");
	return bad_errno || bad_order || bad_lost || bad_audit || bad_fork;
}
