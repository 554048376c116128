/* emit_call.c - calls, returns and frames of JIT'd code (see emit.h):
 * the prologue and its entry exit, the call kinds of bytecode.h, the C
 * entry and the trap stubs. */
#include <stdlib.h>

#include "emit_call.h"
#include "entry_exit.h"

/* The C callee-saved registers a C entry saves, in push order. */
static const enum x86_reg c_saved[] = { RBP, RBX, R12, R13, R14, R15 };
#define NUM_C_SAVED (sizeof c_saved / sizeof c_saved[0])

static void emit_stack_check(struct fn_compiler *c, int32_t below_rsp)
{
	if (below_rsp == 0) {
		emit_alu_reg_reg(c->buf, ALU_CMP, RSP, R11);
	} else {
		emit_lea_reg_mem(c->buf, RAX, RSP, -below_rsp);
		emit_alu_reg_reg(c->buf, ALU_CMP, RAX, R11);
	}
	jcc_to_stub(c, CC_B, STUB_CALL_STACK);
}

static void zero_home(struct fn_compiler *c, int home)
{
	struct opnd loc = home_opnd(c, home);
	if (loc.kind == O_REG)
		emit_zero_reg(c->buf, loc.reg);
	else
		emit_mov_mem_imm32(c->buf, RSP, loc.disp, 0);
}

/* A constant, or an argument where args has it (NULL: in the register
 * it arrives in). */
static struct opnd exit_opnd(const struct opnd *args, struct entry_value v)
{
	if (!v.is_arg)
		return (struct opnd){ .kind = O_IMM, .imm = v.imm };
	return args ? args[v.arg] : reg_opnd(frame_arg_regs[v.arg]);
}

/* entry_exit.h: the test on the arguments (see exit_opnd); returns the
 * rel32 of the jump taken when the exit is not.  May use rax and rcx. */
static size_t emit_exit_test(struct fn_compiler *c, const struct entry_exit *e,
			     const struct opnd *args)
{
	static const enum x86_cond when_true[] = {
		[OP_EQ] = CC_E, [OP_NE] = CC_NE, [OP_LT] = CC_L,
		[OP_LE] = CC_LE, [OP_GT] = CC_G, [OP_GE] = CC_GE,
	};
	struct opnd lhs = exit_opnd(args, e->lhs);
	enum x86_cond cond = CC_NE;
	if (lhs.kind != O_REG) {
		mov_to_reg(c, RAX, lhs);
		lhs = reg_opnd(RAX);
	}
	if (!e->compares) {
		emit_test_reg_reg(c->buf, lhs.reg, lhs.reg);
	} else {
		alu_with(c, ALU_CMP, lhs.reg, exit_opnd(args, e->rhs));
		cond = when_true[e->compare];
	}
	if (!e->exit_if_true)
		cond = (enum x86_cond)(cond ^ 1);
	return emit_jcc_rel32(c->buf, (enum x86_cond)(cond ^ 1));
}

/* The exit's value, into rax. */
static void emit_exit_value(struct fn_compiler *c, const struct entry_exit *e)
{
	static const enum x86_alu step_alu[] = {
		[OP_ADD] = ALU_ADD, [OP_SUB] = ALU_SUB, [OP_AND] = ALU_AND,
		[OP_OR] = ALU_OR, [OP_XOR] = ALU_XOR,
	};
	mov_to_reg(c, RAX, exit_opnd(NULL, e->first));
	for (int i = 0; i < e->nsteps; i++)
		alu_with(c, step_alu[e->steps[i].op], RAX, exit_opnd(NULL, e->steps[i].value));
}

/* Before the prologue: the frame's check, the test and the frameless
 * return. */
static void emit_entry_exit(struct fn_compiler *c, const struct entry_exit *e)
{
	emit_stack_check(c, (int32_t)c->plan.frame_bytes - 8);
	size_t to_frame = emit_exit_test(c, e, NULL);
	emit_exit_value(c, e);
	emit_ret(c->buf);
	patch_rel32(c->buf, to_frame, c->buf->len);
}

void emit_prologue(struct fn_compiler *c)
{
	const struct frame_plan *p = &c->plan;
	struct entry_exit exit;
	bool checked = find_entry_exit(c->fn, &exit);
	if (checked)
		emit_entry_exit(c, &exit);
	c->frame_entry = c->buf->len;
	for (int i = 0; i < p->npushed; i++)
		emit_push_reg(c->buf, p->pushed[i]);
	if (p->mem_bytes > 0)
		emit_alu_reg_imm(c->buf, ALU_SUB, RSP, p->mem_bytes);
	if (!checked)
		emit_stack_check(c, 0);
	if (c->fn->accumulates)
		zero_home(c, frame_acc_home(c->fn));
	c->body_entry = c->buf->len;
	if (!p->leaf)
		for (int i = 0; i < c->fn->nargs; i++)
			mov_opnd(c, home_opnd(c, i), reg_opnd(frame_arg_regs[i]));
	for (int h = c->fn->nargs; h < c->fn->nargs + c->fn->nlocals; h++)
		zero_home(c, h);
}

