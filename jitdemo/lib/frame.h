/*
 * frame.h - where a JIT'd function keeps its values, and how many bytes
 * of machine stack its frame takes.  The emitter lays frames out from
 * this plan, and the interpreter charges the same frame_bytes per call
 * (emit_frame_bytes), so both engines hit the call-stack limit
 * (JIT_MAX_CALL_STACK) on exactly the same call.
 *
 * Registers of JIT'd code (internal convention, see emit.h):
 *	rax rcx rdx		scratch
 *	rdi rsi r8 r9 rbp	arguments 0-4 on entry; caller-saved
 *	rbx r12 r13 r14 r15	operand stack slots 0-4, then homes; callee-saved
 *	r10			struct jit_ctx *, constant
 *	r11			stack limit, constant
 *
 * Operand slot i (i < 5) always lives in frame_slot_regs[i], but a frame
 * saves that register only when the code really puts a value there
 * (slot_regs_used, which the emitter finds by compiling once): constants,
 * arguments and locals, plus or minus a constant, stay virtual until an
 * instruction computes into their slot or a jump needs them in place.
 *
 * Every argument and local has a home, and so has the accumulator of a
 * function that accumulates (bytecode.h), after the locals (frame_acc_home):
 * in a function without calls
 * (a leaf) the argument registers themselves, then the unused argument
 * registers for locals; then callee-saved registers no operand slot uses;
 * then memory at [rsp + disp].  Spilled stack slots (5 and up) live in
 * memory too.
 */
#ifndef JITDEMO_FRAME_H
#define JITDEMO_FRAME_H

#include <stdbool.h>
#include <stddef.h>

#include "bytecode.h"
#include "x86.h"

#define FRAME_SLOT_REGS 5
#define FRAME_MAX_HOMES (JIT_MAX_ARGS + JIT_MAX_LOCALS + 1)	/* + accumulator */
#define FRAME_NO_REG (-1)

extern const enum x86_reg frame_slot_regs[FRAME_SLOT_REGS];
extern const enum x86_reg frame_arg_regs[JIT_MAX_ARGS];

struct frame_plan {
	bool leaf;			/* no reachable call */
	int nslot_regs;			/* operand slots held in registers */
	unsigned slot_regs_used;	/* bit i: slot i's register is saved */
	int home_reg[FRAME_MAX_HOMES];	/* x86_reg or FRAME_NO_REG */
	int32_t home_disp[FRAME_MAX_HOMES];	/* [rsp + disp] when in memory */
	int32_t spill_disp;		/* slot FRAME_SLOT_REGS + i at spill_disp + 8i */
	enum x86_reg pushed[FRAME_SLOT_REGS];
	int npushed;
	int32_t mem_bytes;		/* sub rsp, mem_bytes after the pushes */
	size_t frame_bytes;		/* return address + pushes + mem_bytes */
};

/* The accumulator's home in a function that accumulates. */
int frame_acc_home(const struct bc_func *fn);
/* Needs a verified function (max_stack, has_calls); bit i of
 * slot_regs_used: slot i's register is used, so saved. */
void frame_plan(const struct bc_func *fn, unsigned slot_regs_used, struct frame_plan *plan);

#endif
