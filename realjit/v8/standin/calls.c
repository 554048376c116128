/* SPDX-License-Identifier: GPL-2.0 */
/*
 * calls.c - the mm calls Node makes, as the patched Node would make them
 * (standin.h names the patches).  Each wrapper passes the call on to the
 * next definition (sealjit's seal-on-exec library when it is preloaded
 * after this one, else libc), except:
 *
 * 0002, fork advice.  V8 gives every reservation MADV_DONTFORK right after
 * mapping it PROT_NONE, before it knows what the reservation will hold;
 * the seal of code memory comes later, and a kernel that will not seal
 * memory with fork advice (EBUSY: kernel-series/ 6.1 patch 30 and 6.12
 * patch 9 before 6.1 patch 60 and 6.12 patch 36, which seal it and give
 * a forked child a sealed reservation instead) then leaves the code
 * unsealed.  The patched build gives code memory no fork advice.  Here,
 * where the start-up probe finds that the kernel refuses (a page with
 * fork advice, sealed: EBUSY), advice on a
 * reservation is held back: made (to the next library) when the first
 * mprotect, mmap or munmap touches the reservation without making it
 * executable; dropped when that first call makes it executable (code
 * memory).  Where the kernel seals such memory, advice passes unchanged.
 *
 * 0003, the teardown munmap.  The patched Node keeps its code range for
 * the process's lifetime.  A munmap of code memory the kernel refuses
 * with EPERM or EACCES (a seal) is answered 0: the kernel refused it, so
 * nothing was unmapped, and V8 does not stop on its CHECK.  Any other
 * result is V8's.
 *
 * 0004, the code range's place.  V8 reserves its code range with a hint
 * the kernel cannot honour (inside the executable's image, or a range it
 * freed); the range lands out of reach of the builtins and V8 copies them
 * into it with mmap(MAP_FIXED) after it is sealed.  Such a reservation is
 * given a free address within reach instead (placement.c): only where the
 * range is, nothing about what may be done to it.
 *
 * 0002, discards under the key.  V8 discards freed code pages with
 * madvise; a kernel that keeps sealed read-only memory from being
 * discarded counts key-write-disabled memory as read-only (upstream's
 * can_modify_vma_madv(), arch_vma_access_permitted()).  V8's
 * DiscardSealedMemoryScope opens its key for write around the discard;
 * so does this, for MADV_DONTNEED and MADV_FREE of code memory, in the
 * calling thread only, restoring its PKRU after, and only for a call made
 * by V8's own discard, v8::base::OS::DiscardSystemPages() (every discard
 * of code the binary makes comes from there: its return address is
 * checked against the function's symbol).  A discard of code from
 * anywhere else, a corrupted madvise() through libc say, reaches the
 * kernel with the key as the thread holds it, as in the patched build.
 */
#define _GNU_SOURCE
#include "standin.h"

#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <sealjit/mseal.h>

#define MAX_RANGES 1024

struct range {
	uintptr_t start, end;
};

struct ranges {
	struct range r[MAX_RANGES];
	size_t n;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct ranges reservations;	/* PROT_NONE anonymous mappings */
static struct ranges held_advice;	/* MADV_DONTFORK not made yet */
static struct ranges code;		/* made executable */
static int hold_fork_advice;
static int key = -1;

static struct {
	unsigned long held, dropped, made, teardown_answered, discards_opened;
	unsigned long discards_closed, keyed_code, placed, not_placed;
} count;

/* V8's own discard (0002): return addresses in (start, end] are calls it
 * made; none when the binary has no such symbol. */
#define V8_DISCARD_SYMBOL "_ZN2v84base2OS18DiscardSystemPagesEPvm"
static uintptr_t v8_discard_start, v8_discard_end;

static int (*next_mprotect)(void *, size_t, int);
static int (*next_pkey_mprotect)(void *, size_t, int, int);
static int (*next_munmap)(void *, size_t);
static int (*next_madvise)(void *, size_t, int);
static void *(*next_mmap)(void *, size_t, int, int, int, off_t);

static void *next(const char *name)
{
	void *f = dlsym(RTLD_NEXT, name);

	if (!f)
		standin_fatal(STANDIN_EXIT_BAD_ENV, "no next %s", name);
	return f;
}

/* The next definitions, found on first use: the library preloaded after
 * this one calls them from its constructor, which may run before ours. */
static void resolve_next(void)
{
	if (next_mmap)
		return;
	next_mprotect = next("mprotect");
	next_pkey_mprotect = next("pkey_mprotect");
	next_munmap = next("munmap");
	next_madvise = next("madvise");
	__atomic_store_n(&next_mmap, next("mmap"), __ATOMIC_RELEASE);
}

static int overlaps(const struct range *r, uintptr_t start, uintptr_t end)
{
	return r->start < end && start < r->end;
}

static struct range *find(struct ranges *set, uintptr_t start, uintptr_t end)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		if (overlaps(&set->r[i], start, end))
			return &set->r[i];
	return NULL;
}

