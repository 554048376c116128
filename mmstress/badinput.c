// SPDX-License-Identifier: GPL-2.0
/*
 * badinput.c - `mmstress --bad-input`: every class of bad argument to
 * mseal() itself, one deterministic case each.  Every case gets a fresh
 * slot of SLOT pages (laid out as its pattern says: M mapped, . hole), makes
 * one mseal() call, and checks the errno and that smaps of the slot is
 * byte for byte what it was (or, on success, what the seal should make it).
 */
#include <limits.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "mmstress.h"
#include "sealjit/smaps.h"

#define SLOT 8
#define SLOTS 256
#define REGION (ARENA_ADDR + (1UL << 32))

static enum seal_mode mode;
static unsigned next_slot;
static struct tap tap;
static char before[8192], after[8192], smaps[1 << 20];

struct bcase {
	const char *name;
	const char *layout;	/* per page: M mapped, . hole */
	long off;		/* bytes from the slot start */
	unsigned long len;
	unsigned types, flags;	/* upstream: types is mseal's 3rd argument */
	int err;		/* expected errno, 0 for success */
	int alt;		/* documented alternative, or 0 */
	unsigned sealed;	/* on success: bit per page that must show seals */
};

/* A known limit of this kernel for the next case: reported, not failed. */
static const char *todo_next;

static uintptr_t slot_addr(unsigned slot)
{
	return REGION + (uintptr_t)slot * (SLOT + 1) * PG;
}

