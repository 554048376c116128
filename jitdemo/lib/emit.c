/* emit.c - the template JIT over a virtual operand stack (see emit.h):
 * operands, the virtual stack, one function per bytecode form, and the
 * module's passes.  Calls, returns and frames are in emit_call.c; the
 * operands and the virtual stack they all use are in vstack.c. */
#include "emit.h"

#include <stdlib.h>
#include <string.h>

#include "emit_call.h"
#include "emit_const.h"
#include "vstack.h"
#include "util.h"

/* ---- one function per bytecode form ---- */

static void compile_store_home(struct fn_compiler *c, int home)
{
	int top = c->depth - 1;
	if (c->kept.valid && c->kept.home == home)
		c->kept.valid = false;
	if (!(c->vs[top].kind == V_HOME && c->vs[top].home == home && c->vs[top].imm == 0)) {
		for (int i = 0; i < top; i++)	/* older copies keep the old value */
			if (c->vs[i].kind == V_HOME && c->vs[i].home == home)
				materialize(c, i);
		mov_opnd(c, home_opnd(c, home), value_opnd(c, top));
	}
	c->depth--;
}

static void compile_dup(struct fn_compiler *c)
{
	int top = c->depth - 1;
	if (c->vs[top].kind != V_SLOT) {
		push_value(c, c->vs[top]);
		return;
	}
	mov_opnd(c, slot_opnd(c, top + 1), slot_opnd(c, top));
	push_value(c, (struct vval){ .kind = V_SLOT });
}

static void compile_swap(struct fn_compiler *c)
{
	int a = c->depth - 2, b = c->depth - 1;
	struct vval va = c->vs[a], vb = c->vs[b];
	if (va.kind != V_SLOT && vb.kind != V_SLOT) {
		c->vs[a] = vb;
		c->vs[b] = va;
	} else if (va.kind == V_SLOT && vb.kind != V_SLOT) {
		mov_opnd(c, slot_opnd(c, b), slot_opnd(c, a));
		c->vs[a] = vb;
		c->vs[b].kind = V_SLOT;
	} else if (vb.kind == V_SLOT && va.kind != V_SLOT) {
		mov_opnd(c, slot_opnd(c, a), slot_opnd(c, b));
		c->vs[b] = va;
		c->vs[a].kind = V_SLOT;
	} else {
		mov_to_reg(c, RAX, slot_opnd(c, a));
		mov_to_reg(c, RCX, slot_opnd(c, b));
		mov_opnd(c, slot_opnd(c, a), reg_opnd(RCX));
		mov_opnd(c, slot_opnd(c, b), reg_opnd(RAX));
	}
}

/* "home; const k; add/sub" stays virtual as home + addend while the
 * addend fits a displacement: a call argument then costs one lea. */
static bool fold_addend(struct fn_compiler *c, enum x86_alu op)
{
	struct vval *a = &c->vs[c->depth - 2];
	const struct vval *b = &c->vs[c->depth - 1];
	if ((op != ALU_ADD && op != ALU_SUB) || a->kind != V_HOME || b->kind != V_IMM)
		return false;
	uint64_t k = op == ALU_ADD ? (uint64_t)b->imm : 0 - (uint64_t)b->imm;
	int64_t sum = (int64_t)((uint64_t)a->imm + k);
	if (!fits_i32(sum))
		return false;
	a->imm = sum;
	c->depth--;
	return true;
}

static void compile_alu(struct fn_compiler *c, enum x86_alu op)
{
	if (fold_addend(c, op))
		return;
	int a = c->depth - 2, b = c->depth - 1;
	struct opnd rhs = value_opnd(c, b);
	enum x86_reg dst = working_reg(c, a);
	alu_with(c, op, dst, rhs);
	finish_in_reg(c, a, dst);
	c->depth--;
}

static void compile_mul(struct fn_compiler *c)
{
	int a = c->depth - 2, b = c->depth - 1;
	struct opnd rhs = value_opnd(c, b);
	enum x86_reg dst = working_reg(c, a);
	if (rhs.kind == O_IMM)
		emit_mul_by_const(c, dst, rhs.imm);
	else if (rhs.kind == O_MEM)
		emit_imul_reg_mem(c->buf, dst, RSP, rhs.disp);
	else
		emit_imul_reg_reg(c->buf, dst, rhs.reg);
	finish_in_reg(c, a, dst);
	c->depth--;
}

