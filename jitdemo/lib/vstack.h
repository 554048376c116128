/*
 * vstack.h - the compiler state every emitter shares: a function being
 * compiled, its fixups, x86 operands and the virtual operand stack, with
 * the helpers of vstack.c that move values between them.  Below emit.c
 * (the bytecode forms), emit_call.c (calls, returns, frames) and
 * emit_const.c (arithmetic by constants).  Not part of libjit's interface.
 */
#ifndef JITDEMO_VSTACK_H
#define JITDEMO_VSTACK_H

#include <stdbool.h>
#include <stdint.h>

#include "bytecode.h"
#include "x86.h"
#include "frame.h"

/* The most machine code (and fixups) one module may emit. */
#define EMIT_MAX_NATIVE_BYTES (32u << 20)

enum { CTX_TRAP = 0, CTX_SAVED_RSP = 8, CTX_STACK_FLOOR = 16 };	/* struct jit_ctx */

/* Shared by every function of a module, emitted first. */
enum module_stub {
	STUB_TRAP_EXIT,		/* eax = trap code: store, unwind to the C entry */
	STUB_DIV_ZERO,
	STUB_DIV_OVERFLOW,
	STUB_CALL_STACK,
	STUB_COUNT
};

/* TO_FRAME: past a callee's entry exit, for a call site that has done
 * the exit's check and test itself. */
enum fixup_kind { TO_BYTECODE, TO_FUNCTION, TO_FRAME };

struct fixup {
	size_t at;		/* offset of a rel32 */
	enum fixup_kind kind;
	size_t target;		/* bytecode offset or function index */
};

struct fixups {
	struct fixup *items;
	size_t count, cap;
	bool overflow;
};

/* Where a value of the virtual operand stack is. */
enum vkind {
	V_SLOT,			/* in its slot's own register or spill cell */
	V_IMM,			/* a constant not yet materialized */
	V_HOME,			/* an argument or local's current value + imm */
};

struct vval {
	enum vkind kind;
	int home;
	int64_t imm;		/* V_IMM's value, V_HOME's addend (fits an int32) */
};

/* An x86 operand: register, [rsp + disp] or immediate. */
enum opnd_kind { O_REG, O_MEM, O_IMM };

struct opnd {
	enum opnd_kind kind;
	enum x86_reg reg;
	int32_t disp;
	int64_t imm;
};

struct fn_compiler {
	const struct bc_module *mod;
	const struct bc_func *fn;
	struct code_buf *buf;
	struct fixups *local;	/* jumps of this function */
	struct fixups *calls;	/* module-wide calls */
	struct fixups *wide_divs;	/* jcc to a 64-bit division laid out after
					 * the body; target: where it rejoins */
	const size_t *stub_at;
	uint32_t *native_at;
	bool *is_target;
	int index;		/* of fn in the module */
	const unsigned *slot_regs;	/* per function, or NULL: a sizing pass */
	const size_t *frame_bytes;	/* per function, or NULL: a sizing pass */
	size_t body_entry;	/* after the prologue's stack check */
	size_t frame_entry;	/* after the entry exit, if any */
	struct frame_plan plan;
	unsigned slots_touched;	/* slot registers the code uses (bit per slot) */
	bool off_plan;		/* used a slot register the frame does not save */
	/* A quotient by a constant left in a free slot's register for a
	 * division of the same home by the same constant further on (x % 10
	 * then x / 10): valid until that slot, the home or a jump target
	 * intervenes. */
	struct kept_quotient {
		bool valid;
		int home, slot;
		int64_t divisor;
	} kept;
	struct vval vs[JIT_MAX_STACK + 1];
	int depth;
	bool fallthrough;	/* the previous instruction can fall into this one */
};

static inline bool fits_i32(int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; }

/* vstack.c: fixups, operands and the virtual stack */
void add_fixup(struct fixups *list, size_t at, enum fixup_kind kind, size_t target);
void jcc_to_stub(struct fn_compiler *c, enum x86_cond cond, enum module_stub stub);
struct opnd reg_opnd(enum x86_reg reg);
struct opnd slot_opnd(struct fn_compiler *c, int slot);
struct opnd home_opnd(const struct fn_compiler *c, int home);
struct opnd value_opnd(struct fn_compiler *c, int slot);
void mov_to_reg(struct fn_compiler *c, enum x86_reg dst, struct opnd src);
void mov_opnd(struct fn_compiler *c, struct opnd dst, struct opnd src);
void load_value(struct fn_compiler *c, enum x86_reg dst, int slot);
void push_value(struct fn_compiler *c, struct vval v);
/* Where slot's value lives from now on: in its slot, not a constant or a
 * home; flush() does it for slots from..to-1. */
void materialize(struct fn_compiler *c, int slot);
void flush(struct fn_compiler *c, int from, int to);
/* A register holding slot's value that the result may overwrite (rax for
 * a spilled slot); finish_in_reg() writes the result back to the slot. */
enum x86_reg working_reg(struct fn_compiler *c, int slot);
void finish_in_reg(struct fn_compiler *c, int slot, enum x86_reg reg);
void alu_with(struct fn_compiler *c, enum x86_alu op, enum x86_reg dst, struct opnd b);

#endif
