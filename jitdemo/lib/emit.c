/* emit.c - the template JIT: one small function per bytecode form. */
#include "emit.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

#define NUM_SLOT_REGS 5

static const enum x86_reg slot_regs[NUM_SLOT_REGS] = { RBX, R12, R13, R14, R15 };
static const enum x86_reg arg_regs[JIT_MAX_ARGS] = { RSI, RDX, RCX, R8, R9 };

enum { CTX_TRAP = 0, CTX_DEPTH_LEFT = 8 };	/* offsets in struct jit_ctx */

/* Out-of-line code at the end of each function. */
enum stub {
	STUB_RETURN,		/* count the frame back in, then epilogue */
	STUB_EPILOGUE,
	STUB_DIV_ZERO,
	STUB_DIV_OVERFLOW,
	STUB_CALL_DEPTH,
	STUB_TRAP,		/* store eax in ctx->trap, return */
	STUB_PROPAGATE,		/* a callee trapped: return at once */
	STUB_COUNT
};

enum fixup_kind { TO_BYTECODE, TO_STUB, TO_FUNCTION };

struct fixup {
	size_t at;		/* offset of a rel32 */
	enum fixup_kind kind;
	size_t target;		/* bytecode offset, stub or function index */
};

struct fixups {
	struct fixup *items;
	size_t count, cap;
	bool overflow;
};

struct fn_compiler {
	const struct bc_module *mod;
	const struct bc_func *fn;
	struct code_buf *buf;
	struct fixups *local;	/* jumps and stubs of this function */
	struct fixups *calls;	/* module-wide calls */
	uint32_t *native_at;
	int nsaved;
	int32_t ctx_disp, args_disp, locals_disp, spill_disp;
	size_t stub_at[STUB_COUNT];
	int depth;		/* stack depth before the current instruction */
};

static void add_fixup(struct fixups *list, size_t at, enum fixup_kind kind,
		      size_t target)
{
	if (!grow_array((void **)&list->items, &list->cap, list->count + 1,
			sizeof *list->items, EMIT_MAX_NATIVE_BYTES)) {
		list->overflow = true;
		return;
	}
	list->items[list->count++] = (struct fixup){ at, kind, target };
}

static void jump_to_stub(struct fn_compiler *c, size_t rel32_at, enum stub stub)
{
	add_fixup(c->local, rel32_at, TO_STUB, stub);
}

/* Where stack slot i lives. */
static bool slot_in_reg(int slot) { return slot < NUM_SLOT_REGS; }

static int32_t slot_disp(const struct fn_compiler *c, int slot)
{
	return c->spill_disp - 8 * (slot - NUM_SLOT_REGS);
}

/* Returns a register holding slot's value, loading a spilled one into scratch. */
static enum x86_reg load_slot(struct fn_compiler *c, int slot, enum x86_reg scratch)
{
	if (slot_in_reg(slot))
		return slot_regs[slot];
	emit_mov_reg_mem(c->buf, scratch, RBP, slot_disp(c, slot));
	return scratch;
}

/* The register in which to compute slot's new value. */
static enum x86_reg result_reg(int slot, enum x86_reg scratch)
{
	return slot_in_reg(slot) ? slot_regs[slot] : scratch;
}

static void store_slot(struct fn_compiler *c, int slot, enum x86_reg value)
{
	if (slot_in_reg(slot))
		emit_mov_reg_reg(c->buf, slot_regs[slot], value);
	else
		emit_mov_mem_reg(c->buf, RBP, slot_disp(c, slot), value);
}

static int32_t arg_disp(const struct fn_compiler *c, int i) { return c->args_disp - 8 * i; }
static int32_t local_disp(const struct fn_compiler *c, int i) { return c->locals_disp - 8 * i; }

/* ---- one function per bytecode form ---- */

