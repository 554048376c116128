/*
 * test_emit.c - the x86-64 encoder byte for byte (encodings checked against
 * the Intel SDM and objdump), then JIT'd code against the semantics table.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cases.h"
#include "emit_const.h"
#include "libjit.h"
#include <sealjit/tap.h>
#include "x86.h"

typedef void (*emit_fn)(struct code_buf *buf);

struct encoding_case {
	const char *what;
	emit_fn emit;
	const char *bytes;	/* hex */
};

static void e_mov_rax_rbx(struct code_buf *b) { emit_mov_reg_reg(b, RAX, RBX); }
static void e_mov_r12_r15(struct code_buf *b) { emit_mov_reg_reg(b, R12, R15); }
static void e_mov_imm64(struct code_buf *b) { emit_mov_reg_imm64(b, R9, 0x1122334455667788); }
static void e_mov_imm32(struct code_buf *b) { emit_mov_reg_imm32_sx(b, RBX, -2); }
static void e_load_rbp(struct code_buf *b) { emit_mov_reg_mem(b, RBX, RBP, -0x28); }
static void e_load_r12(struct code_buf *b) { emit_mov_reg_mem(b, RAX, R12, 8); }
static void e_load_far(struct code_buf *b) { emit_mov_reg_mem(b, R13, RBP, -0x1000); }
static void e_store_rsp(struct code_buf *b) { emit_mov_mem_reg(b, RSP, 0, RCX); }
static void e_lea(struct code_buf *b) { emit_lea_reg_mem(b, RSP, RBP, -0x18); }
static void e_add(struct code_buf *b) { emit_alu_reg_reg(b, ALU_ADD, RBX, R12); }
static void e_sub(struct code_buf *b) { emit_alu_reg_reg(b, ALU_SUB, R12, R13); }
static void e_cmp(struct code_buf *b) { emit_alu_reg_reg(b, ALU_CMP, RAX, RDX); }
static void e_xor(struct code_buf *b) { emit_alu_reg_reg(b, ALU_XOR, R15, RBX); }
static void e_imul(struct code_buf *b) { emit_imul_reg_reg(b, R14, RCX); }
static void e_idiv(struct code_buf *b) { emit_idiv_reg(b, RCX); }
static void e_div32(struct code_buf *b) { emit_div_reg32(b, RCX); }
static void e_div32_r9(struct code_buf *b) { emit_div_reg32(b, R9); }
static void e_cqo(struct code_buf *b) { emit_cqo(b); }
static void e_neg(struct code_buf *b) { emit_neg_reg(b, R13); }
static void e_not(struct code_buf *b) { emit_not_reg(b, RBX); }
static void e_sar(struct code_buf *b) { emit_shift_reg_cl(b, SHIFT_SAR, R12); }
static void e_shl(struct code_buf *b) { emit_shift_reg_cl(b, SHIFT_SHL, RAX); }
static void e_test(struct code_buf *b) { emit_test_reg_reg(b, RBX, RBX); }
static void e_setl(struct code_buf *b) { emit_setcc_al(b, CC_L); }
static void e_movzx(struct code_buf *b) { emit_movzx_eax_al(b); }
static void e_push(struct code_buf *b) { emit_push_reg(b, R12); }
static void e_pop(struct code_buf *b) { emit_pop_reg(b, RBX); }
static void e_depth(struct code_buf *b) { emit_add_mem_imm8(b, RDI, 8, -1); }
static void e_cmp_mem(struct code_buf *b) { emit_cmp_mem_imm8(b, RCX, 0, 0); }
static void e_cmp_imm(struct code_buf *b) { emit_cmp_reg_imm8(b, RCX, -1); }
static void e_sub_rsp(struct code_buf *b) { emit_sub_reg_imm32(b, RSP, 0x18); }
static void e_jcc(struct code_buf *b) { emit_jcc_rel32(b, CC_E); }
static void e_jmp(struct code_buf *b) { emit_jmp_rel32(b); }
static void e_call(struct code_buf *b) { emit_call_rel32(b); }
static void e_ret(struct code_buf *b) { emit_ret(b); }
static void e_xor_eax(struct code_buf *b) { emit_xor_eax_eax(b); }
static void e_mov_eax(struct code_buf *b) { emit_mov_eax_imm32(b, 3); }
static void e_lea_index(struct code_buf *b) { emit_lea_reg_index(b, RAX, RCX, RDX, 1); }
static void e_lea_r13(struct code_buf *b) { emit_lea_reg_index(b, R13, R13, R13, 4); }
static void e_lea_x9(struct code_buf *b) { emit_lea_reg_index(b, RBX, RBX, RBX, 8); }
static void e_imul_wide(struct code_buf *b) { emit_imul_rdx_rax_reg(b, RCX); }
static void e_imul_wide_r12(struct code_buf *b) { emit_imul_rdx_rax_reg(b, R12); }

