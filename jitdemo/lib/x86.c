/* x86.c - x86-64 encodings (Intel SDM vol. 2 names in the comments). */
#include "x86.h"

#include <stdlib.h>
#include <string.h>

enum {
	REX = 0x40, REX_W = 0x08, REX_R = 0x04, REX_X = 0x02, REX_B = 0x01,
	MOD_DISP8 = 0x1, MOD_DISP32 = 0x2, MOD_REG = 0x3,
	SIB_NO_INDEX_BASE_RSP = 0x24,
	OPC_MOV_RM_R = 0x89, OPC_MOV_R_RM = 0x8b, OPC_LEA = 0x8d,
	OPC_MOV_RM_IMM32 = 0xc7, OPC_MOV_R_IMM = 0xb8,
	OPC_GRP1_RM_IMM8 = 0x83, OPC_GRP1_RM_IMM32 = 0x81,
	OPC_GRP3 = 0xf7, OPC_GRP2_CL = 0xd3, OPC_TEST_RM_R = 0x85,
	OPC_CQO = 0x99, OPC_PUSH = 0x50, OPC_POP = 0x58, OPC_RET = 0xc3,
	OPC_JMP_REL32 = 0xe9, OPC_CALL_REL32 = 0xe8, OPC_TWO_BYTE = 0x0f,
	OPC2_JCC_REL32 = 0x80, OPC2_SETCC = 0x90, OPC2_IMUL_R_RM = 0xaf,
	OPC2_MOVZX_R_RM8 = 0xb6,
	GRP1_ADD = 0, GRP1_SUB = 5, GRP1_CMP = 7,
	GRP3_NOT = 2, GRP3_NEG = 3, GRP3_IMUL = 5, GRP3_DIV = 6, GRP3_IDIV = 7,
};

void code_buf_init(struct code_buf *buf, size_t max)
{
	memset(buf, 0, sizeof *buf);
	buf->max = max;
}

void code_buf_free(struct code_buf *buf)
{
	free(buf->bytes);
	memset(buf, 0, sizeof *buf);
}

void emit_byte(struct code_buf *buf, uint8_t byte)
{
	if (buf->overflow)
		return;
	if (buf->len == buf->cap) {
		size_t cap = buf->cap ? buf->cap * 2 : 4096;
		if (cap > buf->max)
			cap = buf->max;
		uint8_t *grown = cap > buf->len ? realloc(buf->bytes, cap) : NULL;
		if (!grown) {
			buf->overflow = true;
			return;
		}
		buf->bytes = grown;
		buf->cap = cap;
	}
	buf->bytes[buf->len++] = byte;
}

void emit_u32(struct code_buf *buf, uint32_t value)
{
	for (int i = 0; i < 4; i++)
		emit_byte(buf, (uint8_t)(value >> (8 * i)));
}

static void emit_u64(struct code_buf *buf, uint64_t value)
{
	emit_u32(buf, (uint32_t)value);
	emit_u32(buf, (uint32_t)(value >> 32));
}

/* rel32 at 'at' becomes target - (at + 4). */
void patch_rel32(struct code_buf *buf, size_t at, size_t target)
{
	if (buf->overflow || at + 4 > buf->len)
		return;
	uint32_t rel = (uint32_t)((int64_t)target - (int64_t)(at + 4));
	for (int i = 0; i < 4; i++)
		buf->bytes[at + i] = (uint8_t)(rel >> (8 * i));
}

/* REX prefix for a 64-bit (w) operation on reg (ModRM.reg) and rm. */
static void emit_rex(struct code_buf *buf, bool w, int reg, int rm)
{
	uint8_t rex = REX | (w ? REX_W : 0) | (reg & 8 ? REX_R : 0) |
		      (rm & 8 ? REX_B : 0);
	if (rex != REX)
		emit_byte(buf, rex);
}

static void emit_modrm(struct code_buf *buf, int mod, int reg, int rm)
{
	emit_byte(buf, (uint8_t)(mod << 6 | (reg & 7) << 3 | (rm & 7)));
}

/* ModRM (+SIB) (+disp) for [base + disp]; rsp/r12 bases need a SIB. */
static void emit_modrm_mem(struct code_buf *buf, int reg, enum x86_reg base,
			   int32_t disp)
{
	bool short_disp = disp >= -128 && disp <= 127;
	emit_modrm(buf, short_disp ? MOD_DISP8 : MOD_DISP32, reg, base);
	if ((base & 7) == RSP)
		emit_byte(buf, SIB_NO_INDEX_BASE_RSP);
	if (short_disp)
		emit_byte(buf, (uint8_t)(int8_t)disp);
	else
		emit_u32(buf, (uint32_t)disp);
}