static size_t insn_size(const struct bc_func *fn, size_t pc)
{
	return 1 + operand_size(opcode_info(fn->code[pc])->operand);
}

static int home_pushed_by(const struct fn_compiler *c, size_t pc)
{
	const uint8_t *code = c->fn->code;
	if (code[pc] == OP_ARG)
		return code[pc + 1];
	return code[pc] == OP_LOAD ? c->fn->nargs + code[pc + 1] : -1;
}

/* Whether the straight-line code after pc divides home by divisor again
 * ("load/arg home; const divisor; div/mod") before anything could change
 * the home or join the path. */
static bool divides_again(const struct fn_compiler *c, size_t pc, int home, int64_t divisor)
{
	const struct bc_func *fn = c->fn;
	for (pc += 1; pc < fn->len && !c->is_target[pc]; pc += insn_size(fn, pc)) {
		uint8_t op = fn->code[pc];
		if (op == OP_JMP || op == OP_JZ || op == OP_JNZ || op == OP_CALL || op == OP_RET)
			return false;
		if ((op == OP_STORE || op == OP_SETARG) &&
		    (op == OP_SETARG ? 0 : fn->nargs) + fn->code[pc + 1] == home)
			return false;
		size_t next = pc + 2, after = next + 9;
		if (home_pushed_by(c, pc) == home && after < fn->len && fn->code[next] == OP_CONST &&
		    read_i64(fn->code + next + 1) == divisor && !c->is_target[next] && !c->is_target[after] &&
		    (fn->code[after] == OP_DIV || fn->code[after] == OP_MOD))
			return true;
	}
	return false;
}

/* A constant divisor other than 0 takes emit_const.c's multiply-high or
 * shifts, with the dividend in rcx.  A home divided by the same constant
 * twice (x % 10, x / 10) multiplies once: the first division leaves its
 * quotient in the divisor's slot register. */
static bool compile_divmod_by_const(struct fn_compiler *c, size_t pc, bool want_remainder)
{
	int a = c->depth - 2, b = c->depth - 1;
	if (c->vs[b].kind != V_IMM || c->vs[b].imm == 0)
		return false;
	int64_t divisor = c->vs[b].imm;
	int home = c->vs[a].kind == V_HOME && c->vs[a].imm == 0 ? c->vs[a].home : -1;
	bool reuse = home >= 0 && c->kept.valid && c->kept.home == home && c->kept.divisor == divisor;
	if (!reuse || want_remainder)
		load_value(c, RCX, a);
	enum x86_reg result;
	if (reuse) {
		result = emit_divmod_from_quotient(c, frame_slot_regs[c->kept.slot], divisor,
						   want_remainder);
	} else if (home >= 0 && b < FRAME_SLOT_REGS && divisor > 0 && divides_by_reciprocal(divisor) &&
		   divides_again(c, pc, home, divisor)) {
		enum x86_reg keep = slot_opnd(c, b).reg;
		result = emit_divmod_by_const(c, divisor, want_remainder, &keep);
		c->kept = (struct kept_quotient){ true, home, b, divisor };
	} else {
		result = emit_divmod_by_const(c, divisor, want_remainder, NULL);
	}
	finish_in_reg(c, a, result);
	c->depth--;
	return true;
}

/* Traps on b == 0 and on INT64_MIN / -1 before idiv can fault.  When
 * both operands are in [0, 2^32), a 32-bit unsigned div gives the same
 * quotient and remainder at a fraction of a 64-bit idiv's latency (the
 * slow-division bypass compilers apply for CPUs with slow 64-bit
 * dividers).  The 64-bit path is laid out after the body (emit_wide_divs),
 * so the 32-bit one runs straight through. */
