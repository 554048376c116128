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
#include "sealjit/mseal.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif
#ifndef MREMAP_FIXED
#define MREMAP_FIXED 2
#endif

#define RACE_PAGES 32
#define RACE_BASE (ARENA_ADDR + PG)
#define PIN (MM_SEAL_MUNMAP | MM_SEAL_MMAP | MM_SEAL_MREMAP)
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
 * call sealed last (6.1 patch 28); which memory a racing call meets first,
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
		 * mseal() itself refuses with EACCES only (MM_SEAL_MSEAL); a
		 * full seal refuses a range that WIPEONFORK reached first.
		 */
		if (mode == SEAL_FULL)
			return err == ENOMEM || err == EACCES || err == EBUSY;
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

static uint8_t names_to_bits(const char *s)
{
	static const char *names[] = { "mseal", "mprotect", "munmap", "mmap", "mremap" };
	static const uint8_t bits[] = { MM_SEAL_MSEAL, MM_SEAL_MPROTECT, MM_SEAL_MUNMAP,
					MM_SEAL_MMAP, MM_SEAL_MREMAP };
	uint8_t v = 0;
	char word[16];
	int used;

	while (sscanf(s, " %15s%n", word, &used) == 1) {
		for (int i = 0; i < 5; i++)
			if (!strcmp(word, names[i]))
				v |= bits[i];
		s += used;
	}
	return v;
}

static int read_seals(void)
{
	int fd = open("/proc/self/smaps", O_RDONLY);
	size_t used = 0;
	ssize_t got;
	unsigned long s = 0, e = 0;
	uint8_t cur = 0;

	memset(page_seals, 0, sizeof(page_seals));
	memset(page_mapped, 0, sizeof(page_mapped));
	if (fd < 0)
		return -1;
	while (used < sizeof(smaps_text) - 1 &&
	       (got = read(fd, smaps_text + used, sizeof(smaps_text) - 1 - used)) > 0)
		used += (size_t)got;
	close(fd);
	smaps_text[used] = '\0';
	for (char *line = strtok(smaps_text, "\n"); line; line = strtok(NULL, "\n")) {
		unsigned long ts, te;

		if (line[0] != ' ' && sscanf(line, "%lx-%lx ", &ts, &te) == 2 &&
		    strchr(line, '-') < strchr(line, ' ')) {
			s = ts, e = te, cur = 0;
		} else if (!strncmp(line, "Seals:", 6)) {
			cur = names_to_bits(line + 6);
		} else if (!strncmp(line, "VmFlags:", 8)) {
			if (mode == SEAL_UPSTREAM && strstr(line, " sl"))
				cur = MM_SEAL_ALL;
			for (unsigned long a = s > RACE_BASE ? s : RACE_BASE;
			     a < e && a < RACE_BASE + RACE_PAGES * PG; a += PG) {
				page_seals[(a - RACE_BASE) / PG] = cur;
				page_mapped[(a - RACE_BASE) / PG] = true;
			}
		}
	}
	return 0;
}

static uint8_t full_types(uint8_t t)
{
	return t ? t : MM_SEAL_ALL;
}

/* In the child: every pinning seal done before the fork is there. */
static int fork_child_check(uint64_t fork_before)
{
	if (read_seals())
		return 2;
	for (unsigned t = 0; t < nworkers; t++)
		for (uint64_t k = 0; k < workers[t].ncalls; k++) {
			struct rec *r = &workers[t].recs[k];
			uint64_t after = atomic_load(&r->after);

			if (!after || after >= fork_before || r->kind != R_MSEAL || r->err)
				continue;
			if (!(full_types(r->types) & PIN))
				continue;
			for (unsigned p = r->first; p < r->first + r->n; p++)
				if (!page_mapped[p] || (page_seals[p] & full_types(r->types)) !=
						       full_types(r->types))
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
	case R_MUNMAP: case R_MMAP: return in_src && (types & PIN);
	case R_MREMAP: return (in_src || in_tgt) && (types & PIN);
	}
	return false;
}

static uint64_t order_violations(char *first, size_t size)
{
	uint64_t bad = 0;

	for (unsigned t = 0; t < nworkers; t++)
		for (uint64_t k = 0; k < workers[t].ncalls; k++) {
			struct rec *s = &workers[t].recs[k];
			uint8_t types = full_types(s->types);

			if (s->kind != R_MSEAL || s->err || !(types & PIN))
				continue;
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
		}
	return bad;
}

static uint64_t lost_seals(char *first, size_t size)
{
	uint64_t bad = 0;

	read_seals();
	for (unsigned t = 0; t < nworkers; t++)
		for (uint64_t k = 0; k < workers[t].ncalls; k++) {
			struct rec *s = &workers[t].recs[k];
			uint8_t types = full_types(s->types);

			if (s->kind != R_MSEAL || s->err || !(types & PIN))
				continue;
			for (unsigned p = s->first; p < s->first + s->n; p++)
				if (!page_mapped[p] || (page_seals[p] & types) != types) {
					if (!bad++)
						snprintf(first, size, "page %u: sealed %#x, smaps shows %s%#x",
							 p, types, page_mapped[p] ? "" : "unmapped, ",
							 page_seals[p]);
				}
		}
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

		if (!mapped_before[p] || !(t & PIN))
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

static void tap(unsigned n, uint64_t bad, const char *what, const char *first)
{
	printf("%s %u - %s (%llu violations)\n", bad ? "not ok" : "ok", n, what,
	       (unsigned long long)bad);
	if (bad && first[0])
		printf("# %s\n", first);
}

int run_race(const struct options *o)
{
	static char first[4][256];
	uint64_t bad_errno = 0, bad_fork = 0, total = 0, seals_ok = 0;
	const char *errno_first = "", *fork_first = "";

	mode = o->seal;
	nworkers = o->threads;
	if (setup_race()) {
		printf("1..0 # SKIP cannot reserve the race region\n");
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

	printf("1..5\n");
	tap(1, bad_errno, "errno: every racing call gave an answer it can give", errno_first);
	tap(2, bad_order, "order: nothing got past a pinning seal after mseal() returned", first[0]);
	tap(3, bad_lost, "sealed: every pinning seal still shows in smaps after the race", first[1]);
	tap(4, bad_audit, "audit: sealed pages refuse munmap, mmap, mremap, mprotect; smaps unchanged",
	    first[2]);
	tap(5, bad_fork, "fork: children forked mid-race see every completed seal", fork_first);
	printf("# race: %u threads, %llu calls, %llu successful mseal() (seed %llu, kernel %s%s)\n",
	       nworkers, (unsigned long long)total, (unsigned long long)seals_ok,
	       (unsigned long long)o->seed, o->kernel, mode == SEAL_NONE ? ", --no-seal" : "");
	return bad_errno || bad_order || bad_lost || bad_audit || bad_fork;
}
