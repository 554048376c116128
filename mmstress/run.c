// SPDX-License-Identifier: GPL-2.0
/*
 * run.c - the sequential run: draw a call, ask the model, issue it, judge
 * the answer, commit the model, check smaps and contents; stop at the
 * first disagreement and say where, so main.c can have ddmin.c shrink
 * the log that shows it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "mmstress.h"

#ifndef PKEY_DISABLE_WRITE
#define PKEY_DISABLE_WRITE 0x2
#endif

void observe_reset_mem(void);

static struct model model;
static struct op *oplog;
static uint64_t digest = 0xcbf29ce484222325ULL;

static void digest_add(uint64_t v)
{
	for (int i = 0; i < 8; i++) {
		digest ^= (v >> (i * 8)) & 0xff;
		digest *= 0x100000001b3ULL;
	}
}

static int probe_exec_pkey(struct model *m)
{
	uintptr_t at = m->win[WIN_ARENA].base;
	struct stats st = { 0 };
	int key = -1;

	if (mmap((void *)at, PG, PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
		 -1, 0) != (void *)at)
		return -1;
	m->win[WIN_ARENA].pages[0] = (struct page){ .mapped = true, .prot = PROT_EXEC };
	m->pkey_exec = 99;	/* any: the layout check below reports the real one */
	observe_layout(m, &st, 0);
	for (int k = 1; k < 16 && st.fails[FAM_LAYOUT]; k++) {
		memset(&st, 0, sizeof(st));
		m->win[WIN_ARENA].pages[0].pkey = (int8_t)k;
		observe_layout(m, &st, 0);
		if (!st.fails[FAM_LAYOUT])
			key = k;
	}
	munmap((void *)at, PG);
	m->win[WIN_ARENA].pages[0] = (struct page){ 0 };
	return key;
}

/* The arena (with a guard page at each end), the heap, pkeys, advice. */
int setup_windows(struct model *m, enum seal_mode seal)
{
	size_t span = (ARENA_PAGES + 2) * PG;
	long cur = syscall(SYS_brk, 0);
	uintptr_t heap = ((uintptr_t)cur + PG - 1) & ~(PG - 1);

	if (mmap((void *)ARENA_ADDR, span, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0) !=
	    (void *)ARENA_ADDR) {
		fprintf(stderr, "mmstress: cannot reserve the arena at %#lx: %s\n",
			ARENA_ADDR, strerror(errno));
		return -1;
	}
	munmap((void *)(ARENA_ADDR + PG), ARENA_PAGES * PG);
	if (syscall(SYS_brk, heap) != (long)heap) {
		fprintf(stderr, "mmstress: cannot align the break\n");
		return -1;
	}
	model_init(m, seal, heap);
	observe_reset_mem();
	for (int a = 0; a < 32; a++)
		if (a != 25 && syscall(SYS_madvise, ARENA_ADDR, 0, a) == 0)
			m->advice_ok |= 1u << a;
	m->pkey_a = (int)syscall(SYS_pkey_alloc, 0, PKEY_DISABLE_WRITE);
	if (m->pkey_a < 0)
		m->pkey_a = -1;
	else
		m->pkey_exec = probe_exec_pkey(m);
	return 0;
}

struct runner {
	const struct options *o;
	struct stats *st;
	bool quiet;
};

static bool judge(const struct op *op, const struct expect *ex, long ret, int err)
{
	const struct model *m = &model;
	uintptr_t lo = m->win[WIN_ARENA].base - PG;
	uintptr_t hi = lo + (ARENA_PAGES + 2) * PG;

	if (op->kind == OP_BRK)
		return ret == ex->ret;
	if (ex->err && ex->alt_err == -1 && ret == ex->ret)
		return true;	/* documented: success that changes nothing */
	if (ex->err)
		return ret == -1 && (err == ex->err || (ex->alt_err > 0 && err == ex->alt_err));
	if (ret == -1 && err)
		return false;
	if (ex->anywhere)
		return (uintptr_t)ret < lo || (uintptr_t)ret >= hi;
	if (op->kind == OP_MMAP || op->kind == OP_MREMAP)
		return ret == ex->ret;
	return ret == 0;
}

