// SPDX-License-Identifier: GPL-2.0
/*
 * observe.c - what the kernel shows, against the model: /proc/self/smaps
 * for every page of both windows (mapped, permissions, shared, protection
 * key, the VmFlags the model tracks, the seals), and each mapped page's
 * content tag (read directly, or through /proc/self/mem where the page is
 * not readable).  A fork child checks its own view the same way.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mmstress.h"
#include "sealjit/smaps.h"

struct seen {
	bool mapped, shared, sl;
	uint8_t prot, seals;
	int pkey;
	uint16_t vmflags;
	uintptr_t vma_start;
};

static char smaps_buf[1 << 20];
static struct seen seen[NWIN][ARENA_PAGES];
static int mem_fd = -1;

void observe_reset_mem(void)
{
	if (mem_fd >= 0)
		close(mem_fd);
	mem_fd = open("/proc/self/mem", O_RDONLY | O_CLOEXEC);
}

/* The VmFlags mnemonics the model tracks (sl is the reader's). */
static void vm_flags(const char *s, struct seen *v)
{
	static const struct { char name[3]; uint16_t bit; } names[] = {
		{ "dc", VF_DC }, { "dd", VF_DD }, { "wf", VF_WF }, { "rr", VF_RR },
		{ "sr", VF_SR }, { "hg", VF_HG }, { "nh", VF_NH }, { "mg", VF_MG },
	};
	for (; *s && *s != '\n'; s++) {
		if (s[0] == ' ' || !s[1] || s[1] == ' ' || s[1] == '\n')
			continue;
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (s[0] == names[i].name[0] && s[1] == names[i].name[1] &&
			    (s[2] == ' ' || s[2] == '\n'))
				v->vmflags |= names[i].bit;
		s++;
	}
}

/* Spread one VMA's attributes over the window pages it covers. */
static void spread(const struct model *m, uintptr_t start, uintptr_t end,
		   const struct seen *v)
{
	for (int w = 0; w < NWIN; w++) {
		uintptr_t base = m->win[w].base, top = base + m->win[w].npages * PG;
		uintptr_t a = start > base ? start : base, b = end < top ? end : top;

		for (; a < b; a += PG) {
			seen[w][(a - base) / PG] = *v;
			seen[w][(a - base) / PG].vma_start = start;
		}
	}
}

/* LIGHT: /proc/self/maps only (no page walk): mapped, prot, shared.
 * Read by sealjit/smaps.h, into a buffer of this file's: no stdio. */
static int parse_smaps(const struct model *m, bool light)
{
	struct smaps_mapping map;
	const char *at = smaps_buf;

	memset(seen, 0, sizeof(seen));
	if (!smaps_read(light ? "/proc/self/maps" : "/proc/self/smaps", smaps_buf, sizeof(smaps_buf)))
		return -1;
	while (smaps_next(&at, &map)) {
		struct seen v = { .mapped = true, .shared = map.perms[3] == 's',
				  .pkey = map.pkey < 0 ? 0 : map.pkey, .seals = (uint8_t)map.seals,
				  .sl = map.sl };

		v.prot = (map.perms[0] == 'r' ? PROT_READ : 0) | (map.perms[1] == 'w' ? PROT_WRITE : 0) |
			 (map.perms[2] == 'x' ? PROT_EXEC : 0);
		if (map.vmflags_line)
			vm_flags(map.vmflags_line + 8, &v);
		spread(m, map.start, map.end, &v);
	}
	return 0;
}

static uint8_t expected_seals(const struct model *m, const struct page *p)
{
	return m->seal == SEAL_NONE ? 0 : p->seals;
}

static uint8_t seen_seals(const struct model *m, const struct seen *v)
{
	if (m->seal == SEAL_UPSTREAM)
		return v->sl ? MM_SEAL_ALL : 0;
	return v->seals;
}

static void fail(struct stats *st, enum family f, uint64_t index, const char *fmt,
		 const char *what, int w, size_t i, long want, long got)
{
	st->fails[f]++;
	if (st->first_fail[f][0])
		return;
	snprintf(st->first_fail[f], sizeof(st->first_fail[f]),
		 "call %llu: %s page %zu: %s: model %#lx, kernel %#lx%s",
		 (unsigned long long)index, w == WIN_HEAP ? "heap" : "arena", i, what,
		 want, got, fmt);
}

