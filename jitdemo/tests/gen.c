/* gen.c - random well-formed programs (see gen.h). */
#define _POSIX_C_SOURCE 200809L
#include "gen.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_GEN_FUNCS 4
#define MAX_STACK_USED 12	/* > 5 so spilled slots get exercised */
#define FUNC_COST_BUDGET 4000
#define MAX_LOOP_NEST 2
#define MAX_LOOP_COUNT 8
#define MAX_NESTING 4		/* if/else, early return and loop constructs */

void rng_seed(struct rng *r, uint64_t seed)
{
	r->state = seed * 0x9e3779b97f4a7c15u + 0x632be59bd9b4e019u;
	if (r->state == 0)
		r->state = 1;
}

uint64_t rng_next(struct rng *r)
{
	uint64_t x = r->state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	r->state = x;
	return x * 0x2545f4914f6cdd1du;
}

uint64_t rng_below(struct rng *r, uint64_t n)
{
	return n ? rng_next(r) % n : 0;
}

int64_t rng_interesting(struct rng *r)
{
	static const int64_t edges[] = {
		0, 1, -1, 2, 3, 7, -7, 63, 64, 65, 255, 1000,
		INT64_MIN, INT64_MAX, INT64_MIN + 1, INT32_MIN, INT32_MAX,
		(int64_t)1 << 32, -((int64_t)1 << 31) - 1,
		UINT32_MAX, (int64_t)UINT32_MAX - 1,	/* the 32-bit div bypass's edge */
	};
	switch (rng_below(r, 4)) {
	case 0: return edges[rng_below(r, sizeof edges / sizeof edges[0])];
	case 1: return (int64_t)rng_next(r);
	default: return (int64_t)rng_below(r, 200) - 100;
	}
}

struct text {
	char *buf;
	size_t len, cap;
	bool failed;
};

