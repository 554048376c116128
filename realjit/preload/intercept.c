/* SPDX-License-Identifier: GPL-2.0 */
/*
 * intercept.c - the mm calls an unmodified JIT makes through libc.
 *
 * LuaJIT 2.1 maps each machine-code area read-write, mprotect()s the
 * whole area PROT_READ|PROT_EXEC after every trace (and read-write again
 * before the next one or an exit patch), and munmap()s it on jit.flush().
 * The first mprotect() that makes a range executable seals it under the
 * policy; later ones find it in the area table.  Every call passes to the
 * kernel unchanged (syscall(2): no libc symbol recursion) and every
 * refusal is reported with its errno.  pkey_mprotect() is mprotect()
 * with a protection key: the series in realjit/luajit/series/ maps each area
 * read-write-execute under a key with it, once, and never re-protects.
 *
 * V8 (realjit/v8/) makes the same calls from several threads (a WebAssembly
 * tier-up thread writes code, the collector's unmapper frees code pages)
 * and also reaches pkey_mprotect() (through dlsym) and madvise(): the
 * table and the report's counters are changed under one lock, after the
 * call itself returned.
 */
#define _GNU_SOURCE
#include "preload.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_AREAS 4096

struct area {
	uintptr_t start;
	uintptr_t end;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct area areas[MAX_AREAS];
static size_t area_count;
static uintptr_t newest_area_start;	/* the area LuaJIT writes traces into */

static struct area *area_overlapping(uintptr_t start, uintptr_t end)
{
	size_t i;

	for (i = 0; i < area_count; i++)
		if (areas[i].start < end && start < areas[i].end)
			return &areas[i];
	return NULL;
}

static size_t bytes_in_areas(uintptr_t start, uintptr_t end)
{
	size_t i, bytes = 0;

	for (i = 0; i < area_count; i++) {
		uintptr_t lo = areas[i].start > start ? areas[i].start : start;
		uintptr_t hi = areas[i].end < end ? areas[i].end : end;
		if (lo < hi)
			bytes += hi - lo;
	}
	return bytes;
}

static void forget_areas(uintptr_t start, uintptr_t end)
{
	size_t i = 0;

	while (i < area_count) {
		if (areas[i].start >= start && areas[i].end <= end) {
			areas[i] = areas[--area_count];
			report_area_freed();
		} else {
			i++;
		}
	}
}

/* A range made executable for the first time becomes an area, sealed
 * under the policy. */
static void area_made_executable(void *addr, size_t len)
{
	uintptr_t start = (uintptr_t)addr, end = start + len;
	int err = 0;

	report_exec_protect();
	if (area_overlapping(start, end))
		return;
	if (area_count == MAX_AREAS) {
		report_note("more than %d areas: %p +%zu untracked",
			    MAX_AREAS, addr, len);
		return;
	}
	areas[area_count++] = (struct area){ start, end };
	newest_area_start = start;
	if (policy_seals()) {
		err = policy_seal(addr, len);
		if (err)
			report_refused(CALL_MSEAL, addr, len, err);
	}
	report_area(addr, len, err);
}

static long refused(enum call_kind call, const void *addr, size_t len)
{
	int err = errno;

	pthread_mutex_lock(&lock);
	report_refused(call, addr, len, err);
	pthread_mutex_unlock(&lock);
	errno = err;
	return -1;
}

/* A known area made non-executable again: LuaJIT is about to write it.
 * Not the newest area: it is patching an exit of an older trace. */
static void area_made_writable(uintptr_t start, uintptr_t end)
{
	struct area *area = area_overlapping(start, end);

	if (!area)
		return;
	report_write_protect();
	if (area->start != newest_area_start)
		report_old_area_patch();
}

/* After a (pkey_)mprotect() of [addr, addr+len) the kernel allowed. */
static void area_protected(void *addr, size_t len, int prot)
{
	uintptr_t start = (uintptr_t)addr;

	pthread_mutex_lock(&lock);
	if (prot & PROT_EXEC)
		area_made_executable(addr, len);
	else
		area_made_writable(start, start + len);
	pthread_mutex_unlock(&lock);
}

int mprotect(void *addr, size_t len, int prot)
{
	if (syscall(SYS_mprotect, addr, len, prot) != 0)
		return (int)refused(CALL_MPROTECT, addr, len);
	area_protected(addr, len, prot);
	return 0;
}

int pkey_mprotect(void *addr, size_t len, int prot, int pkey)
{
	if (syscall(SYS_pkey_mprotect, addr, len, prot, pkey) != 0)
		return (int)refused(CALL_PKEY_MPROTECT, addr, len);
	area_protected(addr, len, prot);
	return 0;
}

int munmap(void *addr, size_t len)
{
	uintptr_t start = (uintptr_t)addr;

	if (syscall(SYS_munmap, addr, len) != 0) {
		int err = errno;

		pthread_mutex_lock(&lock);
		report_unfreed(bytes_in_areas(start, start + len));
		pthread_mutex_unlock(&lock);
		errno = err;
		return (int)refused(CALL_MUNMAP, addr, len);
	}
	pthread_mutex_lock(&lock);
	forget_areas(start, start + len);
	pthread_mutex_unlock(&lock);
	return 0;
}

/* V8 discards code pages it frees and ignores a refusal: it is counted. */
int madvise(void *addr, size_t len, int advice)
{
	if (syscall(SYS_madvise, addr, len, advice) != 0)
		return (int)refused(CALL_MADVISE, addr, len);
	return 0;
}

void *mremap(void *old, size_t old_len, size_t new_len, int flags, ...)
{
	void *new_addr = NULL;
	long moved;
	va_list ap;

	if (flags & MREMAP_FIXED) {
		va_start(ap, flags);
		new_addr = va_arg(ap, void *);
		va_end(ap);
	}
	moved = syscall(SYS_mremap, old, old_len, new_len, flags, new_addr);
	if (moved == -1)
		return (void *)refused(CALL_MREMAP, old, old_len);
	return (void *)moved;
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	long mapped = syscall(SYS_mmap, addr, len, prot, flags, fd, off);

	if (mapped == -1)
		return (void *)refused(CALL_MMAP, addr, len);
	if ((prot & PROT_EXEC) && (flags & MAP_ANONYMOUS)) {
		pthread_mutex_lock(&lock);
		area_made_executable((void *)mapped, len);
		pthread_mutex_unlock(&lock);
	}
	return (void *)mapped;
}

void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	return mmap(addr, len, prot, flags, fd, off);
}
