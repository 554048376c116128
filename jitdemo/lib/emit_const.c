/* emit_const.c - arithmetic by a known constant (see emit_const.h). */
#include "emit_const.h"

/* Hacker's Delight, figure 10-1, for 64 bits and d > 0: the least
 * shift p >= 64 at which 2^p / d rounded up is exact for every n. */
struct div_magic div_magic_for(uint64_t divisor)
{
	const uint64_t two63 = (uint64_t)1 << 63;
	uint64_t abs_nc = two63 - 1 - two63 % divisor;	/* the largest n with n % d == d - 1 */
	uint64_t q1 = two63 / abs_nc, r1 = two63 - q1 * abs_nc;
	uint64_t q2 = two63 / divisor, r2 = two63 - q2 * divisor;
	uint64_t delta;
	int p = 63;
	do {
		p++;
		q1 *= 2;
		r1 *= 2;
		if (r1 >= abs_nc) {
			q1++;
			r1 -= abs_nc;
		}
		q2 *= 2;
		r2 *= 2;
		if (r2 >= divisor) {
			q2++;
			r2 -= divisor;
		}
		delta = divisor - r2;
	} while (q1 < delta || (q1 == delta && r1 == 0));
	int64_t multiplier = (int64_t)(q2 + 1);
	return (struct div_magic){ multiplier, p - 64, multiplier < 0 };
}

