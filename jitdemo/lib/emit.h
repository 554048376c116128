/*
 * emit.h - the template JIT: turns a verified module into x86-64 code in a
 * heap buffer.  arena.c later copies it into the code arena.
 *
 * Frame of a JIT'd function (System V, %rbp-based):
 *
 *	[rbp+8]            return address
 *	[rbp]              caller's rbp
 *	[rbp-8 ...]        saved callee-saved registers used for stack slots
 *	ctx, args, locals, spilled stack slots, padding to 16 bytes
 *
 * The operand stack depth at each instruction is static (the verifier
 * proved it), so stack slot i always lives in the same place: slots 0-4 in
 * rbx, r12, r13, r14, r15; deeper slots in the frame.  rax, rcx and rdx
 * are scratch.  A trap stores its code in ctx->trap and every caller
 * returns at once after seeing it set (see libjit.h).
 */
#ifndef JITDEMO_EMIT_H
#define JITDEMO_EMIT_H

#include <stdbool.h>

#include "bytecode.h"
#include "x86.h"

#define EMIT_MAX_NATIVE_BYTES (32u << 20)

struct emitted_func {
	size_t start, end;	/* byte range in the module's code */
	uint32_t *native_at;	/* per bytecode offset (len+1 entries) */
};

struct emitted_module {
	struct code_buf code;
	struct emitted_func *funcs;	/* one per bc function */
	int nfuncs;
};

bool emit_module(const struct bc_module *mod, struct emitted_module *out,
		 struct jit_diag *diag);
void emitted_module_free(struct emitted_module *em);

#endif
