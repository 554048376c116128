/*
 * verify.h - checks a module before anything executes it.
 *
 * Opcode and operand ranges, jump targets on instruction boundaries, the
 * same stack depth on every path into an instruction, no underflow, at most
 * JIT_MAX_STACK values, every path ends in ret, calls name a defined
 * function with its arity, bounded code size.  On success it fills
 * depth_at, max_stack and insn_count of every function, which the
 * interpreter and the JIT rely on.
 */
#ifndef JITDEMO_VERIFY_H
#define JITDEMO_VERIFY_H

#include <stdbool.h>

#include "bytecode.h"

bool verify_module(struct bc_module *mod, struct jit_diag *diag);

#endif
