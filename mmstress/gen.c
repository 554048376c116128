// SPDX-License-Identifier: GPL-2.0
/*
 * gen.c - draws the next call.  Ranges start at random pages or right at
 * the edges between differently mapped, sealed or protected pages, so they
 * straddle sealed, unsealed and unmapped memory; a few percent of each kind
 * carry a bad argument (unaligned, zero, unknown bit, wrapping length).
 *
 * The generator only restricts what the model cannot predict: no
 * MADV_COLLAPSE (its answer depends on THP availability and alignment), no
 * MADV_HWPOISON/SOFT_OFFLINE (they poison the page), and no growth of a
 * MAP_SHARED mapping past its object (the new pages would SIGBUS).
 */
#include <sys/mman.h>

#include "mmstress.h"
#include "sealjit/mseal.h"

uint32_t model_object_size(uint32_t obj);

static const uint8_t weights[NOPS] = {
	[OP_MMAP] = 14, [OP_MUNMAP] = 7, [OP_MPROTECT] = 12,
	[OP_PKEY_MPROTECT] = 4, [OP_MREMAP] = 14, [OP_MADVISE] = 14,
	[OP_BRK] = 4, [OP_MSEAL] = 14, [OP_FORK] = 0, [OP_WRITE] = 10,
};
unsigned gen_fork_per_mille = 2;

static const uint8_t advices[] = {
	0, 1, 2, 3, 4, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
	22, 23, 24,
};
static const uint8_t bad_advices[] = { 5, 6, 7, 26, 27, 30 };

static bool chance(uint64_t *rng, unsigned percent)
{
	return rng_below(rng, 100) < percent;
}

static bool same_kind(const struct page *a, const struct page *b)
{
	return a->mapped == b->mapped && a->seals == b->seals && a->prot == b->prot &&
	       a->shared == b->shared;
}

/* A start page: uniform, mapped, or at an edge between unlike pages. */
static size_t pick_start(struct model *m, uint64_t *rng, int win)
{
	size_t np = m->win[win].npages, p = rng_below(rng, np);
	struct page *pages = m->win[win].pages;
	uint64_t how = rng_below(rng, 10);

	if (how < 4)
		return p;
	if (how < 7) {
		for (size_t i = 0; i < np; i++)
			if (pages[(p + i) % np].mapped)
				return (p + i) % np;
		return p;
	}
	for (size_t i = p + 1; i < np; i++)
		if (!same_kind(&pages[i], &pages[i - 1]))
			return i - rng_below(rng, 2);
	return p;
}

static void pick_range(struct model *m, uint64_t *rng, struct op *op, int win)
{
	size_t np = m->win[win].npages, s = pick_start(m, rng, win);
	size_t n = 1 + rng_below(rng, MAX_RANGE_PAGES);

	if (s + n > np)
		n = np - s;
	op->win = (uint8_t)win;
	op->off = s * PG;
	op->a[0] = n * PG;
}

static unsigned pick_prot(uint64_t *rng)
{
	static const uint8_t prots[] = {
		PROT_NONE, PROT_READ, PROT_READ | PROT_WRITE, PROT_READ | PROT_EXEC,
		PROT_EXEC, PROT_WRITE, PROT_READ | PROT_WRITE | PROT_EXEC,
		PROT_READ | PROT_WRITE,
	};
	return prots[rng_below(rng, sizeof(prots))];
}

static void gen_mmap(struct model *m, uint64_t *rng, struct op *op)
{
	pick_range(m, rng, op, WIN_ARENA);
	op->a[1] = pick_prot(rng);
	op->a[2] = (chance(rng, 25) ? MAP_SHARED : MAP_PRIVATE) | MAP_ANONYMOUS |
		   (chance(rng, 15) ? MAP_FIXED_NOREPLACE : MAP_FIXED);
	if (chance(rng, 2))
		op->a[0] = 0;
	else if (chance(rng, 2))
		op->off += 1 + rng_below(rng, PG - 1);
	else if (chance(rng, 2))
		op->a[2] = MAP_ANONYMOUS | MAP_FIXED;	/* no type */
}

static void gen_mprotect(struct model *m, uint64_t *rng, struct op *op, bool pkey)
{
	pick_range(m, rng, op, chance(rng, 20) ? WIN_HEAP : WIN_ARENA);
	op->a[1] = pick_prot(rng);
	if (pkey) {
		int64_t keys[4] = { -1, 0, m->pkey_a >= 0 ? m->pkey_a : -1, 15 };

		op->a[2] = (uint64_t)keys[rng_below(rng, 4)];
	}
	if (chance(rng, 3))
		op->off += 1 + rng_below(rng, PG - 1);
	else if (chance(rng, 2))
		op->a[0] = 0;
	else if (chance(rng, 2))
		op->a[1] |= 0x20;
}

static void gen_madvise(struct model *m, uint64_t *rng, struct op *op)
{
	pick_range(m, rng, op, chance(rng, 20) ? WIN_HEAP : WIN_ARENA);
	op->a[1] = advices[rng_below(rng, sizeof(advices))];
	if (chance(rng, 3))
		op->a[1] = bad_advices[rng_below(rng, sizeof(bad_advices))];
	else if (chance(rng, 2))
		op->off += 1 + rng_below(rng, PG - 1);
	else if (chance(rng, 2))
		op->a[0] = 0;
}