static int lay_out(uintptr_t base, const char *layout)
{
	for (size_t i = 0; layout[i]; i++) {
		if (layout[i] != 'M')
			continue;
		size_t n = 1;

		while (layout[i + n] == 'M')
			n++;
		if (mmap((void *)(base + i * PG), n * PG, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
			return -1;
		for (size_t k = 0; k < n; k++)
			*(volatile uint64_t *)(base + (i + k) * PG) = base + (i + k) * PG;
		i += n - 1;
	}
	return 0;
}

static int slot_vmas;	/* VMAs the last snapshot saw in the slot */

/*
 * Per page of [lo, hi): the smaps header's permissions and the attribute
 * lines (ProtectionKey, Seals, VmFlags) of the VMA holding it, so a split
 * that changes no attribute compares equal.
 */
static void snapshot(uintptr_t lo, uintptr_t hi, char *out, size_t size)
{
	static char attrs[SLOT][512];
	struct smaps_mapping m;
	const char *at = smaps;
	size_t o = 0;

	out[0] = '\0';
	slot_vmas = 0;
	memset(attrs, 0, sizeof(attrs));
	if (!smaps_read("/proc/self/smaps", smaps, sizeof(smaps)))
		return;
	while (smaps_next(&at, &m)) {
		char cur[512];

		if (m.start >= hi || m.end <= lo)
			continue;
		slot_vmas++;
		snprintf(cur, sizeof(cur), "%s | ProtectionKey: %d | %.*s | %.*s", m.perms, m.pkey,
			 m.seals_line ? (int)smaps_line_len(m.seals_line) : 0, m.seals_line ? m.seals_line : "",
			 m.vmflags_line ? (int)smaps_line_len(m.vmflags_line) : 0,
			 m.vmflags_line ? m.vmflags_line : "");
		for (uintptr_t a = m.start > lo ? m.start : lo; a < m.end && a < hi; a += PG)
			snprintf(attrs[(a - lo) / PG], sizeof(attrs[0]), "%s", cur);
	}
	for (unsigned i = 0; i < (hi - lo) / PG && i < SLOT; i++)
		o += (size_t)snprintf(out + o, size - o, "page %u: %s\n# ", i,
				      attrs[i][0] ? attrs[i] : "unmapped");
}

static long call_mseal(uintptr_t addr, const struct bcase *c)
{
	if (mode == SEAL_UPSTREAM)
		return syscall(__NR_mseal, addr, c->len, (unsigned long)c->types);
	return syscall(__NR_mseal, addr, c->len, (unsigned long)c->types,
		       (unsigned long)c->flags);
}

static bool page_sealed(const char *snap, unsigned page)
{
	char tag[32];
	const char *p, *eol;

	snprintf(tag, sizeof(tag), "page %u: ", page);
	p = strstr(snap, tag);
	eol = p ? strchr(p, '\n') : NULL;
	p = p ? strstr(p, " sl") : NULL;
	return p && (!eol || p < eol);
}

/* A case's offset that names address 0 itself (-0 would be offset 0). */
#define AT_ADDRESS_ZERO LONG_MIN

/* Where case C's call starts: an offset into the slot, or -ADDRESS. */
static uintptr_t case_addr(uintptr_t base, const struct bcase *c)
{
	if (c->off == AT_ADDRESS_ZERO)
		return 0;
	return c->off < 0 ? (uintptr_t)-c->off : base + (uintptr_t)c->off;
}

/* One mseal() call on a slot already laid out as C->layout. */
static void run_case_in(uintptr_t base, const struct bcase *c)
{
	uintptr_t addr = case_addr(base, c);
	const char *why = NULL;
	long ret;
	int err;

	snapshot(base, base + SLOT * PG, before, sizeof(before));
	errno = 0;
	ret = call_mseal(addr, c);
	err = ret ? errno : 0;
	snapshot(base, base + SLOT * PG, after, sizeof(after));
	if (err != c->err && !(c->alt && err == c->alt))
		why = "errno";
	else if (err && strcmp(before, after))
		why = "refused, but smaps changed";
	for (unsigned i = 0; !why && !err && c->layout[i]; i++)
		if (c->layout[i] == 'M' && page_sealed(after, i) != !!(c->sealed & (1u << i)))
			why = "seals on the wrong pages";
	tap_todo(&tap, !why, todo_next, "mseal %s: %s (expected %s%s%s)%s%s",
		 c->name, errno_name(err), errno_name(c->err), c->alt ? " or " : "",
		 c->alt ? errno_name(c->alt) : "", why ? ": " : "", why ? why : "");
	if (why) {
		tap_note("before:");
		tap_note("%s", before);
		tap_note("after:");
		tap_note("%s", after);
	}
}

static uintptr_t fresh_slot(const char *layout)
{
	uintptr_t base = slot_addr(next_slot++);

	if (next_slot >= SLOTS || lay_out(base, layout))
		return 0;
	return base;
}

static void run_case(const struct bcase *c)
{
	uintptr_t base = fresh_slot(c->layout);

	if (!base) {
		tap_ok(&tap, false, "%s: cannot lay out the slot", c->name);
		return;
	}
	run_case_in(base, c);
}

static void type_and_flag_bits(void)
{
	static char names[64][64];

	for (unsigned bit = 5; bit < 32; bit++) {
		struct bcase c = { names[bit], "MM", 0, PG, MM_SEAL_MPROTECT | (1u << bit), 0, EINVAL, 0, 0 };

		snprintf(names[bit], sizeof(names[0]), "unknown type bit %#x", 1u << bit);
		run_case(&c);
	}
	for (unsigned bit = 0; bit < 32; bit++) {
		struct bcase c = { names[32 + bit], "MM", 0, PG, MM_SEAL_MPROTECT, 1u << bit, EINVAL, 0, 0 };

		snprintf(names[32 + bit], sizeof(names[0]), "types set, flag bit %#x", 1u << bit);
		run_case(&c);
	}
}

static const struct bcase full_cases[] = {
	{ "address +1", "MM", 1, PG, MM_SEAL_ALL, 0, EINVAL, 0, 0 },
	{ "address +0xfff", "MM", PG - 1, PG, MM_SEAL_ALL, 0, EINVAL, 0, 0 },
	{ "len 0", "MM", 0, 0, MM_SEAL_ALL, 0, 0, 0, 0 },
	{ "len 1 rounds up to a page", "MM", 0, 1, MM_SEAL_ALL, 0, 0, 0, 0x1 },
	{ "len 0x1001 rounds up to two pages", "MMM", 0, PG + 1, MM_SEAL_ALL, 0, 0, 0, 0x3 },
	{ "len ~0 wraps when rounded", "MM", 0, ~0UL, MM_SEAL_ALL, 0, EINVAL, 0, 0 },
	{ "addr + len wraps", "MM", 0, ~0UL - PG * 2, MM_SEAL_ALL, 0, EINVAL, 0, 0 },
	{ "huge len (64 TiB) over unmapped space", "MM", 0, 1UL << 46, MM_SEAL_ALL, 0, ENOMEM, 0, 0 },
	{ "kernel address", "MM", -(long)0xffff800000000000UL, PG, MM_SEAL_ALL, 0, ENOMEM, EINVAL, 0 },
	{ "address 0 (unmapped)", "MM", AT_ADDRESS_ZERO, PG, MM_SEAL_ALL, 0, ENOMEM, 0, 0 },
	{ "unmapped start", ".MMM", 0, 4 * PG, MM_SEAL_ALL, 0, ENOMEM, 0, 0 },
	{ "unmapped middle", "MM.M", 0, 4 * PG, MM_SEAL_ALL, 0, ENOMEM, 0, 0 },
	{ "unmapped end", "MMM.", 0, 4 * PG, MM_SEAL_ALL, 0, ENOMEM, 0, 0 },
	{ "types 0 (upstream form) seals all", "MMM", PG, PG, 0, 0, 0, 0, 0x2 },
	{ "types 0 ignores flags", "MMM", PG, PG, 0, 0x80000000u, 0, 0, 0x2 },
	{ "types 0 over a hole", "M.M", 0, 3 * PG, 0, 0, ENOMEM, 0, 0 },
};

static const struct bcase upstream_cases[] = {
	{ "address +1", "MM", 1, PG, 0, 0, EINVAL, 0, 0 },
	{ "len 0", "MM", 0, 0, 0, 0, 0, 0, 0 },
	{ "len 1 rounds up to a page", "MM", 0, 1, 0, 0, 0, 0, 0x1 },
	/* 6.10 rounded len ~0 to 0 and succeeded; 6.12.y and later refuse it */
	{ "len ~0 wraps when rounded", "MM", 0, ~0UL, 0, 0, EINVAL, 0, 0 },
	{ "addr + len wraps", "MM", 0, ~0UL - PG * 2, 0, 0, EINVAL, 0, 0 },
	{ "huge len (64 TiB) over unmapped space", "MM", 0, 1UL << 46, 0, 0, ENOMEM, 0, 0 },
	{ "unmapped start", ".MMM", 0, 4 * PG, 0, 0, ENOMEM, 0, 0 },
	{ "unmapped middle", "MM.M", 0, 4 * PG, 0, 0, ENOMEM, 0, 0 },
	{ "unmapped end", "MMM.", 0, 4 * PG, 0, 0, ENOMEM, 0, 0 },
	{ "flags bit 0x1", "MM", 0, PG, 1, 0, EINVAL, 0, 0 },
	{ "flags bit 0x80000000", "MM", 0, PG, 0x80000000u, 0, EINVAL, 0, 0 },
};

/* MM_SEAL_MSEAL: adding a type is refused, re-sealing what is there is not. */
static void mseal_seal_cases(void)
{
	static const struct bcase add = { "adding mprotect under MM_SEAL_MSEAL", "MMM", 0, 2 * PG,
					  MM_SEAL_MSEAL | MM_SEAL_MPROTECT, 0, EACCES, 0, 0 };
	static const struct bcase hole = { "adding a type under MM_SEAL_MSEAL, hole after",
					   "MM.", 0, 3 * PG, MM_SEAL_MUNMAP, 0, EACCES, 0, 0 };
	static const struct bcase same = { "re-sealing the same types", "MMM", 0, 2 * PG,
					   MM_SEAL_MSEAL, 0, 0, 0, 0x3 };
	uintptr_t base = fresh_slot("MM");

	sys_mseal((void *)base, 2 * PG, MM_SEAL_MSEAL, 0);
	run_case_in(base, &add);
	run_case_in(base, &hole);
	run_case_in(base, &same);
}

/* Identically sealed neighbours merge into one VMA. */
static void merge_case(void)
{
	uintptr_t base = fresh_slot("MMMMMMMM");
	unsigned types = mode == SEAL_UPSTREAM ? 0 : MM_SEAL_MPROTECT | MM_SEAL_MUNMAP;

	syscall(__NR_mseal, base, 2 * PG, types, 0);
	syscall(__NR_mseal, base + 2 * PG, 2 * PG, types, 0);
	snapshot(base, base + SLOT * PG, after, sizeof(after));
	if (!tap_ok(&tap, slot_vmas == 2,
		    "identically sealed neighbours merge: %d VMAs in the slot (expected 2)", slot_vmas))
		tap_note("%s", after);
}

static int map_count_now(void)
{
	int fd = open("/proc/self/maps", O_RDONLY), n = 0;
	ssize_t got;

	if (fd < 0)
		return -1;
	while ((got = read(fd, smaps, sizeof(smaps))) > 0)
		for (ssize_t i = 0; i < got; i++)
			n += smaps[i] == '\n';
	close(fd);
	return n;
}

static int set_max_map_count(long value)
{
	char text[32];
	int fd = open("/proc/sys/vm/max_map_count", O_WRONLY);
	int len = snprintf(text, sizeof(text), "%ld\n", value);
	bool ok = fd >= 0 && write(fd, text, (size_t)len) == len;

	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

/* Sealing that needs more VMAs than max_map_count allows changes nothing. */
static void map_count_cases(void)
{
	struct bcase middle = { "splitting past max_map_count", "MMMMMMMM", 2 * PG, 2 * PG,
				MM_SEAL_ALL, 0, ENOMEM, 0, 0 };
	struct bcase second = { "second split past max_map_count (first fits)", "MMMMMMMM",
				PG, 5 * PG, MM_SEAL_ALL, 0, ENOMEM, 0, 0 };
	uintptr_t base;
	int n;

	if (mode == SEAL_UPSTREAM) {
		middle.types = 0;
		second.types = 0;
	}
	base = fresh_slot(middle.layout);
	n = map_count_now();
	if (!base || n < 0 || set_max_map_count(n)) {
		tap_skip(&tap, "map_count: cannot set /proc/sys/vm/max_map_count", "map_count");
		return;
	}
	run_case_in(base, &middle);
	set_max_map_count(65530);
	base = fresh_slot(second.layout);
	mprotect((void *)(base + 4 * PG), 4 * PG, PROT_READ);	/* two VMAs */
	n = map_count_now();
	set_max_map_count(n + 1);
	if (mode == SEAL_UPSTREAM)
		todo_next = "upstream seals VMA by VMA: the first is sealed when the second split fails";
	run_case_in(base, &second);
	todo_next = NULL;
	set_max_map_count(65530);
}

int run_bad_input(const struct options *o)
{
	mode = o->seal;
	if (syscall(__NR_mseal, 0, 0, 0, 0) && errno == ENOSYS) {
		tap_skip_all("mseal() is ENOSYS on this kernel");
		return 0;
	}
	if (mmap((void *)REGION, SLOTS * (SLOT + 1) * PG, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0) != (void *)REGION) {
		tap_skip_all("cannot reserve the bad-input region");
		return 1;
	}
	munmap((void *)REGION, SLOTS * (SLOT + 1) * PG);
	tap_start(&tap);
	if (mode == SEAL_UPSTREAM) {
		for (size_t i = 0; i < sizeof(upstream_cases) / sizeof(upstream_cases[0]); i++)
			run_case(&upstream_cases[i]);
	} else {
		for (size_t i = 0; i < sizeof(full_cases) / sizeof(full_cases[0]); i++)
			run_case(&full_cases[i]);
		type_and_flag_bits();
		mseal_seal_cases();
	}
	merge_case();
	if (o->map_count)
		map_count_cases();
	tap_note("bad input: %u cases, %u failed (model %s)", tap.count, tap.failed, o->model);
	return tap_done(&tap);
}
