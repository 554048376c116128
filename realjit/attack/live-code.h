/* SPDX-License-Identifier: GPL-2.0 */
/*
 * live-code.h - one corrupted mm call on a JIT's live machine code, from
 * inside the JIT's own process, and what it changed.  Nothing here knows
 * which JIT made the code: the caller names the code (its address and
 * size, from the JIT's own tools) and runs it again afterwards.
 *
 * Every real JIT calls it: realjit/v8/attack/addon.c from Node.js
 * (N-API), realjit/luajit/attack/attack.lua from LuaJIT (FFI, loading
 * libsealjit-attack.so, which realjit/Makefile builds from this file).
 */
#ifndef SEALJIT_LIVE_CODE_H
#define SEALJIT_LIVE_CODE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

/* Exit status of a process whose attack could not be set up: the case
 * proves nothing (attack.lua's EXIT_SETUP). */
#define LIVE_CODE_EXIT_SETUP 4

/* The payload the attacker plants: mov edi, 65; mov eax, 231; syscall,
 * i.e. exit_group(65).  A process that exits 65 ran it. */
#define LIVE_CODE_PAYLOAD_STATUS 65

/* The scenarios on the mapping every JIT's tables have, by name, in byte
 * order; NULL after the last. */
const char *live_code_scenario(size_t index);

/* All of them, in byte order; NULL after the last: those, and
 *   libc-mprotect   mprotect-rw's calls through libc's mprotect(), as a
 *                   corrupted pointer passed to a call the program makes
 *                   reaches them (an LD_PRELOAD wrapper sees them)
 *   store-code      no call: the ordinary store of the payload
 *   pkey-realloc    pkey_free() of the mapping's key (smaps), pkey_alloc(0,
 *                   0): the same key back, open for write; then the store
 *   sigreturn-pkru  a signal's saved PKRU edited to 0 in its frame before
 *                   rt_sigreturn restores it; then the store
 * (the key openers only store where the mapping has no key of its own). */
const char *live_code_scenario_all(size_t index);

/*
 * Attack the mapping that holds [address, address + size): snapshot it
 * (its /proc/self/maps lines, the code's bytes read through
 * /proc/self/mem, which of its pages are resident), make the scenario's
 * corrupted call through syscall(2) (an LD_PRELOAD wrapper sees only the
 * JIT's own calls) and, where a real exploit would, the ordinary
 * follow-up that plants the payload, then snapshot again.  Writes
 *   attack scenario=S call=ok|ERRNO outcome=LANDED|BLOCKED|ERROR errno=E
 *          changed=maps,code,resident|- area=LO+LEN code=ADDR+SIZE
 * into line.  Returns 0; 2 for an unknown scenario (line says so); a
 * setup that fails prints "attack setup-failed: WHAT" on stdout and exits
 * LIVE_CODE_EXIT_SETUP.
 */
int live_code_attack(const char *scenario, uintptr_t address, size_t size,
		     char *line, size_t line_len);

/*
 * The same attack, its line as LuaJIT's attacker has written it since
 * issue 20: where the call succeeded and the store after it faulted, the
 * fault is the attack's answer (call=SIGSEGV, and errno=SIGSEGV on a
 * LANDED too), and the line names the code trace= and ends with the
 * mapping's protection key, read before the attack (smaps' ProtectionKey,
 * "-" where smaps has none):
 *   attack scenario=S call=ok|ERRNO outcome=LANDED|BLOCKED|ERROR errno=E
 *          changed=maps,code,resident|- area=LO+LEN trace=ADDR+SIZE pkey=K
 * Any scenario of live_code_scenario_all().  Returns as live_code_attack().
 */
int live_code_attack_trace(const char *scenario, uintptr_t address, size_t size,
			   char *line, size_t line_len);

/*
 * Store the payload at address by ordinary stores, in this thread, with
 * its rights (PKRU included): 0, -SIGSEGV when the first store faulted
 * (caught and skipped: nothing stored, the thread's state as it was), or
 * an errno when the fault could not be caught.
 */
int live_code_plant(uintptr_t address);

/* The protection key of the mapping that holds address (smaps'
 * ProtectionKey), or -1 where smaps names none. */
int live_code_pkey(uintptr_t address);

/*
 * A SA_SIGINFO handler that sets PKRU to 0 (every key open) in its own
 * frame's XSAVE image (XSTATE_BV's PKRU bit set), which rt_sigreturn then
 * restores: what any write into a signal frame (SROP, a write primitive
 * into the stack) can do.  The key openers raise a signal with it.
 */
void live_code_open_saved_pkru(int sig, siginfo_t *info, void *context);

#endif /* SEALJIT_LIVE_CODE_H */
