/* interp.c - the reference interpreter. */
#include "interp.h"

#include <stdlib.h>

#include "emit.h"
#include "entry_exit.h"
#include "util.h"

/* Fewest bytes a frame that calls can take (return address + one slot). */
#define MIN_CALLING_FRAME 16
#define MAX_FRAMES (JIT_MAX_CALL_STACK / MIN_CALLING_FRAME + 2)

struct frame {
	int func;
	size_t pc;
	size_t base;	/* index of argument 0 in values; locals follow */
	size_t sp;	/* index of the first free stack slot (when suspended) */
	size_t bytes;	/* what the JIT's frame of this function takes */
	int64_t acc;	/* added to the value ret returns (bytecode.h) */
};

struct interp {
	const struct bc_module *mod;
	int64_t *values;
	size_t values_cap;
	struct frame *frames;
	size_t frames_cap;
	int depth;
	size_t *frame_bytes;	/* per function, as the JIT lays it out */
	size_t stack_used;	/* JIT frame bytes of the active frames */
	const struct bc_func *exit_of;	/* the function whose exit is below */
	struct entry_exit exit;
};

int interp_divide(int64_t a, int64_t b, int64_t *quotient, int64_t *remainder)
{
	if (b == 0)
		return JIT_TRAP_DIV_ZERO;
	if (a == INT64_MIN && b == -1)
		return JIT_TRAP_DIV_OVERFLOW;
	*quotient = a / b;
	*remainder = a % b;
	return JIT_TRAP_NONE;
}

int64_t interp_shift_arith(int64_t a, int64_t count)
{
	unsigned n = (unsigned)(count & 63);
	return a < 0 ? ~(~a >> n) : a >> n;
}

