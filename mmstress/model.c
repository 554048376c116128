// SPDX-License-Identifier: GPL-2.0
/*
 * model.c - what each call should answer and what it should leave behind.
 *
 * model_predict() runs the call against a copy of the model, following
 * Linux 6.1's own order of checks (mm/mmap.c, mprotect.c, mremap.c,
 * madvise.c) with the seal rules of the 6.1 series (kernel-series/6.1/,
 * docs/man/mseal.2: SEAL_FULL) or of upstream 6.12 (SEAL_UPSTREAM) added
 * where those kernels check them.
 * The copy becomes the model only when the kernel agreed (model_apply).
 *
 * Where the order of two errors is not fixed by the semantics, expect.alt_err
 * names the one other answer accepted, and expect.why says which rule.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "mmstress.h"
#include "sealjit/mseal.h"

#define PA(x) (((x) + PG - 1) & ~(PG - 1))

static struct model pending;
struct page model_moved[ARENA_PAGES];	/* the last move's pages, for "anywhere" */
size_t model_nmoved;
static struct { uint32_t obj, off; } zero_list[ARENA_PAGES];
static size_t nzero;

/* Shared objects: one tag per page, carved from one pool, never freed. */
#define OBJ_POOL (1u << 20)
#define MAX_OBJS (1u << 16)
static uint64_t obj_tags[OBJ_POOL];
static uint32_t obj_first[MAX_OBJS], obj_size[MAX_OBJS];
static uint32_t nobjs = 1, pool_used;

uint32_t model_new_object(size_t npages)
{
	if (nobjs >= MAX_OBJS || pool_used + npages > OBJ_POOL)
		return 0;
	obj_first[nobjs] = pool_used;
	obj_size[nobjs] = (uint32_t)npages;
	memset(&obj_tags[pool_used], 0, npages * sizeof(obj_tags[0]));
	pool_used += (uint32_t)npages;
	return nobjs++;
}

uint32_t model_object_size(uint32_t obj)
{
	return obj_size[obj];
}

uint64_t model_object_tag(uint32_t obj, uint32_t off)
{
	return off < obj_size[obj] ? obj_tags[obj_first[obj] + off] : 0;
}

void model_set_object_tag(uint32_t obj, uint32_t off, uint64_t tag)
{
	if (off < obj_size[obj])
		obj_tags[obj_first[obj] + off] = tag;
}

void model_init(struct model *m, enum seal_mode seal, uintptr_t heap_base)
{
	memset(m, 0, sizeof(*m));
	m->seal = seal;
	m->win[WIN_ARENA].base = ARENA_ADDR + PG;
	m->win[WIN_ARENA].npages = ARENA_PAGES;
	m->win[WIN_HEAP].base = heap_base;
	m->win[WIN_HEAP].npages = HEAP_PAGES;
	m->brk = heap_base;
	m->pkey_a = -1;
	m->pkey_exec = -1;
}

struct page *model_page(struct model *m, int win, size_t idx)
{
	return idx < m->win[win].npages ? &m->win[win].pages[idx] : NULL;
}

bool page_writable(const struct model *m, const struct page *p)
{
	return (p->prot & PROT_WRITE) && p->pkey != m->pkey_a &&
	       (m->pkey_exec < 0 || p->pkey != m->pkey_exec);
}

bool page_readable(const struct model *m, const struct page *p)
{
	return (p->prot & (PROT_READ | PROT_WRITE)) &&
	       (m->pkey_exec < 0 || p->pkey != m->pkey_exec);
}

uint64_t page_content(const struct model *m, const struct page *p)
{
	(void)m;
	return p->shared ? model_object_tag(p->obj, p->objoff) : p->tag;
}

/* ---- helpers over a page range of one window ---- */

struct range {
	struct model *m;
	int win;
	size_t first, n;	/* pages; first + n <= window size */
};

static struct range range_of(struct model *m, int win, uintptr_t addr, size_t len)
{
	struct range r = { m, win, 0, 0 };
	uintptr_t base = m->win[win].base;
	size_t np = m->win[win].npages;

