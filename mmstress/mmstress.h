/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmstress.h - the types every part of mmstress shares: the reference
 * model of the memory it owns, the operations it issues, and the
 * per-invariant counters it reports as TAP.
 *
 * The model is page-granular.  Two windows of the address space belong to
 * the tester: the arena (a fixed-address reservation, so a logged run
 * replays at the same addresses) and the heap above the program break.
 * Every page of a window is either unmapped or carries the attributes
 * smaps shows for it plus the content tag the tester last wrote there.
 */
#ifndef MMSTRESS_H
#define MMSTRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sealjit/errno-name.h"
#include "sealjit/tap.h"

/* Older libc headers lack them. */
#ifndef MREMAP_DONTUNMAP
#define MREMAP_DONTUNMAP 4
#endif
#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

#define PG 4096UL
#define ARENA_ADDR 0x100000000000UL	/* 16 TiB: far from mmap_base and brk */
#define ARENA_PAGES 64
#define HEAP_PAGES 16
#define MAX_RANGE_PAGES 10
#define MAX_CALLS 1100000

enum window_id { WIN_ARENA, WIN_HEAP, NWIN };

/* How the kernel under test seals, as far as the model is concerned. */
enum seal_mode {
	SEAL_NONE,	/* --no-seal: mseal calls are drawn but not issued */
	SEAL_FULL,	/* the series' mseal (common.md), EACCES */
	SEAL_UPSTREAM,	/* upstream 6.12: 3 arguments, all types, EPERM */
};

/* Model copies of the VmFlags mnemonics it tracks. */
enum vmflag {
	VF_DC = 1 << 0,	/* MADV_DONTFORK */
	VF_DD = 1 << 1,	/* MADV_DONTDUMP */
	VF_WF = 1 << 2,	/* MADV_WIPEONFORK */
	VF_RR = 1 << 3,	/* MADV_RANDOM */
	VF_SR = 1 << 4,	/* MADV_SEQUENTIAL */
	VF_HG = 1 << 5,	/* MADV_HUGEPAGE */
	VF_NH = 1 << 6,	/* MADV_NOHUGEPAGE */
	VF_MG = 1 << 7,	/* MADV_MERGEABLE */
};

struct page {
	bool mapped;
	bool shared;		/* MAP_SHARED|MAP_ANONYMOUS (shmem object) */
	bool maybe_zero;	/* after MADV_FREE: the tag or zero */
	bool uncertain;		/* upstream partial apply: adopt the kernel's view */
	uint8_t prot;
	uint8_t seals;
	bool eperm;		/* FULL: upstream's call added a seal last */
	bool reserved;		/* FULL: a fork child's sealed PROT_NONE stand-in */
	int8_t pkey;
	uint16_t vmflags;
	uint32_t obj;		/* shared: the object, and the page in it */
	uint32_t objoff;
	uint64_t tag;		/* private: the content tag (0 = zero page) */
	uintptr_t vma_start;	/* as smaps last showed it (for mremap) */
};

struct window {
	uintptr_t base;
	size_t npages;
	struct page pages[ARENA_PAGES];
};

struct model {
	enum seal_mode seal;
	struct window win[NWIN];
	uintptr_t brk;		/* the program break the model expects */
	int pkey_a;		/* allocated, write-disabled; -1 without pkeys */
	int pkey_exec;		/* the kernel's execute-only key; -1 if none */
	uint32_t advice_ok;	/* bit per probed advice (0..31) this kernel knows */
};

enum op_kind {
	OP_MMAP, OP_MUNMAP, OP_MPROTECT, OP_PKEY_MPROTECT, OP_MREMAP,
	OP_MADVISE, OP_BRK, OP_MSEAL, OP_FORK, OP_WRITE, NOPS
};

/* Addresses are offsets into a window, so a log replays in a fresh exec. */
struct op {
	uint8_t kind;
	uint8_t win;
	uint8_t new_win_addr;	/* mremap: a[4] is an arena offset (else 0) */
	uint64_t off;		/* start, relative to the window base */
	uint64_t a[4];		/* per kind, see ops.c */
	uint64_t tag;
};