/* "op r/m64, r64" with both operands registers. */
static void emit_op_rm_reg(struct code_buf *buf, uint8_t opcode,
			   enum x86_reg rm, enum x86_reg reg)
{
	emit_rex(buf, true, reg, rm);
	emit_byte(buf, opcode);
	emit_modrm(buf, MOD_REG, reg, rm);
}

void emit_mov_reg_reg(struct code_buf *buf, enum x86_reg dst, enum x86_reg src)
{
	if (dst != src)
		emit_op_rm_reg(buf, OPC_MOV_RM_R, dst, src);
}

void emit_mov_reg_imm64(struct code_buf *buf, enum x86_reg dst, int64_t imm)
{
	emit_rex(buf, true, 0, dst);
	emit_byte(buf, (uint8_t)(OPC_MOV_R_IMM + (dst & 7)));
	emit_u64(buf, (uint64_t)imm);
}

void emit_mov_reg_imm32_sx(struct code_buf *buf, enum x86_reg dst, int32_t imm)
{
	emit_rex(buf, true, 0, dst);
	emit_byte(buf, OPC_MOV_RM_IMM32);
	emit_modrm(buf, MOD_REG, 0, dst);
	emit_u32(buf, (uint32_t)imm);
}

void emit_mov_eax_imm32(struct code_buf *buf, uint32_t imm)
{
	emit_byte(buf, OPC_MOV_R_IMM + RAX);
	emit_u32(buf, imm);
}

void emit_mov_reg_mem(struct code_buf *buf, enum x86_reg dst,
		      enum x86_reg base, int32_t disp)
{
	emit_rex(buf, true, dst, base);
	emit_byte(buf, OPC_MOV_R_RM);
	emit_modrm_mem(buf, dst, base, disp);
}

void emit_mov_mem_reg(struct code_buf *buf, enum x86_reg base, int32_t disp,
		      enum x86_reg src)
{
	emit_rex(buf, true, src, base);
	emit_byte(buf, OPC_MOV_RM_R);
	emit_modrm_mem(buf, src, base, disp);
}

void emit_lea_reg_mem(struct code_buf *buf, enum x86_reg dst,
		      enum x86_reg base, int32_t disp)
{
	emit_rex(buf, true, dst, base);
	emit_byte(buf, OPC_LEA);
	emit_modrm_mem(buf, dst, base, disp);
}

/* ModRM.rm = 100 selects a SIB; a base of rbp or r13 needs mod 01 and a
 * zero disp8 (mod 00 with that base means "no base, disp32"). */
void emit_lea_reg_index(struct code_buf *buf, enum x86_reg dst, enum x86_reg base,
			enum x86_reg index, int scale)
{
	int scale_bits = scale == 8 ? 3 : scale == 4 ? 2 : scale == 2 ? 1 : 0;
	bool needs_disp8 = (base & 7) == RBP;
	emit_byte(buf, (uint8_t)(REX | REX_W | (dst & 8 ? REX_R : 0) | (index & 8 ? REX_X : 0) |
				 (base & 8 ? REX_B : 0)));
	emit_byte(buf, OPC_LEA);
	emit_modrm(buf, needs_disp8 ? MOD_DISP8 : 0, dst, RSP);
	emit_byte(buf, (uint8_t)(scale_bits << 6 | (index & 7) << 3 | (base & 7)));
	if (needs_disp8)
		emit_byte(buf, 0);
}

void emit_alu_reg_reg(struct code_buf *buf, enum x86_alu op, enum x86_reg dst,
		      enum x86_reg src)
{
	emit_op_rm_reg(buf, (uint8_t)op, dst, src);
}

static void emit_grp1_mem_imm8(struct code_buf *buf, int digit,
			       enum x86_reg base, int32_t disp, int8_t imm)
{
	emit_rex(buf, true, 0, base);
	emit_byte(buf, OPC_GRP1_RM_IMM8);
	emit_modrm_mem(buf, digit, base, disp);
	emit_byte(buf, (uint8_t)imm);
}

void emit_add_mem_imm8(struct code_buf *buf, enum x86_reg base, int32_t disp,
		       int8_t imm)
{
	emit_grp1_mem_imm8(buf, GRP1_ADD, base, disp, imm);
}

void emit_cmp_mem_imm8(struct code_buf *buf, enum x86_reg base, int32_t disp,
		       int8_t imm)
{
	emit_grp1_mem_imm8(buf, GRP1_CMP, base, disp, imm);
}

void emit_cmp_reg_imm8(struct code_buf *buf, enum x86_reg reg, int8_t imm)
{
	emit_rex(buf, true, 0, reg);
	emit_byte(buf, OPC_GRP1_RM_IMM8);
	emit_modrm(buf, MOD_REG, GRP1_CMP, reg);
	emit_byte(buf, (uint8_t)imm);
}

