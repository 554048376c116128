/* frame.c - home and frame layout of JIT'd functions (see frame.h). */
#include "frame.h"

#include <string.h>

const enum x86_reg frame_slot_regs[FRAME_SLOT_REGS] = { RBX, R12, R13, R14, R15 };
const enum x86_reg frame_arg_regs[JIT_MAX_ARGS] = { RDI, RSI, R8, R9, RBP };

/* Registers a leaf may use for homes without saving them. */
static int leaf_free_regs(const struct bc_func *fn, enum x86_reg *regs)
{
	int n = 0;
	for (int i = fn->nargs; i < JIT_MAX_ARGS; i++)
		regs[n++] = frame_arg_regs[i];
	return n;
}

static unsigned slot_bit(int slot) { return slot >= 0 && slot < FRAME_SLOT_REGS ? 1u << slot : 0; }

/* Slots 0 .. depth-1 that have registers. */
static unsigned slots_below(int depth)
{
	if (depth <= 0)
		return 0;
	return depth >= FRAME_SLOT_REGS ? (1u << FRAME_SLOT_REGS) - 1 : (1u << depth) - 1;
}

/* The operand slots the emitter may compute into or flush to (emit.c's
 * materialize callers), over-approximated per instruction from the
 * verifier's depths; d is the depth before the instruction. */
static unsigned insn_slots(const struct bc_func *fn, size_t pc, int d)
{
	const uint8_t *code = fn->code;
	switch ((enum opcode)code[pc]) {
	case OP_CONST: case OP_ARG: case OP_LOAD: case OP_DROP: case OP_RET: case OP_COUNT:
		return 0;
	case OP_SETARG: case OP_STORE: case OP_JZ: case OP_JNZ:
		return slots_below(d - 1);
	case OP_JMP:
		return slots_below(d);
	case OP_DUP:
		return slot_bit(d - 1) | slot_bit(d);
	case OP_SWAP:
		return slot_bit(d - 2) | slot_bit(d - 1);
	case OP_NEG: case OP_NOT:
		return slot_bit(d - 1);
	case OP_CALL:
		return bc_call_kind(fn, pc) == CALL_PLAIN ? slot_bit(d - code[pc + 3]) : 0;
	case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT: case OP_GE:
		return slots_below(d - 1);	/* the result, or a flush before cmp+jcc */
	default:			/* binary arithmetic: the result */
		return slot_bit(d - 2);
	}
}

/* Which of the slot registers a frame must save; a jump target needs its
 * whole stack in place. */
static unsigned slot_regs_used(const struct bc_func *fn)
{
	unsigned used = 0;
	for (size_t pc = 0; pc < fn->len;) {
		uint8_t op = fn->code[pc];
		int d = fn->depth_at[pc];
		if (d >= 0) {
			used |= insn_slots(fn, pc, d);
			if (op == OP_JMP || op == OP_JZ || op == OP_JNZ)
				used |= slots_below(fn->depth_at[read_u32(fn->code + pc + 1)]);
		}
		pc += 1 + operand_size(opcode_info(op)->operand);
	}
	return used;
}

int frame_acc_home(const struct bc_func *fn) { return fn->nargs + fn->nlocals; }

void frame_plan(const struct bc_func *fn, struct frame_plan *plan)
{
	memset(plan, 0, sizeof *plan);
	plan->leaf = !fn->has_calls;
	plan->nslot_regs = fn->max_stack < FRAME_SLOT_REGS ? fn->max_stack : FRAME_SLOT_REGS;
	plan->slot_regs_used = slot_regs_used(fn) & slots_below(plan->nslot_regs);
	for (int i = 0; i < plan->nslot_regs; i++)
		if (plan->slot_regs_used & slot_bit(i))
			plan->pushed[plan->npushed++] = frame_slot_regs[i];
	int nhomes = fn->nargs + fn->nlocals + (fn->accumulates ? 1 : 0);
	enum x86_reg free_regs[JIT_MAX_ARGS];
	int nfree = plan->leaf ? leaf_free_regs(fn, free_regs) : 0;
	int next_free = 0, next_saved = FRAME_SLOT_REGS - 1, nmem = 0;
	for (int h = 0; h < nhomes; h++) {
		plan->home_reg[h] = FRAME_NO_REG;
		while (next_saved >= 0 && (plan->slot_regs_used & slot_bit(next_saved)))
			next_saved--;
		if (plan->leaf && h < fn->nargs) {
			plan->home_reg[h] = frame_arg_regs[h];
		} else if (next_free < nfree) {
			plan->home_reg[h] = free_regs[next_free++];
		} else if (next_saved >= 0) {
			plan->home_reg[h] = frame_slot_regs[next_saved--];
			plan->pushed[plan->npushed++] = (enum x86_reg)plan->home_reg[h];
		} else {
			nmem++;
		}
	}
	int spilled = fn->max_stack - plan->nslot_regs;
	plan->spill_disp = 0;
	int32_t disp = 8 * spilled;
	for (int h = 0; h < nhomes; h++)
		if (plan->home_reg[h] == FRAME_NO_REG) {
			plan->home_disp[h] = disp;
			disp += 8;
		}
	plan->mem_bytes = 8 * (spilled + nmem);
	plan->frame_bytes = 8 + 8 * (size_t)plan->npushed + (size_t)plan->mem_bytes;
}

size_t frame_bytes(const struct bc_func *fn)
{
	struct frame_plan plan;
	frame_plan(fn, &plan);
	return plan.frame_bytes;
}
