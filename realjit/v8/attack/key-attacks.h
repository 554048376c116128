/* SPDX-License-Identifier: GPL-2.0 */
/*
 * key-attacks.h - attacks on the protection key that write-protects a
 * JIT's code (V8's ThreadIsolation key), from inside its process: each
 * tries to get write rights to the key in the attacking thread's PKRU
 * through a corrupted value the kernel acts on, then stores the payload
 * (live-code.h's) into the code.  Nothing here runs WRPKRU itself.
 *
 *   store-code      no key move at all: the plain store (W^X by the key
 *                   alone refuses it; code without a key takes it)
 *   pkey-reuse    pkey_free(the code's key), pkey_alloc(0, 0): the
 *                   kernel hands the same key back with every right set
 *                   in the caller's PKRU (a corrupted key number passed
 *                   to a pkey_free the program makes, then its next
 *                   pkey_alloc)
 *   sigreturn-edit  a signal's saved PKRU (the XSAVE image in the frame on
 *                   the stack) overwritten with 0, every key open: the
 *                   kernel loads it at rt_sigreturn (a corrupted write
 *                   into a frame on the stack)
 *
 * The code's key is read from /proc/self/smaps (ProtectionKey).  The
 * store is made by one instruction whose fault (SEGV_PKUERR, SEGV_ACCERR)
 * is caught and skipped, with the thread's PKRU back as it was (the
 * handler returns through rt_sigreturn).
 */
#ifndef SEALJIT_KEY_ATTACKS_H
#define SEALJIT_KEY_ATTACKS_H

#include <stddef.h>
#include <stdint.h>

/* The scenarios, by name, in byte order; NULL after the last. */
const char *key_attack_scenario(size_t index);

/*
 * Attack the code at [address, address + size) as live_code_attack()
 * does and write the same verdict line, with pkey=K (the code's key, 0
 * for none): outcome LANDED when the payload's bytes are in the code,
 * BLOCKED with errno the refused call's, or SIGSEGV when the store
 * faulted.  Returns 0; 2 for an unknown scenario.
 */
int key_attack(const char *scenario, uintptr_t address, size_t size,
	       char *line, size_t line_len);

#endif /* SEALJIT_KEY_ATTACKS_H */