	if (addr < base || addr >= base + np * PG)
		return r;
	r.first = (addr - base) / PG;
	r.n = PA(len) / PG;
	if (r.first + r.n > np)
		r.n = np - r.first;
	return r;
}

static struct page *rp(const struct range *r, size_t i)
{
	return &r->m->win[r->win].pages[r->first + i];
}

static bool is_pin(const struct page *p)
{
	return p->mapped && (p->seals & MSEAL_TYPES_PIN);
}

static bool any_pin(const struct range *r)
{
	for (size_t i = 0; i < r->n; i++)
		if (is_pin(rp(r, i)))
			return true;
	return false;
}

static bool any_mapped(const struct range *r)
{
	for (size_t i = 0; i < r->n; i++)
		if (rp(r, i)->mapped)
			return true;
	return false;
}

static bool all_mapped(const struct range *r)
{
	for (size_t i = 0; i < r->n; i++)
		if (!rp(r, i)->mapped)
			return false;
	return true;
}

/*
 * The error a refusal by P's seals reports: upstream's EPERM on upstream,
 * and on the series for memory that upstream's call, mseal(addr, len, 0),
 * sealed last (6.1 patch 46); EACCES for memory sealed with types.
 */
static int refusal(const struct model *m, const struct page *p)
{
	return m->seal == SEAL_UPSTREAM || p->eperm ? EPERM : EACCES;
}

/* The first page of R that a seal refuses to let go, or NULL. */
static const struct page *first_unmap_refuser(const struct range *r)
{
	for (size_t i = 0; i < r->n; i++) {
		const struct page *p = rp(r, i);

		if (r->m->seal == SEAL_FULL && is_pin(p))
			return p;
		if (r->m->seal == SEAL_UPSTREAM && p->mapped && p->seals)
			return p;
	}
	return NULL;
}

/* Would unmapping R be refused?  FULL: any pin; UPSTREAM: any seal. */
static bool unmap_refused(const struct range *r)
{
	return first_unmap_refuser(r) != NULL;
}

/* The error of the first page of R that refuses the unmap, or 0. */
static int unmap_refusal(const struct range *r)
{
	const struct page *p = first_unmap_refuser(r);

	return p ? refusal(r->m, p) : 0;
}

static void unmap(const struct range *r)
{
	for (size_t i = 0; i < r->n; i++)
		memset(rp(r, i), 0, sizeof(struct page));
}

static void set_err(struct expect *ex, int err, const char *why)
{
	ex->err = err;
	ex->why = why;
}

/* End (exclusive page index) of the VMA holding page IDX, as smaps showed. */
static size_t vma_end_idx(struct model *m, int win, size_t idx)
{
	struct page *pages = m->win[win].pages;
	size_t np = m->win[win].npages, j = idx + 1;

	while (j < np && pages[j].mapped && pages[j].vma_start == pages[idx].vma_start)
		j++;
	return j;
}

/* ---- mmap ---- */

static int mmap_pkey(const struct model *m, unsigned prot)
{
	return prot == PROT_EXEC && m->pkey_exec > 0 ? m->pkey_exec : 0;
}

static void predict_mmap(struct model *m, const struct op *op, struct expect *ex)
{
	uintptr_t addr = m->win[op->win].base + op->off;
	size_t len = op->a[0];
	unsigned prot = (unsigned)op->a[1], flags = (unsigned)op->a[2];
	unsigned type = flags & MAP_TYPE;
	struct range r = range_of(m, op->win, addr, len);
	uint32_t obj = 0;

	if (!len)
		return set_err(ex, EINVAL, "mmap: len 0");
	if (addr & (PG - 1))
		return set_err(ex, EINVAL, "mmap: MAP_FIXED address not page aligned");
	if ((flags & MAP_FIXED_NOREPLACE) && any_mapped(&r)) {
		set_err(ex, EEXIST, "mmap: MAP_FIXED_NOREPLACE over a mapping");
		if (m->seal == SEAL_FULL && any_pin(&r))
			ex->alt_err = EACCES;	/* which check runs first is not fixed */
		return;
	}
	if (type != MAP_PRIVATE && type != MAP_SHARED)
		return set_err(ex, EINVAL, "mmap: neither MAP_PRIVATE nor MAP_SHARED");
	if (unmap_refused(&r))
		return set_err(ex, unmap_refusal(&r), "mmap: MAP_FIXED over a pinned mapping");
	if (type == MAP_SHARED && !(obj = model_new_object(r.n)))
		return set_err(ex, ENOMEM, "mmap: tester's object pool is full");
	ex->ret = (long)addr;
	for (size_t i = 0; i < r.n; i++) {
		struct page *p = rp(&r, i);

		memset(p, 0, sizeof(*p));
		p->mapped = true;
		p->prot = (uint8_t)prot;
		p->shared = type == MAP_SHARED;
		p->obj = obj;
		p->objoff = (uint32_t)i;
		p->pkey = (int8_t)mmap_pkey(m, prot);
	}
}