static int64_t wrap_add(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static int64_t wrap_sub(int64_t a, int64_t b) { return (int64_t)((uint64_t)a - (uint64_t)b); }
static int64_t wrap_mul(int64_t a, int64_t b) { return (int64_t)((uint64_t)a * (uint64_t)b); }

/* Makes room for a frame of fn starting at base; may move values. */
static bool reserve_frame(struct interp *in, const struct bc_func *fn, size_t base)
{
	size_t need = base + (size_t)fn->nargs + (size_t)fn->nlocals +
		      (size_t)fn->max_stack;
	size_t max = (size_t)MAX_FRAMES * (JIT_MAX_ARGS + JIT_MAX_LOCALS + JIT_MAX_STACK);
	return grow_array((void **)&in->values, &in->values_cap, need,
			  sizeof *in->values, max) &&
	       grow_array((void **)&in->frames, &in->frames_cap,
			  (size_t)in->depth + 1, sizeof *in->frames, MAX_FRAMES);
}

/* Pushes a frame whose arguments already sit at values[base...]. */
static int enter(struct interp *in, int func, size_t base)
{
	const struct bc_func *fn = &in->mod->funcs[func];
	size_t bytes = in->frame_bytes[func];
	if (in->stack_used + bytes > JIT_MAX_CALL_STACK)
		return JIT_TRAP_CALL_DEPTH;
	if (!reserve_frame(in, fn, base))
		return INTERP_OUT_OF_MEMORY;
	int64_t *locals = in->values + base + fn->nargs;
	for (int i = 0; i < fn->nlocals; i++)
		locals[i] = 0;
	in->frames[in->depth++] = (struct frame){
		.func = func, .pc = 0, .base = base,
		.sp = base + (size_t)fn->nargs + (size_t)fn->nlocals,
		.bytes = bytes, .acc = 0,
	};
	in->stack_used += bytes;
	return JIT_TRAP_NONE;
}

/* The frame f of fn starts over with the arguments at values[args_at...];
 * its accumulator stays. */
static void restart(struct interp *in, struct frame *f, const struct bc_func *fn,
		    size_t args_at)
{
	int64_t *args = in->values + f->base;
	for (int i = 0; i < fn->nargs; i++)
		args[i] = in->values[args_at + (size_t)i];
	for (int i = 0; i < fn->nlocals; i++)
		args[fn->nargs + i] = 0;
	f->pc = 0;
	f->sp = f->base + (size_t)fn->nargs + (size_t)fn->nlocals;
}

/* CALL_NESTED: whether the outer call's exit holds for its other
 * arguments, and the terms it would add.  The exit found last is kept:
 * a nested call repeats in the same function. */
static bool outer_exit_taken(struct interp *in, const struct bc_func *fn,
			     const int64_t *outer_args, int64_t *terms)
{
	if (in->exit_of != fn) {
		if (!find_entry_exit(fn, &in->exit))
			abort();	/* bc_call_kind found it */
		in->exit_of = fn;
	}
	if (!entry_exit_taken(&in->exit, outer_args))
		return false;
	*terms = entry_exit_terms(&in->exit, outer_args);
	return true;
}

static int run(struct interp *in, int64_t *result)
{
	struct frame *f = &in->frames[in->depth - 1];
	const struct bc_func *fn = &in->mod->funcs[f->func];
	const uint8_t *code = fn->code;
	size_t pc = f->pc;
	int64_t *args = in->values + f->base;
	int64_t *locals = args + fn->nargs;
	int64_t *sp = in->values + f->sp;
	int64_t a, q, r;
	int trap;

	for (;;) {
		uint8_t op = code[pc];
		switch (op) {
		case OP_CONST: *sp++ = read_i64(code + pc + 1); pc += 9; break;
		case OP_ARG: *sp++ = args[code[pc + 1]]; pc += 2; break;
		case OP_SETARG: args[code[pc + 1]] = *--sp; pc += 2; break;
		case OP_LOAD: *sp++ = locals[code[pc + 1]]; pc += 2; break;
		case OP_STORE: locals[code[pc + 1]] = *--sp; pc += 2; break;
		case OP_DUP: sp[0] = sp[-1]; sp++; pc++; break;
		case OP_DROP: sp--; pc++; break;
		case OP_SWAP: a = sp[-1]; sp[-1] = sp[-2]; sp[-2] = a; pc++; break;
		case OP_ADD: sp--; sp[-1] = wrap_add(sp[-1], sp[0]); pc++; break;
		case OP_SUB: sp--; sp[-1] = wrap_sub(sp[-1], sp[0]); pc++; break;
		case OP_MUL: sp--; sp[-1] = wrap_mul(sp[-1], sp[0]); pc++; break;
		case OP_DIV:
		case OP_MOD:
			sp--;
			trap = interp_divide(sp[-1], sp[0], &q, &r);
			if (trap)
				return trap;
			sp[-1] = op == OP_DIV ? q : r;
			pc++;
			break;
		case OP_NEG: sp[-1] = wrap_sub(0, sp[-1]); pc++; break;
		case OP_AND: sp--; sp[-1] &= sp[0]; pc++; break;
		case OP_OR: sp--; sp[-1] |= sp[0]; pc++; break;
		case OP_XOR: sp--; sp[-1] ^= sp[0]; pc++; break;
		case OP_NOT: sp[-1] = ~sp[-1]; pc++; break;
		case OP_SHL:
			sp--;
			sp[-1] = (int64_t)((uint64_t)sp[-1] << (sp[0] & 63));
			pc++;
			break;
		case OP_SHR:
			sp--;
			sp[-1] = (int64_t)((uint64_t)sp[-1] >> (sp[0] & 63));
			pc++;
			break;
		case OP_SAR: sp--; sp[-1] = interp_shift_arith(sp[-1], sp[0]); pc++; break;
		case OP_EQ: sp--; sp[-1] = sp[-1] == sp[0]; pc++; break;
		case OP_NE: sp--; sp[-1] = sp[-1] != sp[0]; pc++; break;
		case OP_LT: sp--; sp[-1] = sp[-1] < sp[0]; pc++; break;
		case OP_LE: sp--; sp[-1] = sp[-1] <= sp[0]; pc++; break;
		case OP_GT: sp--; sp[-1] = sp[-1] > sp[0]; pc++; break;
		case OP_GE: sp--; sp[-1] = sp[-1] >= sp[0]; pc++; break;
		case OP_JMP: pc = read_u32(code + pc + 1); break;
		case OP_JZ: pc = *--sp == 0 ? read_u32(code + pc + 1) : pc + 5; break;
		case OP_JNZ: pc = *--sp != 0 ? read_u32(code + pc + 1) : pc + 5; break;
		case OP_CALL: {
			int callee = read_u16(code + pc + 1);
			size_t arity = code[pc + 3];
			f->pc = pc + 4;
			f->sp = (size_t)(sp - in->values);
			size_t args_at = f->sp - arity;
			enum bc_call_kind kind = bc_call_kind(fn, pc);
			int64_t added = 0;
			if (kind == CALL_ACCUMULATE)
				added = in->values[args_at - 1];
			else if (kind == CALL_NESTED)
				kind = outer_exit_taken(in, fn, in->values + args_at - (arity - 1),
							&added) ? CALL_ACCUMULATE : CALL_PLAIN;
			if (kind == CALL_ACCUMULATE || kind == CALL_RESTART) {
				f->acc = wrap_add(f->acc, added);
				restart(in, f, fn, args_at);
				pc = 0;
				sp = in->values + f->sp;
				break;
			}
			if (kind == CALL_TAIL) {	/* reuse the frame */
				for (size_t i = 0; i < arity; i++)
					in->values[f->base + i] = in->values[args_at + i];
				args_at = f->base;
				in->stack_used -= f->bytes;
				in->depth--;
			}
			trap = enter(in, callee, args_at);
			if (trap)
				return trap;
			f = &in->frames[in->depth - 1];
			fn = &in->mod->funcs[callee];
			code = fn->code;
			pc = 0;
			args = in->values + f->base;
			locals = args + fn->nargs;
			sp = in->values + f->sp;
			break;
		}
		case OP_RET: {
			int64_t value = wrap_add(sp[-1], f->acc);
			size_t base = f->base;
			in->stack_used -= f->bytes;
			in->depth--;
			if (in->depth == 0) {
				*result = value;
				return JIT_TRAP_NONE;
			}
			f = &in->frames[in->depth - 1];
			fn = &in->mod->funcs[f->func];
			code = fn->code;
			pc = f->pc;
			args = in->values + f->base;
			locals = args + fn->nargs;
			in->values[base] = value;
			sp = in->values + base + 1;
			break;
		}
		default:
			abort();	/* unreachable: the verifier rejects it */
		}
	}
}

int interp_call(const struct bc_module *mod, int func, const int64_t *args,
		int64_t *result)
{
	if (!mod->verified || func < 0 || func >= mod->nfuncs)
		abort();
	struct interp in = { .mod = mod };
	const struct bc_func *fn = &mod->funcs[func];
	int trap = INTERP_OUT_OF_MEMORY;
	in.frame_bytes = malloc((size_t)mod->nfuncs * sizeof *in.frame_bytes);
	if (in.frame_bytes && !emit_frame_bytes(mod, in.frame_bytes)) {
		free(in.frame_bytes);
		in.frame_bytes = NULL;
	}
	if (in.frame_bytes && reserve_frame(&in, fn, 0)) {
		for (int i = 0; i < fn->nargs; i++)
			in.values[i] = args[i];
		trap = enter(&in, func, 0);
		if (trap == JIT_TRAP_NONE)
			trap = run(&in, result);
	}
	free(in.values);
	free(in.frames);
	free(in.frame_bytes);
	return trap;
}