static int within(struct ranges *set, uintptr_t start, uintptr_t end)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		if (set->r[i].start <= start && end <= set->r[i].end)
			return 1;
	return 0;
}

static void add(struct ranges *set, uintptr_t start, uintptr_t end)
{
	if (set->n == MAX_RANGES) {
		standin_note("more than %d ranges: %#lx +%lu untracked",
			     MAX_RANGES, (unsigned long)start,
			     (unsigned long)(end - start));
		return;
	}
	set->r[set->n++] = (struct range){ start, end };
}

static void drop(struct ranges *set, struct range *r)
{
	*r = set->r[--set->n];
}

/* Remove the whole ranges [start, end) covers; trim none. */
static void forget(struct ranges *set, uintptr_t start, uintptr_t end)
{
	size_t i = 0;

	while (i < set->n) {
		if (start <= set->r[i].start && set->r[i].end <= end)
			drop(set, &set->r[i]);
		else
			i++;
	}
}

/* 0002: the first call on a reservation with held advice decides it. */
static void settle_advice(uintptr_t start, uintptr_t end, int executable)
{
	struct range *r;

	while ((r = find(&held_advice, start, end))) {
		struct range held = *r;

		drop(&held_advice, r);
		if (executable) {
			count.dropped++;
			standin_note("0002 no fork advice on code memory %#lx +%lu",
				     (unsigned long)held.start,
				     (unsigned long)(held.end - held.start));
		} else {
			count.made++;
			next_madvise((void *)held.start, held.end - held.start,
				     MADV_DONTFORK);
		}
	}
}

static void made_executable(void *addr, size_t len)
{
	uintptr_t start = (uintptr_t)addr, end = start + len;

	if (!within(&code, start, end))
		add(&code, start, end);
}

static void after_protect(void *addr, size_t len, int prot, int pkey)
{
	uintptr_t start = (uintptr_t)addr;

	pthread_mutex_lock(&lock);
	settle_advice(start, start + len, prot & PROT_EXEC);
	if (prot & PROT_EXEC) {
		made_executable(addr, len);
		if (key >= 0 && pkey == key && !count.keyed_code++)
			standin_note("0001 code under V8's key %d: %p +%zu", key, addr, len);
	}
	pthread_mutex_unlock(&lock);
}

int mprotect(void *addr, size_t len, int prot)
{
	int rc;

	resolve_next();
	rc = next_mprotect(addr, len, prot);

	if (rc == 0)
		after_protect(addr, len, prot, -1);
	return rc;
}

int pkey_mprotect(void *addr, size_t len, int prot, int pkey)
{
	int rc;

	resolve_next();
	rc = next_pkey_mprotect(addr, len, prot, pkey);

	if (rc == 0)
		after_protect(addr, len, prot, pkey);
	return rc;
}

/* 0004: a reservation V8 asks near the builtins with a hint the kernel
 * cannot honour: one inside the executable, or inside a code range it
 * already has (placement.c). */
