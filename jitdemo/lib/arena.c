/* arena.c - the only owner of code memory: mmap, mprotect, mseal, munmap. */
#define _DEFAULT_SOURCE
#include "arena.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <sealjit/mseal.h>

#include "util.h"

unsigned arena_policy_types(enum jit_seal_policy policy)
{
	unsigned card = MM_SEAL_MPROTECT | MM_SEAL_MMAP | MM_SEAL_MREMAP;
	switch (policy) {
	case JIT_SEAL_CARD: return card;
	case JIT_SEAL_ALL: return card | MM_SEAL_MUNMAP | MM_SEAL_MSEAL;
	case JIT_SEAL_NONE: return 0;
	}
	return 0;
}

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

bool arena_write(struct arena *a, const void *code, size_t len)
{
	if (a->executable || len > a->length - a->used)
		return false;
	memcpy((char *)a->base + a->used, code, len);
	a->used += len;
	return true;
}

/* One mseal() per arena; falls back to upstream's form on EINVAL. */
static void seal_with_kernel(struct arena *a)
{
	uint64_t start = monotonic_ns();
	if (sys_mseal(a->base, a->length, a->types_requested, 0) == 0) {
		a->outcome = JIT_SEAL_OUTCOME_SEALED;
		a->types_applied = a->types_requested;
	} else if (errno == ENOSYS) {
		a->seal_errno = ENOSYS;
		a->outcome = JIT_SEAL_OUTCOME_ENOSYS;
	} else if (errno == EINVAL) {
		a->seal_errno = EINVAL;
		if (sys_mseal_upstream(a->base, a->length) == 0) {
			a->outcome = JIT_SEAL_OUTCOME_UPSTREAM;
			a->types_applied = MM_SEAL_ALL;
		} else {
			a->outcome = JIT_SEAL_OUTCOME_FAILED;
		}
	} else {
		a->seal_errno = errno;
		a->outcome = JIT_SEAL_OUTCOME_FAILED;
	}
	a->seal_ns = monotonic_ns() - start;
}

bool arena_seal(struct arena *a, enum jit_seal_policy policy,
		bool require_seal, struct jit_diag *diag)
{
	uint64_t start = monotonic_ns();
	if (mprotect(a->base, a->length, PROT_READ | PROT_EXEC) != 0) {
		diag_plain(diag, "mprotect(PROT_READ|PROT_EXEC) of code arena failed: %s",
			   strerror(errno));
		return false;
	}
	a->protect_ns = monotonic_ns() - start;
	a->executable = true;
	__builtin___clear_cache((char *)a->base, (char *)a->base + a->used);
	a->types_requested = arena_policy_types(policy);
	if (policy == JIT_SEAL_NONE)
		a->outcome = JIT_SEAL_OUTCOME_POLICY_NONE;
	else
		seal_with_kernel(a);
	bool sealed = a->outcome == JIT_SEAL_OUTCOME_SEALED ||
		      a->outcome == JIT_SEAL_OUTCOME_UPSTREAM;
	if (require_seal && !sealed) {
		diag_plain(diag, "--require-seal: code arena not sealed: %s",
			   jit_seal_outcome_text(a->outcome));
		return false;
	}
	return true;
}

int arena_unmap(struct arena *a)
{
	if (!a->base)
		return 0;
	if (munmap(a->base, a->length) != 0)
		return errno;
	a->base = NULL;
	a->length = 0;
	return 0;
}
