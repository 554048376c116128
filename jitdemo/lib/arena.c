/*
 * arena.c - the only owner of code memory: mmap, mprotect, pkey_mprotect,
 * mseal, munmap, and the PKRU writes that open the key space.
 */
#define _GNU_SOURCE
#include "arena.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <sealjit/mseal.h>

#include "util.h"

static size_t page_round_up(size_t bytes)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	return (bytes + page - 1) / page * page;
}

bool arena_map(struct arena *a, size_t bytes, void *hint, struct jit_diag *diag)
{
	memset(a, 0, sizeof *a);
	a->length = page_round_up(bytes ? bytes : 1);
	void *base = mmap(hint, a->length, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED) {
		diag_plain(diag, "mmap of %zu-byte code arena failed: %s",
			   a->length, strerror(errno));
		a->length = 0;
		return false;
	}
	a->base = base;
	a->outcome = JIT_SEAL_OUTCOME_NOT_YET;
	return true;
}

/* The process's code space; guarded by space_lock. */
static pthread_mutex_t space_lock = PTHREAD_MUTEX_INITIALIZER;
static struct jit_code_space_info space;

/*
 * Reserved RW, one byte written, then PROT_NONE: the write gives the whole
 * reservation one anon_vma before any split, and every module's VMA
 * inherits it.  Without that each module's first write makes it an
 * anon_vma of its own, and VMAs with different anon_vmas never merge,
 * however identically they are sealed.
 */