static void emitf(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void emitf(struct text *t, const char *fmt, ...)
{
	va_list ap;
	for (;;) {
		size_t room = t->cap - t->len;
		va_start(ap, fmt);
		int n = t->buf ? vsnprintf(t->buf + t->len, room, fmt, ap) : -1;
		va_end(ap);
		if (n >= 0 && (size_t)n < room) {
			t->len += (size_t)n;
			return;
		}
		size_t cap = t->cap ? t->cap * 2 : 4096;
		char *grown = realloc(t->buf, cap);
		if (!grown) {
			t->failed = true;
			return;
		}
		t->buf = grown;
		t->cap = cap;
	}
}

struct gen_func {
	int nargs;
	int nlocals;		/* user locals; loop counters follow them */
	long cost;		/* static bound on instructions executed */
};

struct gen {
	struct rng rng;
	struct text text;
	struct gen_func funcs[MAX_GEN_FUNCS];
	int nfuncs;
	int current;		/* index being generated */
	int labels;
	bool has_rec;
	long cost;		/* of the function being generated */
	long multiplier;	/* iterations of enclosing loops */
	int nesting;		/* open constructs */
};

static const char *const binary_ops[] = {
	"add", "sub", "mul", "div", "mod", "and", "or", "xor", "shl", "shr",
	"sar", "eq", "ne", "lt", "le", "gt", "ge",
};

static void op(struct gen *g, const char *text)
{
	emitf(&g->text, "    %s\n", text);
	g->cost += g->multiplier;
}

static void op_int(struct gen *g, const char *name, int64_t value)
{
	emitf(&g->text, "    %s %" PRId64 "\n", name, value);
	g->cost += g->multiplier;
}

static int new_label(struct gen *g) { return g->labels++; }
static void place_label(struct gen *g, int label) { emitf(&g->text, "L%d:\n", label); }

static void jump(struct gen *g, const char *name, int label)
{
	emitf(&g->text, "    %s L%d\n", name, label);
	g->cost += g->multiplier;
}

static const struct gen_func *cur(const struct gen *g) { return &g->funcs[g->current]; }

/* One random push: const, arg, load or dup. */
static void gen_push(struct gen *g, int depth)
{
	switch (rng_below(&g->rng, 4)) {
	case 0:
		if (cur(g)->nargs) {
			op_int(g, "arg", (int64_t)rng_below(&g->rng, (uint64_t)cur(g)->nargs));
			return;
		}
		break;
	case 1:
		if (cur(g)->nlocals) {
			op_int(g, "load", (int64_t)rng_below(&g->rng, (uint64_t)cur(g)->nlocals));
			return;
		}
		break;
	case 2:
		if (depth > 0) {
			op(g, "dup");
			return;
		}
		break;
	}
	op_int(g, "const", rng_interesting(&g->rng));
}

/* One random pop: store, setarg or drop. */
static void gen_pop(struct gen *g)
{
	uint64_t pick = rng_below(&g->rng, 3);
	if (pick == 0 && cur(g)->nlocals)
		op_int(g, "store", (int64_t)rng_below(&g->rng, (uint64_t)cur(g)->nlocals));
	else if (pick == 1 && cur(g)->nargs)
		op_int(g, "setarg", (int64_t)rng_below(&g->rng, (uint64_t)cur(g)->nargs));
	else
		op(g, "drop");
}

static void gen_binary(struct gen *g)
{
	const char *name = binary_ops[rng_below(&g->rng, sizeof binary_ops / sizeof binary_ops[0])];
	bool divides = strcmp(name, "div") == 0 || strcmp(name, "mod") == 0;
	if (divides && rng_below(&g->rng, 30) == 0) {
		/* the one quotient that overflows */
		op(g, "drop");
		op(g, "drop");
		op_int(g, "const", INT64_MIN);
		op_int(g, "const", -1);
	} else if (divides && rng_below(&g->rng, 3) != 0) {
		/* mostly a non-zero constant divisor, so traps stay a minority */
		op(g, "drop");
		int64_t d = rng_interesting(&g->rng);
		op_int(g, "const", d ? d : 3);
	}
	op(g, name);
}

/* Calls a later function if the budget allows; returns the new depth or -1. */
static int gen_call(struct gen *g, int depth)
{
	if (g->current + 1 >= g->nfuncs)
		return -1;
	int callee = g->current + 1 + (int)rng_below(&g->rng, (uint64_t)(g->nfuncs - g->current - 1));
	const struct gen_func *f = &g->funcs[callee];
	if (depth < f->nargs || depth - f->nargs + 1 > MAX_STACK_USED)
		return -1;
	if (g->cost + g->multiplier * (f->cost + 1) > FUNC_COST_BUDGET)
		return -1;
	emitf(&g->text, "    call f%d\n", callee);
	g->cost += g->multiplier * (f->cost + 1);
	return depth - f->nargs + 1;
}

/* Calls rec(n, x) outside loops; n is sometimes beyond the depth limit. */
static bool gen_rec_call(struct gen *g, int depth)
{
	if (!g->has_rec || g->multiplier != 1 || depth < 1 || depth + 1 > MAX_STACK_USED)
		return false;
	/* A plain rec's frame takes 40 bytes (the return address, rbx for the
	 * call's result, r12 for x op k1, r15 and r14 for its arguments) or
	 * 32 when x op k1 is x plus a small constant and stays virtual: 1 MiB
	 * holds about 26214 or 32768 of them.  Aim at both edges. */
	static const int64_t edges[] = { 26200, 32755 };
	int64_t n = rng_below(&g->rng, 20) == 0 ?
		    edges[rng_below(&g->rng, 2)] + (int64_t)rng_below(&g->rng, 30) :
		    (int64_t)rng_below(&g->rng, 30);
	if (n < 30 && g->cost + 12 * n > FUNC_COST_BUDGET)
		return false;
	op_int(g, "const", n);
	op(g, "swap");
	emitf(&g->text, "    call rec\n");
	g->cost += 12 * n;
	return true;
}

static void gen_block(struct gen *g, int depth_in, int depth_out, int nops, int nest);

static void gen_if_else(struct gen *g, int depth, int nest)
{
	g->nesting++;
	int other = new_label(g), end = new_label(g);
	jump(g, rng_below(&g->rng, 2) ? "jz" : "jnz", other);
	gen_block(g, depth - 1, depth - 1, 1 + (int)rng_below(&g->rng, 5), nest);
	jump(g, "jmp", end);
	place_label(g, other);
	gen_block(g, depth - 1, depth - 1, (int)rng_below(&g->rng, 5), nest);
	place_label(g, end);
	g->nesting--;
}

static void gen_early_return(struct gen *g, int depth, int nest)
{
	int skip = new_label(g);
	g->nesting++;
	jump(g, rng_below(&g->rng, 2) ? "jz" : "jnz", skip);
	gen_block(g, depth - 1, 1 + (int)rng_below(&g->rng, 2), (int)rng_below(&g->rng, 4), nest);
	op(g, "ret");
	place_label(g, skip);
	g->nesting--;
}

/* for (counter = k; counter != 0; counter--) body; body keeps the depth. */
static void gen_loop(struct gen *g, int depth, int nest)
{
	int counter = cur(g)->nlocals + nest;
	long count = 1 + (long)rng_below(&g->rng, MAX_LOOP_COUNT);
	int top = new_label(g), done = new_label(g);
	op_int(g, "const", count);
	op_int(g, "store", counter);
	place_label(g, top);
	op_int(g, "load", counter);
	jump(g, "jz", done);
	long saved = g->multiplier;
	g->multiplier *= count;
	g->nesting++;
	gen_block(g, depth, depth, 1 + (int)rng_below(&g->rng, 6), nest + 1);
	g->nesting--;
	op_int(g, "load", counter);
	op_int(g, "const", 1);
	op(g, "sub");
	op_int(g, "store", counter);
	g->multiplier = saved;
	jump(g, "jmp", top);
	place_label(g, done);
}

static void gen_dead_code(struct gen *g)
{
	int live = new_label(g);
	jump(g, "jmp", live);
	for (int i = (int)rng_below(&g->rng, 3); i >= 0; i--)
		emitf(&g->text, "    %s\n", binary_ops[rng_below(&g->rng, 17)]);
	place_label(g, live);
}

/* One random instruction or construct; returns the new depth. */
static int gen_step(struct gen *g, int depth, int nest)
{
	uint64_t pick = rng_below(&g->rng, 100);
	bool room = depth < MAX_STACK_USED;
	if (pick < 25 && room) {
		gen_push(g, depth);
		return depth + 1;
	}
	if (pick < 50 && depth >= 2) {
		gen_binary(g);
		return depth - 1;
	}
	if (pick < 56 && depth >= 1) {
		op(g, rng_below(&g->rng, 2) ? "neg" : "not");
		return depth;
	}
	if (pick < 60 && depth >= 2) {
		op(g, "swap");
		return depth;
	}
	if (pick < 66 && depth >= 1) {
		gen_pop(g);
		return depth - 1;
	}
	int after_call = pick < 74 ? gen_call(g, depth) : -1;
	if (after_call >= 0)
		return after_call;
	if (pick < 78 && gen_rec_call(g, depth))
		return depth;	/* rec(n, x) replaces x */
	bool may_nest = g->nesting < MAX_NESTING;
	if (pick < 84 && depth >= 1 && may_nest) {
		gen_if_else(g, depth, nest);
		return depth - 1;
	}
	if (pick < 87 && depth >= 1 && may_nest) {
		gen_early_return(g, depth, nest);
		return depth - 1;
	}
	if (pick < 93 && may_nest && nest < MAX_LOOP_NEST && g->multiplier * MAX_LOOP_COUNT * 8 < FUNC_COST_BUDGET) {
		gen_loop(g, depth, nest);
		return depth;
	}
	if (pick < 95) {
		gen_dead_code(g);
		return depth;
	}
	if (room) {
		op_int(g, "const", rng_interesting(&g->rng));
		return depth + 1;
	}
	op(g, "drop");
	return depth - 1;
}

static void gen_block(struct gen *g, int depth_in, int depth_out, int nops, int nest)
{
	int depth = depth_in;
	for (int i = 0; i < nops; i++)
		depth = gen_step(g, depth, nest);
	while (depth > depth_out) {
		gen_pop(g);
		depth--;
	}
	while (depth < depth_out) {
		gen_push(g, depth);
		depth++;
	}
}

static void gen_function(struct gen *g, int index)
{
	struct gen_func *f = &g->funcs[index];
	g->current = index;
	g->cost = 0;
	g->multiplier = 1;
	emitf(&g->text, "func f%d %d %d\n", index, f->nargs, f->nlocals + MAX_LOOP_NEST);
	gen_block(g, 0, 1 + (int)rng_below(&g->rng, 3), 4 + (int)rng_below(&g->rng, 20), 0);
	op(g, "ret");
	f->cost = g->cost;
}

/* rec(n, x): n steps of recursion, in one of bytecode.h's call kinds:
 * a plain call (its frames reach the call-stack limit for large n), a
 * self tail call (CALL_RESTART), "call; add; ret" (CALL_ACCUMULATE) or
 * rec((n - 1) & k, rec(n - 1, x op k1)) (CALL_NESTED, which folds only
 * when the exit returns x plus terms).  k is 0, 1 or 3: the outer call
 * does at most 8 steps. */
static void gen_rec(struct gen *g)
{
	static const char *const steps[] = { "add", "xor", "mul", "sub" };
	static const char *const exits[] = {
		"    arg 1\n", "    arg 1\n    const 5\n    add\n",
		"    arg 1\n    arg 0\n    sub\n", "    arg 1\n    const 5\n    xor\n",
	};
	int64_t k1 = rng_interesting(&g->rng), k2 = rng_interesting(&g->rng);
	const char *op1 = steps[rng_below(&g->rng, 4)], *op2 = steps[rng_below(&g->rng, 4)];
	emitf(&g->text,
	      "func rec 2 0\n"
	      "    arg 0\n    const 0\n    le\n    jz recurse\n%s    ret\n"
	      "recurse:\n", exits[rng_below(&g->rng, 4)]);
	switch (rng_below(&g->rng, 4)) {
	case 0:
		emitf(&g->text,
		      "    arg 0\n    const 1\n    sub\n"
		      "    arg 1\n    const %" PRId64 "\n    %s\n"
		      "    call rec\n"
		      "    const %" PRId64 "\n    %s\n    ret\n", k1, op1, k2, op2);
		break;
	case 1:
		emitf(&g->text,
		      "    arg 0\n    const 1\n    sub\n"
		      "    arg 1\n    const %" PRId64 "\n    %s\n"
		      "    call rec\n    ret\n", k1, op1);
		break;
	case 2:
		emitf(&g->text,
		      "    arg 1\n    const %" PRId64 "\n    %s\n"
		      "    arg 0\n    const 1\n    sub\n    arg 1\n"
		      "    call rec\n    add\n    ret\n", k1, op1);
		break;
	default:
		emitf(&g->text,
		      "    arg 0\n    const 1\n    sub\n    const %d\n    and\n"
		      "    arg 0\n    const 1\n    sub\n"
		      "    arg 1\n    const %" PRId64 "\n    %s\n"
		      "    call rec\n    call rec\n    ret\n",
		      (1 << rng_below(&g->rng, 3)) - 1, k1, op1);
		break;
	}
}

int gen_program(uint64_t seed, struct generated *out)
{
	struct gen g = { 0 };
	rng_seed(&g.rng, seed);
	g.nfuncs = 1 + (int)rng_below(&g.rng, MAX_GEN_FUNCS);
	g.has_rec = rng_below(&g.rng, 4) == 0;
	emitf(&g.text, "; generated program, seed %" PRIu64 "\n", seed);
	for (int i = 0; i < g.nfuncs; i++) {
		g.funcs[i].nargs = (int)rng_below(&g.rng, 6);
		g.funcs[i].nlocals = (int)rng_below(&g.rng, 5);
	}
	if (g.has_rec)
		gen_rec(&g);
	for (int i = g.nfuncs - 1; i >= 0; i--)	/* callees first: costs known */
		gen_function(&g, i);
	if (g.text.failed) {
		free(g.text.buf);
		return -1;
	}
	out->text = g.text.buf;
	out->entry = "f0";
	out->entry_arity = g.funcs[0].nargs;
	return 0;
}

/* ---- the divide shape (gen.h) ---- */

#define HASH_FACTOR INT64_C(-7046029254386353131)	/* 0x9e3779b97f4a7c15, odd */

static int64_t power_of_two_near(struct rng *r)
{
	int64_t p = (int64_t)((uint64_t)1 << (1 + rng_below(r, 62)));
	int64_t near = p + (int64_t)rng_below(r, 3) - 1;	/* 2^k - 1, 2^k, 2^k + 1 */
	return rng_below(r, 2) ? near : -near;
}

/* Edge divisors, powers of two and their neighbours, small ones, and
 * random ones of every magnitude; now and then 0, which must trap. */
static int64_t pick_divisor(struct rng *r)
{
	static const int64_t edges[] = {
		1, -1, 2, -2, 3, -3, 7, -7, 10, -10, 641, 6700417,
		INT64_MIN, INT64_MAX, INT64_MIN + 1, INT32_MIN, INT32_MAX, UINT32_MAX,
	};
	switch (rng_below(r, 5)) {
	case 0: return rng_below(r, 16) == 0 ? 0 : edges[rng_below(r, sizeof edges / sizeof edges[0])];
	case 1: return power_of_two_near(r);
	case 2: return (int64_t)rng_below(r, 2001) - 1000;
	default: break;
	}
	uint64_t bits = rng_next(r);	/* one call a statement: the order is fixed */
	bits >>= rng_below(r, 64);
	return (int64_t)(rng_below(r, 2) ? bits : 0 - bits);
}

static int64_t pick_probe_arg(struct rng *r, bool shifted_left)
{
	static const int64_t right[] = { INT64_MIN, INT64_MAX, -1, 1 };
	static const int64_t left[] = { 1, -1, 3, -5 };
	if (rng_below(r, 2))
		return shifted_left ? left[rng_below(r, 4)] : right[rng_below(r, 4)];
	return rng_below(r, 2) ? (int64_t)rng_next(r) : rng_interesting(r);
}

/* value on the stack -> h = (h ^ value) * HASH_FACTOR, or with -h: that
 * writes the slot above the value, where a kept quotient may live. */
static void fold_into_hash(struct text *t, bool negate)
{
	emitf(t, "    load 1\n%s    xor\n    const %" PRId64 "\n    mul\n    store 1\n",
	      negate ? "    neg\n" : "", HASH_FACTOR);
}

/* p (local 2) as each dividend form, each by the divisor every way. */
static void divide_forms(struct text *t, struct rng *r, int64_t divisor)
{
	static const char *const dividends[] = {
		"load 2\n", "load 2\n    const 1\n    add\n",
		"load 2\n    const -1\n    add\n", "load 2\n    neg\n",
	};
	static const char *const ops[] = { "div", "mod", "mul" };
	for (int d = 0; d < 4; d++)
		for (int o = 0; o < 3; o++) {
			emitf(t, "    %s    const %" PRId64 "\n    %s\n", dividends[d], divisor, ops[o]);
			fold_into_hash(t, rng_below(r, 2));
		}
}

static void divide_constant_dividend(struct text *t, struct rng *r, int64_t divisor)
{
	int64_t dividend = rng_interesting(r);
	static const char *const ops[] = { "div", "mod", "mul" };
	for (int o = 0; o < 3; o++) {
		emitf(t, "    const %" PRId64 "\n    const %" PRId64 "\n    %s\n", dividend, divisor,
		      ops[o]);
		fold_into_hash(t, false);
	}
}

static void divide_loop(struct text *t, struct rng *r, int64_t divisor)
{
	emitf(t, "    const 64\n    store 0\nloop:\n    load 0\n    jz done\n"
		 "    arg 0\n    load 0\n    sar\n    store 2\n");
	divide_forms(t, r, divisor);
	emitf(t, "    arg 1\n    load 0\n    shl\n    store 2\n");
	divide_forms(t, r, divisor);
	emitf(t, "    load 0\n    const 1\n    sub\n    store 0\n    jmp loop\ndone:\n"
		 "    load 1\n    ret\n");
}

int gen_divide_program(uint64_t seed, struct divide_program *out)
{
	struct rng r;
	struct text t = { 0 };
	rng_seed(&r, seed);
	out->divisor = pick_divisor(&r);
	out->x = pick_probe_arg(&r, false);
	out->y = pick_probe_arg(&r, true);
	int padding = (int)rng_below(&r, 8);	/* 5 or more: the dividend spills */
	bool calls = rng_below(&r, 2);		/* then the homes live in the frame */
	emitf(&t, "; divide shape, seed %" PRIu64 ", divisor %" PRId64 "\n"
		  "func id 1 0\n    arg 0\n    ret\n"
		  "func probe 2 3     ; local 0: shift, 1: hash, 2: p\n", seed, out->divisor);
	if (calls)
		emitf(&t, "    const 0\n    call id\n    drop\n");
	for (int i = 0; i < padding; i++)
		emitf(&t, "    const %d\n", i);
	emitf(&t, "    const 0\n    store 1\n");
	divide_constant_dividend(&t, &r, out->divisor);
	divide_loop(&t, &r, out->divisor);
	if (t.failed) {
		free(t.buf);
		return -1;
	}
	out->prog = (struct generated){ .text = t.buf, .entry = "probe", .entry_arity = 2 };
	return 0;
}

void gen_free(struct generated *g)
{
	free(g->text);
	g->text = NULL;
}
