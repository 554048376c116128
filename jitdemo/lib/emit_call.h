/*
 * emit_call.h - calls, returns, frames and the C boundary (emit_call.c),
 * used by emit.c's passes; built on vstack.h.  Not part of libjit's
 * interface.
 */
#ifndef JITDEMO_EMIT_CALL_H
#define JITDEMO_EMIT_CALL_H

#include <stddef.h>

#include "vstack.h"

void emit_prologue(struct fn_compiler *c);
void emit_c_entry(struct code_buf *buf, struct fixups *calls, int func);
void emit_module_stubs(struct code_buf *buf, size_t *stub_at);
void compile_ret(struct fn_compiler *c);
/* A call, and the add and ret a restart takes along; returns the bytes
 * of bytecode consumed. */
size_t compile_call_insn(struct fn_compiler *c, size_t pc, size_t size);

#endif