/* Compare one page; returns the number of mismatches. */
static int compare_page(struct model *m, struct stats *st, uint64_t index, int w,
			size_t i, bool light)
{
	struct page *p = &m->win[w].pages[i];
	const struct seen *v = &seen[w][i];
	int bad = 0;

	if (p->uncertain) {
		p->mapped = v->mapped;
		p->prot = v->prot;
		p->seals = seen_seals(m, v);
		p->uncertain = false;
	}
	p->vma_start = v->vma_start;
	if (p->mapped != v->mapped) {
		fail(st, FAM_LAYOUT, index, "", "mapped", w, i, p->mapped, v->mapped);
		return 1;
	}
	if (!p->mapped)
		return 0;
	if (p->prot != v->prot)
		bad++, fail(st, FAM_LAYOUT, index, "", "prot", w, i, p->prot, v->prot);
	if (p->shared != v->shared)
		bad++, fail(st, FAM_LAYOUT, index, "", "shared", w, i, p->shared, v->shared);
	if (light)
		return bad;
	if (m->pkey_a >= 0 && p->pkey != v->pkey)
		bad++, fail(st, FAM_LAYOUT, index, "", "pkey", w, i, p->pkey, v->pkey);
	if (p->vmflags != v->vmflags)
		bad++, fail(st, FAM_LAYOUT, index, " (VmFlags bits dc dd wf rr sr hg nh mg)",
			    "vmflags", w, i, p->vmflags, v->vmflags);
	if (expected_seals(m, p) != seen_seals(m, v) ||
	    (m->seal == SEAL_FULL && v->sl != (v->seals != 0)))
		bad++, fail(st, FAM_SEALS, index, v->sl ? " (sl set)" : " (no sl)", "seals",
			    w, i, expected_seals(m, p), seen_seals(m, v));
	return bad;
}

int observe_layout_light(struct model *m, struct stats *st, uint64_t index, bool light)
{
	int bad = 0;

	st->checks[FAM_LAYOUT]++;
	if (!light)
		st->checks[FAM_SEALS]++;
	if (parse_smaps(m, light)) {
		fail(st, FAM_LAYOUT, index, "", "cannot read /proc/self/smaps", 0, 0, 0, 0);
		return 1;
	}
	for (int w = 0; w < NWIN; w++)
		for (size_t i = 0; i < m->win[w].npages; i++)
			bad += compare_page(m, st, index, w, i, light);
	return bad;
}

int observe_layout(struct model *m, struct stats *st, uint64_t index)
{
	return observe_layout_light(m, st, index, false);
}

int read_tag(uintptr_t addr, bool readable, uint64_t *tag)
{
	uint64_t a, b;

	if (readable) {
		a = ((volatile uint64_t *)addr)[0];
		b = ((volatile uint64_t *)addr)[PG / 8 - 1];
	} else if (mem_fd < 0 ||
		   pread(mem_fd, &a, 8, (off_t)addr) != 8 ||
		   pread(mem_fd, &b, 8, (off_t)(addr + PG - 8)) != 8) {
		return -1;
	}
	*tag = a == b ? a : ~0ULL;
	return 0;
}

/* Check NPAGES pages at ADDR hold what EXPECT (model pages) says. */
int content_check_range(struct model *m, struct stats *st, uintptr_t addr,
			size_t npages, const struct page *expect, uint64_t index)
{
	int bad = 0;

	for (size_t i = 0; i < npages; i++) {
		const struct page *p = &expect[i];
		uint64_t want = page_content(m, p), got;

		if (!p->mapped)
			continue;
		/* A reservation: not even /proc/self/mem may read it. */
		if (p->reserved && read_tag(addr + i * PG, false, &got))
			continue;
		if (p->reserved) {
			want = ~0ULL - 1;
		} else if (read_tag(addr + i * PG, page_readable(m, p), &got)) {
			got = ~0ULL - 1;
		} else if (got == want || (p->maybe_zero && got == 0)) {
			continue;
		}
		bad++;
		st->fails[FAM_CONTENT]++;
		if (!st->first_fail[FAM_CONTENT][0])
			snprintf(st->first_fail[FAM_CONTENT], sizeof(st->first_fail[0]),
				 "call %llu: page at %#lx: content tag: model %#llx, kernel %#llx",
				 (unsigned long long)index, (unsigned long)(addr + i * PG),
				 (unsigned long long)want, (unsigned long long)got);
	}
	return bad;
}

static int observe_content(struct model *m, struct stats *st, uint64_t index)
{
	int bad = 0;

	st->checks[FAM_CONTENT]++;
	for (int w = 0; w < NWIN; w++) {
		struct window *win = &m->win[w];

		bad += content_check_range(m, st, win->base, win->npages, win->pages, index);
		/* A lazily freed page stays freeable until written: once seen
		 * zero it stays zero, until then it is either.  A full seal
		 * keeps it: seen whole under one, it stays whole. */
		for (size_t i = 0; i < win->npages; i++) {
			struct page *p = &win->pages[i];
			uint64_t got;

			if (!p->mapped || !p->maybe_zero || p->shared ||
			    read_tag(win->base + i * PG, page_readable(m, p), &got))
				continue;
			if (!got)
				p->tag = 0, p->maybe_zero = false;
			else if (m->seal == SEAL_FULL && (p->seals & (MM_SEAL_MPROTECT | MSEAL_TYPES_PIN)))
				p->maybe_zero = false;
		}
	}
	return bad;
}