static void compile_divmod(struct fn_compiler *c, size_t pc, bool want_remainder)
{
	if (compile_divmod_by_const(c, pc, want_remainder))
		return;
	int a = c->depth - 2, b = c->depth - 1;
	mov_to_reg(c, RCX, value_opnd(c, b));
	mov_to_reg(c, RAX, value_opnd(c, a));
	emit_test_reg_reg(c->buf, RCX, RCX);
	jcc_to_stub(c, CC_E, STUB_DIV_ZERO);
	emit_mov_reg_reg(c->buf, RDX, RAX);
	emit_alu_reg_reg(c->buf, ALU_OR, RDX, RCX);
	emit_shift_reg_imm(c->buf, SHIFT_SHR, RDX, 32);
	size_t wide = emit_jcc_rel32(c->buf, CC_NE);
	emit_zero_reg(c->buf, RDX);	/* rdx is 0 already, but the */
	emit_div_reg32(c->buf, RCX);	/* div need not wait for shr */
	add_fixup(c->wide_divs, wide, TO_BYTECODE, c->buf->len);
	finish_in_reg(c, a, want_remainder ? RDX : RAX);
	c->depth--;
}

/* The 64-bit idiv of each variable division, after the body: rax / rcx,
 * trapping on INT64_MIN / -1, then back to where the 32-bit div ends. */
static void emit_wide_divs(struct fn_compiler *c)
{
	for (size_t i = 0; i < c->wide_divs->count; i++) {
		const struct fixup *f = &c->wide_divs->items[i];
		patch_rel32(c->buf, f->at, c->buf->len);
		emit_cmp_reg_imm8(c->buf, RCX, -1);
		size_t divisor_ok = emit_jcc_rel32(c->buf, CC_NE);
		emit_alu_reg_imm(c->buf, ALU_CMP, RAX, 1);	/* overflows only for INT64_MIN */
		jcc_to_stub(c, CC_O, STUB_DIV_OVERFLOW);
		patch_rel32(c->buf, divisor_ok, c->buf->len);
		emit_cqo(c->buf);
		emit_idiv_reg(c->buf, RCX);
		patch_rel32(c->buf, emit_jmp_rel32(c->buf), f->target);
	}
	c->wide_divs->count = 0;
}

static void compile_unary(struct fn_compiler *c, bool negate)
{
	int a = c->depth - 1;
	enum x86_reg dst = working_reg(c, a);
	if (negate)
		emit_neg_reg(c->buf, dst);
	else
		emit_not_reg(c->buf, dst);
	finish_in_reg(c, a, dst);
}

/* x86 masks 64-bit shift counts to 6 bits, as the bytecode defines. */
static void compile_shift(struct fn_compiler *c, enum x86_shift kind)
{
	int a = c->depth - 2, b = c->depth - 1;
	struct opnd count = value_opnd(c, b);
	enum x86_reg dst = working_reg(c, a);
	if (count.kind == O_IMM) {
		emit_shift_reg_imm(c->buf, kind, dst, (uint8_t)(count.imm & 63));
	} else {
		mov_to_reg(c, RCX, count);
		emit_shift_reg_cl(c->buf, kind, dst);
	}
	finish_in_reg(c, a, dst);
	c->depth--;
}

/* Sets the flags of a - b (signed) for the two top values. */
static void emit_compare(struct fn_compiler *c)
{
	struct opnd lhs = value_opnd(c, c->depth - 2), rhs = value_opnd(c, c->depth - 1);
	if (lhs.kind == O_IMM || (lhs.kind == O_MEM && rhs.kind == O_MEM)) {
		mov_to_reg(c, RAX, lhs);
		lhs = reg_opnd(RAX);
	}
	if (lhs.kind == O_REG) {
		alu_with(c, ALU_CMP, lhs.reg, rhs);
		return;
	}
	if (rhs.kind == O_IMM && !fits_i32(rhs.imm)) {
		emit_mov_reg_imm64(c->buf, RCX, rhs.imm);
		rhs = reg_opnd(RCX);
	}
	if (rhs.kind == O_IMM)
		emit_alu_mem_imm(c->buf, ALU_CMP, RSP, lhs.disp, (int32_t)rhs.imm);
	else
		emit_alu_mem_reg(c->buf, ALU_CMP, RSP, lhs.disp, rhs.reg);
}

static void jump_to_bytecode(struct fn_compiler *c, size_t rel32_at, uint32_t target)
{
	add_fixup(c->local, rel32_at, TO_BYTECODE, target);
}