/* A mapping moved out of the arena: check what arrived, then drop it. */
static int check_moved_out(struct runner *r, long ret, uint64_t index)
{
	size_t n = model_nmoved;
	int bad = content_check_range(&model, r->st, (uintptr_t)ret, n, model_moved, index);

	r->st->checks[FAM_CONTENT]++;
	if (munmap((void *)ret, n * PG)) {
		r->st->fails[FAM_ERRNO]++;
		snprintf(r->st->first_fail[FAM_ERRNO], sizeof(r->st->first_fail[0]),
			 "call %llu: munmap of the moved-out copy failed: %s",
			 (unsigned long long)index, strerror(errno));
		bad++;
	}
	return bad;
}

static void note_errno_fail(struct runner *r, const struct op *op, const struct expect *ex,
			    long ret, int err, uint64_t index)
{
	char desc[200];

	op_describe(&model, op, desc, sizeof(desc));
	r->st->fails[FAM_ERRNO]++;
	if (r->st->first_fail[FAM_ERRNO][0])
		return;
	snprintf(r->st->first_fail[FAM_ERRNO], sizeof(r->st->first_fail[0]),
		 "call %llu: %s: model %s%s%s (%s), kernel %s ret %#lx",
		 (unsigned long long)index, desc, ex->err ? errno_name(ex->err) : "success",
		 ex->alt_err ? " or " : "", ex->alt_err ? errno_name(ex->alt_err) : "",
		 ex->why, errno_name(err), (unsigned long)ret);
}

static void digest_call(const struct op *op, const struct expect *ex, long ret, int err,
			uint64_t index)
{
	uintptr_t base = model.win[WIN_ARENA].base;

	digest_add(index);
	digest_add(op->kind);
	digest_add((uint64_t)err);
	if (op->kind == OP_MMAP || op->kind == OP_MREMAP)
		digest_add(ex->anywhere ? 1 : (uint64_t)ret - base);
	else if (op->kind == OP_BRK)
		digest_add((uint64_t)ret - model.win[WIN_HEAP].base);
}

/* The calls that set seals, pkeys or VmFlags, which only smaps shows. */
static bool sets_smaps_state(const struct op *op)
{
	static const uint32_t flag_advice = 1u << MADV_NORMAL | 1u << MADV_RANDOM |
		1u << MADV_SEQUENTIAL | 1u << MADV_DONTFORK | 1u << MADV_DOFORK |
		1u << MADV_MERGEABLE | 1u << MADV_UNMERGEABLE | 1u << MADV_HUGEPAGE |
		1u << MADV_NOHUGEPAGE | 1u << MADV_DONTDUMP | 1u << MADV_DODUMP |
		1u << MADV_WIPEONFORK | 1u << MADV_KEEPONFORK;

	return op->kind == OP_MSEAL || op->kind == OP_PKEY_MPROTECT ||
	       (op->kind == OP_MADVISE && op->a[1] < 32 && (flag_advice & (1u << op->a[1])));
}

/* The calls that move, split, merge or re-protect mappings. */
static bool changes_layout(const struct op *op)
{
	return op->kind == OP_MMAP || op->kind == OP_MUNMAP || op->kind == OP_MPROTECT ||
	       op->kind == OP_MREMAP || op->kind == OP_BRK;
}

/*
 * How much to read after a call.  smaps after a call the model expects to
 * set what only smaps shows, and every --full-every calls; /proc/self/maps
 * after a call it expects to change the layout, and every --maps-every
 * calls; otherwise the contents of the call's own pages.  A call the model
 * expects to fail part-way counts as one that changes.  A call that was
 * refused, or changed the kernel's state without the model knowing, is still
 * caught: the next maps or smaps read compares the whole state, not the
 * call, and the shrinker (which replays checking everything) finds the
 * call.  The errno is judged after every call.
 */