/* What the model expects of one call. */
struct expect {
	long ret;		/* success value (address calls: absolute) */
	int err;		/* 0: success expected */
	int alt_err;		/* a documented second answer, or 0; -1: success
				 * returning .ret that changes nothing */
	bool anywhere;		/* mremap: success at an address outside the windows */
	const char *why;	/* the rule that decided it */
};

enum family { FAM_ERRNO, FAM_LAYOUT, FAM_SEALS, FAM_CONTENT, FAM_FORK, NFAM };

struct stats {
	uint64_t checks[NFAM];
	uint64_t fails[NFAM];
	uint64_t calls, issued, refused, alternates;
	uint64_t per_kind[NOPS];
	char first_fail[NFAM][512];
};

struct options {
	uint64_t seed, calls, check_every, full_every, maps_every;
	enum seal_mode seal;
	const char *model;	/* --model: series or upstream */
	unsigned threads;
	bool no_ddmin, verbose, bad_input, map_count;
	const char *replay;	/* internal: replay a log file */
};

/* rng.c */
uint64_t rng_next(uint64_t *state);
uint64_t rng_below(uint64_t *state, uint64_t n);

/* model.c */
void model_init(struct model *m, enum seal_mode seal, uintptr_t heap_base);
struct page *model_page(struct model *m, int win, size_t idx);
bool page_writable(const struct model *m, const struct page *p);
bool page_readable(const struct model *m, const struct page *p);
uint64_t page_content(const struct model *m, const struct page *p);
void model_predict(struct model *m, const struct op *op, struct expect *ex);
void model_apply(struct model *m, const struct op *op, const struct expect *ex,
		 long ret);
extern struct page model_moved[ARENA_PAGES];
extern size_t model_nmoved;
uint32_t model_new_object(size_t npages);
void model_set_object_tag(uint32_t obj, uint32_t off, uint64_t tag);
uint64_t model_object_tag(uint32_t obj, uint32_t off);

/* gen.c */
void gen_op(struct model *m, uint64_t *rng, uint64_t index, struct op *op);

/* ops.c */
uintptr_t op_addr(const struct model *m, const struct op *op);
long op_issue(struct model *m, const struct op *op, int *err);
void op_describe(const struct model *m, const struct op *op, char *buf, size_t len);

/* observe.c: smaps against the model, content against the tags */

/* How much a check after a call reads: only the call's own pages, those and
 * /proc/self/maps, or smaps (seals, pkeys, VmFlags) and every page. */
enum depth { DEPTH_CONTENT, DEPTH_MAPS, DEPTH_SMAPS };

/* Seconds spent reading maps [DEPTH_MAPS], smaps [DEPTH_SMAPS] and page
 * contents [DEPTH_CONTENT]. */
extern double observe_secs[3];
int observe_check(struct model *m, struct stats *st, uint64_t index);
int observe_check_depth(struct model *m, struct stats *st, uint64_t index, enum depth depth,
			const struct op *op);
int observe_layout(struct model *m, struct stats *st, uint64_t index);
int content_check_range(struct model *m, struct stats *st, uintptr_t addr,
			size_t npages, const struct page *expect, uint64_t index);
int read_tag(uintptr_t addr, bool readable, uint64_t *tag);
int fork_check(struct model *m, struct stats *st, uint64_t index);

/* run.c */
/* Where a random run stopped: the call log and the failing call's index
 * and family, for ddmin to shrink. */
struct run_failure {
	const struct op *log;
	size_t index;
	enum family family;
};

/* 0: every check held; 1: a check failed (*failed says where); 2: setup. */
int run_random(const struct options *o, struct run_failure *failed);
int run_log(const struct options *o, const struct op *log, size_t n,
	    struct stats *st, size_t *fail_index, bool quiet);
int setup_windows(struct model *m, enum seal_mode seal);

/* ddmin.c */
void ddmin_report(const struct options *o, const struct op *log, size_t fail_index,
		  enum family fam);
int replay_main(const struct options *o);

/* race.c, badinput.c */
int run_race(const struct options *o);
int run_bad_input(const struct options *o);

#endif
