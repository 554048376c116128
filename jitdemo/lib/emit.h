/*
 * emit.h - the template JIT: turns a verified module into x86-64 code in a
 * heap buffer.  arena.c later copies it into code memory.
 *
 * Layout of a module's code:
 *	module stubs	trap exit and the three trap entries
 *	per function	its C entry (jit_native_fn), then its body
 *
 * Bodies call each other with a native call/ret and their own convention
 * (frame.h): arguments in rdi, rsi, r8, r9, rbp, result in rax, r10 =
 * ctx and r11 = stack limit, both constant.  Each body checks
 * "cmp rsp, r11; jb trap" once after building its frame: the only cost of
 * the call-stack limit.  A C entry saves the C callee-saved registers,
 * stores rsp in ctx->saved_rsp, sets r11 = max(rsp - JIT_MAX_CALL_STACK,
 * ctx->stack_floor) and calls the body.  A trap stores its code in
 * ctx->trap and resets rsp to ctx->saved_rsp, returning straight to C: no
 * caller checks anything after a call.
 *
 * The operand stack is virtual while compiling: a constant, an argument
 * or a local (plus a constant addend) stays where it is until an
 * instruction needs it in a slot, so "const k; add" becomes "add reg, k",
 * "arg 0; const 1; sub" as a call argument becomes one lea, and a compare
 * feeding jz/jnz becomes cmp+jcc.  At jump targets every slot is in its
 * home location (slots 0-4 in rbx, r12-r15, deeper ones in the frame).
 *
 * A module is compiled twice: the first pass finds the slot registers each
 * function uses (frame.h), the second lays frames out from them and knows
 * every callee's frame size, which a call site needs to take the callee's
 * entry exit itself (entry_exit.h).  Self calls that keep the frame
 * (bytecode.h: CALL_RESTART, CALL_ACCUMULATE, and CALL_NESTED when its
 * outer exit holds) jump back into the body.
 */
#ifndef JITDEMO_EMIT_H
#define JITDEMO_EMIT_H

#include <stdbool.h>

#include "bytecode.h"
#include "x86.h"

struct emitted_func {
	size_t entry;		/* C entry (jit_native_fn) */
	size_t start, end;	/* body byte range in the module's code */
	size_t frame_bytes;	/* frame.h: what each call of it takes */
	size_t frame_entry;	/* past the entry exit (entry_exit.h) */
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
/* Each function's frame_bytes, for the interpreter to charge per call;
 * false when the module cannot be compiled. */
bool emit_frame_bytes(const struct bc_module *mod, size_t *bytes);

#endif
