/*
 * entry_exit.h - shrink-wrapping.  A function that starts by testing its
 * arguments and, on one side of that test, returns a simple expression of
 * them takes that exit before it builds its frame:
 *
 *	func fib 1 0			lea rax, [rsp - frame]; cmp rax, r11; jb trap
 *	    arg 0			cmp rdi, 2
 *	    const 2			jge build_frame
 *	    lt				mov rax, rdi
 *	    jz recurse			ret
 *	    arg 0		  build_frame:
 *	    ret				push ... (the prologue, its check done)
 *
 * The frame's stack check runs first, at the same rsp, so the exit traps
 * exactly where the full frame would (frame.h).  A fresh frame's
 * accumulator is 0, so the exit needs none.  Loops and restarts that come
 * back to the test later run the body's own copy of it.
 *
 * This file finds the pattern; emit.c emits it.
 */
#ifndef JITDEMO_ENTRY_EXIT_H
#define JITDEMO_ENTRY_EXIT_H

#include <stdbool.h>
#include <stdint.h>

#include "bytecode.h"

#define ENTRY_EXIT_MAX_STEPS 4

/* An argument (as passed in its register) or a constant. */
struct entry_value {
	bool is_arg;
	int arg;
	int64_t imm;
};

struct entry_exit {
	/* The test: one value against zero, or compare(lhs, rhs). */
	bool compares;
	enum opcode compare;		/* OP_EQ .. OP_GE when compares */
	struct entry_value lhs, rhs;	/* rhs only when compares */
	bool exit_if_true;		/* exit when value != 0 / compare holds */
	/* The exit returns first op= steps[0] op= steps[1] ... */
	struct entry_value first;
	int nsteps;
	struct {
		enum opcode op;		/* OP_ADD, OP_SUB, OP_AND, OP_OR, OP_XOR */
		struct entry_value value;
	} steps[ENTRY_EXIT_MAX_STEPS];
};

/* For a verified function; false when it does not start that way. */
bool find_entry_exit(const struct bc_func *fn, struct entry_exit *out);

/*
 * The exit folds a nested self call (bytecode.h: CALL_NESTED) when its
 * test does not read the last argument and it returns that argument plus
 * or minus terms (constants or other arguments):
 *
 *	func ack 2 0			ack(m, x) = x + 1 whenever m == 0, so
 *	    arg 0			ack(m, n) = ack(m - 1, ack(m, n - 1))
 *	    jnz m_positive		with m - 1 == 0 is ack(m, n - 1) + 1:
 *	    arg 1			the frame keeps 1 in its accumulator and
 *	    const 1			restarts as ack(m, n - 1), a loop
 *	    add
 *	    ret
 */
bool entry_exit_folds(const struct entry_exit *e, int nargs);
/* Both engines' reading of the exit on argument values: whether it is
 * taken, and its value less its first term (for a folding exit, whose
 * first term is the last argument, the terms that are left). */
bool entry_exit_taken(const struct entry_exit *e, const int64_t *args);
int64_t entry_exit_terms(const struct entry_exit *e, const int64_t *args);

#endif