void emit_sub_reg_imm32(struct code_buf *buf, enum x86_reg reg, int32_t imm)
{
	emit_rex(buf, true, 0, reg);
	emit_byte(buf, OPC_GRP1_RM_IMM32);
	emit_modrm(buf, MOD_REG, GRP1_SUB, reg);
	emit_u32(buf, (uint32_t)imm);
}

void emit_xor_eax_eax(struct code_buf *buf)
{
	emit_byte(buf, ALU_XOR);
	emit_modrm(buf, MOD_REG, RAX, RAX);
}

void emit_imul_reg_reg(struct code_buf *buf, enum x86_reg dst, enum x86_reg src)
{
	emit_rex(buf, true, dst, src);
	emit_byte(buf, OPC_TWO_BYTE);
	emit_byte(buf, OPC2_IMUL_R_RM);
	emit_modrm(buf, MOD_REG, dst, src);
}

static void emit_grp3_reg(struct code_buf *buf, int digit, enum x86_reg reg)
{
	emit_rex(buf, true, 0, reg);
	emit_byte(buf, OPC_GRP3);
	emit_modrm(buf, MOD_REG, digit, reg);
}

void emit_neg_reg(struct code_buf *buf, enum x86_reg reg) { emit_grp3_reg(buf, GRP3_NEG, reg); }
void emit_not_reg(struct code_buf *buf, enum x86_reg reg) { emit_grp3_reg(buf, GRP3_NOT, reg); }
void emit_idiv_reg(struct code_buf *buf, enum x86_reg divisor) { emit_grp3_reg(buf, GRP3_IDIV, divisor); }
void emit_imul_rdx_rax_reg(struct code_buf *buf, enum x86_reg factor)
{
	emit_grp3_reg(buf, GRP3_IMUL, factor);
}

void emit_div_reg32(struct code_buf *buf, enum x86_reg divisor)
{
	emit_rex(buf, false, 0, divisor);
	emit_byte(buf, OPC_GRP3);
	emit_modrm(buf, MOD_REG, GRP3_DIV, divisor);
}

void emit_cqo(struct code_buf *buf)
{
	emit_byte(buf, REX | REX_W);
	emit_byte(buf, OPC_CQO);
}

void emit_shift_reg_cl(struct code_buf *buf, enum x86_shift kind, enum x86_reg reg)
{
	emit_rex(buf, true, 0, reg);
	emit_byte(buf, OPC_GRP2_CL);
	emit_modrm(buf, MOD_REG, kind, reg);
}

void emit_test_reg_reg(struct code_buf *buf, enum x86_reg a, enum x86_reg b)
{
	emit_op_rm_reg(buf, OPC_TEST_RM_R, a, b);
}

void emit_setcc_al(struct code_buf *buf, enum x86_cond cond)
{
	emit_byte(buf, OPC_TWO_BYTE);
	emit_byte(buf, (uint8_t)(OPC2_SETCC + cond));
	emit_modrm(buf, MOD_REG, 0, RAX);
}

void emit_movzx_eax_al(struct code_buf *buf)
{
	emit_byte(buf, OPC_TWO_BYTE);
	emit_byte(buf, OPC2_MOVZX_R_RM8);
	emit_modrm(buf, MOD_REG, RAX, RAX);
}

void emit_push_reg(struct code_buf *buf, enum x86_reg reg)
{
	emit_rex(buf, false, 0, reg);
	emit_byte(buf, (uint8_t)(OPC_PUSH + (reg & 7)));
}

void emit_pop_reg(struct code_buf *buf, enum x86_reg reg)
{
	emit_rex(buf, false, 0, reg);
	emit_byte(buf, (uint8_t)(OPC_POP + (reg & 7)));
}

void emit_ret(struct code_buf *buf)
{
	emit_byte(buf, OPC_RET);
}

size_t emit_jmp_rel32(struct code_buf *buf)
{
	emit_byte(buf, OPC_JMP_REL32);
	emit_u32(buf, 0);
	return buf->len - 4;
}

size_t emit_jcc_rel32(struct code_buf *buf, enum x86_cond cond)
{
	emit_byte(buf, OPC_TWO_BYTE);
	emit_byte(buf, (uint8_t)(OPC2_JCC_REL32 + cond));
	emit_u32(buf, 0);
	return buf->len - 4;
}

size_t emit_call_rel32(struct code_buf *buf)
{
	emit_byte(buf, OPC_CALL_REL32);
	emit_u32(buf, 0);
	return buf->len - 4;
}

/* The group-1 /digit of an ALU op is its "op r/m, r" opcode >> 3. */
static int alu_digit(enum x86_alu op) { return (int)op >> 3; }

