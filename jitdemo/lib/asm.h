/*
 * asm.h - the text assembler.
 *
 *	; comment (also '#')
 *	func NAME ARGS LOCALS
 *	label:  op [operand]
 *
 * Operands: const takes a decimal or 0x-hex int64; arg/setarg/load/store
 * a slot number; jmp/jz/jnz a label of the same function; call a function
 * name, optionally followed by its argument count.  The result is an
 * unverified module; run verify_module() on it before use.
 */
#ifndef JITDEMO_ASM_H
#define JITDEMO_ASM_H

#include "bytecode.h"

struct bc_module *asm_parse(const char *file, const char *text, size_t len,
			    struct jit_diag *diag);

#endif
