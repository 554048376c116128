// SPDX-License-Identifier: GPL-2.0
/*
 * after.c - in the new image: no seal of the old one survived.  The old
 * image's sealed anonymous range is free again, and its sealed .bss page
 * (same address, same file) can be reprotected, unmapped and remapped.
 */
#define _GNU_SOURCE
#include "exec-seals.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

static bool is_system_mapping(const struct mapping *m)
{
	return strncmp(m->name, "[vdso]", 6) == 0 ||
	       strncmp(m->name, "[vvar", 5) == 0 ||
	       strcmp(m->name, "[uprobes]") == 0;
}

/* Stops at the first sealed mapping that is not a system mapping. */
static bool find_foreign_seal(const struct mapping *m, void *arg)
{
	struct mapping *found = arg;

	if (!mapping_sealed(m) || is_system_mapping(m))
		return true;
	*found = *m;
	return false;
}

static void check_smaps_clean(struct run *run)
{
	struct mapping found = { 0 };

	if (run->kernel->smaps == SMAPS_STYLE_NONE) {
		tap_skip(&run->tap, "this kernel's smaps shows no seals",
			 "smaps: no seal on any mapping but the system ones");
		return;
	}
	tap_ok(&run->tap, smaps_each(find_foreign_seal, &found) && !found.end,
	       "smaps: no seal on any mapping but the system ones%s%s",
	       found.end ? "; sealed: " : "", found.name);
}

static int mremap_moves(void *at, size_t len)
{
	void *to = mremap(at, len, 2 * len, MREMAP_MAYMOVE);

	if (to == MAP_FAILED)
		return -1;
	return munmap(to, 2 * len);
}

/* "done", or why not: after the call, never in the same argument list. */
static const char *said(bool ok)
{
	return ok ? "done" : strerrorname_np(errno);
}

/* The old image's sealed range: mapped again, reprotected, moved, unmapped. */
static void check_anon_free(struct run *run)
{
	void *at = (void *)run->anon;
	void *got = mmap(at, ANON_LEN, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	bool ok = got == at;

	tap_ok(&run->tap, ok, "the old sealed range %p is free: mapped again: %s",
	       at, said(ok));
	if (!ok)
		tap_bail("cannot go on without the range");
	ok = mprotect(at, ANON_LEN, PROT_READ) == 0;
	tap_ok(&run->tap, ok, "mprotect() of it: %s", said(ok));
	ok = munmap(at, PAGE) == 0 && mremap_moves((char *)at + PAGE, PAGE) == 0;
	tap_ok(&run->tap, ok, "munmap() of half, mremap() of the rest to twice its "
	       "size: %s", said(ok));
}

/* The old image's sealed .bss page, the same page of the same file. */
static void check_page_free(struct run *run)
{
	void *at = bss_page;
	bool ok;

	if ((uintptr_t)at != run->page) {
		tap_ok(&run->tap, false, "the .bss page moved across exec (%p, was %#"
		       PRIxPTR "): built as PIE?", at, run->page);
		tap_skip(&run->tap, "the .bss page moved", "munmap() and map it again");
		return;
	}
	ok = mprotect(at, PAGE, PROT_READ) == 0 &&
	     mprotect(at, PAGE, PROT_READ | PROT_WRITE) == 0;
	tap_ok(&run->tap, ok, "mprotect() of the once sealed .bss page %p: %s", at,
	       said(ok));
	ok = munmap(at, PAGE) == 0 &&
	     mmap(at, PAGE, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == at;
	tap_ok(&run->tap, ok, "munmap() of it and map it again: %s", said(ok));
}

void after_exec(struct run *run)
{
	const char *none = "nothing was sealed before exec";

	if (!run->sealed) {
		tap_skip(&run->tap, none, "smaps: no seal on any mapping but the system ones");
		tap_skip(&run->tap, none, "the old sealed range is free: mapped again");
		tap_skip(&run->tap, none, "mprotect() of it");
		tap_skip(&run->tap, none, "munmap() of half, mremap() of the rest");
		tap_skip(&run->tap, none, "mprotect() of the once sealed .bss page");
		tap_skip(&run->tap, none, "munmap() of it and map it again");
		return;
	}
	check_smaps_clean(run);
	check_anon_free(run);
	check_page_free(run);
}