static uint64_t magnitude_of(int64_t v) { return v < 0 ? 0 - (uint64_t)v : (uint64_t)v; }
static bool is_power_of_two(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

/* The exponent of a power of two. */
static int log2_exact(uint64_t v)
{
	int k = 0;
	while (v >>= 1)
		k++;
	return k;
}

/* reg &= 2^k - 1 for 1 <= k <= 63: an and while the mask fits an imm32,
 * else a shift up and back down. */
static void keep_low_bits(struct code_buf *buf, enum x86_reg reg, int k)
{
	if (k <= 31) {
		emit_alu_reg_imm(buf, ALU_AND, reg, (int32_t)(((uint64_t)1 << k) - 1));
		return;
	}
	emit_shift_reg_imm(buf, SHIFT_SHL, reg, (uint8_t)(64 - k));
	emit_shift_reg_imm(buf, SHIFT_SHR, reg, (uint8_t)(64 - k));
}

/* d = +-2^k, 1 <= k <= 63 (k = 63 is INT64_MIN): idiv truncates toward
 * zero, a shift rounds down, so a negative n gets 2^k - 1 added first.
 * The remainder is the low k bits of that sum less what was added: its
 * sign follows n's, as C's %. */
static enum x86_reg divmod_power_of_two(struct code_buf *buf, int64_t divisor, bool want_remainder)
{
	int k = log2_exact(magnitude_of(divisor));
	emit_mov_reg_reg(buf, RDX, RCX);		/* rdx = n < 0 ? 2^k - 1 : 0 */
	if (k > 1)
		emit_shift_reg_imm(buf, SHIFT_SAR, RDX, 63);
	emit_shift_reg_imm(buf, SHIFT_SHR, RDX, (uint8_t)(64 - k));
	emit_lea_reg_index(buf, RAX, RCX, RDX, 1);
	if (want_remainder) {
		keep_low_bits(buf, RAX, k);
		emit_alu_reg_reg(buf, ALU_SUB, RAX, RDX);
		return RAX;
	}
	emit_shift_reg_imm(buf, SHIFT_SAR, RAX, (uint8_t)k);
	if (divisor < 0)
		emit_neg_reg(buf, RAX);
	return RAX;
}

/* n / d by the magic reciprocal of |d|, as gcc lays it out: n's sign
 * (rax) is taken while the multiply runs.  rcx keeps n; the quotient
 * ends in rdx, or in rax for a negative d. */
static enum x86_reg quotient_by_magic(struct code_buf *buf, int64_t divisor)
{
	struct div_magic magic = div_magic_for(magnitude_of(divisor));
	emit_mov_reg_imm(buf, RAX, magic.multiplier);
	emit_imul_rdx_rax_reg(buf, RCX);
	if (magic.add_dividend)
		emit_alu_reg_reg(buf, ALU_ADD, RDX, RCX);
	emit_mov_reg_reg(buf, RAX, RCX);
	emit_shift_reg_imm(buf, SHIFT_SAR, RAX, 63);	/* -1 for n < 0: */
	if (magic.shift > 0)
		emit_shift_reg_imm(buf, SHIFT_SAR, RDX, (uint8_t)magic.shift);
	if (divisor > 0) {				/* rounds toward zero */
		emit_alu_reg_reg(buf, ALU_SUB, RDX, RAX);
		return RDX;
	}
	emit_alu_reg_reg(buf, ALU_SUB, RAX, RDX);
	return RAX;
}

static void mul_by_const(struct code_buf *buf, enum x86_reg reg, int64_t factor,
			 enum x86_reg scratch);

/* n - q * d, q in rdx (clobbered); the remainder ends in rcx. */
static enum x86_reg remainder_from_quotient(struct code_buf *buf, int64_t divisor)
{
	mul_by_const(buf, RDX, divisor, RAX);
	emit_alu_reg_reg(buf, ALU_SUB, RCX, RDX);
	return RCX;
}

/* n % d == n % |d| == n - (n / |d|) * |d|.  keep, if not NULL, gets a
 * copy of the quotient (d > 0). */
static enum x86_reg divmod_by_magic(struct code_buf *buf, int64_t divisor, bool want_remainder,
				    const enum x86_reg *keep)
{
	if (!want_remainder && !keep)
		return quotient_by_magic(buf, divisor);
	enum x86_reg quotient = quotient_by_magic(buf, (int64_t)magnitude_of(divisor));	/* rdx */
	if (keep)
		emit_mov_reg_reg(buf, *keep, quotient);
	if (!want_remainder)
		return quotient;
	return remainder_from_quotient(buf, (int64_t)magnitude_of(divisor));
}

bool divides_by_reciprocal(int64_t divisor)
{
	uint64_t magnitude = magnitude_of(divisor);
	return magnitude > 2 && !is_power_of_two(magnitude);
}

enum x86_reg emit_divmod_from_quotient(struct fn_compiler *c, enum x86_reg quotient,
				       int64_t divisor, bool want_remainder)
{
	if (!want_remainder)
		return quotient;
	emit_mov_reg_reg(c->buf, RDX, quotient);
	return remainder_from_quotient(c->buf, divisor);
}

enum x86_reg emit_divmod_by_const(struct fn_compiler *c, int64_t divisor, bool want_remainder,
				  const enum x86_reg *keep_quotient)
{
	struct code_buf *buf = c->buf;
	if (divisor == 1) {
		if (!want_remainder)
			return RCX;
		emit_zero_reg(buf, RAX);
		return RAX;
	}
	if (divisor == -1) {				/* -n, and INT64_MIN traps */
		emit_mov_reg_reg(buf, RAX, RCX);
		emit_neg_reg(buf, RAX);
		jcc_to_stub(c, CC_O, STUB_DIV_OVERFLOW);
		if (want_remainder)
			emit_zero_reg(buf, RAX);
		return RAX;
	}
	if (is_power_of_two(magnitude_of(divisor)))
		return divmod_power_of_two(buf, divisor, want_remainder);
	return divmod_by_magic(buf, divisor, want_remainder, divisor > 0 ? keep_quotient : NULL);
}

/* factor = 3, 5 or 9 times a power of two: lea [reg + reg * 2|4|8]. */
static int lea_scale_of(uint64_t factor)
{
	while (factor % 2 == 0)
		factor /= 2;
	return factor == 3 ? 2 : factor == 5 ? 4 : factor == 9 ? 8 : 0;
}

static int trailing_zeros(uint64_t v)
{
	int k = 0;
	while (v % 2 == 0) {
		v /= 2;
		k++;
	}
	return k;
}

/* reg *= magnitude by lea and shl, or by a shift and an add or sub of
 * the old value for 2^k +- 1; false when neither fits. */
static bool mul_by_shifts(struct code_buf *buf, enum x86_reg reg, uint64_t magnitude,
			  enum x86_reg scratch)
{
	int scale = lea_scale_of(magnitude);
	if (is_power_of_two(magnitude) || scale) {
		if (scale)
			emit_lea_reg_index(buf, reg, reg, reg, scale);
		int k = trailing_zeros(magnitude);
		if (k > 0)
			emit_shift_reg_imm(buf, SHIFT_SHL, reg, (uint8_t)k);
		return true;
	}
	bool above = is_power_of_two(magnitude - 1), below = is_power_of_two(magnitude + 1);
	if (!above && !below)
		return false;
	emit_mov_reg_reg(buf, scratch, reg);
	int k = log2_exact(above ? magnitude - 1 : magnitude + 1);
	emit_shift_reg_imm(buf, SHIFT_SHL, reg, (uint8_t)k);
	emit_alu_reg_reg(buf, above ? ALU_ADD : ALU_SUB, reg, scratch);
	return true;
}

/* reg *= factor, wrapping; scratch may be clobbered. */
static void mul_by_const(struct code_buf *buf, enum x86_reg reg, int64_t factor,
			 enum x86_reg scratch)
{
	if (factor == 0) {
		emit_zero_reg(buf, reg);
	} else if (mul_by_shifts(buf, reg, magnitude_of(factor), scratch)) {
		if (factor < 0)
			emit_neg_reg(buf, reg);
	} else if (fits_i32(factor)) {
		emit_imul_reg_imm(buf, reg, reg, (int32_t)factor);
	} else {
		emit_mov_reg_imm(buf, scratch, factor);
		emit_imul_reg_reg(buf, reg, scratch);
	}
}

void emit_mul_by_const(struct fn_compiler *c, enum x86_reg reg, int64_t factor)
{
	mul_by_const(c->buf, reg, factor, RCX);
}