/* ---- munmap ---- */

static void predict_munmap(struct model *m, const struct op *op, struct expect *ex)
{
	uintptr_t addr = m->win[op->win].base + op->off;
	struct range r = range_of(m, op->win, addr, op->a[0]);

	if ((addr & (PG - 1)) || !op->a[0])
		return set_err(ex, EINVAL, "munmap: unaligned address or len 0");
	if (unmap_refused(&r))
		return set_err(ex, unmap_refusal(&r), "munmap: range holds a pinned mapping");
	unmap(&r);
}

/* ---- mprotect, pkey_mprotect ---- */

static int mprotect_pkey(const struct model *m, const struct page *p,
			 unsigned prot, int pkey)
{
	if (pkey != -1)
		return pkey;
	if (m->pkey_exec < 0)
		return p->pkey;
	if (prot == PROT_EXEC)
		return m->pkey_exec;
	if (p->prot == PROT_EXEC && p->pkey == m->pkey_exec)
		return 0;
	return p->pkey;
}

static bool pkey_allocated(const struct model *m, int pkey)
{
	return pkey == -1 || (m->pkey_a >= 0 && (pkey == 0 || pkey == m->pkey_a ||
						 pkey == m->pkey_exec));
}

static void predict_mprotect(struct model *m, const struct op *op, struct expect *ex)
{
	uintptr_t addr = m->win[op->win].base + op->off;
	size_t len = op->a[0];
	unsigned prot = (unsigned)op->a[1];
	int pkey = op->kind == OP_PKEY_MPROTECT ? (int)(int64_t)op->a[2] : -1;
	struct range r = range_of(m, op->win, addr, len);

	if (addr & (PG - 1))
		return set_err(ex, EINVAL, "mprotect: unaligned address");
	if (!len)
		return;
	if (prot & ~(unsigned)(PROT_READ | PROT_WRITE | PROT_EXEC | 0x8))
		return set_err(ex, EINVAL, "mprotect: unknown prot bit");
	if (!pkey_allocated(m, pkey))
		return set_err(ex, EINVAL, "pkey_mprotect: pkey not allocated");
	/* The kernel finds the first VMA before it looks for seals. */
	if (r.n && !rp(&r, 0)->mapped)
		return set_err(ex, ENOMEM, "mprotect: start unmapped");
	if (m->seal == SEAL_FULL)
		for (size_t i = 0; i < r.n; i++)
			if (rp(&r, i)->mapped && (rp(&r, i)->seals & MM_SEAL_MPROTECT))
				return set_err(ex, refusal(m, rp(&r, i)),
					       "mprotect: MM_SEAL_MPROTECT in range");
	for (size_t i = 0; i < r.n; i++) {
		struct page *p = rp(&r, i);

		if (!p->mapped)
			return set_err(ex, ENOMEM, i ? "mprotect: hole after the start (earlier pages changed)"
						     : "mprotect: start unmapped");
		if (m->seal == SEAL_UPSTREAM && p->seals)
			return set_err(ex, EPERM, "mprotect: sealed VMA (upstream: earlier VMAs changed)");
		p->pkey = (int8_t)mprotect_pkey(m, p, prot, pkey);
		p->prot = (uint8_t)(prot & 7);
	}
}