static void compile_const(struct fn_compiler *c, int64_t value)
{
	enum x86_reg dst = result_reg(c->depth, RAX);
	if (value >= INT32_MIN && value <= INT32_MAX)
		emit_mov_reg_imm32_sx(c->buf, dst, (int32_t)value);
	else
		emit_mov_reg_imm64(c->buf, dst, value);
	store_slot(c, c->depth, dst);
}

static void compile_load_frame(struct fn_compiler *c, int32_t disp)
{
	enum x86_reg dst = result_reg(c->depth, RAX);
	emit_mov_reg_mem(c->buf, dst, RBP, disp);
	store_slot(c, c->depth, dst);
}

static void compile_store_frame(struct fn_compiler *c, int32_t disp)
{
	enum x86_reg value = load_slot(c, c->depth - 1, RAX);
	emit_mov_mem_reg(c->buf, RBP, disp, value);
}

static void compile_dup(struct fn_compiler *c)
{
	store_slot(c, c->depth, load_slot(c, c->depth - 1, RAX));
}

static void compile_swap(struct fn_compiler *c)
{
	int a = c->depth - 2, b = c->depth - 1;
	emit_mov_reg_reg(c->buf, RAX, load_slot(c, a, RAX));
	store_slot(c, a, load_slot(c, b, RCX));
	store_slot(c, b, RAX);
}

static void compile_alu(struct fn_compiler *c, enum x86_alu op)
{
	int a = c->depth - 2, b = c->depth - 1;
	enum x86_reg ra = load_slot(c, a, RAX);
	enum x86_reg rb = load_slot(c, b, RCX);
	emit_alu_reg_reg(c->buf, op, ra, rb);
	store_slot(c, a, ra);
}

static void compile_mul(struct fn_compiler *c)
{
	int a = c->depth - 2, b = c->depth - 1;
	enum x86_reg ra = load_slot(c, a, RAX);
	enum x86_reg rb = load_slot(c, b, RCX);
	emit_imul_reg_reg(c->buf, ra, rb);
	store_slot(c, a, ra);
}

/* Traps on b == 0 and on INT64_MIN / -1 before idiv can fault. */
static void compile_divmod(struct fn_compiler *c, bool want_remainder)
{
	int a = c->depth - 2, b = c->depth - 1;
	emit_mov_reg_reg(c->buf, RCX, load_slot(c, b, RCX));
	emit_test_reg_reg(c->buf, RCX, RCX);
	jump_to_stub(c, emit_jcc_rel32(c->buf, CC_E), STUB_DIV_ZERO);
	emit_cmp_reg_imm8(c->buf, RCX, -1);
	size_t divisor_ok = emit_jcc_rel32(c->buf, CC_NE);
	emit_mov_reg_reg(c->buf, RAX, load_slot(c, a, RAX));
	emit_mov_reg_imm64(c->buf, RDX, INT64_MIN);
	emit_alu_reg_reg(c->buf, ALU_CMP, RAX, RDX);
	jump_to_stub(c, emit_jcc_rel32(c->buf, CC_E), STUB_DIV_OVERFLOW);
	patch_rel32(c->buf, divisor_ok, c->buf->len);
	emit_mov_reg_reg(c->buf, RAX, load_slot(c, a, RAX));
	emit_cqo(c->buf);
	emit_idiv_reg(c->buf, RCX);
	store_slot(c, a, want_remainder ? RDX : RAX);
}

static void compile_unary(struct fn_compiler *c, bool negate)
{
	int a = c->depth - 1;
	enum x86_reg ra = load_slot(c, a, RAX);
	if (negate)
		emit_neg_reg(c->buf, ra);
	else
		emit_not_reg(c->buf, ra);
	store_slot(c, a, ra);
}

/* x86 masks 64-bit shift counts to 6 bits, as the bytecode defines. */
static void compile_shift(struct fn_compiler *c, enum x86_shift kind)
{
	int a = c->depth - 2, b = c->depth - 1;
	emit_mov_reg_reg(c->buf, RCX, load_slot(c, b, RCX));
	enum x86_reg ra = load_slot(c, a, RAX);
	emit_shift_reg_cl(c->buf, kind, ra);
	store_slot(c, a, ra);
}

