/* bytecode.c - the opcode table and module helpers. */
#include "bytecode.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct opcode_info opcode_table[OP_COUNT] = {
#define X(name, text, operand, pops, pushes) { text, operand, pops, pushes },
	OPCODE_LIST(X)
#undef X
};

const struct opcode_info *opcode_info(unsigned op)
{
	return op < OP_COUNT ? &opcode_table[op] : NULL;
}

int opcode_by_name(const char *name)
{
	for (int op = 0; op < OP_COUNT; op++)
		if (opcode_table[op].name[0] == name[0] &&
		    strcmp(opcode_table[op].name, name) == 0)
			return op;
	return -1;
}

size_t operand_size(enum operand_kind kind)
{
	switch (kind) {
	case OPND_NONE: return 0;
	case OPND_I64: return 8;
	case OPND_SLOT: return 1;
	case OPND_TARGET: return 4;
	case OPND_CALL: return 3;
	}
	return 0;
}

int64_t read_i64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return (int64_t)v;
}

uint32_t read_u32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

uint16_t read_u16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static unsigned name_hash(const char *name)
{
	uint32_t h = 2166136261u;	/* FNV-1a */
	for (; *name; name++)
		h = (h ^ (uint8_t)*name) * 16777619u;
	return h % BC_NAME_HASH_SIZE;
}

int bc_find_func(const struct bc_module *mod, const char *name)
{
	if (!mod->names_hashed) {
		for (int i = 0; i < mod->nfuncs; i++)
			if (strcmp(mod->funcs[i].name, name) == 0)
				return i;
		return -1;
	}
	for (unsigned h = name_hash(name);; h = (h + 1) % BC_NAME_HASH_SIZE) {
		unsigned slot = mod->name_slot[h];
		if (slot == 0)
			return -1;
		if (strcmp(mod->funcs[slot - 1].name, name) == 0)
			return (int)slot - 1;
	}
}

static bool op_at(const struct bc_func *fn, size_t pc, enum opcode op)
{
	return pc < fn->len && fn->code[pc] == op;
}

/* The verifier guarantees what an add after a call needs, one value
 * below the arguments, and what a nested call needs: the outer call's
 * other arguments below the inner call's. */
enum bc_call_kind bc_call_kind(const struct bc_func *fn, size_t pc)
{
	size_t next = pc + 1 + operand_size(OPND_CALL);
	bool self = read_u16(fn->code + pc + 1) == fn->self;
	if (self && op_at(fn, next, OP_RET))
		return CALL_RESTART;
	if (self && op_at(fn, next, OP_ADD) && op_at(fn, next + 1, OP_RET))
		return CALL_ACCUMULATE;
	if (self && fn->exit_folds && op_at(fn, next, OP_CALL) &&
	    read_u16(fn->code + next + 1) == fn->self &&
	    op_at(fn, next + 1 + operand_size(OPND_CALL), OP_RET))
		return CALL_NESTED;
	if (!fn->accumulates && op_at(fn, next, OP_RET))
		return CALL_TAIL;
	return CALL_PLAIN;
}

void bc_hash_func_name(struct bc_module *mod, int index)
{
	unsigned h = name_hash(mod->funcs[index].name);
	while (mod->name_slot[h] != 0)
		h = (h + 1) % BC_NAME_HASH_SIZE;
	mod->name_slot[h] = (uint16_t)(index + 1);
	mod->names_hashed = true;
}

void bc_module_free(struct bc_module *mod)
{
	if (!mod)
		return;
	for (int i = 0; i < mod->nfuncs; i++) {
		free(mod->funcs[i].code);
		free(mod->funcs[i].lines);
		free(mod->funcs[i].depth_at);
	}
	free(mod->funcs);
	free(mod);
}

void bc_format_insn(const struct bc_module *mod, const struct bc_func *fn,
		    size_t pc, char *buf, size_t len)
{
	const struct opcode_info *info = opcode_info(fn->code[pc]);
	if (!info) {
		snprintf(buf, len, "?%02x", fn->code[pc]);
		return;
	}
	const uint8_t *opnd = fn->code + pc + 1;
	switch (info->operand) {
	case OPND_NONE:
		snprintf(buf, len, "%s", info->name);
		break;
	case OPND_I64:
		snprintf(buf, len, "%s %" PRId64, info->name, read_i64(opnd));
		break;
	case OPND_SLOT:
		snprintf(buf, len, "%s %u", info->name, opnd[0]);
		break;
	case OPND_TARGET:
		snprintf(buf, len, "%s @%04" PRIu32, info->name, read_u32(opnd));
		break;
	case OPND_CALL: {
		unsigned callee = read_u16(opnd);
		const char *name = callee < (unsigned)mod->nfuncs ?
				   mod->funcs[callee].name : "?";
		snprintf(buf, len, "%s %s/%u", info->name, name, opnd[2]);
		break;
	}
	}
}