static enum depth check_depth(const struct runner *r, const struct op *op,
			      const struct expect *ex, uint64_t index)
{
	const struct options *o = r->o;
	/* A call that failed part-way (ENOMEM at a hole, EFAULT after
	 * mremap_to() unmapped its target) changed what it reached first,
	 * and the model's VMA boundaries come from what maps last showed. */
	bool changes = !ex || !ex->err || ex->err == ENOMEM || ex->err == EFAULT;

	if (o->full_every <= 1 || index % o->full_every == 0 ||
	    (changes && sets_smaps_state(op)))
		return DEPTH_SMAPS;
	if (o->maps_every <= 1 || index % o->maps_every == 0 ||
	    (changes && changes_layout(op)))
		return DEPTH_MAPS;
	return DEPTH_CONTENT;
}

/* One call; returns non-zero when anything disagreed. */
static int step(struct runner *r, const struct op *op, uint64_t index, bool check)
{
	struct expect ex;
	long ret;
	int err, bad = 0;

	r->st->calls++;
	r->st->per_kind[op->kind]++;
	if (op->kind == OP_MSEAL && model.seal == SEAL_NONE)
		return 0;
	if (op->kind == OP_FORK)
		return fork_check(&model, r->st, index);
	if (op->kind == OP_WRITE) {
		op_issue(&model, op, &err);
		return check ? observe_check_depth(&model, r->st, index,
						   check_depth(r, op, NULL, index), op) : 0;
	}
	if (op->kind == OP_MREMAP && r->o->check_every > 1)
		observe_check_depth(&model, r->st, index, DEPTH_MAPS, op);
	model_predict(&model, op, &ex);
	ret = op_issue(&model, op, &err);
	if (op->kind != OP_WRITE)
		r->st->issued++;
	r->st->checks[FAM_ERRNO]++;
	if (!judge(op, &ex, ret, err)) {
		note_errno_fail(r, op, &ex, ret, err, index);
		return 1;
	}
	if (ex.err)
		r->st->refused++;
	if (ex.alt_err && (err == ex.alt_err || (ex.alt_err == -1 && !err)) &&
	    !r->st->alternates++ && !r->quiet) {
		char desc[200];

		op_describe(&model, op, desc, sizeof(desc));
		printf("# first documented alternate: call %llu: %s: %s, not %s (%s)\n",
		       (unsigned long long)index, desc, errno_name(err), errno_name(ex.err), ex.why);
	}
	digest_call(op, &ex, ret, err, index);
	if (ex.anywhere)
		bad += check_moved_out(r, ret, index);
	model_apply(&model, op, &ex, ret);
	if (r->o->verbose && !r->quiet) {
		char desc[200];

		op_describe(&model, op, desc, sizeof(desc));
		printf("# %llu %s = %s %#lx (%s)\n", (unsigned long long)index, desc,
		       errno_name(err), (unsigned long)ret, ex.why);
	}
	if (check || ex.err)
		bad += observe_check_depth(&model, r->st, index, check_depth(r, op, &ex, index), op);
	return bad;
}

static enum family first_family(const struct stats *st)
{
	for (int f = 0; f < NFAM; f++)
		if (st->fails[f])
			return (enum family)f;
	return NFAM;
}

int run_log(const struct options *o, const struct op *log, size_t n, struct stats *st,
	    size_t *fail_index, bool quiet)
{
	struct runner r = { o, st, quiet };

	if (setup_windows(&model, o->seal))
		return -1;
	for (size_t i = 0; i < n; i++) {
		bool check = o->check_every <= 1 || i % o->check_every == 0 || i + 1 == n;

		if (step(&r, &log[i], i, check)) {
			*fail_index = i;
			return 1;
		}
	}
	return 0;
}

static const char *family_name[NFAM] = {
	"errno: every call answered as the model predicts",
	"layout: smaps shows the model's mappings, permissions, pkeys and VmFlags",
	"seals: smaps shows the model's seals (sealed stays sealed)",
	"content: every page holds the model's content tag",
	"fork: children see the model's view (seals inherited, DONTFORK/WIPEONFORK)",
};