static void compile_compare(struct fn_compiler *c, enum x86_cond cond)
{
	int a = c->depth - 2, b = c->depth - 1;
	enum x86_reg ra = load_slot(c, a, RAX);
	enum x86_reg rb = load_slot(c, b, RCX);
	emit_alu_reg_reg(c->buf, ALU_CMP, ra, rb);
	emit_setcc_al(c->buf, cond);
	emit_movzx_eax_al(c->buf);
	store_slot(c, a, RAX);
}

static void compile_jmp(struct fn_compiler *c, uint32_t target)
{
	add_fixup(c->local, emit_jmp_rel32(c->buf), TO_BYTECODE, target);
}

static void compile_branch(struct fn_compiler *c, uint32_t target, bool if_zero)
{
	enum x86_reg value = load_slot(c, c->depth - 1, RAX);
	emit_test_reg_reg(c->buf, value, value);
	size_t at = emit_jcc_rel32(c->buf, if_zero ? CC_E : CC_NE);
	add_fixup(c->local, at, TO_BYTECODE, target);
}

/* Direct call: arguments into rsi.., ctx into rdi, then check ctx->trap. */
static void compile_call(struct fn_compiler *c, int callee, int arity)
{
	int first = c->depth - arity;
	for (int i = 0; i < arity; i++) {
		int slot = first + i;
		if (slot_in_reg(slot))
			emit_mov_reg_reg(c->buf, arg_regs[i], slot_regs[slot]);
		else
			emit_mov_reg_mem(c->buf, arg_regs[i], RBP, slot_disp(c, slot));
	}
	emit_mov_reg_mem(c->buf, RDI, RBP, c->ctx_disp);
	add_fixup(c->calls, emit_call_rel32(c->buf), TO_FUNCTION, (size_t)callee);
	emit_mov_reg_mem(c->buf, RCX, RBP, c->ctx_disp);
	emit_cmp_mem_imm8(c->buf, RCX, CTX_TRAP, 0);
	jump_to_stub(c, emit_jcc_rel32(c->buf, CC_NE), STUB_PROPAGATE);
	store_slot(c, first, RAX);
}

static void compile_ret(struct fn_compiler *c)
{
	emit_mov_reg_reg(c->buf, RAX, load_slot(c, c->depth - 1, RAX));
	jump_to_stub(c, emit_jmp_rel32(c->buf), STUB_RETURN);
}

static void compile_insn(struct fn_compiler *c, size_t pc)
{
	const uint8_t *code = c->fn->code;
	const uint8_t *opnd = code + pc + 1;
	switch ((enum opcode)code[pc]) {
	case OP_CONST: compile_const(c, read_i64(opnd)); break;
	case OP_ARG: compile_load_frame(c, arg_disp(c, opnd[0])); break;
	case OP_SETARG: compile_store_frame(c, arg_disp(c, opnd[0])); break;
	case OP_LOAD: compile_load_frame(c, local_disp(c, opnd[0])); break;
	case OP_STORE: compile_store_frame(c, local_disp(c, opnd[0])); break;
	case OP_DUP: compile_dup(c); break;
	case OP_DROP: break;
	case OP_SWAP: compile_swap(c); break;
	case OP_ADD: compile_alu(c, ALU_ADD); break;
	case OP_SUB: compile_alu(c, ALU_SUB); break;
	case OP_MUL: compile_mul(c); break;
	case OP_DIV: compile_divmod(c, false); break;
	case OP_MOD: compile_divmod(c, true); break;
	case OP_NEG: compile_unary(c, true); break;
	case OP_AND: compile_alu(c, ALU_AND); break;
	case OP_OR: compile_alu(c, ALU_OR); break;
	case OP_XOR: compile_alu(c, ALU_XOR); break;
	case OP_NOT: compile_unary(c, false); break;
	case OP_SHL: compile_shift(c, SHIFT_SHL); break;
	case OP_SHR: compile_shift(c, SHIFT_SHR); break;
	case OP_SAR: compile_shift(c, SHIFT_SAR); break;
	case OP_EQ: compile_compare(c, CC_E); break;
	case OP_NE: compile_compare(c, CC_NE); break;
	case OP_LT: compile_compare(c, CC_L); break;
	case OP_LE: compile_compare(c, CC_LE); break;
	case OP_GT: compile_compare(c, CC_G); break;
	case OP_GE: compile_compare(c, CC_GE); break;
	case OP_JMP: compile_jmp(c, read_u32(opnd)); break;
	case OP_JZ: compile_branch(c, read_u32(opnd), true); break;
	case OP_JNZ: compile_branch(c, read_u32(opnd), false); break;
	case OP_CALL: compile_call(c, read_u16(opnd), opnd[2]); break;
	case OP_RET: compile_ret(c); break;
	case OP_COUNT: break;
	}
}

