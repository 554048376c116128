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

int frame_acc_home(const struct bc_func *fn) { return fn->nargs + fn->nlocals; }

static unsigned slot_bit(int slot) { return 1u << slot; }

void frame_plan(const struct bc_func *fn, unsigned slot_regs_used, struct frame_plan *plan)
{
	memset(plan, 0, sizeof *plan);
	plan->leaf = !fn->has_calls;
	plan->nslot_regs = fn->max_stack < FRAME_SLOT_REGS ? fn->max_stack : FRAME_SLOT_REGS;
	plan->slot_regs_used = slot_regs_used & (slot_bit(plan->nslot_regs) - 1);
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
