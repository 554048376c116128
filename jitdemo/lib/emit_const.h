/*
 * emit_const.h - arithmetic by a known constant, lowered as a compiler
 * does it (Granlund & Montgomery 1994; Warren, Hacker's Delight ch. 10):
 * division and modulo by a multiply-high with a magic reciprocal or by
 * shifts and masks, multiplication by shifts and lea.  The results are
 * exactly the interpreter's (interp_divide, wrapping multiplication),
 * traps included.  Not part of libjit's interface.
 */
#ifndef JITDEMO_EMIT_CONST_H
#define JITDEMO_EMIT_CONST_H

#include <stdbool.h>
#include <stdint.h>

#include "vstack.h"

/* n / d for d >= 3 not a power of two (and d < 2^63) is, for every
 * int64_t n, (mulhs(multiplier, n) + (add_dividend ? n : 0)) >> shift
 * (arithmetic), plus 1 when n < 0.  A multiplier of 2^63 or more does
 * not fit: it is stored less 2^64, and add_dividend puts the n * 2^64
 * back.  n / -d is -(n / d). */
struct div_magic {
	int64_t multiplier;
	int shift;
	bool add_dividend;
};

struct div_magic div_magic_for(uint64_t divisor);

/* The dividend is in rcx; divisor is any constant but 0.  Emits the
 * quotient or the remainder and returns the register holding it (one of
 * rax, rcx, rdx; rax and rdx are clobbered).  A divisor of -1 traps on
 * INT64_MIN, as idiv would, through the module's overflow stub.  When
 * keep_quotient is not NULL and the divisor is positive and
 * divides_by_reciprocal, the quotient is copied there too. */
enum x86_reg emit_divmod_by_const(struct fn_compiler *c, int64_t divisor, bool want_remainder,
				  const enum x86_reg *keep_quotient);

/* Whether the divisor takes the multiply-high (|d| >= 3, no power of
 * two): the only case where keeping the quotient saves anything. */
bool divides_by_reciprocal(int64_t divisor);

/* The same from the quotient an earlier division of the same dividend
 * by the same divisor kept; a remainder needs the dividend in rcx. */
enum x86_reg emit_divmod_from_quotient(struct fn_compiler *c, enum x86_reg quotient,
				       int64_t divisor, bool want_remainder);

/* reg *= factor, wrapping, by shl, lea, a shift and an add or sub for
 * 2^k +- 1, and neg where they fit, else imul; clobbers rcx. */
void emit_mul_by_const(struct fn_compiler *c, enum x86_reg reg, int64_t factor);

#endif
