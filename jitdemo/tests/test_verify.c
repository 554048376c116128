/*
 * test_verify.c - the verifier, on assembler text and on hand-built
 * bytecode (for what the assembler can never produce).
 */
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include <sealjit/tap.h>
#include "verify.h"

static bool verify_text(const char *src, struct jit_diag *diag, struct bc_module **out)
{
	struct bc_module *mod = asm_parse("v.jit", src, strlen(src), diag);
	bool ok = mod && verify_module(mod, diag);
	if (out)
		*out = mod;
	else
		bc_module_free(mod);
	return ok;
}

/* A one-function module of raw bytes named "raw", no line table. */
static struct bc_module *raw_module(const uint8_t *code, size_t len, int nargs, int nlocals)
{
	struct bc_module *mod = calloc(1, sizeof *mod);
	mod->funcs = calloc(1, sizeof *mod->funcs);
	mod->nfuncs = 1;
	strcpy(mod->file, "raw.bc");
	strcpy(mod->funcs[0].name, "raw");
	mod->funcs[0].nargs = nargs;
	mod->funcs[0].nlocals = nlocals;
	mod->funcs[0].code = malloc(len ? len : 1);
	memcpy(mod->funcs[0].code, code, len);
	mod->funcs[0].len = len;
	return mod;
}

struct raw_case {
	const char *what;
	uint8_t code[16];
	size_t len;
	const char *message;
};

static const struct raw_case raw_cases[] = {
	{ "unknown opcode", { 0xff }, 1, "raw.bc: unknown opcode 0xff (in raw at @0000)" },
	{ "opcode just past the table", { OP_COUNT }, 1, "raw.bc: unknown opcode 0x20 (in raw at @0000)" },
	{ "truncated const", { OP_CONST, 1, 2, 3 }, 4,
	  "raw.bc: truncated instruction 'const' at end of raw (in raw at @0000)" },
	{ "jump into an operand", { OP_CONST, 0, 0, 0, 0, 0, 0, 0, 0, OP_JMP, 3, 0, 0, 0 }, 14,
	  "raw.bc: jump target @3 is not an instruction boundary (in raw at @0009)" },
	{ "jump outside", { OP_JMP, 100, 0, 0, 0 }, 5,
	  "raw.bc: jump target @100 outside of raw (in raw at @0000)" },
	{ "empty function", { 0 }, 0, "raw.bc: function raw has no code (in raw at @0000)" },
	{ "argument out of range", { OP_ARG, 1, OP_RET }, 3,
	  "raw.bc: argument 1 out of range: raw has 1 (in raw at @0000)" },
	{ "local out of range", { OP_LOAD, 0, OP_RET }, 3,
	  "raw.bc: local 0 out of range: raw has 0 (in raw at @0000)" },
	{ "call to a missing function", { OP_CALL, 7, 0, 0, OP_RET }, 5,
	  "raw.bc: call to undefined function #7 (in raw at @0000)" },
	{ "call with the wrong arity", { OP_CALL, 0, 0, 2, OP_RET }, 5,
	  "raw.bc: call to raw passes 2 arguments, it takes 1 (in raw at @0000)" },
	{ "falls off the end", { OP_ARG, 0 }, 2,
	  "raw.bc: control falls off the end of raw without ret (in raw at @0000)" },
};

static void check_raw(struct tap *t)
{
	for (size_t i = 0; i < sizeof raw_cases / sizeof raw_cases[0]; i++) {
		const struct raw_case *c = &raw_cases[i];
		struct bc_module *mod = raw_module(c->code, c->len, 1, 0);
		struct jit_diag diag = { "" };
		bool ok = verify_module(mod, &diag);
		if (!tap_ok(t, !ok && strcmp(diag.text, c->message) == 0, "bytecode: %s", c->what))
			tap_note("got \"%s\"", ok ? "(accepted)" : diag.text);
		bc_module_free(mod);
	}
}

struct text_case {
	const char *what, *source, *message;
};