static void report(const struct options *o, const struct stats *st, double secs,
		   bool stopped)
{
	struct tap t;

	tap_start(&t);
	tap_plan(&t, NFAM + 1);
	for (int f = 0; f < NFAM; f++) {
		if (!tap_ok(&t, !st->fails[f], "%s (%llu checks)", family_name[f],
			    (unsigned long long)st->checks[f]))
			tap_note("%s", st->first_fail[f]);
	}
	tap_ok(&t, !stopped, "calls: %llu of %llu drawn, %llu issued, %llu refused as predicted, "
	       "%llu documented alternates (seed %llu, model %s%s)", (unsigned long long)st->calls,
	       (unsigned long long)o->calls, (unsigned long long)st->issued,
	       (unsigned long long)st->refused, (unsigned long long)st->alternates,
	       (unsigned long long)o->seed, o->model, o->seal == SEAL_NONE ? ", --no-seal" : "");
	printf("# digest %016llx (seed %llu, %llu calls)\n", (unsigned long long)digest,
	       (unsigned long long)o->seed, (unsigned long long)st->calls);
	printf("# %.1f s, %.0f calls/s (smaps checks %.1f s, maps checks %.1f s, "
	       "content checks %.1f s)\n", secs, secs > 0 ? (double)st->calls / secs : 0.0,
	       observe_secs[DEPTH_SMAPS], observe_secs[DEPTH_MAPS], observe_secs[DEPTH_CONTENT]);
}

/*
 * A long run says where it is: "# progress DONE/TOTAL calls" about fifty
 * times, which guest/run --progress shows while the guest runs.
 */
static void report_progress(const struct options *o, size_t i)
{
	uint64_t every = o->calls / 50;

	if (every < 5000 || i == 0 || i % every)
		return;
	printf("# progress %zu/%llu calls\n", i, (unsigned long long)o->calls);
	fflush(stdout);
}

/*
 * The log of every call (56 bytes each, 56 MB for the long run) in a
 * mapping of its own that fork() does not copy: the fork checks' children
 * never read it, and copying it made each fork, and so the run, slower
 * the longer it ran (under KASAN, a million calls ran at 720 calls a
 * second at the start and 300 after 600,000).
 */
static struct op *map_oplog(size_t calls)
{
	size_t len = (calls ? calls : 1) * sizeof(struct op);
	void *log = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (log == MAP_FAILED || madvise(log, len, MADV_DONTFORK)) {
		fprintf(stderr, "mmstress: cannot map the call log: %s\n", strerror(errno));
		return NULL;
	}
	return log;
}

int run_random(const struct options *o, struct run_failure *failed)
{
	static struct stats st;
	struct runner r = { o, &st, false };
	uint64_t rng = o->seed;
	struct timespec t0, t1;
	bool stopped = false;
	size_t i;

	if (setup_windows(&model, o->seal))
		return 2;
	oplog = map_oplog(o->calls);
	if (!oplog)
		return 2;
	printf("# mmstress: seed %llu, %llu calls, model %s, pkeys %s, advice mask %#x\n",
	       (unsigned long long)o->seed, (unsigned long long)o->calls,
	       o->seal == SEAL_NONE ? "none (--no-seal)" : o->model, model.pkey_a >= 0 ? "yes" : "no", model.advice_ok);
	fflush(stdout);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < o->calls; i++) {
		bool check = o->check_every <= 1 || i % o->check_every == 0;

		report_progress(o, i);
		gen_op(&model, &rng, i, &oplog[i]);
		if (step(&r, &oplog[i], i, check)) {
			stopped = true;
			break;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	report(o, &st, (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
	       stopped);
	if (stopped) {
		printf("# stopped at call %zu of seed %llu: rerun with --seed %llu --calls %zu%s\n",
		       i, (unsigned long long)o->seed, (unsigned long long)o->seed, i + 1,
		       o->check_every > 1 ? " (and the same --check-every)" : "");
		fflush(stdout);
		*failed = (struct run_failure){ oplog, i, first_family(&st) };
	}
	return stopped ? 1 : 0;
}
