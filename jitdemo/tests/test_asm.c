/* test_asm.c - the text assembler: encoding, labels, and its errors. */
#include <string.h>

#include "asm.h"
#include <sealjit/tap.h>

static struct bc_module *parse(const char *src, struct jit_diag *diag)
{
	return asm_parse("t.jit", src, strlen(src), diag);
}

static void check_encoding(struct tap *t)
{
	struct jit_diag diag;
	struct bc_module *mod = parse(
		"; comment line\n"
		"# another\n"
		"func main 1 1   ; trailing comment\n"
		"top: const -2\n"
		"    const 0x10\n"
		"    store 0\n"
		"    jmp top\n", &diag);
	tap_ok(t, mod && mod->nfuncs == 1 && strcmp(mod->funcs[0].name, "main") == 0 &&
	       mod->funcs[0].nargs == 1 && mod->funcs[0].nlocals == 1,
	       "func header gives name, args and locals");
	static const uint8_t want[] = {
		OP_CONST, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		OP_CONST, 0x10, 0, 0, 0, 0, 0, 0, 0,
		OP_STORE, 0,
		OP_JMP, 0, 0, 0, 0,
	};
	tap_ok(t, mod && mod->funcs[0].len == sizeof want &&
	       memcmp(mod->funcs[0].code, want, sizeof want) == 0,
	       "instructions encode as opcode + little-endian operand");
	tap_ok(t, mod && mod->funcs[0].lines[0] == 4 && mod->funcs[0].lines[20] == 7,
	       "every code byte remembers its source line");
	bc_module_free(mod);
}

static void check_labels_and_calls(struct tap *t)
{
	struct jit_diag diag;
	struct bc_module *mod = parse(
		"func a 0 0\n"
		"    jmp end\n"
		"    const 1\n"
		"end:\n"
		"    call b\n"
		"    ret\n"
		"func b 0 0\n"
		"end: const 5\n"
		"    ret\n", &diag);
	const struct bc_func *a = mod ? &mod->funcs[0] : NULL;
	tap_ok(t, a && read_u32(a->code + 1) == 14, "forward label resolves to its offset");
	tap_ok(t, a && a->code[14] == OP_CALL && read_u16(a->code + 15) == 1 && a->code[17] == 0,
	       "call to a later function resolves with its arity");
	tap_ok(t, mod != NULL, "labels are local to their function");
	bc_module_free(mod);

	mod = parse("func f 0 0\n const 9223372036854775807\n const -9223372036854775808\n ret\n", &diag);
	tap_ok(t, mod && read_i64(mod->funcs[0].code + 1) == INT64_MAX &&
	       read_i64(mod->funcs[0].code + 10) == INT64_MIN, "int64 extremes parse");
	bc_module_free(mod);
}

struct error_case {
	const char *what, *source, *message;
};

static const struct error_case errors[] = {
	{ "unknown instruction", "func f 0 0\n  frob\n", "t.jit:2: unknown instruction 'frob'" },
	{ "missing operand", "func f 0 0\n const\n", "t.jit:2: missing operand for 'const'" },
	{ "unexpected operand", "func f 0 0\n add 1\n", "t.jit:2: unexpected operand for 'add'" },
	{ "too many operands", "func f 0 0\n const 1 2\n", "t.jit:2: too many operands for 'const'" },
	{ "constant overflow", "func f 0 0\n const 9223372036854775808\n",
	  "t.jit:2: bad 64-bit integer '9223372036854775808': out of range" },
	{ "garbage number", "func f 0 0\n const 12abc\n",
	  "t.jit:2: bad 64-bit integer '12abc': not a number (decimal or 0x hex, no spaces or signs)" },
	{ "no '+' sign", "func f 0 0\n const +5\n",
	  "t.jit:2: bad 64-bit integer '+5': not a number (decimal or 0x hex, no spaces or signs)" },
	{ "slot out of encoding", "func f 0 0\n load 256\n", "t.jit:2: bad slot number '256'" },
	{ "undefined label", "func f 0 0\n jmp nowhere\n", "t.jit:2: undefined label 'nowhere'" },
	{ "duplicate label", "func f 0 0\nx:\nx:\n ret\n", "t.jit:3: duplicate label 'x'" },
	{ "duplicate function", "func f 0 0\n ret\nfunc f 0 0\n", "t.jit:3: duplicate function 'f'" },
	{ "bad header", "func f 0\n", "t.jit:1: expected 'func NAME ARGS LOCALS'" },
	{ "too many args", "func f 6 0\n", "t.jit:1: argument count must be 0..5, got '6'" },
	{ "too many locals", "func f 0 33\n", "t.jit:1: local count must be 0..32, got '33'" },
	{ "code before func", "const 1\n", "t.jit:1: instruction outside of a function 'const'" },
	{ "undefined function", "func f 0 0\n call g\n ret\n", "t.jit:2: call to undefined function 'g'" },
	{ "empty source", "; nothing\n", "t.jit:1: no functions in module" },
	{ "control character", "func f 0 0\n co\x01nst 1\n", "t.jit:2: unexpected character in source" },
	{ "bad label name", "func f 0 0\n1x:\n", "t.jit:2: bad label name '1x'" },
	{ "too many tokens", "func f 0 0\n a b c d e\n", "t.jit:2: too many tokens on one line" },
};

static void check_errors(struct tap *t)
{
	for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++) {
		struct jit_diag diag = { "" };
		struct bc_module *mod = parse(errors[i].source, &diag);
		if (!tap_ok(t, !mod && strcmp(diag.text, errors[i].message) == 0,
			    "error: %s", errors[i].what))
			tap_note("got \"%s\"", mod ? "(accepted)" : diag.text);
		bc_module_free(mod);
	}
	struct jit_diag diag;
	static const char nul_source[] = "func f 0 0\n\n const 1\0\n";
	struct bc_module *mod = asm_parse("t.jit", nul_source, sizeof nul_source - 1, &diag);
	tap_ok(t, !mod && strcmp(diag.text, "t.jit:3: NUL byte in source") == 0,
	       "error: NUL byte, with its line");
	char long_token[100];
	memset(long_token, 'a', sizeof long_token);
	long_token[99] = '\0';
	char src[200];
	snprintf(src, sizeof src, "func %s 0 0\n", long_token);
	mod = parse(src, &diag);
	tap_ok(t, !mod && strstr(diag.text, "token too long"), "error: token too long");
}

int main(void)
{
	struct tap t;
	tap_start(&t);
	check_encoding(&t);
	check_labels_and_calls(&t);
	check_errors(&t);
	return tap_done(&t);
}