static const struct encoding_case encodings[] = {
	{ "mov rax, rbx", e_mov_rax_rbx, "4889d8" },
	{ "mov r12, r15", e_mov_r12_r15, "4d89fc" },
	{ "mov r9, imm64", e_mov_imm64, "49b98877665544332211" },
	{ "mov rbx, -2 (imm32 sign-extended)", e_mov_imm32, "48c7c3feffffff" },
	{ "mov rbx, [rbp-0x28]", e_load_rbp, "488b5dd8" },
	{ "mov rax, [r12+8] (SIB)", e_load_r12, "498b442408" },
	{ "mov r13, [rbp-0x1000] (disp32)", e_load_far, "4c8bad00f0ffff" },
	{ "mov [rsp], rcx (SIB, disp8 0)", e_store_rsp, "48894c2400" },
	{ "lea rsp, [rbp-0x18]", e_lea, "488d65e8" },
	{ "add rbx, r12", e_add, "4c01e3" },
	{ "sub r12, r13", e_sub, "4d29ec" },
	{ "cmp rax, rdx", e_cmp, "4839d0" },
	{ "xor r15, rbx", e_xor, "4931df" },
	{ "imul r14, rcx", e_imul, "4c0faff1" },
	{ "idiv rcx", e_idiv, "48f7f9" },
	{ "div ecx", e_div32, "f7f1" },
	{ "div r9d", e_div32_r9, "41f7f1" },
	{ "cqo", e_cqo, "4899" },
	{ "neg r13", e_neg, "49f7dd" },
	{ "not rbx", e_not, "48f7d3" },
	{ "sar r12, cl", e_sar, "49d3fc" },
	{ "shl rax, cl", e_shl, "48d3e0" },
	{ "test rbx, rbx", e_test, "4885db" },
	{ "setl al", e_setl, "0f9cc0" },
	{ "movzx eax, al", e_movzx, "0fb6c0" },
	{ "push r12", e_push, "4154" },
	{ "pop rbx", e_pop, "5b" },
	{ "add qword [rdi+8], -1", e_depth, "48834708ff" },
	{ "cmp qword [rcx+0], 0", e_cmp_mem, "4883790000" },
	{ "cmp rcx, -1", e_cmp_imm, "4883f9ff" },
	{ "sub rsp, 0x18", e_sub_rsp, "4881ec18000000" },
	{ "je rel32", e_jcc, "0f8400000000" },
	{ "jmp rel32", e_jmp, "e900000000" },
	{ "call rel32", e_call, "e800000000" },
	{ "ret", e_ret, "c3" },
	{ "xor eax, eax", e_xor_eax, "31c0" },
	{ "mov eax, 3", e_mov_eax, "b803000000" },
	{ "lea rax, [rcx+rdx*1]", e_lea_index, "488d0411" },
	{ "lea r13, [r13+r13*4+0] (r13 base needs a disp8)", e_lea_r13, "4f8d6cad00" },
	{ "lea rbx, [rbx+rbx*8]", e_lea_x9, "488d1cdb" },
	{ "imul rcx (rdx:rax)", e_imul_wide, "48f7e9" },
	{ "imul r12 (rdx:rax)", e_imul_wide_r12, "49f7ec" },
};

static void check_encoding(struct tap *t, const struct encoding_case *c)
{
	struct code_buf buf;
	char hex[64] = "";
	code_buf_init(&buf, 64);
	c->emit(&buf);
	for (size_t i = 0; i < buf.len && 2 * i + 2 < sizeof hex; i++)
		snprintf(hex + 2 * i, 3, "%02x", buf.bytes[i]);
	if (!tap_ok(t, strcmp(hex, c->bytes) == 0, "encode %s", c->what))
		tap_note("got %s, want %s", hex, c->bytes);
	code_buf_free(&buf);
}