/* Frees the frame; the caller then emits ret, or jmp for a tail call. */
static void emit_frame_release(struct fn_compiler *c)
{
	if (c->plan.mem_bytes > 0)
		emit_alu_reg_imm(c->buf, ALU_ADD, RSP, c->plan.mem_bytes);
	for (int i = c->plan.npushed - 1; i >= 0; i--)
		emit_pop_reg(c->buf, c->plan.pushed[i]);
}

static void emit_epilogue(struct fn_compiler *c)
{
	emit_frame_release(c);
	emit_ret(c->buf);
}

static void load_call_args(struct fn_compiler *c, int first, int arity)
{
	for (int i = 0; i < arity; i++)
		load_value(c, frame_arg_regs[i], first + i);
}

/* A call whose arguments, from slot first on, are loaded.  Values below
 * them stay put: slots and homes of a function with calls are
 * callee-saved or in its own frame.  A callee with an entry exit has it
 * taken here, without the call: the callee's frame check at the rsp the
 * call would give it, its test and its value. */
static void emit_loaded_call(struct fn_compiler *c, int callee, int first)
{
	struct entry_exit exit;
	bool inline_exit = find_entry_exit(&c->mod->funcs[callee], &exit);
	size_t to_call = 0, done = 0;
	if (inline_exit) {
		emit_stack_check(c, c->frame_bytes ? (int32_t)c->frame_bytes[callee] : 8);
		to_call = emit_exit_test(c, &exit, NULL);
		emit_exit_value(c, &exit);
		done = emit_jmp_rel32(c->buf);
		patch_rel32(c->buf, to_call, c->buf->len);
	}
	add_fixup(c->calls, emit_call_rel32(c->buf), inline_exit ? TO_FRAME : TO_FUNCTION,
		  (size_t)callee);
	if (inline_exit)
		patch_rel32(c->buf, done, c->buf->len);
	c->depth = first;
	push_value(c, (struct vval){ .kind = V_SLOT });
	mov_opnd(c, slot_opnd(c, first), reg_opnd(RAX));
}

static void compile_call(struct fn_compiler *c, int callee, int arity)
{
	int first = c->depth - arity;
	load_call_args(c, first, arity);
	emit_loaded_call(c, callee, first);
}

/* CALL_TAIL: the callee's frame replaces ours (bytecode.h). */
static void compile_tail_call(struct fn_compiler *c, int callee, int arity)
{
	int first = c->depth - arity;
	load_call_args(c, first, arity);
	emit_frame_release(c);
	add_fixup(c->calls, emit_jmp_rel32(c->buf), TO_FUNCTION, (size_t)callee);
	c->depth = first;
	c->fallthrough = false;
}

/* The accumulator op= value, op ALU_ADD or ALU_SUB.  May use rax. */
static void accumulate(struct fn_compiler *c, enum x86_alu op, struct opnd value)
{
	struct opnd acc = home_opnd(c, frame_acc_home(c->fn));
	if (acc.kind == O_REG) {
		alu_with(c, op, acc.reg, value);
		return;
	}
	if (value.kind == O_IMM && fits_i32(value.imm)) {
		emit_alu_mem_imm(c->buf, op, RSP, acc.disp, (int32_t)value.imm);
		return;
	}
	if (value.kind != O_REG) {
		mov_to_reg(c, RAX, value);
		value = reg_opnd(RAX);
	}
	emit_alu_mem_reg(c->buf, op, RSP, acc.disp, value.reg);
}

/* The jump back to where the prologue takes the arguments in, loaded: a
 * loop.  The stack check this skips passed for this very frame.  A
 * function with an entry exit tests it here first and, when it holds,
 * returns at once. */
static void emit_restart(struct fn_compiler *c)
{
	struct entry_exit exit;
	if (!find_entry_exit(c->fn, &exit)) {
		patch_rel32(c->buf, emit_jmp_rel32(c->buf), c->body_entry);
		return;
	}
	patch_rel32(c->buf, emit_exit_test(c, &exit, NULL), c->body_entry);
	emit_exit_value(c, &exit);
	if (c->fn->accumulates)
		alu_with(c, ALU_ADD, RAX, home_opnd(c, frame_acc_home(c->fn)));
	emit_epilogue(c);
}

/* CALL_RESTART and CALL_ACCUMULATE: keep the frame and loop. */
static void compile_restart(struct fn_compiler *c, int arity, bool accumulating)
{
	int first = c->depth - arity;
	load_call_args(c, first, arity);
	if (accumulating)
		accumulate(c, ALU_ADD, value_opnd(c, first - 1));
	emit_restart(c);
	c->depth = first;
	c->fallthrough = false;
}

/* CALL_NESTED: the outer call's exit, tested on the values below the
 * inner call's arguments.  When it holds, its terms join the accumulator
 * and the frame restarts with the inner call's arguments; when it does
 * not, the inner call is a real one.  Both paths leave the virtual stack
 * alike: anything the test needs in a register is put there before it. */