static const struct text_case text_cases[] = {
	{ "underflow", "func f 0 0\n const 1\n add\n ret\n",
	  "v.jit:3: stack underflow: 'add' needs 2 values, stack has 1" },
	{ "ret on an empty stack", "func f 0 0\n ret\n",
	  "v.jit:2: stack underflow: 'ret' needs 1 values, stack has 0" },
	{ "depth mismatch at a join",
	  "func f 1 0\n arg 0\n jz skip\n const 1\nskip:\n const 2\n ret\n",
	  "v.jit:6: stack depth mismatch: 0 on one path, 1 on another" },
	{ "loop that grows the stack", "func f 0 0\ntop:\n const 1\n jmp top\n",
	  "v.jit:3: stack depth mismatch: 0 on one path, 1 on another" },
	{ "falls off the end", "func f 0 0\n const 1\n",
	  "v.jit:2: control falls off the end of f without ret" },
	{ "conditional falls off the end", "func f 1 0\nx:\n arg 0\n jz x\n",
	  "v.jit:4: control falls off the end of f without ret" },
	{ "call arity from source", "func f 0 0\n const 1\n call g 1\n ret\nfunc g 2 0\n arg 0\n ret\n",
	  "v.jit:3: call to g passes 1 arguments, it takes 2" },
	{ "call underflow", "func f 0 0\n const 1\n call g\n ret\nfunc g 2 0\n arg 0\n ret\n",
	  "v.jit:3: stack underflow: 'call' needs 2 values, stack has 1" },
	{ "argument out of range", "func f 2 0\n arg 2\n ret\n",
	  "v.jit:2: argument 2 out of range: f has 2" },
	{ "store to a missing local", "func f 0 1\n const 1\n store 1\n const 0\n ret\n",
	  "v.jit:3: local 1 out of range: f has 1" },
};

static void check_text(struct tap *t)
{
	for (size_t i = 0; i < sizeof text_cases / sizeof text_cases[0]; i++) {
		const struct text_case *c = &text_cases[i];
		struct jit_diag diag = { "" };
		bool ok = verify_text(c->source, &diag, NULL);
		if (!tap_ok(t, !ok && strcmp(diag.text, c->message) == 0, "text: %s", c->what))
			tap_note("got \"%s\"", ok ? "(accepted)" : diag.text);
	}
}

static void check_overflow(struct tap *t)
{
	char src[4096] = "func f 0 0\n";
	for (int i = 0; i <= JIT_MAX_STACK; i++)
		strcat(src, " const 1\n");
	strcat(src, " ret\n");
	struct jit_diag diag;
	bool ok = verify_text(src, &diag, NULL);
	tap_ok(t, !ok && strcmp(diag.text, "v.jit:66: stack overflow: more than 64 values") == 0,
	       "text: 65 pushes overflow the stack");
}

static void check_results(struct tap *t)
{
	struct jit_diag diag;
	struct bc_module *mod;
	bool ok = verify_text("func f 1 0\n arg 0\n jz a\n const 1\n const 2\n add\n ret\n"
			      "a:\n const 7\n ret\n const 1\n const 2\n", &diag, &mod);
	const struct bc_func *f = ok ? &mod->funcs[0] : NULL;
	tap_ok(t, f && f->max_stack == 2, "max_stack is the deepest point");
	tap_ok(t, f && f->depth_at[0] == 0 && f->depth_at[2] == 1 && f->depth_at[7] == 0 &&
	       f->depth_at[16] == 1 && f->depth_at[25] == 2,
	       "depth_at holds the depth before each instruction");
	tap_ok(t, f && f->depth_at[37] == -1 && f->depth_at[38] == -1,
	       "dead code after ret is accepted and marked unreachable");
	tap_ok(t, f && f->insn_count == 8, "insn_count counts reachable instructions");
	bc_module_free(mod);
}

int main(void)
{
	struct tap t;
	tap_start(&t);
	check_raw(&t);
	check_text(&t);
	check_overflow(&t);
	check_results(&t);
	return tap_done(&t);
}
