/* verify.c - static checks and stack-depth dataflow over bytecode. */
#include "verify.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "entry_exit.h"
#include "util.h"

struct verifier {
	const struct bc_module *mod;
	struct bc_func *fn;
	struct jit_diag *diag;
	bool *is_start;		/* per code byte: an instruction begins here */
	size_t *worklist;
	size_t nwork;
};

static bool reject(struct verifier *v, size_t pc, const char *fmt, ...)
	PRINTF_LIKE(3, 4);

static bool reject(struct verifier *v, size_t pc, const char *fmt, ...)
{
	char msg[300];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	const struct bc_func *fn = v->fn;
	if (fn->lines && pc < fn->len)
		diag_at(v->diag, v->mod->file, (int)fn->lines[pc], "%s", msg);
	else
		diag_at(v->diag, v->mod->file, fn->line, "%s (in %s at @%04zu)",
			msg, fn->name, pc);
	return false;
}

static int call_arity(const uint8_t *code, size_t pc)
{
	return code[pc + 3];
}

/* Checks one instruction's opcode and operand in isolation. */
static bool check_operand(struct verifier *v, size_t pc, size_t *size)
{
	const struct bc_func *fn = v->fn;
	const struct opcode_info *info = opcode_info(fn->code[pc]);
	if (!info)
		return reject(v, pc, "unknown opcode 0x%02x", fn->code[pc]);
	*size = 1 + operand_size(info->operand);
	if (pc + *size > fn->len)
		return reject(v, pc, "truncated instruction '%s' at end of %s",
			      info->name, fn->name);
	const uint8_t *opnd = fn->code + pc + 1;
	switch (fn->code[pc]) {
	case OP_ARG:
	case OP_SETARG:
		if (opnd[0] >= fn->nargs)
			return reject(v, pc, "argument %u out of range: %s has %d",
				      opnd[0], fn->name, fn->nargs);
		break;
	case OP_LOAD:
	case OP_STORE:
		if (opnd[0] >= fn->nlocals)
			return reject(v, pc, "local %u out of range: %s has %d",
				      opnd[0], fn->name, fn->nlocals);
		break;
	case OP_JMP:
	case OP_JZ:
	case OP_JNZ:
		if (read_u32(opnd) >= fn->len)
			return reject(v, pc, "jump target @%u outside of %s",
				      read_u32(opnd), fn->name);
		break;
	case OP_CALL: {
		unsigned callee = read_u16(opnd);
		if (callee >= (unsigned)v->mod->nfuncs)
			return reject(v, pc, "call to undefined function #%u", callee);
		const struct bc_func *target = &v->mod->funcs[callee];
		if (call_arity(fn->code, pc) != target->nargs)
			return reject(v, pc, "call to %s passes %d arguments, it takes %d",
				      target->name, call_arity(fn->code, pc),
				      target->nargs);
		break;
	}
	default:
		break;
	}
	return true;
}

static bool check_boundaries(struct verifier *v)
{
	const struct bc_func *fn = v->fn;
	for (size_t pc = 0, size = 0; pc < fn->len; pc += size) {
		if (!check_operand(v, pc, &size))
			return false;
		v->is_start[pc] = true;
	}
	for (size_t pc = 0; pc < fn->len; pc++) {
		if (!v->is_start[pc])
			continue;
		uint8_t op = fn->code[pc];
		if ((op == OP_JMP || op == OP_JZ || op == OP_JNZ) &&
		    !v->is_start[read_u32(fn->code + pc + 1)])
			return reject(v, pc, "jump target @%u is not an instruction boundary",
				      read_u32(fn->code + pc + 1));
	}
	return true;
}

/* Records the depth on one edge into target; queues it if new. */
static bool flow_into(struct verifier *v, size_t from, size_t target, int depth)
{
	struct bc_func *fn = v->fn;
	if (target >= fn->len)
		return reject(v, from, "control falls off the end of %s without ret",
			      fn->name);
	if (fn->depth_at[target] == depth)
		return true;
	if (fn->depth_at[target] >= 0)
		return reject(v, target, "stack depth mismatch: %d on one path, %d on another",
			      fn->depth_at[target], depth);
	fn->depth_at[target] = (int16_t)depth;
	v->worklist[v->nwork++] = target;
	return true;
}

