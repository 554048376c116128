/* vstack.c - what every emitter builds on: fixups, x86 operands and the
 * virtual operand stack of a function being compiled (see vstack.h).
 * Below emit.c, emit_call.c and emit_const.c; calls none of them. */
#include "vstack.h"

#include "util.h"

void add_fixup(struct fixups *list, size_t at, enum fixup_kind kind,
		      size_t target)
{
	if (!grow_array((void **)&list->items, &list->cap, list->count + 1,
			sizeof *list->items, EMIT_MAX_NATIVE_BYTES)) {
		list->overflow = true;
		return;
	}
	list->items[list->count++] = (struct fixup){ at, kind, target };
}

void jcc_to_stub(struct fn_compiler *c, enum x86_cond cond, enum module_stub stub)
{
	patch_rel32(c->buf, emit_jcc_rel32(c->buf, cond), c->stub_at[stub]);
}

/* ---- operands ---- */

struct opnd reg_opnd(enum x86_reg reg) { return (struct opnd){ .kind = O_REG, .reg = reg }; }
static struct opnd mem_opnd(int32_t disp) { return (struct opnd){ .kind = O_MEM, .disp = disp }; }

/* Only for writing or reading a materialized slot: frame.c saves exactly
 * the slot registers that can be materialized, and a miss fails the
 * compile rather than clobber the caller's register. */
struct opnd slot_opnd(struct fn_compiler *c, int slot)
{
	if (c->kept.valid && c->kept.slot == slot)
		c->kept.valid = false;	/* the slot is taken again */
	if (slot < FRAME_SLOT_REGS) {
		c->slots_touched |= 1u << slot;
		if (!(c->plan.slot_regs_used & (1u << slot)))
			c->off_plan = true;
		return reg_opnd(frame_slot_regs[slot]);
	}
	return mem_opnd(c->plan.spill_disp + 8 * (slot - FRAME_SLOT_REGS));
}

struct opnd home_opnd(const struct fn_compiler *c, int home)
{
	if (c->plan.home_reg[home] != FRAME_NO_REG)
		return reg_opnd((enum x86_reg)c->plan.home_reg[home]);
	return mem_opnd(c->plan.home_disp[home]);
}

void materialize(struct fn_compiler *c, int slot);

/* Where slot's value can be read; a home plus an addend is computed into
 * the slot first. */
struct opnd value_opnd(struct fn_compiler *c, int slot)
{
	const struct vval *v = &c->vs[slot];
	switch (v->kind) {
	case V_IMM: return (struct opnd){ .kind = O_IMM, .imm = v->imm };
	case V_HOME:
		if (v->imm == 0)
			return home_opnd(c, v->home);
		materialize(c, slot);
		break;
	case V_SLOT: break;
	}
	return slot_opnd(c, slot);
}

void mov_to_reg(struct fn_compiler *c, enum x86_reg dst, struct opnd src)
{
	switch (src.kind) {
	case O_REG: emit_mov_reg_reg(c->buf, dst, src.reg); break;
	case O_MEM: emit_mov_reg_mem(c->buf, dst, RSP, src.disp); break;
	case O_IMM: emit_mov_reg_imm(c->buf, dst, src.imm); break;
	}
}

/* dst is a register or memory; may use rax for memory to memory. */
void mov_opnd(struct fn_compiler *c, struct opnd dst, struct opnd src)
{
	if (dst.kind == O_REG) {
		mov_to_reg(c, dst.reg, src);
		return;
	}
	if (src.kind == O_MEM && src.disp == dst.disp)
		return;
	if (src.kind == O_IMM && fits_i32(src.imm)) {
		emit_mov_mem_imm32(c->buf, RSP, dst.disp, (int32_t)src.imm);
		return;
	}
	if (src.kind != O_REG) {
		mov_to_reg(c, RAX, src);
		src = reg_opnd(RAX);
	}
	emit_mov_mem_reg(c->buf, RSP, dst.disp, src.reg);
}

/* ---- the virtual stack ---- */

/* dst = home + addend: one lea when the home is a register. */
static void load_home_plus(struct fn_compiler *c, enum x86_reg dst, int home, int64_t addend)
{
	struct opnd loc = home_opnd(c, home);
	if (loc.kind == O_REG && addend != 0) {
		emit_lea_reg_mem(c->buf, dst, loc.reg, (int32_t)addend);
		return;
	}
	mov_to_reg(c, dst, loc);
	if (addend != 0)
		emit_alu_reg_imm(c->buf, ALU_ADD, dst, (int32_t)addend);
}

/* dst = slot's value, straight from a home plus its addend if need be. */
void load_value(struct fn_compiler *c, enum x86_reg dst, int slot)
{
	const struct vval *v = &c->vs[slot];
	if (v->kind == V_HOME)
		load_home_plus(c, dst, v->home, v->imm);
	else
		mov_to_reg(c, dst, value_opnd(c, slot));
}

void materialize(struct fn_compiler *c, int slot)
{
	struct vval *v = &c->vs[slot];
	if (v->kind == V_SLOT)
		return;
	struct opnd dst = slot_opnd(c, slot);
	if (v->kind == V_HOME && v->imm != 0) {
		enum x86_reg reg = dst.kind == O_REG ? dst.reg : RAX;
		load_home_plus(c, reg, v->home, v->imm);
		mov_opnd(c, dst, reg_opnd(reg));
	} else {
		mov_opnd(c, dst, value_opnd(c, slot));
	}
	v->kind = V_SLOT;
}

void flush(struct fn_compiler *c, int from, int to)
{
	for (int i = from; i < to; i++)
		materialize(c, i);
}

void push_value(struct fn_compiler *c, struct vval v)
{
	c->vs[c->depth++] = v;
}

/* A register holding slot's value that may be overwritten with the result;
 * rax stands in for a spilled slot (write it back with finish_in_reg). */
enum x86_reg working_reg(struct fn_compiler *c, int slot)
{
	materialize(c, slot);
	struct opnd loc = slot_opnd(c, slot);
	if (loc.kind == O_REG)
		return loc.reg;
	emit_mov_reg_mem(c->buf, RAX, RSP, loc.disp);
	return RAX;
}

void finish_in_reg(struct fn_compiler *c, int slot, enum x86_reg reg)
{
	mov_opnd(c, slot_opnd(c, slot), reg_opnd(reg));
	c->vs[slot].kind = V_SLOT;
}

/* dst op= b, for the classic ALU group (including cmp). */
void alu_with(struct fn_compiler *c, enum x86_alu op, enum x86_reg dst, struct opnd b)
{
	switch (b.kind) {
	case O_REG: emit_alu_reg_reg(c->buf, op, dst, b.reg); break;
	case O_MEM: emit_alu_reg_mem(c->buf, op, dst, RSP, b.disp); break;
	case O_IMM:
		if (fits_i32(b.imm)) {
			emit_alu_reg_imm(c->buf, op, dst, (int32_t)b.imm);
		} else {
			emit_mov_reg_imm64(c->buf, RCX, b.imm);
			emit_alu_reg_reg(c->buf, op, dst, RCX);
		}
		break;
	}
}