/* ---- frame, prologue and stubs ---- */

static void lay_out_frame(struct fn_compiler *c, int32_t *frame_bytes)
{
	const struct bc_func *fn = c->fn;
	c->nsaved = fn->max_stack < NUM_SLOT_REGS ? fn->max_stack : NUM_SLOT_REGS;
	int spilled = fn->max_stack > NUM_SLOT_REGS ? fn->max_stack - NUM_SLOT_REGS : 0;
	int slot = c->nsaved + 1;		/* in 8-byte units below rbp */
	c->ctx_disp = -8 * slot++;
	c->args_disp = -8 * slot;
	slot += fn->nargs;
	c->locals_disp = -8 * slot;
	slot += fn->nlocals;
	c->spill_disp = -8 * slot;
	slot += spilled - 1;
	int32_t below_rbp = 8 * slot;
	below_rbp = (below_rbp + 15) & ~15;
	*frame_bytes = below_rbp - 8 * c->nsaved;
}

static void emit_prologue(struct fn_compiler *c)
{
	int32_t frame_bytes;
	lay_out_frame(c, &frame_bytes);
	emit_push_reg(c->buf, RBP);
	emit_mov_reg_reg(c->buf, RBP, RSP);
	for (int i = 0; i < c->nsaved; i++)
		emit_push_reg(c->buf, slot_regs[i]);
	emit_sub_reg_imm32(c->buf, RSP, frame_bytes);
	emit_mov_mem_reg(c->buf, RBP, c->ctx_disp, RDI);
	for (int i = 0; i < c->fn->nargs; i++)
		emit_mov_mem_reg(c->buf, RBP, arg_disp(c, i), arg_regs[i]);
	if (c->fn->nlocals > 0)
		emit_xor_eax_eax(c->buf);
	for (int i = 0; i < c->fn->nlocals; i++)
		emit_mov_mem_reg(c->buf, RBP, local_disp(c, i), RAX);
	emit_add_mem_imm8(c->buf, RDI, CTX_DEPTH_LEFT, -1);
	jump_to_stub(c, emit_jcc_rel32(c->buf, CC_S), STUB_CALL_DEPTH);
}

static void emit_trap_stub(struct fn_compiler *c, enum stub stub, int trap)
{
	c->stub_at[stub] = c->buf->len;
	emit_mov_eax_imm32(c->buf, (uint32_t)trap);
	jump_to_stub(c, emit_jmp_rel32(c->buf), STUB_TRAP);
}