static bool step(struct verifier *v, size_t pc)
{
	struct bc_func *fn = v->fn;
	uint8_t op = fn->code[pc];
	const struct opcode_info *info = opcode_info(op);
	int depth = fn->depth_at[pc];
	int pops = op == OP_CALL ? call_arity(fn->code, pc) : info->pops;
	if (depth < pops)
		return reject(v, pc, "stack underflow: '%s' needs %d values, stack has %d",
			      info->name, pops, depth);
	int after = depth - pops + info->pushes;
	if (after > JIT_MAX_STACK)
		return reject(v, pc, "stack overflow: more than %d values", JIT_MAX_STACK);
	if (after > fn->max_stack)
		fn->max_stack = after;
	fn->insn_count++;
	if (op == OP_CALL)
		fn->has_calls = true;
	size_t next = pc + 1 + operand_size(info->operand);
	switch (op) {
	case OP_RET:
		return true;
	case OP_JMP:
		return flow_into(v, pc, read_u32(fn->code + pc + 1), after);
	case OP_JZ:
	case OP_JNZ:
		return flow_into(v, pc, read_u32(fn->code + pc + 1), after) &&
		       flow_into(v, pc, next, after);
	default:
		return flow_into(v, pc, next, after);
	}
}

/* Needs the depths: only reachable calls count. */
static void mark_accumulating(struct bc_func *fn)
{
	struct entry_exit exit;
	fn->exit_folds = find_entry_exit(fn, &exit) && entry_exit_folds(&exit, fn->nargs);
	fn->accumulates = false;
	for (size_t pc = 0; pc < fn->len;) {
		uint8_t op = fn->code[pc];
		enum bc_call_kind kind = op == OP_CALL && fn->depth_at[pc] >= 0 ?
					 bc_call_kind(fn, pc) : CALL_PLAIN;
		if (kind == CALL_ACCUMULATE || kind == CALL_NESTED)
			fn->accumulates = true;
		pc += 1 + operand_size(opcode_info(op)->operand);
	}
}

static bool verify_function(struct verifier *v)
{
	struct bc_func *fn = v->fn;
	if (fn->len == 0)
		return reject(v, 0, "function %s has no code", fn->name);
	if (fn->nargs > JIT_MAX_ARGS || fn->nlocals > JIT_MAX_LOCALS)
		return reject(v, 0, "function %s has too many arguments or locals",
			      fn->name);
	if (fn->len > JIT_MAX_FUNC_CODE)
		return reject(v, 0, "function %s too large", fn->name);
	if (!check_boundaries(v))
		return false;
	fn->max_stack = 0;
	fn->insn_count = 0;
	fn->has_calls = false;
	for (size_t pc = 0; pc < fn->len; pc++)
		fn->depth_at[pc] = -1;
	fn->depth_at[0] = 0;
	v->nwork = 0;
	v->worklist[v->nwork++] = 0;
	while (v->nwork > 0)
		if (!step(v, v->worklist[--v->nwork]))
			return false;
	mark_accumulating(fn);
	return true;
}

bool verify_module(struct bc_module *mod, struct jit_diag *diag)
{
	struct verifier v = { .mod = mod, .diag = diag };
	size_t total = 0;
	if (mod->nfuncs <= 0 || mod->nfuncs > JIT_MAX_FUNCS) {
		diag_at(diag, mod->file, 0, "module needs 1..%d functions", JIT_MAX_FUNCS);
		return false;
	}
	for (int i = 0; i < mod->nfuncs; i++)
		total += mod->funcs[i].len;
	if (total > JIT_MAX_MODULE_CODE) {
		diag_at(diag, mod->file, 0, "module too large (%zu bytes of bytecode)", total);
		return false;
	}
	bool ok = true;
	for (int i = 0; ok && i < mod->nfuncs; i++) {
		struct bc_func *fn = &mod->funcs[i];
		size_t n = fn->len ? fn->len : 1;
		free(fn->depth_at);
		fn->depth_at = malloc(n * sizeof *fn->depth_at);
		v.is_start = calloc(n, sizeof *v.is_start);
		v.worklist = malloc(n * sizeof *v.worklist);
		v.fn = fn;
		fn->self = i;
		if (!fn->depth_at || !v.is_start || !v.worklist) {
			diag_at(diag, mod->file, 0, "out of memory");
			ok = false;
		} else {
			ok = verify_function(&v);
		}
		free(v.is_start);
		free(v.worklist);
	}
	mod->verified = ok;
	return ok;
}