/* ---- madvise ---- */

static bool destructive(int advice)
{
	return advice == MADV_DONTNEED || advice == 24 /* DONTNEED_LOCKED */ ||
	       advice == MADV_FREE || advice == MADV_REMOVE ||
	       advice == MADV_DONTFORK || advice == MADV_WIPEONFORK;
}

/* Fork advice, which a full seal refuses on any VMA pinned or frozen. */
static bool fork_advice(int advice)
{
	return advice == MADV_DONTFORK || advice == MADV_WIPEONFORK;
}

static bool madvise_refused(const struct model *m, const struct page *p, int advice)
{
	if (m->seal == SEAL_FULL && fork_advice(advice) && p->mapped)
		return p->seals & (MM_SEAL_MPROTECT | MSEAL_TYPES_PIN);
	if (!destructive(advice) || !p->mapped || page_writable(m, p))
		return false;
	/*
	 * A discard leaves a shared page to its object, but MADV_REMOVE empties
	 * the object: the whole series refuses it through a sealed read-only
	 * mapping, shared too (6.1 patch 43); upstream does not.
	 */
	if (p->shared && !(advice == MADV_REMOVE && m->seal == SEAL_FULL))
		return false;
	if (m->seal == SEAL_FULL)
		return p->seals & (MM_SEAL_MPROTECT | MSEAL_TYPES_PIN);
	return m->seal == SEAL_UPSTREAM && p->seals;
}

/* One mapped page under ADVICE: 0, or the error that stops the walk. */
static int advise_page(struct model *m, struct page *p, int advice, uint32_t idx)
{
	(void)idx;
	switch (advice) {
	case MADV_NORMAL: p->vmflags &= ~(VF_RR | VF_SR); return 0;
	case MADV_RANDOM: p->vmflags = (p->vmflags & ~VF_SR) | VF_RR; return 0;
	case MADV_SEQUENTIAL: p->vmflags = (p->vmflags & ~VF_RR) | VF_SR; return 0;
	case MADV_WILLNEED: case MADV_COLD: case MADV_PAGEOUT: return 0;
	case MADV_DONTNEED: case 24:
		if (!p->shared) {
			p->tag = 0;
			p->maybe_zero = false;
		}
		return 0;
	case MADV_FREE:
		if (p->shared)
			return EINVAL;
		p->maybe_zero = p->tag != 0;
		return 0;
	case MADV_REMOVE:
		if (!p->shared)
			return EINVAL;	/* 6.1.y: VM_SHARED|VM_MAYWRITE suffices */
		if (nzero < ARENA_PAGES) {
			zero_list[nzero].obj = p->obj;
			zero_list[nzero++].off = p->objoff;
		}
		return 0;
	case MADV_DONTFORK: p->vmflags |= VF_DC; return 0;
	case MADV_DOFORK: p->vmflags &= ~VF_DC; return 0;
	case MADV_MERGEABLE: if (!p->shared) p->vmflags |= VF_MG; return 0;
	case MADV_UNMERGEABLE: p->vmflags &= ~VF_MG; return 0;
	case MADV_HUGEPAGE: p->vmflags = (p->vmflags & ~VF_NH) | VF_HG; return 0;
	case MADV_NOHUGEPAGE: p->vmflags = (p->vmflags & ~VF_HG) | VF_NH; return 0;
	case MADV_DONTDUMP: p->vmflags |= VF_DD; return 0;
	case MADV_DODUMP: p->vmflags &= ~VF_DD; return 0;
	case MADV_WIPEONFORK:
		if (p->shared)
			return EINVAL;
		p->vmflags |= VF_WF;
		return 0;
	case MADV_KEEPONFORK: p->vmflags &= ~VF_WF; return 0;
	case 22: /* POPULATE_READ */
		return (p->prot & PROT_READ) && page_readable(m, p) ? 0 : EINVAL;
	case 23: /* POPULATE_WRITE */
		return page_writable(m, p) ? 0 : EINVAL;
	}
	return EINVAL;
}

