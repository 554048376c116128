/* SPDX-License-Identifier: GPL-2.0 */
/*
 * preload.h - the seal-on-exec preload library for unmodified JITs
 * (libsealjit-preload.so): what its four files share.
 *
 *   policy.c     SEALJIT_SEAL_POLICY, whether this kernel can express it,
 *                and the mseal() call that applies it
 *   intercept.c  mmap/mprotect/pkey_mprotect/munmap/mremap/madvise as the
 *                JIT calls them; an area is sealed the first time it is
 *                made executable
 *   report.c     counters, refused calls; the report: start and area lines
 *                as they happen, the rest at exit
 *                (SEALJIT_SEAL_REPORT names a file, else stderr)
 *   start.c      the constructor: environment, kernel probe, atexit
 */
#ifndef SEALJIT_PRELOAD_H
#define SEALJIT_PRELOAD_H

#include <stddef.h>

/* Exit statuses of a process the library stops at start-up. */
#define PRELOAD_EXIT_BAD_ENV	2	/* unknown policy, malformed variable */
#define PRELOAD_EXIT_NO_POLICY	3	/* this kernel cannot express the policy */

/* policy.c */
const char *policy_name(void);
unsigned int policy_types(void);
int policy_seals(void);			/* 0 for "none" */
const char *policy_abi(void);		/* how the kernel was asked */
void policy_init(void);			/* exits on bad input, see above */
int policy_seal(void *addr, size_t len);	/* 0 or an errno */

/* report.c (its counters are changed under intercept.c's lock) */
enum call_kind { CALL_MPROTECT, CALL_MUNMAP, CALL_MREMAP, CALL_MMAP,
		 CALL_MSEAL, CALL_PKEY_MPROTECT, CALL_MADVISE, CALL_KINDS };
void report_init(void);			/* exits on bad input */
void report_start(void);		/* after policy_init() */
void report_at_exit(void);
void report_refused(enum call_kind call, const void *addr, size_t len,
		    int err);
void report_area(const void *addr, size_t len, int seal_err);
void report_exec_protect(void);
void report_write_protect(void);
void report_old_area_patch(void);
void report_area_freed(void);
void report_unfreed(size_t bytes);
void report_note(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
void report_fatal(int status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

#endif /* SEALJIT_PRELOAD_H */