static bool reserve_code_space(struct jit_diag *diag)
{
	void *base = mmap(NULL, CODE_SPACE_RESERVE, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (base != MAP_FAILED) {
		*(volatile char *)base = 0;
		if (mprotect(base, CODE_SPACE_RESERVE, PROT_NONE) != 0) {
			munmap(base, CODE_SPACE_RESERVE);
			base = MAP_FAILED;
		}
	}
	if (base == MAP_FAILED) {
		diag_plain(diag, "reserving %lu bytes of code space failed: %s",
			   CODE_SPACE_RESERVE, strerror(errno));
		return false;
	}
	space.base = base;
	space.reserved = CODE_SPACE_RESERVE;
	space.used = 0;
	space.reservations++;
	return true;
}

/* Takes length bytes off the end of the reservation; NULL + diag if not. */
static void *take_pages(size_t length, struct jit_diag *diag)
{
	if (length > CODE_SPACE_RESERVE) {
		diag_plain(diag, "module code of %zu bytes is larger than the code space",
			   length);
		return NULL;
	}
	if ((!space.base || space.reserved - space.used < length) &&
	    !reserve_code_space(diag))
		return NULL;
	void *pages = (char *)space.base + space.used;
	space.used += length;
	return pages;
}

static bool map_in_key_space(struct arena *a, size_t length,
			     enum jit_seal_policy policy, struct jit_diag *diag);

bool arena_map_in_code_space(struct arena *a, size_t bytes,
			     enum jit_seal_policy policy, struct jit_diag *diag)
{
	memset(a, 0, sizeof *a);
	size_t length = page_round_up(bytes ? bytes : 1);
	pthread_mutex_lock(&space_lock);
	bool ok;
	void *pages = NULL;
	if (policy == JIT_SEAL_PKEY || policy == JIT_SEAL_KEYONLY) {
		ok = map_in_key_space(a, length, policy, diag);
	} else {
		pages = take_pages(length, diag);
		ok = pages && mprotect(pages, length, PROT_READ | PROT_WRITE) == 0;
		if (pages && !ok)
			diag_plain(diag, "mprotect(PROT_READ|PROT_WRITE) in the code space failed: %s",
				   strerror(errno));
	}
	if (ok)
		space.modules_live++;
	pthread_mutex_unlock(&space_lock);
	if (!ok)
		return false;
	if (pages) {
		a->base = pages;
		a->in_code_space = true;
	}
	a->length = length;
	a->outcome = JIT_SEAL_OUTCOME_NOT_YET;
	return true;
}

void code_space_info(struct jit_code_space_info *info)
{
	pthread_mutex_lock(&space_lock);
	*info = space;
	pthread_mutex_unlock(&space_lock);
}

/* A released module's pages: freed, or pinned by their seal for good. */
static void account_release(const struct arena *a, int unmap_errno)
{
	pthread_mutex_lock(&space_lock);
	space.modules_live--;
	space.modules_released++;
	if (unmap_errno) {
		space.modules_pinned++;
		space.bytes_pinned += a->length;
	} else {
		space.bytes_freed += a->length;
	}
	pthread_mutex_unlock(&space_lock);
}

/* One mseal() per arena, asked afresh (sealjit/mseal.h's fallback to
 * upstream's form on EINVAL); seal_errno is the 4-argument call's answer. */
static void seal_with_kernel(struct arena *a)
{
	uint64_t start = monotonic_ns();
	enum mseal_abi form = MSEAL_ABI_TYPES;
	int rc = mseal_seal(a->base, a->length, a->types_requested, &form);

	a->seal_errno = form == MSEAL_ABI_UPSTREAM ? EINVAL : rc ? errno : 0;
	if (rc == 0 && form == MSEAL_ABI_TYPES) {
		a->outcome = JIT_SEAL_OUTCOME_SEALED;
		a->types_applied = a->types_requested;
	} else if (rc == 0) {
		a->outcome = JIT_SEAL_OUTCOME_UPSTREAM;
		a->types_applied = MM_SEAL_ALL;
	} else {
		a->outcome = form == MSEAL_ABI_NONE ? JIT_SEAL_OUTCOME_ENOSYS : JIT_SEAL_OUTCOME_FAILED;
	}
	a->seal_ns = monotonic_ns() - start;
}

/*
 * --seal=pkey: the key space, made once per process (under space_lock).
 * Mapped read-write, given read-write-execute under a key of its own with
 * pkey_mprotect(), and sealed with every type (or upstream's call) before
 * any code is in it: from then on no call changes its protection, and
 * code gets in only through arena_write()'s key window.  --seal=keyonly
 * makes it the same way and leaves it unsealed; the first module decides
 * which, and a module asking for the other is refused.
 */
static struct {
	struct arena region;	/* base, length, the kernel's seal answer */
	enum jit_seal_policy policy;	/* JIT_SEAL_PKEY or JIT_SEAL_KEYONLY */
	size_t used;
	int pkey;
} keys;

#define PKRU_BITS(pkey) (3u << (2 * (pkey)))	/* access and write disable */
#define PKRU_WD(pkey) ((unsigned)PKEY_DISABLE_WRITE << (2 * (pkey)))

static inline uint32_t read_pkru(void)
{
	uint32_t eax, edx;
	__asm__ volatile(".byte 0x0f, 0x01, 0xee" /* rdpkru */
			 : "=a"(eax), "=d"(edx) : "c"(0));
	(void)edx;
	return eax;
}

static inline void write_pkru(uint32_t pkru)
{
	__asm__ volatile(".byte 0x0f, 0x01, 0xef" /* wrpkru */
			 : : "a"(pkru), "c"(0), "d"(0) : "memory");
}

/* This thread may write the key space: constant rights, no argument. */
static inline void key_open(void)
{
	write_pkru(read_pkru() & ~PKRU_BITS(keys.pkey));
}

/* ... and no longer: read and execute only. */
static inline void key_close(void)
{
	write_pkru((read_pkru() & ~PKRU_BITS(keys.pkey)) | PKRU_WD(keys.pkey));
}

static bool make_key_space(enum jit_seal_policy policy, struct jit_diag *diag)
{
	int pkey = pkey_alloc(0, PKEY_DISABLE_WRITE);
	if (pkey < 0) {
		diag_plain(diag, "--seal=pkey needs memory protection keys: pkey_alloc: %s",
			   strerror(errno));
		return false;
	}
	void *base = mmap(NULL, KEY_SPACE_RESERVE, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (base == MAP_FAILED ||
	    pkey_mprotect(base, KEY_SPACE_RESERVE,
			  PROT_READ | PROT_WRITE | PROT_EXEC, pkey) != 0) {
		diag_plain(diag, "mapping the %lu-byte key space failed: %s",
			   KEY_SPACE_RESERVE, strerror(errno));
		if (base != MAP_FAILED)
			munmap(base, KEY_SPACE_RESERVE);
		pkey_free(pkey);
		return false;
	}
	keys.region.base = base;
	keys.region.length = KEY_SPACE_RESERVE;
	keys.region.types_requested = jit_seal_policy_types(policy);
	if (policy == JIT_SEAL_KEYONLY)
		keys.region.outcome = JIT_SEAL_OUTCOME_POLICY_NONE;
	else
		seal_with_kernel(&keys.region);
	keys.policy = policy;
	keys.pkey = pkey;
	return true;
}

static bool map_in_key_space(struct arena *a, size_t length,
			     enum jit_seal_policy policy, struct jit_diag *diag)
{
	if (!keys.region.base && !make_key_space(policy, diag))
		return false;
	if (keys.policy != policy) {
		diag_plain(diag, "--seal=%s: this process's key space was made for --seal=%s "
			   "(one key space per process, sealed or not)",
			   jit_seal_policy_name(policy), jit_seal_policy_name(keys.policy));
		return false;
	}
	if (KEY_SPACE_RESERVE - keys.used < length) {
		diag_plain(diag, "module code of %zu bytes does not fit in the key space "
			   "(%zu of %lu bytes left)", length,
			   KEY_SPACE_RESERVE - keys.used, KEY_SPACE_RESERVE);
		return false;
	}
	a->base = (char *)keys.region.base + keys.used;
	a->in_key_space = true;
	keys.used += length;
	return true;
}

bool arena_write(struct arena *a, const void *code, size_t len)
{
	if (a->executable || len > a->length - a->used)
		return false;
	if (a->in_key_space)
		key_open();
	memcpy((char *)a->base + a->used, code, len);
	if (a->in_key_space)
		key_close();
	a->used += len;
	return true;
}

/* The key space was sealed when made: nothing to flip, nothing to seal. */
static void seal_in_key_space(struct arena *a)
{
	a->executable = true;
	__builtin___clear_cache((char *)a->base, (char *)a->base + a->used);
	a->types_requested = keys.region.types_requested;
	a->types_applied = keys.region.types_applied;
	a->outcome = keys.region.outcome;
	a->seal_errno = keys.region.seal_errno;
}

bool arena_seal(struct arena *a, enum jit_seal_policy policy,
		bool require_seal, struct jit_diag *diag)
{
	uint64_t start = monotonic_ns();
	if (a->in_key_space) {
		seal_in_key_space(a);
	} else if (mprotect(a->base, a->length, PROT_READ | PROT_EXEC) != 0) {
		diag_plain(diag, "mprotect(PROT_READ|PROT_EXEC) of code arena failed: %s",
			   strerror(errno));
		return false;
	} else {
		a->protect_ns = monotonic_ns() - start;
		a->executable = true;
		__builtin___clear_cache((char *)a->base, (char *)a->base + a->used);
		a->types_requested = jit_seal_policy_types(policy);
		if (policy == JIT_SEAL_NONE)
			a->outcome = JIT_SEAL_OUTCOME_POLICY_NONE;
		else
			seal_with_kernel(a);
	}
	bool sealed = a->outcome == JIT_SEAL_OUTCOME_SEALED ||
		      a->outcome == JIT_SEAL_OUTCOME_UPSTREAM;
	if (require_seal && !sealed) {
		diag_plain(diag, "--require-seal: code arena not sealed: %s",
			   jit_seal_outcome_text(a->outcome));
		return false;
	}
	return true;
}

/* In the code space, an unmapped module leaves a hole that is never
 * handed out again (the end only moves forward). */
int arena_unmap(struct arena *a)
{
	if (!a->base)
		return 0;
	int error = munmap(a->base, a->length) != 0 ? errno : 0;
	if (a->in_code_space || a->in_key_space)
		account_release(a, error);
	if (error)
		return error;
	a->base = NULL;
	a->length = 0;
	return 0;
}