static void compile_nested_call(struct fn_compiler *c, int callee, int arity)
{
	static const enum x86_alu step_alu[] = { [OP_ADD] = ALU_ADD, [OP_SUB] = ALU_SUB };
	int first = c->depth - arity, outer = first - (arity - 1);
	struct opnd outer_args[JIT_MAX_ARGS] = { 0 };
	struct entry_exit exit;
	if (!find_entry_exit(c->fn, &exit))
		abort();	/* bc_call_kind found it */
	for (int i = 0; i < arity - 1; i++)
		outer_args[i] = value_opnd(c, outer + i);
	load_call_args(c, first, arity);
	size_t to_call = emit_exit_test(c, &exit, outer_args);
	for (int i = 0; i < exit.nsteps; i++)
		accumulate(c, step_alu[exit.steps[i].op], exit_opnd(outer_args, exit.steps[i].value));
	emit_restart(c);
	patch_rel32(c->buf, to_call, c->buf->len);
	emit_loaded_call(c, callee, first);
}

void compile_ret(struct fn_compiler *c)
{
	load_value(c, RAX, c->depth - 1);
	if (c->fn->accumulates)
		alu_with(c, ALU_ADD, RAX, home_opnd(c, frame_acc_home(c->fn)));
	c->depth--;
	emit_epilogue(c);
	c->fallthrough = false;
}

/* A call, and the add and ret a restart takes along when nothing jumps
 * to them; returns the bytes of bytecode consumed. */
size_t compile_call_insn(struct fn_compiler *c, size_t pc, size_t size)
{
	const uint8_t *opnd = c->fn->code + pc + 1;
	int callee = read_u16(opnd), arity = opnd[2];
	size_t used = size;
	switch (bc_call_kind(c->fn, pc)) {
	case CALL_PLAIN:
		compile_call(c, callee, arity);
		return size;
	case CALL_NESTED:
		compile_nested_call(c, callee, arity);
		return size;
	case CALL_TAIL:
		compile_tail_call(c, callee, arity);
		break;
	case CALL_RESTART:
		compile_restart(c, arity, false);
		break;
	case CALL_ACCUMULATE:
		compile_restart(c, arity, true);
		if (c->is_target[pc + used])
			return used;
		used++;		/* the add */
		break;
	}
	return c->is_target[pc + used] ? used : used + 1;	/* the ret */
}

/* C calls this as jit_native_fn(ctx, a0..a4); see emit.h. */
void emit_c_entry(struct code_buf *buf, struct fixups *calls, int func)
{
	static const uint8_t cmovb_r11_floor[] = { 0x4d, 0x0f, 0x42, 0x5a, CTX_STACK_FLOOR };
	for (size_t i = 0; i < NUM_C_SAVED; i++)
		emit_push_reg(buf, c_saved[i]);
	emit_mov_reg_reg(buf, R10, RDI);
	emit_mov_mem_imm32(buf, R10, CTX_TRAP, 0);
	emit_mov_mem_reg(buf, R10, CTX_SAVED_RSP, RSP);
	emit_lea_reg_mem(buf, R11, RSP, -(int32_t)JIT_MAX_CALL_STACK);
	emit_alu_reg_mem(buf, ALU_CMP, R11, R10, CTX_STACK_FLOOR);
	for (size_t i = 0; i < sizeof cmovb_r11_floor; i++)	/* cmovb r11, [r10+16] */
		emit_byte(buf, cmovb_r11_floor[i]);
	emit_mov_reg_reg(buf, RDI, RSI);	/* C's a0..a4 to ours */
	emit_mov_reg_reg(buf, RSI, RDX);
	emit_mov_reg_reg(buf, RBP, R9);
	emit_mov_reg_reg(buf, R9, R8);
	emit_mov_reg_reg(buf, R8, RCX);
	add_fixup(calls, emit_call_rel32(buf), TO_FUNCTION, (size_t)func);
	for (size_t i = NUM_C_SAVED; i-- > 0;)
		emit_pop_reg(buf, c_saved[i]);
	emit_ret(buf);
}

void emit_module_stubs(struct code_buf *buf, size_t *stub_at)
{
	stub_at[STUB_TRAP_EXIT] = buf->len;
	emit_mov_mem_reg(buf, R10, CTX_TRAP, RAX);
	emit_mov_reg_mem(buf, RSP, R10, CTX_SAVED_RSP);
	for (size_t i = NUM_C_SAVED; i-- > 0;)
		emit_pop_reg(buf, c_saved[i]);
	emit_ret(buf);
	static const struct { enum module_stub stub; int trap; } traps[] = {
		{ STUB_DIV_ZERO, JIT_TRAP_DIV_ZERO },
		{ STUB_DIV_OVERFLOW, JIT_TRAP_DIV_OVERFLOW },
		{ STUB_CALL_STACK, JIT_TRAP_CALL_DEPTH },
	};
	for (size_t i = 0; i < sizeof traps / sizeof traps[0]; i++) {
		stub_at[traps[i].stub] = buf->len;
		emit_mov_eax_imm32(buf, (uint32_t)traps[i].trap);
		patch_rel32(buf, emit_jmp_rel32(buf), stub_at[STUB_TRAP_EXIT]);
	}
}
