/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sealjit/mseal.h - the one place userspace spells the mseal() ABI.
 *
 * The ABI is the one our 6.1 kernel series adds (kernel-series/6.1/):
 *
 *	int mseal(void *addr, size_t len, unsigned int types, unsigned int flags);
 *
 * Syscall 462 on x86_64, i386 and asm-generic: the number upstream Linux
 * (6.10+) later gave its own 3-argument mseal(addr, len, flags).  Upstream
 * rejects any non-zero third argument with EINVAL, so a binary built
 * against this header fails safely there, and callers can fall back to
 * sys_mseal_upstream(), which seals every operation at once.  Needs
 * _GNU_SOURCE (or _DEFAULT_SOURCE: syscall(), MAP_ANONYMOUS), defined
 * before the first include.
 */
#ifndef SEALJIT_MSEAL_H
#define SEALJIT_MSEAL_H

#include <errno.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef __NR_mseal
#define __NR_mseal 462
#endif

/* Seal types, as include/uapi/linux/mman.h of the series defines them. */
#define MM_SEAL_MSEAL		0x1	/* deny adding further seal types */
#define MM_SEAL_MPROTECT	0x2	/* deny mprotect(2), pkey_mprotect(2) */
#define MM_SEAL_MUNMAP		0x4	/* deny munmap(2) */
#define MM_SEAL_MMAP		0x8	/* deny mmap(2) over the range */
#define MM_SEAL_MREMAP		0x10	/* deny mremap(2) */

#define MM_SEAL_ALL \
	(MM_SEAL_MSEAL | MM_SEAL_MPROTECT | MM_SEAL_MUNMAP | \
	 MM_SEAL_MMAP | MM_SEAL_MREMAP)

/*
 * The sets this project seals with.  pin: the mapping stays put, its
 * permissions stay free (what Chrome asked for; LuaJIT's policy).  card:
 * it stays put and keeps its permissions, though it may be unmapped
 * (jitdemo's default).
 */
#define MSEAL_TYPES_PIN		(MM_SEAL_MUNMAP | MM_SEAL_MMAP | MM_SEAL_MREMAP)
#define MSEAL_TYPES_CARD	(MM_SEAL_MPROTECT | MM_SEAL_MMAP | MM_SEAL_MREMAP)

/* Which mseal() a kernel answers (kernel/kernels.tsv's abi column). */
enum mseal_abi {
	MSEAL_ABI_NONE,		/* no mseal(): ENOSYS */
	MSEAL_ABI_TYPES,	/* mseal(addr, len, types, flags): v1 and the series */
	MSEAL_ABI_UPSTREAM,	/* mseal(addr, len, 0): upstream's, 6.10+ */
};

/* Returns 0, or -1 with errno set (ENOSYS where the kernel lacks mseal). */
static inline int sys_mseal(void *addr, size_t len, unsigned int types,
			    unsigned int flags)
{
	return (int)syscall(__NR_mseal, addr, len, types, flags);
}

/* Upstream's form, mseal(addr, len, 0): seals everything, denials are EPERM. */
static inline int sys_mseal_upstream(void *addr, size_t len)
{
	return (int)syscall(__NR_mseal, addr, len, 0UL);
}

/*
 * Seal with whatever mseal() the kernel has: the 4-argument call with
 * @types, or where the kernel takes no types (EINVAL: upstream's ABI)
 * upstream's, which seals every operation.  Use it where any seal will do
 * (a JIT sealing its code, a benchmark, a test's own region); a caller
 * that must know the types took (LuaJIT's policies, the selftests) calls
 * sys_mseal() itself.  *@form is the form to try first: MSEAL_ABI_TYPES
 * for a caller that asks afresh each time; it is left at the form that
 * sealed (or failed last; MSEAL_ABI_NONE for ENOSYS), so that a caller
 * keeping it seals with upstream's form at once the next time.  Returns
 * 0, or -1 with errno set.
 */
static inline int mseal_seal(void *addr, size_t len, unsigned int types,
			     enum mseal_abi *form)
{
	if (*form != MSEAL_ABI_UPSTREAM) {
		*form = MSEAL_ABI_TYPES;
		if (sys_mseal(addr, len, types, 0) == 0)
			return 0;
		if (errno != EINVAL) {
			if (errno == ENOSYS)
				*form = MSEAL_ABI_NONE;
			return -1;
		}
	}
	*form = MSEAL_ABI_UPSTREAM;
	if (sys_mseal_upstream(addr, len) == 0)
		return 0;
	if (errno == ENOSYS)
		*form = MSEAL_ABI_NONE;
	return -1;
}

/*
 * Which mseal() the running kernel answers: a scratch page of its own is
 * sealed with every type (and stays sealed).  Returns 0 and sets *@abi
 * (MSEAL_ABI_NONE for ENOSYS), or -1 with errno set when the probe itself
 * failed.
 */
static inline int mseal_probe(enum mseal_abi *abi)
{
	void *page = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	*abi = MSEAL_ABI_TYPES;
	if (page == MAP_FAILED)
		return -1;
	if (mseal_seal(page, 4096, MM_SEAL_ALL, abi) == 0 || *abi == MSEAL_ABI_NONE)
		return 0;
	return -1;
}

#endif /* SEALJIT_MSEAL_H */