static bool fits_imm8(int32_t imm) { return imm >= -128 && imm <= 127; }

void emit_alu_reg_imm(struct code_buf *buf, enum x86_alu op, enum x86_reg dst, int32_t imm)
{
	emit_rex(buf, true, 0, dst);
	emit_byte(buf, fits_imm8(imm) ? OPC_GRP1_RM_IMM8 : OPC_GRP1_RM_IMM32);
	emit_modrm(buf, MOD_REG, alu_digit(op), dst);
	if (fits_imm8(imm))
		emit_byte(buf, (uint8_t)(int8_t)imm);
	else
		emit_u32(buf, (uint32_t)imm);
}

/* "op r64, r/m64" is the "op r/m64, r64" opcode + 2. */
void emit_alu_reg_mem(struct code_buf *buf, enum x86_alu op, enum x86_reg dst,
		      enum x86_reg base, int32_t disp)
{
	emit_rex(buf, true, dst, base);
	emit_byte(buf, (uint8_t)(op + 2));
	emit_modrm_mem(buf, dst, base, disp);
}

void emit_alu_mem_reg(struct code_buf *buf, enum x86_alu op, enum x86_reg base,
		      int32_t disp, enum x86_reg src)
{
	emit_rex(buf, true, src, base);
	emit_byte(buf, (uint8_t)op);
	emit_modrm_mem(buf, src, base, disp);
}

void emit_alu_mem_imm(struct code_buf *buf, enum x86_alu op, enum x86_reg base,
		      int32_t disp, int32_t imm)
{
	emit_rex(buf, true, 0, base);
	emit_byte(buf, fits_imm8(imm) ? OPC_GRP1_RM_IMM8 : OPC_GRP1_RM_IMM32);
	emit_modrm_mem(buf, alu_digit(op), base, disp);
	if (fits_imm8(imm))
		emit_byte(buf, (uint8_t)(int8_t)imm);
	else
		emit_u32(buf, (uint32_t)imm);
}

void emit_mov_mem_imm32(struct code_buf *buf, enum x86_reg base, int32_t disp, int32_t imm)
{
	emit_rex(buf, true, 0, base);
	emit_byte(buf, OPC_MOV_RM_IMM32);
	emit_modrm_mem(buf, 0, base, disp);
	emit_u32(buf, (uint32_t)imm);
}

void emit_imul_reg_mem(struct code_buf *buf, enum x86_reg dst, enum x86_reg base, int32_t disp)
{
	emit_rex(buf, true, dst, base);
	emit_byte(buf, OPC_TWO_BYTE);
	emit_byte(buf, OPC2_IMUL_R_RM);
	emit_modrm_mem(buf, dst, base, disp);
}

/* imul r64, r/m64, imm: 6b /r ib or 69 /r id. */
void emit_imul_reg_imm(struct code_buf *buf, enum x86_reg dst, enum x86_reg src, int32_t imm)
{
	emit_rex(buf, true, dst, src);
	emit_byte(buf, fits_imm8(imm) ? 0x6b : 0x69);
	emit_modrm(buf, MOD_REG, dst, src);
	if (fits_imm8(imm))
		emit_byte(buf, (uint8_t)(int8_t)imm);
	else
		emit_u32(buf, (uint32_t)imm);
}

/* Group-2 shift by an immediate: c1 /digit ib. */
void emit_shift_reg_imm(struct code_buf *buf, enum x86_shift kind, enum x86_reg reg, uint8_t imm)
{
	emit_rex(buf, true, 0, reg);
	emit_byte(buf, 0xc1);
	emit_modrm(buf, MOD_REG, kind, reg);
	emit_byte(buf, imm);
}

void emit_zero_reg(struct code_buf *buf, enum x86_reg reg)
{
	emit_rex(buf, false, reg, reg);
	emit_byte(buf, ALU_XOR);
	emit_modrm(buf, MOD_REG, reg, reg);
}

void emit_mov_reg_imm(struct code_buf *buf, enum x86_reg dst, int64_t imm)
{
	if (imm == 0)
		emit_zero_reg(buf, dst);
	else if (imm >= 0 && imm <= UINT32_MAX) {
		emit_rex(buf, false, 0, dst);		/* mov r32, imm32 zero-extends */
		emit_byte(buf, (uint8_t)(OPC_MOV_R_IMM + (dst & 7)));
		emit_u32(buf, (uint32_t)imm);
	} else if (imm >= INT32_MIN && imm <= INT32_MAX)
		emit_mov_reg_imm32_sx(buf, dst, (int32_t)imm);
	else
		emit_mov_reg_imm64(buf, dst, imm);
}