double observe_secs[3];

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The content of the pages OP named (and an mremap's target). */
static int content_of_op(struct model *m, struct stats *st, const struct op *op,
			 uint64_t index)
{
	struct window *w = &m->win[op->win];
	size_t first = op->off / PG, n = (op->a[0] + PG - 1) / PG;
	int bad = 0;

	st->checks[FAM_CONTENT]++;
	if (op->kind == OP_BRK)
		first = 0, n = w->npages;
	if (first < w->npages) {
		n = first + n > w->npages ? w->npages - first : n;
		bad += content_check_range(m, st, w->base + first * PG, n, &w->pages[first], index);
	}
	if (op->kind == OP_MREMAP && op->new_win_addr) {
		w = &m->win[WIN_ARENA];
		first = op->a[3] / PG;
		n = (op->a[1] + PG - 1) / PG;
		if (first < w->npages) {
			n = first + n > w->npages ? w->npages - first : n;
			bad += content_check_range(m, st, w->base + first * PG, n,
						   &w->pages[first], index);
		}
	}
	return bad;
}

/*
 * DEPTH_CONTENT reads the call's own pages; DEPTH_MAPS also
 * /proc/self/maps; DEPTH_SMAPS reads smaps (seals, pkeys, VmFlags) and every
 * page's content.
 */
int observe_check_depth(struct model *m, struct stats *st, uint64_t index, enum depth depth,
			const struct op *op)
{
	double t0 = now(), t1;
	int bad = depth == DEPTH_CONTENT ? 0 :
		  observe_layout_light(m, st, index, depth == DEPTH_MAPS);

	t1 = now();
	bad += depth != DEPTH_SMAPS && op ? content_of_op(m, st, op, index) :
	       observe_content(m, st, index);
	if (depth != DEPTH_CONTENT)
		observe_secs[depth] += t1 - t0;
	observe_secs[DEPTH_CONTENT] += now() - t1;
	return bad;
}

int observe_check(struct model *m, struct stats *st, uint64_t index)
{
	return observe_check_depth(m, st, index, DEPTH_SMAPS, NULL);
}

/*
 * Would fork() give the child a reservation for P (the series, 6.1 patch
 * 60)?  Sealed by a pin or MM_SEAL_MPROTECT, and left out (DONTFORK) or,
 * closed to writes without a key, wiped (WIPEONFORK).
 */
static bool forks_reserved(const struct model *m, const struct page *p)
{
	if (m->seal != SEAL_FULL || !(p->seals & (MM_SEAL_MPROTECT | MSEAL_TYPES_PIN)))
		return false;
	if (p->vmflags & VF_DC)
		return true;
	return (p->vmflags & VF_WF) && (!(p->prot & PROT_WRITE) || p->pkey > 0);
}

/*
 * The child's view: DONTFORK pages gone, WIPEONFORK pages zero; under the
 * series, sealed ones a sealed, inaccessible reservation instead, with
 * the parent's seals and nothing else.
 */
static void child_model(struct model *m)
{
	for (int w = 0; w < NWIN; w++)
		for (size_t i = 0; i < m->win[w].npages; i++) {
			struct page *p = &m->win[w].pages[i];

			if (p->mapped && forks_reserved(m, p))
				*p = (struct page){ .mapped = true, .seals = p->seals,
						    .eperm = p->eperm, .reserved = true };
			else if (p->mapped && (p->vmflags & VF_DC))
				memset(p, 0, sizeof(*p));
			else if (p->mapped && (p->vmflags & VF_WF) && !p->shared)
				p->tag = 0, p->maybe_zero = false;
		}
}

int fork_check(struct model *m, struct stats *st, uint64_t index)
{
	int status = 0;
	pid_t pid;

	st->checks[FAM_FORK]++;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		static struct model cm;
		static struct stats cst;

		cm = *m;
		child_model(&cm);
		observe_reset_mem();
		if (!observe_check(&cm, &cst, index))
			_exit(0);
		for (int f = 0; f < NFAM; f++)
			if (cst.first_fail[f][0])
				dprintf(1, "# fork child: %s\n", cst.first_fail[f]);
		_exit(1);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		st->fails[FAM_FORK]++;
		if (!st->first_fail[FAM_FORK][0])
			snprintf(st->first_fail[FAM_FORK], sizeof(st->first_fail[0]),
				 "call %llu: fork child saw another view (status %#x, errno %d)",
				 (unsigned long long)index, status, pid < 0 ? errno : 0);
		return 1;
	}
	return 0;
}
