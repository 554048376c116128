/* entry_exit.c - finds a function's early exit on its arguments (see entry_exit.h). */
#include "entry_exit.h"

#include <string.h>

static size_t insn_size(const struct bc_func *fn, size_t pc)
{
	return 1 + operand_size(opcode_info(fn->code[pc])->operand);
}

/* An arg or const at *pc, consumed; constants must fit an imm32 unless
 * wide is allowed (a mov, not an operand). */
static bool take_value(const struct bc_func *fn, size_t *pc, bool wide,
		       struct entry_value *out)
{
	if (*pc >= fn->len)
		return false;
	const uint8_t *opnd = fn->code + *pc + 1;
	switch (fn->code[*pc]) {
	case OP_ARG:
		*out = (struct entry_value){ .is_arg = true, .arg = opnd[0] };
		break;
	case OP_CONST:
		*out = (struct entry_value){ .imm = read_i64(opnd) };
		if (!wide && (out->imm < INT32_MIN || out->imm > INT32_MAX))
			return false;
		break;
	default:
		return false;
	}
	*pc += insn_size(fn, *pc);
	return true;
}

static bool is_step_op(uint8_t op)
{
	return op == OP_ADD || op == OP_SUB || op == OP_AND || op == OP_OR || op == OP_XOR;
}

/* "value (value op)* ret" at pc: an exit that needs no frame. */
static bool take_exit_block(const struct bc_func *fn, size_t pc, struct entry_exit *out)
{
	if (!take_value(fn, &pc, true, &out->first))
		return false;
	for (out->nsteps = 0; pc < fn->len && fn->code[pc] != OP_RET;) {
		if (out->nsteps == ENTRY_EXIT_MAX_STEPS ||
		    !take_value(fn, &pc, false, &out->steps[out->nsteps].value) ||
		    pc >= fn->len || !is_step_op(fn->code[pc]))
			return false;
		out->steps[out->nsteps++].op = (enum opcode)fn->code[pc];
		pc++;
	}
	return pc < fn->len;
}

static bool is_compare(uint8_t op) { return op >= OP_EQ && op <= OP_GE; }

bool find_entry_exit(const struct bc_func *fn, struct entry_exit *out)
{
	size_t pc = 0;
	memset(out, 0, sizeof *out);
	if (!take_value(fn, &pc, false, &out->lhs))
		return false;
	if (pc < fn->len && fn->code[pc] != OP_JZ && fn->code[pc] != OP_JNZ) {
		out->compares = true;
		if (!take_value(fn, &pc, false, &out->rhs) || pc >= fn->len ||
		    !is_compare(fn->code[pc]))
			return false;
		out->compare = (enum opcode)fn->code[pc++];
	}
	if (pc >= fn->len || (fn->code[pc] != OP_JZ && fn->code[pc] != OP_JNZ))
		return false;
	if (!out->lhs.is_arg && !(out->compares && out->rhs.is_arg))
		return false;	/* a constant test: nothing to gain */
	bool jz = fn->code[pc] == OP_JZ;
	size_t target = read_u32(fn->code + pc + 1), next = pc + 5;
	if (take_exit_block(fn, next, out)) {
		out->exit_if_true = jz;		/* jz falls through on true */
		return true;
	}
	if (take_exit_block(fn, target, out)) {
		out->exit_if_true = !jz;
		return true;
	}
	return false;
}

bool entry_exit_folds(const struct entry_exit *e, int nargs)
{
	int last = nargs - 1;
	bool reads_last = (e->lhs.is_arg && e->lhs.arg == last) ||
			  (e->compares && e->rhs.is_arg && e->rhs.arg == last);
	if (reads_last || !e->first.is_arg || e->first.arg != last)
		return false;
	for (int i = 0; i < e->nsteps; i++)
		if ((e->steps[i].op != OP_ADD && e->steps[i].op != OP_SUB) ||
		    (e->steps[i].value.is_arg && e->steps[i].value.arg == last))
			return false;
	return true;
}

static int64_t value_of(struct entry_value v, const int64_t *args)
{
	return v.is_arg ? args[v.arg] : v.imm;
}

bool entry_exit_taken(const struct entry_exit *e, const int64_t *args)
{
	int64_t a = value_of(e->lhs, args), b = e->compares ? value_of(e->rhs, args) : 0;
	bool holds;
	switch (e->compares ? e->compare : OP_NE) {
	case OP_EQ: holds = a == b; break;
	case OP_NE: holds = a != b; break;
	case OP_LT: holds = a < b; break;
	case OP_LE: holds = a <= b; break;
	case OP_GT: holds = a > b; break;
	default: holds = a >= b; break;
	}
	return holds == e->exit_if_true;
}

int64_t entry_exit_terms(const struct entry_exit *e, const int64_t *args)
{
	uint64_t sum = 0;	/* wraps, as the bytecode's add and sub do */
	for (int i = 0; i < e->nsteps; i++) {
		uint64_t v = (uint64_t)value_of(e->steps[i].value, args);
		sum = e->steps[i].op == OP_ADD ? sum + v : sum - v;
	}
	return (int64_t)sum;
}