/* Compare, then jz/jnz at next_pc: one cmp and one jcc. */
static void compile_compare_branch(struct fn_compiler *c, enum x86_cond cond, size_t next_pc)
{
	const uint8_t *code = c->fn->code;
	flush(c, 0, c->depth - 2);
	emit_compare(c);
	if (code[next_pc] == OP_JZ)
		cond = (enum x86_cond)(cond ^ 1);
	jump_to_bytecode(c, emit_jcc_rel32(c->buf, cond), read_u32(code + next_pc + 1));
	c->depth -= 2;
}

static void compile_compare(struct fn_compiler *c, enum x86_cond cond)
{
	int a = c->depth - 2;
	emit_compare(c);
	emit_setcc_al(c->buf, cond);
	emit_movzx_eax_al(c->buf);
	finish_in_reg(c, a, RAX);
	c->depth--;
}

static size_t compile_insn(struct fn_compiler *c, size_t pc, size_t size);

static bool pushes_in_place(uint8_t op) { return op == OP_CONST || op == OP_ARG || op == OP_LOAD; }

static bool is_compare(uint8_t op) { return op >= OP_EQ && op <= OP_GE; }

static bool branches_on_value(uint8_t op) { return op == OP_JZ || op == OP_JNZ; }

/* The instruction after pc, or 0 when there is none or it is a jump
 * target (a loop test must be one straight piece). */
static size_t next_in_test(const struct fn_compiler *c, size_t pc)
{
	size_t next = pc + insn_size(c->fn, pc);
	return next < c->fn->len && !c->is_target[next] ? next : 0;
}

/* A loop test at pc: "push; jz/jnz" or "push; push; compare; jz/jnz",
 * each push a constant, argument or local.  Returns the pc of its
 * jz/jnz and sets *compares, or returns 0 when it is not one. */
static size_t loop_test_branch(const struct fn_compiler *c, size_t pc, bool *compares)
{
	const uint8_t *code = c->fn->code;
	size_t second = pushes_in_place(code[pc]) ? next_in_test(c, pc) : 0;
	if (second && branches_on_value(code[second])) {
		*compares = false;
		return second;
	}
	size_t compare = second && pushes_in_place(code[second]) ? next_in_test(c, second) : 0;
	size_t branch = compare && is_compare(code[compare]) ? next_in_test(c, compare) : 0;
	*compares = true;
	return branch && branches_on_value(code[branch]) ? branch : 0;
}

/* Loop rotation: a jump back to a loop test runs a copy of the test and
 * branches straight into the body, one conditional branch per iteration
 * instead of a jmp and the test's jcc.  The state matches: everything is
 * in its slot after the jmp's flush, as after the test's own branch. */
static bool compile_rotated_jmp(struct fn_compiler *c, uint32_t target, size_t pc)
{
	static const enum x86_cond compare_cond[] = {
		[OP_EQ] = CC_E, [OP_NE] = CC_NE, [OP_LT] = CC_L,
		[OP_LE] = CC_LE, [OP_GT] = CC_G, [OP_GE] = CC_GE,
	};
	const uint8_t *code = c->fn->code;
	bool compares = false;
	size_t branch = target < pc ? loop_test_branch(c, target, &compares) : 0;
	if (branch == 0 || (code[target] == OP_CONST && !compares))
		return false;
	int depth = c->depth;
	compile_insn(c, target, insn_size(c->fn, target));
	enum x86_cond exit_cond;
	if (compares) {
		size_t second = next_in_test(c, target);
		compile_insn(c, second, insn_size(c->fn, second));
		emit_compare(c);
		exit_cond = compare_cond[code[branch - 1]];
		if (code[branch] == OP_JZ)
			exit_cond = (enum x86_cond)(exit_cond ^ 1);
	} else {
		struct opnd value = value_opnd(c, c->depth - 1);
		if (value.kind == O_REG)
			emit_test_reg_reg(c->buf, value.reg, value.reg);
		else
			emit_alu_mem_imm(c->buf, ALU_CMP, RSP, value.disp, 0);
		exit_cond = code[branch] == OP_JZ ? CC_E : CC_NE;
	}
	c->depth = depth;
	size_t body = branch + insn_size(c->fn, branch);
	jump_to_bytecode(c, emit_jcc_rel32(c->buf, (enum x86_cond)(exit_cond ^ 1)), (uint32_t)body);
	uint32_t exit = read_u32(code + branch + 1);
	if (exit != pc + insn_size(c->fn, pc))	/* else the exit is right here */
		jump_to_bytecode(c, emit_jmp_rel32(c->buf), exit);
	return true;
}