static void gen_mseal(struct model *m, uint64_t *rng, struct op *op)
{
	pick_range(m, rng, op, chance(rng, 20) ? WIN_HEAP : WIN_ARENA);
	if (m->seal == SEAL_UPSTREAM) {
		op->a[1] = chance(rng, 5) ? 1u << rng_below(rng, 32) : 0;
	} else if (chance(rng, 15)) {
		op->a[1] = 0;
		op->a[2] = chance(rng, 30) ? 1u << rng_below(rng, 32) : 0;
	} else {
		op->a[1] = 1 + rng_below(rng, MM_SEAL_ALL);
		if (chance(rng, 4))
			op->a[1] |= 1u << (5 + rng_below(rng, 27));
		else if (chance(rng, 4))
			op->a[2] = 1u << rng_below(rng, 32);
	}
	if (chance(rng, 3))
		op->off += 1 + rng_below(rng, PG - 1);
	else if (chance(rng, 2))
		op->a[0] = 0;
	else if (chance(rng, 1))
		op->a[0] = ~0UL;
}

static void gen_brk(struct model *m, uint64_t *rng, struct op *op)
{
	int64_t cur = (int64_t)(m->brk - m->win[WIN_HEAP].base);
	int64_t want = cur + ((int64_t)rng_below(rng, 9) - 4) * (int64_t)PG;
	int64_t top = (HEAP_PAGES - 1) * (int64_t)PG;

	if (chance(rng, 10))
		want += (int64_t)rng_below(rng, PG);
	if (want < 0)
		want = 0;
	if (want > top)
		want = top;
	op->win = WIN_HEAP;
	op->a[0] = (uint64_t)want;
}

/* Old and new lengths and flags for one of the forms of mremap. */
static void gen_mremap_form(uint64_t *rng, struct op *op,
			    const struct page *src)
{
	size_t olen = op->a[0] / PG, nlen = olen, form = rng_below(rng, 10);
	unsigned flags = 0;

	if (form < 2) {
		nlen = 1 + rng_below(rng, olen);
		flags = chance(rng, 50) ? MREMAP_MAYMOVE : 0;
	} else if (form < 4) {
		nlen = olen + 1 + rng_below(rng, 6);
		flags = chance(rng, 60) ? MREMAP_MAYMOVE : 0;
	} else if (form < 6) {
		long delta = (long)rng_below(rng, 5) - 2;

		flags = MREMAP_MAYMOVE | MREMAP_FIXED;
		nlen = (long)olen + delta < 1 ? 1 : (size_t)((long)olen + delta);
	} else if (form < 8) {
		flags = MREMAP_MAYMOVE | MREMAP_DONTUNMAP |
			(chance(rng, 50) ? MREMAP_FIXED : 0);
	} else {
		olen = 0;
		nlen = 1 + rng_below(rng, 4);
		flags = MREMAP_MAYMOVE | (chance(rng, 50) ? MREMAP_FIXED : 0);
		if (src->mapped && src->shared &&
		    nlen > model_object_size(src->obj) - src->objoff)
			nlen = model_object_size(src->obj) - src->objoff;
	}
	if (nlen < 1)
		nlen = 1;
	if (src->shared && olen && nlen > olen)
		nlen = olen;
	op->a[0] = olen * PG;
	op->a[1] = nlen * PG;
	op->a[2] = flags;
	op->new_win_addr = 1;
	op->a[3] = rng_below(rng, ARENA_PAGES - nlen + 1) * PG;
}

static void gen_mremap(struct model *m, uint64_t *rng, struct op *op)
{
	const struct page *src;

	pick_range(m, rng, op, WIN_ARENA);
	if (op->a[0] > 8 * PG)
		op->a[0] = 8 * PG;
	src = &m->win[WIN_ARENA].pages[op->off / PG];
	gen_mremap_form(rng, op, src);
	if (!chance(rng, 6))
		return;
	switch (rng_below(rng, 6)) {
	case 0: op->a[2] |= 8; break;
	case 1: op->a[2] = MREMAP_FIXED; break;
	case 2: op->a[2] = MREMAP_MAYMOVE | MREMAP_DONTUNMAP; op->a[1] += PG; break;
	case 3: op->off += 1 + rng_below(rng, PG - 1); break;
	case 4: op->a[1] = 0; break;
	default: op->a[2] |= MREMAP_MAYMOVE | MREMAP_FIXED; op->a[3] += 5; break;
	}
}

static enum op_kind pick_kind(uint64_t *rng)
{
	unsigned total = 0, r;

	if (rng_below(rng, 1000) < gen_fork_per_mille)
		return OP_FORK;
	for (int k = 0; k < NOPS; k++)
		total += weights[k];
	r = (unsigned)rng_below(rng, total);
	for (int k = 0; k < NOPS; k++) {
		if (r < weights[k])
			return (enum op_kind)k;
		r -= weights[k];
	}
	return OP_WRITE;
}

void gen_op(struct model *m, uint64_t *rng, uint64_t index, struct op *op)
{
	*op = (struct op){ .kind = (uint8_t)pick_kind(rng) };
	switch (op->kind) {
	case OP_MMAP: gen_mmap(m, rng, op); break;
	case OP_MUNMAP:
		pick_range(m, rng, op, WIN_ARENA);
		if (chance(rng, 3))
			op->off += 1 + rng_below(rng, PG - 1);
		else if (chance(rng, 2))
			op->a[0] = 0;
		break;
	case OP_MPROTECT: gen_mprotect(m, rng, op, false); break;
	case OP_PKEY_MPROTECT: gen_mprotect(m, rng, op, true); break;
	case OP_MREMAP: gen_mremap(m, rng, op); break;
	case OP_MADVISE: gen_madvise(m, rng, op); break;
	case OP_BRK: gen_brk(m, rng, op); break;
	case OP_MSEAL: gen_mseal(m, rng, op); break;
	case OP_WRITE:
		pick_range(m, rng, op, chance(rng, 20) ? WIN_HEAP : WIN_ARENA);
		op->tag = (rng_next(rng) ^ index) | 1;
		break;
	default: break;
	}
}