static void emit_stubs(struct fn_compiler *c)
{
	c->stub_at[STUB_RETURN] = c->buf->len;
	emit_mov_reg_mem(c->buf, RCX, RBP, c->ctx_disp);
	emit_add_mem_imm8(c->buf, RCX, CTX_DEPTH_LEFT, 1);
	c->stub_at[STUB_EPILOGUE] = c->buf->len;
	emit_lea_reg_mem(c->buf, RSP, RBP, -8 * c->nsaved);
	for (int i = c->nsaved - 1; i >= 0; i--)
		emit_pop_reg(c->buf, slot_regs[i]);
	emit_pop_reg(c->buf, RBP);
	emit_ret(c->buf);
	emit_trap_stub(c, STUB_DIV_ZERO, JIT_TRAP_DIV_ZERO);
	emit_trap_stub(c, STUB_DIV_OVERFLOW, JIT_TRAP_DIV_OVERFLOW);
	emit_trap_stub(c, STUB_CALL_DEPTH, JIT_TRAP_CALL_DEPTH);
	c->stub_at[STUB_TRAP] = c->buf->len;
	emit_mov_reg_mem(c->buf, RCX, RBP, c->ctx_disp);
	emit_mov_mem_reg(c->buf, RCX, CTX_TRAP, RAX);
	c->stub_at[STUB_PROPAGATE] = c->buf->len;
	emit_xor_eax_eax(c->buf);
	jump_to_stub(c, emit_jmp_rel32(c->buf), STUB_EPILOGUE);
}

static void resolve_local_fixups(struct fn_compiler *c, size_t start)
{
	for (size_t i = 0; i < c->local->count; i++) {
		const struct fixup *f = &c->local->items[i];
		size_t target = f->kind == TO_STUB ? c->stub_at[f->target] :
				start + c->native_at[f->target];
		patch_rel32(c->buf, f->at, target);
	}
	c->local->count = 0;
}

static bool compile_function(struct fn_compiler *c, struct emitted_func *out)
{
	const struct bc_func *fn = c->fn;
	out->start = c->buf->len;
	out->native_at = calloc(fn->len + 1, sizeof *out->native_at);
	if (!out->native_at)
		return false;
	c->native_at = out->native_at;
	emit_prologue(c);
	for (size_t pc = 0; pc < fn->len;) {
		const struct opcode_info *info = opcode_info(fn->code[pc]);
		size_t size = 1 + operand_size(info->operand);
		for (size_t i = 0; i < size; i++)
			c->native_at[pc + i] = (uint32_t)(c->buf->len - out->start);
		c->depth = fn->depth_at[pc];
		if (c->depth >= 0)	/* unreachable code emits nothing */
			compile_insn(c, pc);
		pc += size;
	}
	c->native_at[fn->len] = (uint32_t)(c->buf->len - out->start);
	emit_stubs(c);
	resolve_local_fixups(c, out->start);
	out->end = c->buf->len;
	return !c->buf->overflow && !c->local->overflow;
}

bool emit_module(const struct bc_module *mod, struct emitted_module *out,
		 struct jit_diag *diag)
{
	memset(out, 0, sizeof *out);
	if (!mod->verified) {
		diag_at(diag, mod->file, 0, "module not verified");
		return false;
	}
	code_buf_init(&out->code, EMIT_MAX_NATIVE_BYTES);
	out->funcs = calloc((size_t)mod->nfuncs, sizeof *out->funcs);
	out->nfuncs = mod->nfuncs;
	struct fixups local = { 0 }, calls = { 0 };
	bool ok = out->funcs != NULL;
	for (int i = 0; ok && i < mod->nfuncs; i++) {
		struct fn_compiler c = {
			.mod = mod, .fn = &mod->funcs[i], .buf = &out->code,
			.local = &local, .calls = &calls,
		};
		ok = compile_function(&c, &out->funcs[i]);
	}
	for (size_t i = 0; ok && i < calls.count; i++)
		patch_rel32(&out->code, calls.items[i].at,
			    out->funcs[calls.items[i].target].start);
	ok = ok && !calls.overflow && !out->code.overflow;
	free(local.items);
	free(calls.items);
	if (!ok) {
		diag_at(diag, mod->file, 0, "machine code too large or out of memory");
		emitted_module_free(out);
	}
	return ok;
}

void emitted_module_free(struct emitted_module *em)
{
	for (int i = 0; em->funcs && i < em->nfuncs; i++)
		free(em->funcs[i].native_at);
	free(em->funcs);
	code_buf_free(&em->code);
	memset(em, 0, sizeof *em);
}
