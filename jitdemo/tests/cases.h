/*
 * cases.h - the semantics table both engines are held to: test_interp.c
 * runs it through the interpreter, test_emit.c through the JIT.  Expected
 * values are worked out by hand from the language definition.
 */
#ifndef JITDEMO_CASES_H
#define JITDEMO_CASES_H

#include <stdint.h>

#include "libjit.h"

struct semantic_case {
	const char *what;
	const char *source;	/* defines f */
	int nargs;
	int64_t args[JIT_MAX_ARGS];
	int trap;		/* expected trap, or 0 */
	int64_t result;		/* expected result when trap is 0 */
};

#define BIN(op) "func f 2 0\n arg 0\n arg 1\n " op "\n ret\n"
#define UN(op) "func f 1 0\n arg 0\n " op "\n ret\n"
/* arg 0 op the constant k: the JIT's constant-operand forms (emit_const.c) */
#define BY_CONST(op, k) "func f 1 0\n arg 0\n const " #k "\n " op "\n ret\n"

/*
 * f(n) = f(n - 1) + 1 takes n + 1 frames of 24 bytes each (frame.h: return
 * address, rbx for slot 0, r15 for the argument's home; slot 1 only ever
 * holds the constant 1, so r12 is not saved), so JIT_MAX_CALL_STACK allows
 * n up to REC_MAX_ARG.  (The "add" does not make it CALL_ACCUMULATE: the
 * const stands between the call and the add.)
 */
#define REC_FRAME_BYTES 24

/* ackermann(m, n), whose "call f; call f; ret" is bytecode.h's CALL_NESTED;
 * ACK_JUMP reaches the second call by a jump as well. */
#define ACK_EXIT "func f 2 0\n arg 0\n jnz m\n arg 1\n const 1\n add\n ret\n"
#define ACK ACK_EXIT \
	"m:\n arg 1\n jnz both\n arg 0\n const 1\n sub\n const 1\n call f\n ret\n" \
	"both:\n arg 0\n const 1\n sub\n arg 0\n arg 1\n const 1\n sub\n call f\n call f\n ret\n"
#define ACK_JUMP ACK_EXIT \
	"m:\n arg 1\n jnz both\n arg 0\n const 1\n sub\n const 1\n jmp second\n" \
	"both:\n arg 0\n const 1\n sub\n arg 0\n arg 1\n const 1\n sub\n call f\n" \
	"second:\n call f\n ret\n"
/* ackermann with x ^ 1 for x + 1: an exit that does not fold. */
#define ACK_XOR "func f 2 0\n arg 0\n jnz m\n arg 1\n const 1\n xor\n ret\n" \
	"m:\n arg 1\n jnz both\n arg 0\n const 1\n sub\n const 1\n call f\n ret\n" \
	"both:\n arg 0\n const 1\n sub\n arg 0\n arg 1\n const 1\n sub\n call f\n call f\n ret\n"
/* f(a, b, n) = f(a - 1, 2b, f(a, b, n - 1)), f(a, b, 0) = f(a - 1, b, 1) and
 * n + b - 3 when a < 1: f(1, b, n) = b - 2 + n(2b - 3), its terms an
 * argument below the inner call's (a computed 2b) and a subtraction. */
#define NEST3 "func f 3 0\n arg 0\n const 1\n lt\n jz go\n arg 2\n arg 1\n add\n const 3\n sub\n ret\n" \
	"go:\n arg 2\n jnz both\n arg 0\n const 1\n sub\n arg 1\n const 1\n call f\n ret\n" \
	"both:\n arg 0\n const 1\n sub\n arg 1\n const 2\n mul\n" \
	" arg 0\n arg 1\n arg 2\n const 1\n sub\n call f\n call f\n ret\n"
/* g(a, n) = g(a - 1, g(a, n - 1)), g(a, 0) = 0, n + 5 when a == 0: g(2, n)
 * folds nothing (its outer call's a - 1 is 1), so it takes n frames. */