static void predict_madvise(struct model *m, const struct op *op, struct expect *ex)
{
	uintptr_t addr = m->win[op->win].base + op->off;
	size_t len = op->a[0];
	int advice = (int)op->a[1];
	struct range r = range_of(m, op->win, addr, len);
	int hole = 0;

	if (advice < 0 || advice > 31 || !(m->advice_ok & (1u << advice)))
		return set_err(ex, EINVAL, "madvise: advice unknown to this kernel");
	if (addr & (PG - 1))
		return set_err(ex, EINVAL, "madvise: unaligned address");
	if (!len)
		return;
	if (m->seal == SEAL_UPSTREAM && (advice == 22 || advice == 23)) {
		/* 6.11+: populate walks the range itself, a hole ends it */
		for (size_t i = 0; i < r.n; i++) {
			if (!rp(&r, i)->mapped)
				return set_err(ex, ENOMEM, "madvise: populate reached a hole");
			if (advise_page(m, rp(&r, i), advice, (uint32_t)i))
				return set_err(ex, EINVAL, "madvise: populate on a mapping it cannot fault");
		}
	}
	if (m->seal == SEAL_FULL)
		for (size_t i = 0; i < r.n; i++)
			if (madvise_refused(m, rp(&r, i), advice))
				return set_err(ex, refusal(m, rp(&r, i)),
					       "madvise: advice that loses sealed contents, now or in a fork child");
	for (size_t i = 0; i < r.n; i++) {
		struct page *p = rp(&r, i);
		int err;

		if (!p->mapped) {
			hole = ENOMEM;
			continue;
		}
		if (m->seal == SEAL_UPSTREAM && madvise_refused(m, p, advice))
			return set_err(ex, EPERM, "madvise: upstream refuses per VMA (earlier VMAs changed)");
		err = advise_page(m, p, advice, (uint32_t)i);
		if (err)
			return set_err(ex, err, "madvise: advice not valid for this mapping");
	}
	if (hole)
		set_err(ex, ENOMEM, "madvise: hole in range (the rest applied)");
}

/* ---- mseal ---- */

static void predict_mseal_full(struct model *m, const struct op *op, struct expect *ex)
{
	uintptr_t addr = m->win[op->win].base + op->off;
	size_t len = op->a[0];
	unsigned types = (unsigned)op->a[1], flags = (unsigned)op->a[2];
	struct range r = range_of(m, op->win, addr, len);
	bool upstream_call;

	if (types && flags)
		return set_err(ex, EINVAL, "mseal: flags != 0 with types != 0");
	if (types & ~(unsigned)MM_SEAL_ALL)
		return set_err(ex, EINVAL, "mseal: unknown type bit");
	upstream_call = !types;
	if (upstream_call)
		types = MM_SEAL_ALL;
	if (addr & (PG - 1))
		return set_err(ex, EINVAL, "mseal: unaligned address");
	if ((len && !PA(len)) || addr + PA(len) < addr)
		return set_err(ex, EINVAL, "mseal: len wraps when rounded");
	if (!len)
		return;
	/* The kernel walks the range in order: the first problem answers. */
	for (size_t i = 0; i < r.n; i++) {
		struct page *p = rp(&r, i);

		if (!p->mapped)
			return set_err(ex, ENOMEM, "mseal: unmapped page in range");
		if ((p->seals & MM_SEAL_MSEAL) && (types & ~p->seals))
			return set_err(ex, EACCES, "mseal: adding a type under MM_SEAL_MSEAL");
	}
	/* Only where a seal is added; the call that adds one decides the errno. */
	for (size_t i = 0; i < r.n; i++) {
		struct page *p = rp(&r, i);

		if (!(types & ~p->seals))
			continue;
		p->seals |= (uint8_t)types;
		p->eperm = upstream_call;
	}
}