static void check_patch_and_limit(struct tap *t)
{
	struct code_buf buf;
	code_buf_init(&buf, 64);
	size_t at = emit_jmp_rel32(&buf);
	emit_ret(&buf);
	patch_rel32(&buf, at, 0);	/* back to the start: -5 */
	tap_ok(t, buf.len == 6 && buf.bytes[1] == 0xfb && buf.bytes[4] == 0xff,
	       "patch_rel32 writes target - end of branch");
	code_buf_free(&buf);
	code_buf_init(&buf, 8);
	for (int i = 0; i < 4; i++)
		emit_mov_reg_imm64(&buf, RAX, 1);
	tap_ok(t, buf.overflow && buf.len <= 8, "code_buf stops at its limit");
	code_buf_free(&buf);
}

/* The reciprocals gcc -O2 uses for x / 3, x / 7 and x / 10. */
static void check_div_magic(struct tap *t)
{
	static const struct { uint64_t divisor; struct div_magic want; } known[] = {
		{ 3, { 0x5555555555555556, 0, false } },
		{ 7, { 0x4924924924924925, 1, false } },
		{ 10, { 0x6666666666666667, 2, false } },
	};
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
		struct div_magic got = div_magic_for(known[i].divisor);
		if (!tap_ok(t, got.multiplier == known[i].want.multiplier &&
			    got.shift == known[i].want.shift &&
			    got.add_dividend == known[i].want.add_dividend,
			    "magic reciprocal of %" PRIu64 " is gcc's", known[i].divisor))
			tap_note("got %#" PRIx64 " >> %d", (uint64_t)got.multiplier, got.shift);
	}
}

static void run_case(struct tap *t, const struct semantic_case *c)
{
	struct jit_diag diag;
	struct jit_options none = { .seal = JIT_SEAL_NONE };
	struct jit_module *m = jit_load_string("case", c->source, strlen(c->source), &diag);
	if (!m || jit_compile(m, &none, &diag) != 0) {
		tap_ok(t, false, "jit: %s (%s)", c->what, diag.text);
		jit_release(m, NULL);
		return;
	}
	int64_t result = 0;
	int trap = jit_call(m, "f", c->args, c->nargs, &result, &diag);
	bool ok = trap == c->trap && (trap != 0 || result == c->result);
	if (!tap_ok(t, ok, "jit: %s", c->what))
		tap_note("got %" PRId64 " trap %d, want %" PRId64 " trap %d",
			 result, trap, c->result, c->trap);
	jit_release(m, NULL);
}

/* The native pointer is an ordinary C function taking a jit_ctx. */
static void check_direct_call(struct tap *t)
{
	const char *src = "func sq 1 0\n arg 0\n arg 0\n mul\n ret\n"
			  "func inv 1 0\n const 100\n arg 0\n div\n ret\n";
	struct jit_diag diag;
	struct jit_options none = { .seal = JIT_SEAL_NONE };
	struct jit_module *m = jit_load_string("direct", src, strlen(src), &diag);
	bool compiled = m && jit_compile(m, &none, &diag) == 0;
	jit_native_fn sq = compiled ? jit_lookup(m, "sq") : NULL;
	jit_native_fn inv = compiled ? jit_lookup(m, "inv") : NULL;
	struct jit_ctx ctx;
	jit_ctx_init(&ctx);
	int64_t r = sq ? sq(&ctx, 12, 0, 0, 0, 0) : 0;
	tap_ok(t, sq && r == 144 && ctx.trap == 0 && ctx.stack_floor != 0,
	       "jit_lookup pointer called from C with a jit_ctx");
	jit_ctx_init(&ctx);
	if (inv)
		inv(&ctx, 0, 0, 0, 0, 0);
	tap_ok(t, inv && ctx.trap == JIT_TRAP_DIV_ZERO, "a trap is reported in ctx->trap");
	tap_ok(t, m && jit_lookup(m, "nope") == NULL, "jit_lookup of an unknown name is NULL");
	char *text = NULL;
	tap_ok(t, compiled && jit_dump_func(m, 0, &text) == 0 && text &&
	       strstr(text, "@0000 arg 0") && strstr(text, "prologue"),
	       "jit_dump_func lists each instruction's bytes");
	free(text);
	jit_release(m, NULL);
}

int main(void)
{
	struct tap t;
	tap_start(&t);
	for (size_t i = 0; i < sizeof encodings / sizeof encodings[0]; i++)
		check_encoding(&t, &encodings[i]);
	check_patch_and_limit(&t);
	check_div_magic(&t);
	for (int i = 0; i < SEMANTIC_CASE_COUNT; i++)
		run_case(&t, &semantic_cases[i]);
	check_direct_call(&t);
	return tap_done(&t);
}