static int wants_near_builtins(void *addr, int prot, int flags)
{
	uintptr_t hint = (uintptr_t)addr;
	int taken;

	if (!addr || prot != PROT_NONE ||
	    (flags & (MAP_ANONYMOUS | MAP_NORESERVE)) != (MAP_ANONYMOUS | MAP_NORESERVE) ||
	    (flags & (MAP_FIXED | MAP_FIXED_NOREPLACE)))
		return 0;
	if (placement_in_image(hint))
		return 1;
	pthread_mutex_lock(&lock);
	taken = find(&reservations, hint, hint + 1) || find(&code, hint, hint + 1);
	pthread_mutex_unlock(&lock);
	return taken;
}

static void *reserve_near_builtins(void *addr, size_t len, int prot, int flags,
				   int fd, off_t off)
{
	void *mapped = placement_reserve(len, prot, flags, fd, off, next_mmap);

	pthread_mutex_lock(&lock);
	if (mapped != MAP_FAILED) {
		if (!count.placed++)
			standin_note("0004 code range within reach of the builtins: %p +%zu "
				     "(V8's hint %p)", mapped, len, addr);
	} else {
		count.not_placed++;
		standin_note("0004 no free range within reach of the builtins for %zu "
			     "bytes: V8's hint %p passed on", len, addr);
	}
	pthread_mutex_unlock(&lock);
	return mapped;
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	uintptr_t start;
	void *mapped = MAP_FAILED;

	resolve_next();
	if (flags & MAP_FIXED) {
		start = (uintptr_t)addr;
		pthread_mutex_lock(&lock);
		settle_advice(start, start + len, prot & PROT_EXEC);
		pthread_mutex_unlock(&lock);
	}
	if (wants_near_builtins(addr, prot, flags))
		mapped = reserve_near_builtins(addr, len, prot, flags, fd, off);
	if (mapped == MAP_FAILED)
		mapped = next_mmap(addr, len, prot, flags, fd, off);
	if (mapped == MAP_FAILED)
		return mapped;
	start = (uintptr_t)mapped;
	pthread_mutex_lock(&lock);
	if (prot == PROT_NONE && (flags & MAP_ANONYMOUS) && !(flags & MAP_FIXED))
		add(&reservations, start, start + len);
	if (prot & PROT_EXEC)
		made_executable(mapped, len);
	pthread_mutex_unlock(&lock);
	return mapped;
}

void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	return mmap(addr, len, prot, flags, fd, off);
}

int munmap(void *addr, size_t len)
{
	uintptr_t start = (uintptr_t)addr, end = start + len;
	int rc, err, is_code;

	resolve_next();
	pthread_mutex_lock(&lock);
	settle_advice(start, end, 0);
	is_code = find(&code, start, end) != NULL;
	pthread_mutex_unlock(&lock);
	rc = next_munmap(addr, len);
	err = errno;
	pthread_mutex_lock(&lock);
	if (rc == 0) {
		forget(&reservations, start, end);
		forget(&code, start, end);
	} else if (is_code && (err == EPERM || err == EACCES)) {
		/* 0003: refused by a seal, so nothing changed */
		if (!count.teardown_answered++)
			standin_note("0003 code memory kept: munmap %p +%zu refused (%s), answered 0",
				     addr, len, strerrorname_np(err));
		rc = 0;
	}
	pthread_mutex_unlock(&lock);
	errno = err;
	return rc;
}

static unsigned int read_pkru(void)
{
	unsigned int eax, edx;

	__asm__ volatile(".byte 0x0f, 0x01, 0xee" : "=a"(eax), "=d"(edx) : "c"(0));
	return eax;
}

static void write_pkru(unsigned int pkru)
{
	__asm__ volatile(".byte 0x0f, 0x01, 0xef" : : "a"(pkru), "c"(0), "d"(0) : "memory");
}

/* 0002: a discard of code memory, the key open for write in this thread. */
static int discard_under_key(void *addr, size_t len, int advice)
{
	unsigned int saved = read_pkru();
	int rc, err;

	write_pkru(saved & ~(3u << (2 * key)));
	rc = next_madvise(addr, len, advice);
	err = errno;
	write_pkru(saved);
	pthread_mutex_lock(&lock);
	count.discards_opened++;
	pthread_mutex_unlock(&lock);
	errno = err;
	return rc;
}

