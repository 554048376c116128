/*
 * x86.h - an x86-64 instruction encoder: one function per instruction form,
 * named after what it encodes.  All forms are 64-bit unless the name says
 * otherwise.  Memory operands are [base + disp32].
 */
#ifndef JITDEMO_X86_H
#define JITDEMO_X86_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum x86_reg {
	RAX, RCX, RDX, RBX, RSP, RBP, RSI, RDI,
	R8, R9, R10, R11, R12, R13, R14, R15,
};

/* Condition codes, the low nibble of Jcc and SETcc. */
enum x86_cond {
	CC_O = 0x0, CC_NO = 0x1, CC_B = 0x2, CC_AE = 0x3,
	CC_E = 0x4, CC_NE = 0x5, CC_BE = 0x6, CC_A = 0x7,
	CC_S = 0x8, CC_NS = 0x9, CC_L = 0xc, CC_GE = 0xd,
	CC_LE = 0xe, CC_G = 0xf,
};

/* The /r opcodes of "op r/m64, r64" for the classic ALU group. */
enum x86_alu {
	ALU_ADD = 0x01, ALU_OR = 0x09, ALU_AND = 0x21,
	ALU_SUB = 0x29, ALU_XOR = 0x31, ALU_CMP = 0x39,
};

/* The /digit of group-2 shifts by %cl. */
enum x86_shift { SHIFT_SHL = 4, SHIFT_SHR = 5, SHIFT_SAR = 7 };

struct code_buf {
	uint8_t *bytes;
	size_t len, cap, max;
	bool overflow;		/* set once len would pass max or malloc failed */
};

void code_buf_init(struct code_buf *buf, size_t max);
void code_buf_free(struct code_buf *buf);
void emit_byte(struct code_buf *buf, uint8_t byte);
void emit_u32(struct code_buf *buf, uint32_t value);
void patch_rel32(struct code_buf *buf, size_t at, size_t target);

void emit_mov_reg_reg(struct code_buf *buf, enum x86_reg dst, enum x86_reg src);
void emit_mov_reg_imm64(struct code_buf *buf, enum x86_reg dst, int64_t imm);
void emit_mov_reg_imm32_sx(struct code_buf *buf, enum x86_reg dst, int32_t imm);
void emit_mov_eax_imm32(struct code_buf *buf, uint32_t imm);
void emit_mov_reg_mem(struct code_buf *buf, enum x86_reg dst, enum x86_reg base, int32_t disp);
void emit_mov_mem_reg(struct code_buf *buf, enum x86_reg base, int32_t disp, enum x86_reg src);
void emit_lea_reg_mem(struct code_buf *buf, enum x86_reg dst, enum x86_reg base, int32_t disp);
/* lea dst, [base + index * scale], scale 1, 2, 4 or 8; index is not rsp. */
void emit_lea_reg_index(struct code_buf *buf, enum x86_reg dst, enum x86_reg base,
			enum x86_reg index, int scale);
void emit_alu_reg_reg(struct code_buf *buf, enum x86_alu op, enum x86_reg dst, enum x86_reg src);
void emit_add_mem_imm8(struct code_buf *buf, enum x86_reg base, int32_t disp, int8_t imm);
void emit_cmp_mem_imm8(struct code_buf *buf, enum x86_reg base, int32_t disp, int8_t imm);
void emit_cmp_reg_imm8(struct code_buf *buf, enum x86_reg reg, int8_t imm);
void emit_sub_reg_imm32(struct code_buf *buf, enum x86_reg reg, int32_t imm);
void emit_xor_eax_eax(struct code_buf *buf);
void emit_imul_reg_reg(struct code_buf *buf, enum x86_reg dst, enum x86_reg src);
void emit_neg_reg(struct code_buf *buf, enum x86_reg reg);
void emit_not_reg(struct code_buf *buf, enum x86_reg reg);
void emit_cqo(struct code_buf *buf);
void emit_idiv_reg(struct code_buf *buf, enum x86_reg divisor);
/* rdx:rax = rax * factor, signed (one-operand imul) */
void emit_imul_rdx_rax_reg(struct code_buf *buf, enum x86_reg factor);
void emit_div_reg32(struct code_buf *buf, enum x86_reg divisor);	/* div r32: edx:eax */
void emit_shift_reg_cl(struct code_buf *buf, enum x86_shift kind, enum x86_reg reg);
void emit_test_reg_reg(struct code_buf *buf, enum x86_reg a, enum x86_reg b);
void emit_setcc_al(struct code_buf *buf, enum x86_cond cond);
void emit_movzx_eax_al(struct code_buf *buf);
void emit_push_reg(struct code_buf *buf, enum x86_reg reg);
void emit_pop_reg(struct code_buf *buf, enum x86_reg reg);
void emit_ret(struct code_buf *buf);
/* Branches with a rel32 placeholder; return the offset of the rel32. */
size_t emit_jmp_rel32(struct code_buf *buf);
size_t emit_jcc_rel32(struct code_buf *buf, enum x86_cond cond);
size_t emit_call_rel32(struct code_buf *buf);

/* Immediate and memory-operand forms. */
void emit_alu_reg_imm(struct code_buf *buf, enum x86_alu op, enum x86_reg dst, int32_t imm);
void emit_alu_reg_mem(struct code_buf *buf, enum x86_alu op, enum x86_reg dst,
		      enum x86_reg base, int32_t disp);
void emit_alu_mem_imm(struct code_buf *buf, enum x86_alu op, enum x86_reg base,
		      int32_t disp, int32_t imm);
void emit_alu_mem_reg(struct code_buf *buf, enum x86_alu op, enum x86_reg base,
		      int32_t disp, enum x86_reg src);
void emit_mov_mem_imm32(struct code_buf *buf, enum x86_reg base, int32_t disp, int32_t imm);
void emit_imul_reg_mem(struct code_buf *buf, enum x86_reg dst, enum x86_reg base, int32_t disp);
void emit_imul_reg_imm(struct code_buf *buf, enum x86_reg dst, enum x86_reg src, int32_t imm);
void emit_shift_reg_imm(struct code_buf *buf, enum x86_shift kind, enum x86_reg reg, uint8_t imm);
void emit_zero_reg(struct code_buf *buf, enum x86_reg reg);	/* xor r32, r32 */
void emit_mov_reg_imm(struct code_buf *buf, enum x86_reg dst, int64_t imm);	/* shortest */

#endif
