/*
 * interp.h - the reference interpreter: a plain switch loop that defines
 * what every instruction means.  Frames live on the heap, so deep
 * recursion in a program cannot exhaust the C stack.  Each call is charged
 * the bytes the JIT's frame of that function takes (frame.h), so the
 * call-stack limit trips on the same call in both engines.
 */
#ifndef JITDEMO_INTERP_H
#define JITDEMO_INTERP_H

#include "bytecode.h"

#define INTERP_OUT_OF_MEMORY (-1)

/* Runs a verified module's function; returns 0, a JIT_TRAP_* code, or
 * INTERP_OUT_OF_MEMORY.  args holds the function's arity values. */
int interp_call(const struct bc_module *mod, int func, const int64_t *args,
		int64_t *result);

/* The arithmetic shared by nobody else: exposed for unit tests. */
int interp_divide(int64_t a, int64_t b, int64_t *quotient, int64_t *remainder);
int64_t interp_shift_arith(int64_t a, int64_t count);

#endif
