/*
 * arena.h - code memory.  arena.c is the only place in libjit that calls
 * mmap, mprotect, pkey_mprotect, mseal or munmap, or writes PKRU.
 *
 * Life of an arena: arena_map() maps it PROT_READ|PROT_WRITE; the caller
 * copies code in with arena_write(); arena_seal() flips it to
 * PROT_READ|PROT_EXEC and seals it once, as the policy says; no page is
 * ever writable and executable at once.  arena_unmap() tries munmap and
 * reports the kernel's refusal instead of crashing.
 *
 * --seal=pkey instead: the arena's pages are in the key space, mapped
 * read-write-execute under a protection key and sealed before any code is
 * in them; arena_write() opens the key for the calling thread around the
 * copy (WRPKRU) and closes it, and arena_seal() changes no protection.
 * Outside arena_write() no thread may write them.  --seal=keyonly: the
 * same key space, never sealed (the key alone keeps W^X).
 */
#ifndef JITDEMO_ARENA_H
#define JITDEMO_ARENA_H

#include <stdbool.h>

#include "libjit.h"

struct arena {
	void *base;
	size_t length;
	size_t used;
	bool executable;
	bool in_code_space;	/* pages of the process's code space */
	bool in_key_space;	/* pages of the key space (--seal=pkey) */
	unsigned types_requested;
	unsigned types_applied;
	enum jit_seal_outcome outcome;
	int seal_errno;
	uint64_t protect_ns, seal_ns;
};

/* A dedicated mapping at hint (or anywhere): the old one-arena-per-module. */
bool arena_map(struct arena *a, size_t bytes, void *hint, struct jit_diag *diag);
/*
 * Fresh pages at the end of the process's code space: one reservation
 * (CODE_SPACE_RESERVE bytes of PROT_NONE, a new one when it fills up)
 * whose pages are handed out in order and never handed out twice.  Each
 * module's pages are flipped RX and sealed like a dedicated arena; where
 * the kernel merges identically sealed neighbours, all modules together
 * stay one RX VMA next to the PROT_NONE rest of the reservation.
 */
#define CODE_SPACE_RESERVE (1ul << 30)
/*
 * JIT_SEAL_PKEY: fresh pages at the end of the key space instead, one
 * KEY_SPACE_RESERVE region per process (MAP_NORESERVE), made with a key of
 * its own (write-disabled for the allocating thread and every thread it
 * creates later) and sealed once; a module that does not fit is refused.
 * No PKU or no free key: refused, and the diag says why.  JIT_SEAL_KEYONLY
 * takes pages of the same kind of key space, left unsealed; the first
 * module decides whether the process's key space is sealed, and a later
 * module asking for the other policy is refused.
 */
#define KEY_SPACE_RESERVE (64ul << 20)
bool arena_map_in_code_space(struct arena *a, size_t bytes,
			     enum jit_seal_policy policy, struct jit_diag *diag);
void code_space_info(struct jit_code_space_info *info);
bool arena_write(struct arena *a, const void *code, size_t len);
bool arena_seal(struct arena *a, enum jit_seal_policy policy,
		bool require_seal, struct jit_diag *diag);
/* Returns 0 or the errno of a refused munmap (EPERM, EACCES). */
int arena_unmap(struct arena *a);

#endif
