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
 * sys_mseal_upstream(), which seals every operation at once.
 */
#ifndef SEALJIT_MSEAL_H
#define SEALJIT_MSEAL_H

#include <stddef.h>
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

#endif /* SEALJIT_MSEAL_H */