static void predict_mseal_upstream(struct model *m, const struct op *op, struct expect *ex)
{
	uintptr_t addr = m->win[op->win].base + op->off;
	size_t len = op->a[0];
	struct range r = range_of(m, op->win, addr, len);

	if (op->a[1])
		return set_err(ex, EINVAL, "mseal: upstream flags != 0");
	if (addr & (PG - 1))
		return set_err(ex, EINVAL, "mseal: unaligned address");
	if ((len && !PA(len)) || addr + PA(len) < addr)
		return set_err(ex, EINVAL, "mseal: len wraps when rounded (6.12.y)");
	if (!len)
		return;
	if (!all_mapped(&r))
		return set_err(ex, ENOMEM, "mseal: unmapped page in range");
	for (size_t i = 0; i < r.n; i++)
		rp(&r, i)->seals = MM_SEAL_ALL;
}

/* ---- brk ---- */

static void predict_brk(struct model *m, const struct op *op, struct expect *ex)
{
	uintptr_t base = m->win[WIN_HEAP].base, want = base + op->a[0];
	uintptr_t newp = PA(want), oldp = PA(m->brk);
	struct range r;

	ex->ret = (long)m->brk;	/* brk answers the old break when it refuses */
	ex->why = "brk";
	if (newp == oldp)
		goto done;
	if (want <= m->brk) {
		r = range_of(m, WIN_HEAP, newp, oldp - newp);
		if (!any_mapped(&r)) {
			ex->why = "brk: nothing mapped below the old break";
			return;
		}
		if (unmap_refused(&r)) {
			ex->why = "brk: shrinking into a pinned page";
			return;
		}
		unmap(&r);
		goto done;
	}
	r = range_of(m, WIN_HEAP, oldp, newp - oldp);
	if (any_mapped(&r))
		return;
	for (size_t i = 0; i < r.n; i++) {
		struct page *p = rp(&r, i);

		memset(p, 0, sizeof(*p));
		p->mapped = true;
		p->prot = PROT_READ | PROT_WRITE;
	}
done:
	m->brk = want;
	ex->ret = (long)want;
}

/* ---- mremap ---- */

struct mremap_args {
	uintptr_t addr, naddr;
	size_t olen, nlen;
	unsigned flags;
};

static bool range_free(struct model *m, int win, uintptr_t addr, size_t len)
{
	uintptr_t base = m->win[win].base;
	struct range r;

	if (addr < base || addr + len > base + m->win[win].npages * PG)
		return false;
	r = range_of(m, win, addr, len);
	return !any_mapped(&r);
}

/* Moves (or with DONTUNMAP, copies) the source pages to NEW_ADDR. */
static void move_pages(struct model *m, int win, const struct mremap_args *a,
		       size_t olen, uintptr_t new_addr, bool inside)
{
	struct range src = range_of(m, win, a->addr, olen);
	struct page moved[ARENA_PAGES], proto = *rp(&src, 0);
	size_t nn = a->nlen / PG;

	memcpy(moved, rp(&src, 0), src.n * sizeof(struct page));
	for (size_t i = 0; i < src.n; i++) {
		struct page *p = rp(&src, i);

		if (!(a->flags & MREMAP_DONTUNMAP))
			memset(p, 0, sizeof(*p));
		else if (!p->shared) {
			p->tag = 0;
			p->maybe_zero = false;
		}
	}
	model_nmoved = 0;
	for (size_t i = 0; i < nn && i < ARENA_PAGES; i++, model_nmoved++) {
		model_moved[i] = i < src.n ? moved[i] : proto;
		if (i >= src.n) {
			model_moved[i].tag = 0;
			model_moved[i].maybe_zero = false;
			model_moved[i].objoff = proto.objoff + (uint32_t)i;
		}
	}
	if (!inside)
		return;
	struct range dst = range_of(m, WIN_ARENA, new_addr, a->nlen);
	for (size_t i = 0; i < nn && i < dst.n; i++) {
		struct page *p = rp(&dst, i);

		if (i < src.n) {
			*p = moved[i];
		} else {
			*p = proto;
			p->tag = 0;
			p->maybe_zero = false;
			p->objoff = proto.objoff + (uint32_t)i;
		}
	}
}