#define NEST_DEEP "func f 2 0\n arg 0\n jnz m\n arg 1\n const 5\n add\n ret\n" \
	"m:\n arg 1\n jnz both\n const 0\n ret\n" \
	"both:\n arg 0\n const 1\n sub\n arg 0\n arg 1\n const 1\n sub\n call f\n call f\n ret\n"
#define REC_MAX_ARG ((int64_t)(JIT_MAX_CALL_STACK / REC_FRAME_BYTES) - 1)

static const struct semantic_case semantic_cases[] = {
	{ "add", BIN("add"), 2, { 40, 2 }, 0, 42 },
	{ "add wraps", BIN("add"), 2, { INT64_MAX, 1 }, 0, INT64_MIN },
	{ "sub", BIN("sub"), 2, { 2, 44 }, 0, -42 },
	{ "sub wraps", BIN("sub"), 2, { INT64_MIN, 1 }, 0, INT64_MAX },
	{ "mul", BIN("mul"), 2, { -6, 7 }, 0, -42 },
	{ "mul wraps", BIN("mul"), 2, { INT64_MAX, 2 }, 0, -2 },
	{ "div truncates toward zero", BIN("div"), 2, { -7, 2 }, 0, -3 },
	{ "mod takes the dividend's sign", BIN("mod"), 2, { -7, 2 }, 0, -1 },
	{ "mod by negative", BIN("mod"), 2, { 7, -2 }, 0, 1 },
	{ "div by zero traps", BIN("div"), 2, { 1, 0 }, JIT_TRAP_DIV_ZERO, 0 },
	{ "mod by zero traps", BIN("mod"), 2, { 1, 0 }, JIT_TRAP_DIV_ZERO, 0 },
	{ "INT64_MIN / -1 traps", BIN("div"), 2, { INT64_MIN, -1 }, JIT_TRAP_DIV_OVERFLOW, 0 },
	{ "INT64_MIN % -1 traps", BIN("mod"), 2, { INT64_MIN, -1 }, JIT_TRAP_DIV_OVERFLOW, 0 },
	{ "INT64_MIN / 1", BIN("div"), 2, { INT64_MIN, 1 }, 0, INT64_MIN },
	{ "-5 / -1", BIN("div"), 2, { -5, -1 }, 0, 5 },
	{ "-100 / 7 (constant) truncates", BY_CONST("div", 7), 1, { -100 }, 0, -14 },
	{ "-100 % 7 (constant)", BY_CONST("mod", 7), 1, { -100 }, 0, -2 },
	{ "100 / -7 (constant)", BY_CONST("div", -7), 1, { 100 }, 0, -14 },
	{ "100 % -7 (constant)", BY_CONST("mod", -7), 1, { 100 }, 0, 2 },
	{ "-9 / 8 (constant) truncates", BY_CONST("div", 8), 1, { -9 }, 0, -1 },
	{ "-9 % 8 (constant)", BY_CONST("mod", 8), 1, { -9 }, 0, -1 },
	{ "-9 / -8 (constant)", BY_CONST("div", -8), 1, { -9 }, 0, 1 },
	{ "INT64_MIN / INT64_MIN (constant)", BY_CONST("div", -9223372036854775808), 1,
	  { INT64_MIN }, 0, 1 },
	{ "INT64_MAX % INT64_MIN (constant)", BY_CONST("mod", -9223372036854775808), 1,
	  { INT64_MAX }, 0, INT64_MAX },
	{ "INT64_MIN / INT64_MAX (constant)", BY_CONST("div", 9223372036854775807), 1,
	  { INT64_MIN }, 0, -1 },
	{ "INT64_MIN % INT64_MAX (constant)", BY_CONST("mod", 9223372036854775807), 1,
	  { INT64_MIN }, 0, -1 },
	{ "INT64_MIN / -1 (constant) traps", BY_CONST("div", -1), 1, { INT64_MIN },
	  JIT_TRAP_DIV_OVERFLOW, 0 },
	{ "INT64_MIN % -1 (constant) traps", BY_CONST("mod", -1), 1, { INT64_MIN },
	  JIT_TRAP_DIV_OVERFLOW, 0 },
	{ "7 % -1 (constant)", BY_CONST("mod", -1), 1, { 7 }, 0, 0 },
	{ "div by the constant 0 traps", BY_CONST("div", 0), 1, { 5 }, JIT_TRAP_DIV_ZERO, 0 },
	{ "mod by the constant 0 traps", BY_CONST("mod", 0), 1, { 5 }, JIT_TRAP_DIV_ZERO, 0 },
	/* loops whose back jump runs a copy of the test (emit.c: rotation) */
	{ "a while loop on i < n", "func f 1 2\n"
	  "loop:\n load 0\n arg 0\n lt\n jz done\n load 1\n load 0\n add\n store 1\n"
	  " load 0\n const 1\n add\n store 0\n jmp loop\ndone:\n load 1\n ret\n",
	  1, { 10 }, 0, 45 },
	{ "a loop test 0 < n whose exit is not after the back jump", "func f 1 1\n"
	  "loop:\n const 0\n arg 0\n lt\n jz out\n load 0\n const 3\n add\n store 0\n"
	  " arg 0\n const 1\n sub\n setarg 0\n jmp loop\nnever:\n const 99\n ret\n"
	  "out:\n load 0\n ret\n", 1, { 4 }, 0, 12 },
	{ "a loop on jnz with a value below it on the stack", "func f 1 0\n const 100\n"
	  "loop:\n arg 0\n jnz more\n const 1\n add\n ret\n"
	  "more:\n arg 0\n const 1\n sub\n setarg 0\n jmp loop\n", 1, { 5 }, 0, 101 },
	{ "push; push; jz is no loop test, though load 22's operand reads as ne",
	  "func f 1 23\n arg 0\n store 22\nloop:\n load 0\n load 22\n jz done\n drop\n"
	  " load 0\n const 1\n add\n store 0\n load 22\n const 1\n sub\n store 22\n"
	  " jmp loop\ndone:\n ret\n", 1, { 3 }, 0, 3 },
	/* x % 10 then x / 10 multiply once (emit.c: kept quotient) */
	{ "x % 10 + x / 10 shares the quotient", "func f 1 0\n arg 0\n const 10\n mod\n"
	  " arg 0\n const 10\n div\n add\n ret\n", 1, { -1234 }, 0, -127 },
	{ "x % 10, x * x, x / 10: the slot holding the quotient is taken in between",
	  "func f 1 0\n arg 0\n const 10\n mod\n arg 0\n dup\n mul\n add\n"
	  " arg 0\n const 10\n div\n add\n ret\n", 1, { 1234 }, 0, 1522883 },
	{ "x / 7, x = x + 1, x % 7: a store in between", "func f 1 0\n arg 0\n const 7\n div\n"
	  " arg 0\n const 1\n add\n setarg 0\n arg 0\n const 7\n mod\n add\n ret\n",
	  1, { 13 }, 0, 1 },
	{ "mul by the constant 8", BY_CONST("mul", 8), 1, { -3 }, 0, -24 },
	{ "mul by the constant -10 (lea, shift, neg)", BY_CONST("mul", -10), 1, { 7 }, 0, -70 },
	{ "mul by the constant INT64_MIN", BY_CONST("mul", -9223372036854775808), 1, { 3 }, 0,
	  INT64_MIN },
	{ "and", BIN("and"), 2, { 0xff0, 0x0ff }, 0, 0x0f0 },
	{ "or", BIN("or"), 2, { 0xf00, 0x00f }, 0, 0xf0f },
	{ "xor", BIN("xor"), 2, { 0xff, 0x0f }, 0, 0xf0 },
	{ "shl", BIN("shl"), 2, { 3, 4 }, 0, 48 },
	{ "shl count masked to 6 bits", BIN("shl"), 2, { 1, 65 }, 0, 2 },
	{ "shl into the sign bit", BIN("shl"), 2, { 1, 63 }, 0, INT64_MIN },
	{ "shr is logical", BIN("shr"), 2, { -1, 60 }, 0, 15 },
	{ "sar is arithmetic", BIN("sar"), 2, { -16, 2 }, 0, -4 },
	{ "sar negative count masked", BIN("sar"), 2, { -1024, -62 }, 0, -256 },
	{ "eq", BIN("eq"), 2, { 5, 5 }, 0, 1 },
	{ "ne", BIN("ne"), 2, { 5, 5 }, 0, 0 },
	{ "lt is signed", BIN("lt"), 2, { -1, 0 }, 0, 1 },
	{ "le", BIN("le"), 2, { 3, 3 }, 0, 1 },
	{ "gt", BIN("gt"), 2, { INT64_MIN, INT64_MAX }, 0, 0 },
	{ "ge", BIN("ge"), 2, { 4, 3 }, 0, 1 },
	{ "neg", UN("neg"), 1, { 5 }, 0, -5 },
	{ "neg INT64_MIN wraps", UN("neg"), 1, { INT64_MIN }, 0, INT64_MIN },
	{ "not", UN("not"), 1, { 0 }, 0, -1 },
	{ "const full range",
	  "func f 0 0\n const -9223372036854775808\n const 0x7fffffffffffffff\n add\n ret\n",
	  0, { 0 }, 0, -1 },
	{ "dup swap drop",
	  "func f 2 0\n arg 0\n arg 1\n swap\n dup\n drop\n sub\n ret\n",
	  2, { 10, 3 }, 0, -7 },
	{ "locals start at zero and keep values",
	  "func f 1 2\n load 1\n arg 0\n store 0\n load 0\n add\n ret\n",
	  1, { 9 }, 0, 9 },
	{ "setarg",
	  "func f 1 0\n const 7\n setarg 0\n arg 0\n ret\n", 1, { 1 }, 0, 7 },
	{ "jz and jnz",
	  "func f 1 0\n arg 0\n jz zero\n arg 0\n jnz nonzero\n const 99\n ret\n"
	  "zero:\n const 10\n ret\nnonzero:\n const 20\n ret\n",
	  1, { 5 }, 0, 20 },
	{ "counted loop sums 1..n",
	  "func f 1 1\nloop:\n arg 0\n jz done\n load 0\n arg 0\n add\n store 0\n"
	  " arg 0\n const 1\n sub\n setarg 0\n jmp loop\ndone:\n load 0\n ret\n",
	  1, { 100 }, 0, 5050 },
	{ "five arguments in order",
	  "func f 5 0\n arg 0\n arg 1\n arg 2\n arg 3\n arg 4\n call g\n ret\n"
	  "func g 5 0\n arg 0\n const 10000\n mul\n arg 1\n const 1000\n mul\n add\n"
	  " arg 2\n const 100\n mul\n add\n arg 3\n const 10\n mul\n add\n arg 4\n add\n ret\n",
	  5, { 1, 2, 3, 4, 5 }, 0, 12345 },
	{ "deep operand stack spills past the registers",
	  "func f 0 0\n const 1\n const 2\n const 3\n const 4\n const 5\n const 6\n"
	  " const 7\n const 8\n const 9\n const 10\n sub\n sub\n sub\n sub\n sub\n"
	  " sub\n sub\n sub\n sub\n ret\n",
	  0, { 0 }, 0, -5 },
	{ "call keeps the caller's stack",
	  "func f 0 0\n const 1\n const 2\n const 3\n const 4\n const 5\n const 6\n"
	  " const 7\n call sq\n add\n add\n add\n add\n add\n add\n ret\n"
	  "func sq 1 0\n arg 0\n arg 0\n mul\n ret\n",
	  0, { 0 }, 0, 70 },
	{ "ret with values left on the stack returns the top",
	  "func f 0 0\n const 1\n const 2\n ret\n", 0, { 0 }, 0, 2 },
	{ "trap in a callee unwinds to the caller",
	  "func f 1 0\n arg 0\n call g\n const 1\n add\n ret\n"
	  "func g 1 0\n const 1\n arg 0\n div\n ret\n",
	  1, { 0 }, JIT_TRAP_DIV_ZERO, 0 },
	{ "recursion exactly JIT_MAX_CALL_STACK bytes deep is allowed",
	  "func f 1 0\n arg 0\n jz done\n arg 0\n const 1\n sub\n call f\n const 1\n add\n ret\n"
	  "done:\n const 0\n ret\n",
	  1, { REC_MAX_ARG }, 0, REC_MAX_ARG },
	{ "recursion one frame past the call-stack limit traps",
	  "func f 1 0\n arg 0\n jz done\n arg 0\n const 1\n sub\n call f\n const 1\n add\n ret\n"
	  "done:\n const 0\n ret\n",
	  1, { REC_MAX_ARG + 1 }, JIT_TRAP_CALL_DEPTH, 0 },
	{ "endless recursion traps",
	  "func f 0 0\n call f\n const 1\n add\n ret\n", 0, { 0 }, JIT_TRAP_CALL_DEPTH, 0 },
	{ "a tail call (call; ret) reuses the frame: 10^6 deep, no trap",
	  "func f 1 0\n arg 0\n jz done\n arg 0\n const 1\n sub\n call f\n ret\n"
	  "done:\n const 7\n ret\n", 1, { 1000000 }, 0, 7 },
	{ "a jump to the ret after a tail call still returns",
	  "func g 1 0\n arg 0\n ret\n"
	  "func f 1 0\n arg 0\n jnz deep\n const 5\n jmp out\n"
	  "deep:\n const 9\n call g\nout:\n ret\n", 1, { 0 }, 0, 5 },
	/* bytecode.h's call kinds: CALL_ACCUMULATE and CALL_RESTART */
	{ "n + f(n - 1) accumulates: 10^6 deep, no frames, no trap",
	  "func f 1 0\n arg 0\n jz done\n arg 0\n arg 0\n const 1\n sub\n call f\n add\n ret\n"
	  "done:\n const 0\n ret\n", 1, { 1000000 }, 0, 500000500000 },
	{ "the accumulator wraps like add",
	  "func f 1 0\n arg 0\n jz done\n const 0x7fffffffffffffff\n arg 0\n const 1\n sub\n"
	  " call f\n add\n ret\ndone:\n const 2\n ret\n", 1, { 2 }, 0, 0 },
	{ "a tail call from a function that accumulates keeps the accumulator",
	  "func f 1 0\n arg 0\n jnz more\n const 7\n call g\n ret\n"
	  "more:\n arg 0\n arg 0\n const 1\n sub\n call f\n add\n ret\n"
	  "func g 1 0\n arg 0\n const 1\n add\n ret\n", 1, { 10 }, 0, 63 },
	{ "a self tail call keeps the accumulator, a restart zeroes the locals",
	  "func f 2 1\n load 0\n arg 1\n add\n store 0\n arg 0\n jnz go\n load 0\n ret\n"
	  "go:\n arg 0\n const 1\n and\n jz even\n"
	  " arg 0\n arg 0\n const 1\n sub\n arg 1\n call f\n add\n ret\n"
	  "even:\n arg 0\n const 1\n sub\n arg 1\n const 1\n add\n call f\n ret\n",
	  2, { 5, 0 }, 0, 11 },
	{ "a jump to the add after an accumulating call adds as usual",
	  "func f 1 0\n arg 0\n jnz more\n const 10\n const 5\n jmp sum\n"
	  "more:\n arg 0\n arg 0\n const 1\n sub\n call f\nsum:\n add\n ret\n",
	  1, { 3 }, 0, 21 },
	{ "a jump to the ret after an accumulating call returns as usual",
	  "func f 1 0\n arg 0\n jnz more\n const 10\n jmp out\n"
	  "more:\n arg 0\n arg 0\n const 1\n sub\n call f\n add\nout:\n ret\n",
	  1, { 3 }, 0, 16 },
	/* CALL_NESTED: an outer call whose exit holds folds into the accumulator */
	{ "ackermann(2, 3) through nested calls", ACK, 2, { 2, 3 }, 0, 9 },
	{ "ackermann(3, 5) through nested calls", ACK, 2, { 3, 5 }, 0, 253 },
	{ "ackermann(1, 10^6) folds every outer call: no frames, no trap",
	  ACK, 2, { 1, 1000000 }, 0, 1000002 },
	{ "a jump to the inner call's second half calls as usual", ACK_JUMP, 2, { 3, 3 }, 0, 61 },
	{ "folded terms: an argument computed below the inner call, and a sub",
	  NEST3, 3, { 1, 10, 1000000 }, 0, 17000008 },
	{ "folded terms wrap like add and sub",
	  NEST3, 3, { 1, INT64_C(1) << 62, 3 }, 0, INT64_C(-4611686018427387915) },
	{ "an outer call whose exit does not hold is a real call",
	  NEST_DEEP, 2, { 2, 1000 }, 0, 0 },
	{ "real calls under nested ones still reach the call-stack limit",
	  NEST_DEEP, 2, { 2, 1000000 }, JIT_TRAP_CALL_DEPTH, 0 },
	{ "an exit that xors does not fold: ackermann-like calls take frames",
	  ACK_XOR, 2, { 1, 1000000 }, JIT_TRAP_CALL_DEPTH, 0 },
	{ "...and the same with few enough frames answers",
	  ACK_XOR, 2, { 1, 1001 }, 0, 1 },
	/* emit.c: a home plus a constant stays virtual until it is needed */
	{ "home + constant past an int32 addend",
	  "func f 1 0\n arg 0\n const 2147483647\n add\n const 1\n add\n ret\n",
	  1, { 5 }, 0, 2147483653 },
	{ "home + constant wraps",
	  "func f 1 0\n arg 0\n const 2\n add\n ret\n", 1, { INT64_MAX }, 0, INT64_MIN + 1 },
	{ "home + constant stored back into that home",
	  "func f 1 0\n arg 0\n const 1\n add\n setarg 0\n arg 0\n ret\n", 1, { 5 }, 0, 6 },
	{ "an older home + constant keeps the old value across a store",
	  "func f 1 0\n arg 0\n const 1\n add\n const 100\n setarg 0\n arg 0\n add\n ret\n",
	  1, { 5 }, 0, 106 },
	{ "a home in memory plus a constant as a call argument",
	  "func f 5 2\n const 9\n store 1\n load 1\n const 5\n sub\n call g\n arg 4\n add\n ret\n"
	  "func g 1 0\n arg 0\n const 2\n mul\n ret\n", 5, { 0, 0, 0, 0, 100 }, 0, 108 },
	{ "home + constant at a jump target",
	  "func f 1 0\n arg 0\n const 3\n sub\n arg 0\n jz out\n const 1\n add\nout:\n ret\n",
	  1, { 10 }, 0, 8 },
	/* entry_exit.h: the frameless exit before the prologue */
	{ "entry exit: constant on the left, exit on the jump's side",
	  "func f 1 0\n const 5\n arg 0\n lt\n jnz small\n arg 0\n call g\n ret\n"
	  "small:\n arg 0\n const 3\n sub\n const 1\n xor\n ret\n"
	  "func g 1 0\n arg 0\n const 100\n add\n ret\n", 1, { 10 }, 0, 6 },
	{ "entry exit not taken: the frame is built",
	  "func f 1 0\n const 5\n arg 0\n lt\n jnz small\n arg 0\n call g\n ret\n"
	  "small:\n arg 0\n const 3\n sub\n const 1\n xor\n ret\n"
	  "func g 1 0\n arg 0\n const 100\n add\n ret\n", 1, { 2 }, 0, 102 },
	{ "entry exit returning a 64-bit constant",
	  "func f 2 0\n arg 1\n jz zero\n arg 0\n arg 1\n div\n ret\n"
	  "zero:\n const 0x123456789abcdef\n const 1\n add\n ret\n", 2, { 9, 0 }, 0,
	  0x123456789abcdf0 },
	{ "entry exit on the fifth argument",
	  "func f 5 0\n arg 4\n const -3\n ge\n jz neg\n arg 4\n call g\n ret\n"
	  "neg:\n arg 4\n arg 3\n sub\n ret\n"
	  "func g 1 0\n arg 0\n ret\n", 5, { 0, 0, 0, 4, -9 }, 0, -13 },
};

#define SEMANTIC_CASE_COUNT ((int)(sizeof semantic_cases / sizeof semantic_cases[0]))

#endif