static void compile_jmp(struct fn_compiler *c, uint32_t target, size_t pc)
{
	flush(c, 0, c->depth);
	if (!compile_rotated_jmp(c, target, pc))
		jump_to_bytecode(c, emit_jmp_rel32(c->buf), target);
	c->fallthrough = false;
}

static void compile_branch(struct fn_compiler *c, uint32_t target, bool if_zero)
{
	int top = c->depth - 1;
	flush(c, 0, top);
	struct opnd value = value_opnd(c, top);
	c->depth--;
	if (value.kind == O_IMM) {
		if ((value.imm == 0) == if_zero)
			jump_to_bytecode(c, emit_jmp_rel32(c->buf), target);
		return;
	}
	if (value.kind == O_REG)
		emit_test_reg_reg(c->buf, value.reg, value.reg);
	else
		emit_alu_mem_imm(c->buf, ALU_CMP, RSP, value.disp, 0);
	jump_to_bytecode(c, emit_jcc_rel32(c->buf, if_zero ? CC_E : CC_NE), target);
}

static bool foldable_compare(const struct fn_compiler *c, size_t next_pc)
{
	const struct bc_func *fn = c->fn;
	return next_pc < fn->len && !c->is_target[next_pc] &&
	       (fn->code[next_pc] == OP_JZ || fn->code[next_pc] == OP_JNZ);
}

/* Compiles the instruction at pc; returns the bytes of bytecode consumed
 * (a compare can take the jz/jnz after it along). */
static size_t compile_insn(struct fn_compiler *c, size_t pc, size_t size)
{
	static const enum x86_cond compare_cond[] = {
		[OP_EQ] = CC_E, [OP_NE] = CC_NE, [OP_LT] = CC_L,
		[OP_LE] = CC_LE, [OP_GT] = CC_G, [OP_GE] = CC_GE,
	};
	const uint8_t *code = c->fn->code;
	const uint8_t *opnd = code + pc + 1;
	int nargs = c->fn->nargs;
	switch ((enum opcode)code[pc]) {
	case OP_CONST: push_value(c, (struct vval){ .kind = V_IMM, .imm = read_i64(opnd) }); break;
	case OP_ARG: push_value(c, (struct vval){ .kind = V_HOME, .home = opnd[0] }); break;
	case OP_LOAD: push_value(c, (struct vval){ .kind = V_HOME, .home = nargs + opnd[0] }); break;
	case OP_SETARG: compile_store_home(c, opnd[0]); break;
	case OP_STORE: compile_store_home(c, nargs + opnd[0]); break;
	case OP_DUP: compile_dup(c); break;
	case OP_DROP: c->depth--; break;
	case OP_SWAP: compile_swap(c); break;
	case OP_ADD: compile_alu(c, ALU_ADD); break;
	case OP_SUB: compile_alu(c, ALU_SUB); break;
	case OP_MUL: compile_mul(c); break;
	case OP_DIV: compile_divmod(c, pc, false); break;
	case OP_MOD: compile_divmod(c, pc, true); break;
	case OP_NEG: compile_unary(c, true); break;
	case OP_AND: compile_alu(c, ALU_AND); break;
	case OP_OR: compile_alu(c, ALU_OR); break;
	case OP_XOR: compile_alu(c, ALU_XOR); break;
	case OP_NOT: compile_unary(c, false); break;
	case OP_SHL: compile_shift(c, SHIFT_SHL); break;
	case OP_SHR: compile_shift(c, SHIFT_SHR); break;
	case OP_SAR: compile_shift(c, SHIFT_SAR); break;
	case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT: case OP_GE:
		if (foldable_compare(c, pc + size)) {
			compile_compare_branch(c, compare_cond[code[pc]], pc + size);
			return size + 5;
		}
		compile_compare(c, compare_cond[code[pc]]);
		break;
	case OP_JMP: compile_jmp(c, read_u32(opnd), pc); break;
	case OP_JZ: compile_branch(c, read_u32(opnd), true); break;
	case OP_JNZ: compile_branch(c, read_u32(opnd), false); break;
	case OP_CALL:
		c->kept.valid = false;
		return compile_call_insn(c, pc, size);
	case OP_RET: compile_ret(c); break;
	case OP_COUNT: break;
	}
	return size;
}

