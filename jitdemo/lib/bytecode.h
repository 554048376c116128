/*
 * bytecode.h - the instruction set and the in-memory module.
 *
 * Each function's code is a byte string: an opcode byte followed by its
 * operand, little-endian.  Operand forms:
 *	OPND_NONE	no operand
 *	OPND_I64	8-byte signed constant (const)
 *	OPND_SLOT	1-byte argument or local index (arg, setarg, load, store)
 *	OPND_TARGET	4-byte byte offset of an instruction in the same function
 *	OPND_CALL	2-byte function index, then 1-byte argument count
 */
#ifndef JITDEMO_BYTECODE_H
#define JITDEMO_BYTECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libjit.h"

#define OPCODE_LIST(X) \
	X(CONST, "const", OPND_I64, 0, 1) \
	X(ARG, "arg", OPND_SLOT, 0, 1) \
	X(SETARG, "setarg", OPND_SLOT, 1, 0) \
	X(LOAD, "load", OPND_SLOT, 0, 1) \
	X(STORE, "store", OPND_SLOT, 1, 0) \
	X(DUP, "dup", OPND_NONE, 1, 2) \
	X(DROP, "drop", OPND_NONE, 1, 0) \
	X(SWAP, "swap", OPND_NONE, 2, 2) \
	X(ADD, "add", OPND_NONE, 2, 1) \
	X(SUB, "sub", OPND_NONE, 2, 1) \
	X(MUL, "mul", OPND_NONE, 2, 1) \
	X(DIV, "div", OPND_NONE, 2, 1) \
	X(MOD, "mod", OPND_NONE, 2, 1) \
	X(NEG, "neg", OPND_NONE, 1, 1) \
	X(AND, "and", OPND_NONE, 2, 1) \
	X(OR, "or", OPND_NONE, 2, 1) \
	X(XOR, "xor", OPND_NONE, 2, 1) \
	X(NOT, "not", OPND_NONE, 1, 1) \
	X(SHL, "shl", OPND_NONE, 2, 1) \
	X(SHR, "shr", OPND_NONE, 2, 1) \
	X(SAR, "sar", OPND_NONE, 2, 1) \
	X(EQ, "eq", OPND_NONE, 2, 1) \
	X(NE, "ne", OPND_NONE, 2, 1) \
	X(LT, "lt", OPND_NONE, 2, 1) \
	X(LE, "le", OPND_NONE, 2, 1) \
	X(GT, "gt", OPND_NONE, 2, 1) \
	X(GE, "ge", OPND_NONE, 2, 1) \
	X(JMP, "jmp", OPND_TARGET, 0, 0) \
	X(JZ, "jz", OPND_TARGET, 1, 0) \
	X(JNZ, "jnz", OPND_TARGET, 1, 0) \
	X(CALL, "call", OPND_CALL, 0, 1) /* pops the callee's arity */ \
	X(RET, "ret", OPND_NONE, 1, 0)

enum opcode {
#define X(name, text, operand, pops, pushes) OP_##name,
	OPCODE_LIST(X)
#undef X
	OP_COUNT
};

enum operand_kind { OPND_NONE, OPND_I64, OPND_SLOT, OPND_TARGET, OPND_CALL };

struct opcode_info {
	const char *name;
	enum operand_kind operand;
	int pops, pushes;
};

const struct opcode_info *opcode_info(unsigned op);	/* NULL if unknown */
int opcode_by_name(const char *name);			/* -1 if unknown */
size_t operand_size(enum operand_kind kind);

struct bc_func {
	char name[JIT_MAX_NAME + 1];
	int nargs, nlocals;
	int line;		/* of the func header, 0 if built by hand */
	uint8_t *code;
	size_t len;
	uint32_t *lines;	/* source line per code byte, or NULL */
	/* Filled by the verifier: */
	int self;		/* this function's index in its module */
	int16_t *depth_at;	/* stack depth before each insn start; -1 else */
	int max_stack;
	size_t insn_count;	/* reachable instructions */
	bool has_calls;		/* a reachable call: not a leaf */
	bool accumulates;	/* a reachable CALL_ACCUMULATE or CALL_NESTED */
	bool exit_folds;	/* its entry exit folds a nested call (entry_exit.h) */
};

/* Open-addressed hash of function names: slot holds index + 1, 0 is empty. */
#define BC_NAME_HASH_SIZE (4 * JIT_MAX_FUNCS)

struct bc_module {
	char file[256];
	struct bc_func *funcs;
	int nfuncs;
	size_t funcs_cap;
	int verified;
	bool names_hashed;	/* name_slot is complete (the assembler's modules) */
	uint16_t name_slot[BC_NAME_HASH_SIZE];
};

/* Little-endian operand access; callers guarantee the bytes exist. */
int64_t read_i64(const uint8_t *p);
uint32_t read_u32(const uint8_t *p);
uint16_t read_u16(const uint8_t *p);

/* By hash when the module has one, else by a scan (hand-built modules). */
int bc_find_func(const struct bc_module *mod, const char *name);
/*
 * What a call costs in frames; both engines (and frame.c) ask here, so
 * they hit the call-stack limit on the same call.  Every frame carries an
 * accumulator, 0 on entry, that each ret adds to the value it returns.
 *	CALL_PLAIN	a new frame; the result is pushed
 *	CALL_TAIL	"call g; ret": g's frame replaces ours
 *	CALL_RESTART	"call self; ret": our frame restarts with the new
 *			arguments (locals zeroed, accumulator kept)
 *	CALL_ACCUMULATE	"call self; add; ret": the value below the
 *			arguments joins the accumulator, then as CALL_RESTART.
 *			Wrapping addition is associative and commutative, so
 *			the result equals the one with a new frame.
 *	CALL_NESTED	"call self; call self; ret" in a function whose entry
 *			exit folds (entry_exit.h: it returns the last
 *			argument plus terms of the others and tests only the
 *			others).  When that exit holds for the outer call's
 *			other arguments, the values below the inner call's,
 *			the outer call returns the inner result plus those
 *			terms: they join the accumulator and the frame
 *			restarts with the inner call's arguments, as
 *			CALL_ACCUMULATE.  When it does not, CALL_PLAIN.
 * A function that accumulates makes no CALL_TAIL (it would drop the
 * accumulator): such a call is CALL_PLAIN there.
 */
enum bc_call_kind { CALL_PLAIN, CALL_TAIL, CALL_RESTART, CALL_ACCUMULATE, CALL_NESTED };

/* For a reachable call of a verified function. */
enum bc_call_kind bc_call_kind(const struct bc_func *fn, size_t pc);
/* Enters funcs[index]'s name in the hash; call for every function in order. */
void bc_hash_func_name(struct bc_module *mod, int index);
void bc_module_free(struct bc_module *mod);

/* Formats the instruction at code[pc] ("jz 17", "call fib/1"). */
void bc_format_insn(const struct bc_module *mod, const struct bc_func *fn,
		    size_t pc, char *buf, size_t len);

#endif
