/* SPDX-License-Identifier: GPL-2.0 */
/*
 * standin.h - libsealjit-node-series-standin.so: the official Node.js 24
 * binary made to behave, at run time, as Node built with realjit/v8/node-series/
 * would.  It is a stand-in for those patches, not a part of sealjit's
 * seal-on-exec library (realjit/preload/), which it runs before
 * (ld.so --preload "STANDIN:libsealjit-preload.so"); each thing it does
 * names the patch it stands for:
 *
 *   platform.cc  0001 NodePlatform::GetThreadIsolatedAllocator(): V8's
 *                thread-isolated allocator (a key, pkey_alloc(0,
 *                PKEY_DISABLE_WRITE), before any thread exists), given by
 *                patching NodePlatform's vtable slot, so that V8's
 *                ThreadIsolation writes code through its key
 *   placement.c  0004 the code range reserved within reach (+-2 GiB) of the
 *                embedded builtins: short builtin calls stay on and V8
 *                never copies its builtins into the range (no
 *                mmap(MAP_FIXED) into it once it is sealed)
 *   calls.c      0002: no MADV_DONTFORK on code memory (the build without
 *                V8_ENABLE_PRIVATE_MAPPING_FORK_OPTIMIZATION), held back only
 *                while this kernel refuses to seal memory with fork advice
 *                0002: V8_ENABLE_MEMORY_SEALING's DiscardSealedMemoryScope,
 *                the key opened for write around a discard of code memory
 *                that V8's own OS::DiscardSystemPages() makes (no other
 *                caller's)
 *                0003 a code range that outlives isolates: a teardown
 *                munmap of code memory the kernel refused (a seal) is
 *                answered 0; the kernel refused it, so nothing changed
 *   start.c      the constructor, the report
 *
 * Nothing here weakens a seal: the only calls it answers itself are fork
 * advice it holds back (never made) and munmaps the kernel refused
 * (nothing unmapped); the only call it changes is a code range's
 * reservation, given an address (0004); every other call goes on to the
 * next library as it was made.
 *
 *   SEALJIT_NODE_STANDIN=key|nokey   key: all of the above; nokey: all but
 *                                    0001 (V8 without its key)
 *   SEALJIT_SEAL_REPORT=/abs/file    where the report goes (else stderr)
 */
#ifndef SEALJIT_NODE_STANDIN_H
#define SEALJIT_NODE_STANDIN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define STANDIN_EXIT_BAD_ENV 2	/* unset or unknown SEALJIT_NODE_STANDIN */
#define STANDIN_EXIT_NO_PATCH 5	/* NodePlatform could not be patched */

#ifdef __cplusplus
extern "C" {
#endif

/* start.c */
void standin_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void standin_fatal(int status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

/* platform.cc: 0001; returns the key V8 writes code through, or -1 (no
 * PKU: V8 then keeps W^X off, as Node does today). */
int platform_give_allocator(void);

/* placement.c: 0004.  placement_reserve() maps len bytes at the highest
 * free address within reach of the executable's image, through next_mmap
 * with MAP_FIXED_NOREPLACE; MAP_FAILED when there is none. */
void placement_init(void);
int placement_in_image(uintptr_t addr);
void *placement_reserve(size_t len, int prot, int flags, int fd, off_t off,
			void *(*next_mmap)(void *, size_t, int, int, int, off_t));

/* calls.c */
void calls_init(int pkey);		/* the key 0002 opens around discards, or -1 */
void calls_at_exit(void);

#ifdef __cplusplus
}
#endif

#endif /* SEALJIT_NODE_STANDIN_H */