/* ---- functions and the module ---- */

static void resolve_local_fixups(struct fn_compiler *c, size_t start)
{
	for (size_t i = 0; i < c->local->count; i++) {
		const struct fixup *f = &c->local->items[i];
		patch_rel32(c->buf, f->at, start + c->native_at[f->target]);
	}
	c->local->count = 0;
}

static void mark_jump_targets(const struct bc_func *fn, bool *is_target)
{
	for (size_t pc = 0; pc < fn->len;) {
		uint8_t op = fn->code[pc];
		if (fn->depth_at[pc] >= 0 && (op == OP_JMP || op == OP_JZ || op == OP_JNZ))
			is_target[read_u32(fn->code + pc + 1)] = true;
		pc += 1 + operand_size(opcode_info(op)->operand);
	}
}

/* At a jump target every slot is in place; so is it after a jump. */
static void enter_insn(struct fn_compiler *c, size_t pc)
{
	int depth = c->fn->depth_at[pc];
	if (c->is_target[pc] && c->fallthrough)
		flush(c, 0, c->depth);
	if (c->is_target[pc] || !c->fallthrough) {
		c->kept.valid = false;
		for (int i = 0; i < depth; i++)
			c->vs[i].kind = V_SLOT;
		c->depth = depth;
	}
	c->fallthrough = true;
}

static void compile_body(struct fn_compiler *c, struct emitted_func *out)
{
	const struct bc_func *fn = c->fn;
	for (size_t pc = 0; pc < fn->len;) {
		size_t size = 1 + operand_size(opcode_info(fn->code[pc])->operand);
		if (fn->depth_at[pc] < 0) {	/* unreachable code emits nothing */
			for (size_t i = 0; i < size; i++)
				c->native_at[pc + i] = (uint32_t)(c->buf->len - out->start);
			c->fallthrough = false;
			pc += size;
			continue;
		}
		enter_insn(c, pc);
		uint32_t at = (uint32_t)(c->buf->len - out->start);
		size_t used = compile_insn(c, pc, size);
		for (size_t i = 0; i < used; i++)
			c->native_at[pc + i] = at;
		pc += used;
	}
	c->native_at[fn->len] = (uint32_t)(c->buf->len - out->start);
}

/* One pass over the body with c->plan; starts at out->start. */
static void compile_pass(struct fn_compiler *c, struct emitted_func *out)
{
	c->slots_touched = 0;
	c->off_plan = false;
	emit_prologue(c);
	c->depth = 0;
	c->fallthrough = true;
	c->kept.valid = false;
	c->wide_divs->count = 0;
	compile_body(c, out);
	emit_wide_divs(c);
	resolve_local_fixups(c, out->start);
}

/* With the function's plan, or in a sizing pass with every slot
 * register saved (frame.h). */
static bool compile_function(struct fn_compiler *c, int index, struct emitted_func *out)
{
	const struct bc_func *fn = c->fn;
	out->entry = c->buf->len;
	emit_c_entry(c->buf, c->calls, index);
	out->start = c->buf->len;
	out->native_at = calloc(fn->len + 1, sizeof *out->native_at);
	c->is_target = calloc(fn->len + 1, sizeof *c->is_target);
	bool ok = out->native_at && c->is_target;
	if (ok) {
		c->native_at = out->native_at;
		mark_jump_targets(fn, c->is_target);
		frame_plan(fn, c->slot_regs ? c->slot_regs[index] : ~0u, &c->plan);
		compile_pass(c, out);
		out->frame_bytes = c->plan.frame_bytes;
		out->frame_entry = c->frame_entry;
	}
	free(c->is_target);
	out->end = c->buf->len;
	return ok && !c->off_plan && !c->buf->overflow && !c->local->overflow &&
	       !c->wide_divs->overflow;
}

