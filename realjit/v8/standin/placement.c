/* SPDX-License-Identifier: GPL-2.0 */
/*
 * placement.c - 0004: V8's code range reserved within reach of the
 * embedded builtins (standin.h).
 *
 * V8 13.6 calls its builtins from JIT code with short (pc-relative, +-2 GiB)
 * calls when the code range is near the binary's embedded builtins; when
 * it is not, it copies them into the range with mmap(MAP_FIXED) at isolate
 * set-up (CodeRange::RemapEmbeddedBuiltins), after the range was made
 * executable -- and sealed.  Its reservation asks for a place near the
 * binary only by a hint, RoundUp(&FunctionInStaticBinaryForAddressHint),
 * an address inside the binary's own image, or a code range it freed
 * before (CodeRangeAddressHint::GetAddressHint): the kernel cannot honour
 * either and puts the range at the top of the address space, out of reach.
 * The patched V8 asks for the first free range within reach
 * (base::OS::GetFirstFreeMemoryRangeWithin over CodeRange's preferred
 * region) and reserves at its top, leaving the room below it (the heap's,
 * right after the binary) free; so does this, for a PROT_NONE reservation
 * whose hint lies in the executable's image or in a code range already
 * placed, with one difference: its window is what a rel32 reaches from
 * every byte of the executable's image, not just of the builtins (which
 * are in its .text), so a range it places is within V8's reach too.  The
 * slot is taken with MAP_FIXED_NOREPLACE.  Only the address changes;
 * where no slot is free the call goes on as V8 made it (noted).  Then,
 * where V8 calls its builtins short (an old generation that may reach 2
 * GiB), it copies them into the far range, a sealing kernel refuses, and
 * V8 stops (UNREACHABLE in OS::RemapPages); the patched V8 turns short
 * builtin calls off for such a range instead (0004's isolate.cc hunk),
 * which a stand-in cannot: V8's flags are frozen once it initialises.
 * With patch 0003 the patched Node has one range per process; the
 * stand-in places one per isolate (three fit beside this binary).
 */
#define _GNU_SOURCE
#include "standin.h"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define REACH ((uintptr_t)2 << 30)	/* x64's rel32: kMaxPCRelativeCodeRangeInMB */
#define SLOT_ALIGN ((uintptr_t)2 << 20)
#define LOWEST ((uintptr_t)1 << 20)	/* above any mmap_min_addr */

static uintptr_t image_start, image_end;	/* the executable's PT_LOADs */

static int first_object(struct dl_phdr_info *info, size_t size, void *data)
{
	uintptr_t lo = UINTPTR_MAX, hi = 0;
	int i;

	(void)size;
	(void)data;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t start = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type != PT_LOAD)
			continue;
		if (start < lo)
			lo = start;
		if (start + ph->p_memsz > hi)
			hi = start + ph->p_memsz;
	}
	if (lo < hi) {
		image_start = lo;
		image_end = hi;
	}
	return 1;	/* the first object is the executable */
}

void placement_init(void)
{
	dl_iterate_phdr(first_object, NULL);
}

int placement_in_image(uintptr_t addr)
{
	return image_start <= addr && addr < image_end;
}

/* The window every byte of which a rel32 reaches from every byte of the
 * image. */
static int window(uintptr_t *lo, uintptr_t *hi)
{
	if (image_end <= image_start || image_end - image_start >= REACH)
		return 0;
	*lo = image_end > REACH + LOWEST ? image_end - REACH : LOWEST;
	*hi = image_start + REACH;
	return 1;
}

struct gaps {
	uintptr_t lo, hi, len, best;
	uintptr_t prev_end;
};

/* A gap [start, end) between mappings, in address order: the first that
 * fits gives the slot at its top. */
static void consider(struct gaps *g, uintptr_t start, uintptr_t end)
{
	uintptr_t slot;

	if (g->best)
		return;
	if (start < g->lo)
		start = g->lo;
	if (end > g->hi)
		end = g->hi;
	if (end <= start || end - start < g->len)
		return;
	slot = (end - g->len) & ~(SLOT_ALIGN - 1);
	if (slot >= start)
		g->best = slot;
}

static uintptr_t parse_hex(const char **p)
{
	uintptr_t value = 0;
	int digit;

	for (;; (*p)++) {
		if (**p >= '0' && **p <= '9')
			digit = **p - '0';
		else if ((**p | 0x20) >= 'a' && (**p | 0x20) <= 'f')
			digit = (**p | 0x20) - 'a' + 10;
		else
			return value;
		value = value * 16 + (uintptr_t)digit;
	}
}

/* "start-end perms ...": the gap before it, then its end. */
static void maps_line(struct gaps *g, const char *line)
{
	uintptr_t start, end;

	start = parse_hex(&line);
	if (*line++ != '-')
		return;
	end = parse_hex(&line);
	consider(g, g->prev_end, start);
	if (end > g->prev_end)
		g->prev_end = end;
}

/* The top of the lowest free gap in [lo, hi) that holds len bytes, from
 * /proc/self/maps (no allocation: this runs inside mmap). */
static uintptr_t free_slot(uintptr_t lo, uintptr_t hi, size_t len)
{
	struct gaps g = { lo, hi, len, 0, 0 };
	char buf[4096], line[256];
	size_t used = 0;
	ssize_t n;
	int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] != '\n') {
				if (used < sizeof(line) - 1)
					line[used++] = buf[i];
				continue;
			}
			line[used] = '\0';
			maps_line(&g, line);
			used = 0;
		}
	}
	close(fd);
	if (n < 0)
		return 0;
	consider(&g, g.prev_end, UINTPTR_MAX);
	return g.best;
}

void *placement_reserve(size_t len, int prot, int flags, int fd, off_t off,
			void *(*next_mmap)(void *, size_t, int, int, int, off_t))
{
	uintptr_t lo, hi, slot;
	void *mapped;

	if (!window(&lo, &hi))
		return MAP_FAILED;
	slot = free_slot(lo, hi, len);
	if (!slot)
		return MAP_FAILED;
	mapped = next_mmap((void *)slot, len, prot, flags | MAP_FIXED_NOREPLACE, fd, off);
	if (mapped != MAP_FAILED && mapped != (void *)slot) {
		/* a kernel without MAP_FIXED_NOREPLACE took it as a hint:
		 * a fresh reservation nobody has seen, given back */
		syscall(SYS_munmap, mapped, len);
		return MAP_FAILED;
	}
	return mapped;
}