static void find_v8_discard(void)
{
	void *addr = dlsym(RTLD_DEFAULT, V8_DISCARD_SYMBOL);
	const ElfW(Sym) *sym = NULL;
	Dl_info info;

	if (!addr || !dladdr1(addr, &info, (void **)&sym, RTLD_DL_SYMENT) || !sym ||
	    !sym->st_size)
		return;
	v8_discard_start = (uintptr_t)addr;
	v8_discard_end = v8_discard_start + sym->st_size;
}

static int made_by_v8_discard(const void *return_address)
{
	uintptr_t at = (uintptr_t)return_address;

	return at > v8_discard_start && at <= v8_discard_end;
}

int madvise(void *addr, size_t len, int advice)
{
	uintptr_t start = (uintptr_t)addr, end = start + len;
	int is_code;

	resolve_next();
	if (advice == MADV_DONTFORK && hold_fork_advice) {
		pthread_mutex_lock(&lock);
		if (within(&reservations, start, end) && !find(&code, start, end)) {
			add(&held_advice, start, end);
			count.held++;
			pthread_mutex_unlock(&lock);
			return 0;
		}
		pthread_mutex_unlock(&lock);
	}
	if ((advice == MADV_DONTNEED || advice == MADV_FREE) && key >= 0) {
		pthread_mutex_lock(&lock);
		is_code = find(&code, start, end) != NULL;
		pthread_mutex_unlock(&lock);
		if (is_code && made_by_v8_discard(__builtin_return_address(0)))
			return discard_under_key(addr, len, advice);
		if (is_code) {
			pthread_mutex_lock(&lock);
			count.discards_closed++;
			pthread_mutex_unlock(&lock);
		}
	}
	return next_madvise(addr, len, advice);
}

/* Does this kernel refuse to seal memory that has fork advice?  One page,
 * sealed with whatever mseal() it has; the page stays sealed. */
static int kernel_refuses_fork_advice(const char **why)
{
	long page = sysconf(_SC_PAGESIZE);
	void *p = (void *)syscall(SYS_mmap, NULL, page, PROT_READ,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int rc;

	if (p == MAP_FAILED || syscall(SYS_madvise, p, page, MADV_DONTFORK) != 0) {
		*why = "no probe page";
		return 0;
	}
	rc = sys_mseal(p, page, MM_SEAL_ALL, 0);
	if (rc != 0 && errno == EINVAL)
		rc = sys_mseal_upstream(p, page);
	*why = rc == 0 ? "sealed" : strerrorname_np(errno);
	return rc != 0 && errno == EBUSY;
}

void calls_init(int pkey)
{
	const char *why;

	resolve_next();
	placement_init();
	key = pkey;
	find_v8_discard();
	standin_note("0002 discards of code: the key opened only for V8's own (%s %s)",
		     V8_DISCARD_SYMBOL, v8_discard_end ? "found" : "not found: for none");
	hold_fork_advice = kernel_refuses_fork_advice(&why);
	standin_note("0002 fork advice %s (probe: a page with MADV_DONTFORK, mseal: %s)",
		     hold_fork_advice ? "held back from reservations until they are "
		     "code (dropped) or data (made)" : "passed on", why);
}

void calls_at_exit(void)
{
	pthread_mutex_lock(&lock);
	standin_note("summary key=%d keyed_code=%lu fork_advice_held=%lu dropped=%lu made=%lu "
		     "teardown_munmaps_answered=%lu discards_under_key=%lu discards_key_closed=%lu "
		     "code_ranges_near_builtins=%lu not_near=%lu",
		     key, count.keyed_code, count.held, count.dropped, count.made,
		     count.teardown_answered, count.discards_opened, count.discards_closed,
		     count.placed, count.not_placed);
	pthread_mutex_unlock(&lock);
}