static void mremap_to(struct model *m, int win, struct mremap_args *a, struct expect *ex)
{
	bool fixed = a->flags & MREMAP_FIXED;
	struct range tgt, tail;
	size_t idx, vend;

	if (a->naddr & (PG - 1))
		return set_err(ex, EINVAL, "mremap: new address not page aligned");
	if (a->addr + a->olen > a->naddr && a->naddr + a->nlen > a->addr)
		return set_err(ex, EINVAL, "mremap: old and new ranges overlap");
	/* A full seal decides before the target or the tail is unmapped. */
	if (m->seal == SEAL_FULL) {
		struct range old = range_of(m, win, a->addr, a->olen);

		tgt = range_of(m, WIN_ARENA, a->naddr, a->nlen);
		if (any_pin(&old))
			return set_err(ex, unmap_refusal(&old), "mremap: a pinned VMA in the old range");
		if (fixed && any_pin(&tgt))
			return set_err(ex, unmap_refusal(&tgt), "mremap: a pinned VMA in the target");
	}
	if (fixed) {
		tgt = range_of(m, WIN_ARENA, a->naddr, a->nlen);
		if (unmap_refused(&tgt))
			return set_err(ex, unmap_refusal(&tgt), "mremap: MREMAP_FIXED target pinned");
		unmap(&tgt);
	}
	if (a->olen > a->nlen) {
		tail = range_of(m, win, a->addr + a->nlen, a->olen - a->nlen);
		if (unmap_refused(&tail))
			return set_err(ex, unmap_refusal(&tail), "mremap: shrinking tail pinned (upstream: target already unmapped)");
		unmap(&tail);
		a->olen = a->nlen;
	}
	idx = (a->addr - m->win[win].base) / PG;
	if (!m->win[win].pages[idx].mapped)
		return set_err(ex, EFAULT, "mremap: the target unmap took the old address");
	vend = vma_end_idx(m, win, idx);
	if (!a->olen && !m->win[win].pages[idx].shared)
		return set_err(ex, EINVAL, "mremap: old_len 0 of a private mapping");
	if (a->olen > (vend - idx) * PG)
		return set_err(ex, EFAULT, "mremap: old range crosses a VMA boundary");
	if (fixed || range_free(m, WIN_ARENA, a->naddr, a->nlen)) {
		ex->ret = (long)a->naddr;
		move_pages(m, win, a, a->olen, a->naddr, true);
	} else {
		ex->anywhere = true;
		move_pages(m, win, a, a->olen, 0, false);
	}
	ex->why = "mremap: moved";
}

static void mremap_grow(struct model *m, int win, struct mremap_args *a, struct expect *ex)
{
	size_t idx = (a->addr - m->win[win].base) / PG;
	size_t vend = vma_end_idx(m, win, idx);
	struct page *p = &m->win[win].pages[idx];
	uintptr_t vma_end = m->win[win].base + vend * PG;

	if (!a->olen && !p->shared)
		return set_err(ex, EINVAL, "mremap: old_len 0 of a private mapping");
	if (a->olen > vma_end - a->addr)
		return set_err(ex, EFAULT, "mremap: old range crosses a VMA boundary");
	if (a->olen == vma_end - a->addr &&
	    range_free(m, win, vma_end, a->nlen - a->olen)) {
		struct range ext = range_of(m, win, vma_end, a->nlen - a->olen);
		struct page proto = m->win[win].pages[vend - 1];

		for (size_t i = 0; i < ext.n; i++) {
			*rp(&ext, i) = proto;
			rp(&ext, i)->tag = 0;
			rp(&ext, i)->maybe_zero = false;
		}
		ex->ret = (long)a->addr;
		ex->why = "mremap: grown in place";
		return;
	}
	if (!(a->flags & MREMAP_MAYMOVE))
		return set_err(ex, ENOMEM, "mremap: cannot grow in place, no MREMAP_MAYMOVE");
	ex->anywhere = true;
	ex->why = "mremap: moved anywhere";
	move_pages(m, win, a, a->olen, 0, false);
}