struct module_compiler {
	const struct bc_module *mod;
	struct emitted_module *out;
	struct fixups local, calls, wide_divs;
	size_t stub_at[STUB_COUNT];
	size_t bodies_at;	/* after the stubs */
	bool off_plan;
};

/* Every function once; slot_regs and frame_bytes NULL for the sizing
 * pass, which fills slots_touched instead. */
static bool compile_all(struct module_compiler *m, const unsigned *slot_regs,
			const size_t *frame_bytes, unsigned *slots_touched)
{
	m->out->code.len = m->bodies_at;
	m->local.count = 0;
	m->calls.count = 0;
	bool ok = true;
	for (int i = 0; ok && i < m->mod->nfuncs; i++) {
		struct fn_compiler c = {
			.mod = m->mod, .fn = &m->mod->funcs[i], .index = i,
			.slot_regs = slot_regs, .frame_bytes = frame_bytes,
			.buf = &m->out->code, .local = &m->local, .calls = &m->calls,
			.wide_divs = &m->wide_divs,
			.stub_at = m->stub_at,
		};
		free(m->out->funcs[i].native_at);
		ok = compile_function(&c, i, &m->out->funcs[i]);
		m->off_plan = c.off_plan;
		if (slots_touched)
			slots_touched[i] = c.slots_touched;
	}
	return ok;
}

/* Two passes: the first finds which slot registers each function uses,
 * the second lays frames out from that and knows every callee's frame
 * size (an inlined entry exit checks it). */
bool emit_module(const struct bc_module *mod, struct emitted_module *out,
		 struct jit_diag *diag)
{
	memset(out, 0, sizeof *out);
	if (!mod->verified) {
		diag_at(diag, mod->file, 0, "module not verified");
		return false;
	}
	struct module_compiler m = { .mod = mod, .out = out };
	code_buf_init(&out->code, EMIT_MAX_NATIVE_BYTES);
	out->funcs = calloc((size_t)mod->nfuncs, sizeof *out->funcs);
	out->nfuncs = mod->nfuncs;
	unsigned *slots = calloc((size_t)mod->nfuncs, sizeof *slots);
	size_t *frames = calloc((size_t)mod->nfuncs, sizeof *frames);
	emit_module_stubs(&out->code, m.stub_at);
	m.bodies_at = out->code.len;
	bool ok = out->funcs && slots && frames && compile_all(&m, NULL, NULL, slots);
	for (int i = 0; ok && i < mod->nfuncs; i++) {
		struct frame_plan plan;
		frame_plan(&mod->funcs[i], slots[i], &plan);
		frames[i] = plan.frame_bytes;
	}
	ok = ok && compile_all(&m, slots, frames, NULL);
	for (size_t i = 0; ok && i < m.calls.count; i++) {
		const struct fixup *f = &m.calls.items[i];
		const struct emitted_func *callee = &out->funcs[f->target];
		patch_rel32(&out->code, f->at, f->kind == TO_FRAME ? callee->frame_entry : callee->start);
	}
	ok = ok && !m.calls.overflow && !m.wide_divs.overflow && !out->code.overflow;
	free(m.local.items);
	free(m.wide_divs.items);
	free(m.calls.items);
	free(slots);
	free(frames);
	if (!ok) {
		diag_at(diag, mod->file, 0, m.off_plan ?
			"internal error: code uses a register its frame does not save" :
			"machine code too large or out of memory");
		emitted_module_free(out);
	}
	return ok;
}

bool emit_frame_bytes(const struct bc_module *mod, size_t *bytes)
{
	struct emitted_module em;
	struct jit_diag diag;
	if (!emit_module(mod, &em, &diag))
		return false;
	for (int i = 0; i < em.nfuncs; i++)
		bytes[i] = em.funcs[i].frame_bytes;
	emitted_module_free(&em);
	return true;
}

void emitted_module_free(struct emitted_module *em)
{
	for (int i = 0; em->funcs && i < em->nfuncs; i++)
		free(em->funcs[i].native_at);
	free(em->funcs);
	code_buf_free(&em->code);
	memset(em, 0, sizeof *em);
}