static void predict_mremap(struct model *m, const struct op *op, struct expect *ex)
{
	int win = op->win;
	struct mremap_args a = {
		.addr = m->win[win].base + op->off,
		.olen = op->a[0], .nlen = op->a[1], .flags = (unsigned)op->a[2],
		.naddr = op->new_win_addr ? m->win[WIN_ARENA].base + op->a[3] : op->a[3],
	};
	unsigned known = MREMAP_FIXED | MREMAP_MAYMOVE | MREMAP_DONTUNMAP;
	size_t idx;

	if ((a.flags & ~known) || ((a.flags & MREMAP_FIXED) && !(a.flags & MREMAP_MAYMOVE)) ||
	    ((a.flags & MREMAP_DONTUNMAP) &&
	     (!(a.flags & MREMAP_MAYMOVE) || a.olen != a.nlen)))
		return set_err(ex, EINVAL, "mremap: flags");
	if ((a.addr & (PG - 1)))
		return set_err(ex, EINVAL, "mremap: unaligned address");
	a.olen = PA(a.olen);
	a.nlen = PA(a.nlen);
	if (!a.nlen)
		return set_err(ex, EINVAL, "mremap: new_len 0");
	idx = (a.addr - m->win[win].base) / PG;
	/*
	 * The kernel looks the old address up first (EFAULT), then refuses
	 * if that VMA is pinned; a pinned MREMAP_FIXED target or shrinking
	 * tail is refused by the unmap that would remove it (mremap_to(),
	 * the shrink below).
	 */
	if (!m->win[win].pages[idx].mapped)
		return set_err(ex, EFAULT, "mremap: old address unmapped");
	if (m->seal == SEAL_FULL && is_pin(&m->win[win].pages[idx]))
		return set_err(ex, refusal(m, &m->win[win].pages[idx]),
			       "mremap: the VMA at the old address is pinned");
	if (m->seal == SEAL_UPSTREAM && m->win[win].pages[idx].seals)
		return set_err(ex, EPERM, "mremap: upstream: the VMA at old address is sealed");
	if (a.flags & (MREMAP_FIXED | MREMAP_DONTUNMAP))
		return mremap_to(m, win, &a, ex);
	if (a.olen >= a.nlen) {
		struct range tail = range_of(m, win, a.addr + a.nlen, a.olen - a.nlen);

		if (a.olen != a.nlen && unmap_refused(&tail))
			return set_err(ex, unmap_refusal(&tail), "mremap: shrinking tail sealed");
		unmap(&tail);
		ex->ret = (long)a.addr;
		ex->why = "mremap: shrunk in place";
		return;
	}
	mremap_grow(m, win, &a, ex);
}

/* ---- entry points ---- */

void model_predict(struct model *m, const struct op *op, struct expect *ex)
{
	memset(ex, 0, sizeof(*ex));
	pending = *m;
	nzero = 0;
	switch (op->kind) {
	case OP_MMAP: predict_mmap(&pending, op, ex); break;
	case OP_MUNMAP: predict_munmap(&pending, op, ex); break;
	case OP_MPROTECT:
	case OP_PKEY_MPROTECT: predict_mprotect(&pending, op, ex); break;
	case OP_MREMAP: predict_mremap(&pending, op, ex); break;
	case OP_MADVISE: predict_madvise(&pending, op, ex); break;
	case OP_BRK: predict_brk(&pending, op, ex); break;
	case OP_MSEAL:
		if (m->seal == SEAL_FULL)
			predict_mseal_full(&pending, op, ex);
		else if (m->seal == SEAL_UPSTREAM)
			predict_mseal_upstream(&pending, op, ex);
		break;
	default: break;
	}
	if (!ex->why)
		ex->why = "success";
}

/*
 * Commit the prediction: the state the call's own walk left, so a seal
 * refusal (which returns before touching anything) changes nothing, and
 * vanilla's partial applies (mprotect and madvise stopping at a hole or a
 * bad VMA, mremap_to unmapping its target first) are kept as the kernel
 * keeps them.
 */
void model_apply(struct model *m, const struct op *op, const struct expect *ex, long ret)
{
	(void)op;
	(void)ex;
	(void)ret;
	*m = pending;
	for (size_t i = 0; i < nzero; i++)
		model_set_object_tag(zero_list[i].obj, zero_list[i].off, 0);
}
