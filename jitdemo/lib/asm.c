/* asm.c - parses assembler text into bytecode, with FILE:LINE errors. */
#include "asm.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sealjit/intparse.h>

#include "util.h"

#define MAX_TOKENS 4
#define MAX_TOKEN_LEN 63

struct label {
	char name[MAX_TOKEN_LEN + 1];
	uint32_t offset;
	int line;
};

struct label_use {
	char name[MAX_TOKEN_LEN + 1];
	size_t patch_at;	/* where the 4-byte target goes */
	int line;
};

struct call_use {
	size_t name_at;		/* offset of the callee's name in call_names */
	int func;		/* the calling function */
	size_t patch_at;	/* where the 2-byte index and arity go */
	int arity;		/* -1 when the source did not say */
	int line;
};

struct assembler {
	const char *file;
	struct jit_diag *diag;
	struct bc_module *mod;
	struct bc_func *fn;	/* function being assembled, or NULL */
	size_t code_cap, lines_cap;
	size_t module_bytes;
	struct label *labels;
	size_t nlabels, labels_cap;
	struct label_use *label_uses;
	size_t nlabel_uses, label_uses_cap;
	struct call_use *call_uses;
	size_t ncall_uses, call_uses_cap;
	char *call_names;	/* NUL-separated callee names, packed */
	size_t call_names_len, call_names_cap;
};

struct line_tokens {
	char tok[MAX_TOKENS][MAX_TOKEN_LEN + 1];
	int count;
};

static bool fail(struct assembler *as, int line, const char *msg, const char *arg)
{
	if (arg)
		diag_at(as->diag, as->file, line, "%s '%s'", msg, arg);
	else
		diag_at(as->diag, as->file, line, "%s", msg);
	return false;
}

static bool is_ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_identifier(const char *s)
{
	if (!is_ident_start(s[0]))
		return false;
	for (const char *p = s + 1; *p; p++)
		if (!is_ident_start(*p) && !(*p >= '0' && *p <= '9') && *p != '.')
			return false;
	return true;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Splits one line (without '\n') into tokens, dropping comments. */
static bool tokenize(struct assembler *as, int line, const char *p,
		     const char *end, struct line_tokens *out)
{
	out->count = 0;
	while (p < end) {
		if (is_space(*p)) {
			p++;
			continue;
		}
		if (*p == ';' || *p == '#')
			break;
		const char *start = p;
		while (p < end && !is_space(*p) && *p != ';' && *p != '#')
			p++;
		size_t n = (size_t)(p - start);
		if (n > MAX_TOKEN_LEN)
			return fail(as, line, "token too long", NULL);
		if (out->count == MAX_TOKENS)
			return fail(as, line, "too many tokens on one line", NULL);
		for (size_t i = 0; i < n; i++) {
			unsigned char c = (unsigned char)start[i];
			if (c < 0x21 || c > 0x7e)
				return fail(as, line, "unexpected character in source", NULL);
		}
		memcpy(out->tok[out->count], start, n);
		out->tok[out->count][n] = '\0';
		out->count++;
	}
	return true;
}

/* THE integer parser (sealjit/intparse.h): decimal or 0x hex, no octal. */
static bool parse_int(const char *s, int64_t min, int64_t max, int64_t *out)
{
	return intparse_i64(s, min, max, out) == INTPARSE_OK;
}

static bool emit_bytes(struct assembler *as, int line, const uint8_t *bytes,
		       size_t n)
{
	struct bc_func *fn = as->fn;
	if (fn->len + n > JIT_MAX_FUNC_CODE)
		return fail(as, line, "function too large", fn->name);
	if (as->module_bytes + n > JIT_MAX_MODULE_CODE)
		return fail(as, line, "module too large", NULL);
	if (!grow_array((void **)&fn->code, &as->code_cap, fn->len + n, 1,
			JIT_MAX_FUNC_CODE) ||
	    !grow_array((void **)&fn->lines, &as->lines_cap, fn->len + n,
			sizeof(uint32_t), JIT_MAX_FUNC_CODE))
		return fail(as, line, "out of memory", NULL);
	memcpy(fn->code + fn->len, bytes, n);
	for (size_t i = 0; i < n; i++)
		fn->lines[fn->len + i] = (uint32_t)line;
	fn->len += n;
	as->module_bytes += n;
	return true;
}

static int compare_labels(const void *a, const void *b)
{
	return strcmp(((const struct label *)a)->name,
		      ((const struct label *)b)->name);
}

/* Resolves the finished function's jumps: sort labels, binary search. */
static bool finish_function(struct assembler *as)
{
	if (!as->fn)
		return true;
	if (as->nlabels > 0)
		qsort(as->labels, as->nlabels, sizeof *as->labels, compare_labels);
	for (size_t i = 1; i < as->nlabels; i++)
		if (strcmp(as->labels[i - 1].name, as->labels[i].name) == 0) {
			int line = as->labels[i - 1].line > as->labels[i].line ?
				   as->labels[i - 1].line : as->labels[i].line;
			return fail(as, line, "duplicate label", as->labels[i].name);
		}
	for (size_t i = 0; i < as->nlabel_uses; i++) {
		struct label_use *use = &as->label_uses[i];
		struct label key;
		memcpy(key.name, use->name, sizeof key.name);
		const struct label *found = as->nlabels == 0 ? NULL :
			bsearch(&key, as->labels, as->nlabels, sizeof *as->labels,
				compare_labels);
		if (!found)
			return fail(as, use->line, "undefined label", use->name);
		uint8_t *p = as->fn->code + use->patch_at;
		for (int b = 0; b < 4; b++)
			p[b] = (uint8_t)(found->offset >> (8 * b));
	}
	as->nlabels = 0;
	as->nlabel_uses = 0;
	as->fn = NULL;
	return true;
}

static bool parse_func_header(struct assembler *as, int line,
			      const struct line_tokens *t)
{
	if (!finish_function(as))
		return false;
	if (t->count != 4)
		return fail(as, line, "expected 'func NAME ARGS LOCALS'", NULL);
	if (!is_identifier(t->tok[1]))
		return fail(as, line, "bad function name", t->tok[1]);
	if (bc_find_func(as->mod, t->tok[1]) >= 0)
		return fail(as, line, "duplicate function", t->tok[1]);
	int64_t nargs, nlocals;
	if (!parse_int(t->tok[2], 0, JIT_MAX_ARGS, &nargs))
		return fail(as, line, "argument count must be 0..5, got", t->tok[2]);
	if (!parse_int(t->tok[3], 0, JIT_MAX_LOCALS, &nlocals))
		return fail(as, line, "local count must be 0..32, got", t->tok[3]);
	if (as->mod->nfuncs == JIT_MAX_FUNCS)
		return fail(as, line, "too many functions (limit 256)", NULL);
	if (!grow_array((void **)&as->mod->funcs, &as->mod->funcs_cap,
			(size_t)as->mod->nfuncs + 1, sizeof(struct bc_func),
			JIT_MAX_FUNCS))
		return fail(as, line, "out of memory", NULL);
	struct bc_func *fn = &as->mod->funcs[as->mod->nfuncs++];
	memset(fn, 0, sizeof *fn);
	strcpy(fn->name, t->tok[1]);
	fn->nargs = (int)nargs;
	fn->nlocals = (int)nlocals;
	fn->line = line;
	bc_hash_func_name(as->mod, as->mod->nfuncs - 1);
	as->fn = fn;
	as->code_cap = as->lines_cap = 0;
	return true;
}

static bool define_label(struct assembler *as, int line, const char *tok)
{
	char name[MAX_TOKEN_LEN + 1];
	size_t n = strlen(tok) - 1;
	memcpy(name, tok, n);
	name[n] = '\0';
	if (!as->fn)
		return fail(as, line, "label outside of a function", name);
	if (!is_identifier(name))
		return fail(as, line, "bad label name", name);
	if (!grow_array((void **)&as->labels, &as->labels_cap, as->nlabels + 1,
			sizeof *as->labels, JIT_MAX_FUNC_CODE + 1))
		return fail(as, line, "too many labels", NULL);
	struct label *label = &as->labels[as->nlabels++];
	memcpy(label->name, name, n + 1);
	label->offset = (uint32_t)as->fn->len;
	label->line = line;
	return true;
}

static bool parse_operand(struct assembler *as, int line, int op,
			  const struct line_tokens *t, int first,
			  uint8_t *bytes, size_t *n)
{
	const struct opcode_info *info = opcode_info((unsigned)op);
	int operands = t->count - first - 1;
	const char *arg = operands > 0 ? t->tok[first + 1] : NULL;
	int64_t value;

	if (info->operand == OPND_NONE) {
		if (operands != 0)
			return fail(as, line, "unexpected operand for", info->name);
		return true;
	}
	if (operands == 0)
		return fail(as, line, "missing operand for", info->name);
	if (operands > (info->operand == OPND_CALL ? 2 : 1))
		return fail(as, line, "too many operands for", info->name);
	switch (info->operand) {
	case OPND_I64:
		if (intparse_i64(arg, INT64_MIN, INT64_MAX, &value) != INTPARSE_OK) {
			diag_at(as->diag, as->file, line, "bad 64-bit integer '%s': %s", arg,
				intparse_strerror(intparse_i64(arg, INT64_MIN, INT64_MAX,
							       &value)));
			return false;
		}
		for (int b = 0; b < 8; b++)
			bytes[(*n)++] = (uint8_t)((uint64_t)value >> (8 * b));
		return true;
	case OPND_SLOT:
		if (!parse_int(arg, 0, 255, &value))
			return fail(as, line, "bad slot number", arg);
		bytes[(*n)++] = (uint8_t)value;
		return true;
	case OPND_TARGET: {
		if (!is_identifier(arg))
			return fail(as, line, "bad label name", arg);
		if (!grow_array((void **)&as->label_uses, &as->label_uses_cap,
				as->nlabel_uses + 1, sizeof *as->label_uses,
				JIT_MAX_FUNC_CODE))
			return fail(as, line, "too many jumps", NULL);
		struct label_use *use = &as->label_uses[as->nlabel_uses++];
		strcpy(use->name, arg);
		use->patch_at = as->fn->len + 1;
		use->line = line;
		memset(bytes + *n, 0, 4);
		*n += 4;
		return true;
	}
	case OPND_CALL: {
		if (!is_identifier(arg))
			return fail(as, line, "bad function name", arg);
		int64_t arity = -1;
		if (operands == 2 &&
		    !parse_int(t->tok[first + 2], 0, 255, &arity))
			return fail(as, line, "bad argument count", t->tok[first + 2]);
		if (!grow_array((void **)&as->call_uses, &as->call_uses_cap,
				as->ncall_uses + 1, sizeof *as->call_uses,
				JIT_MAX_MODULE_CODE))
			return fail(as, line, "too many calls", NULL);
		size_t name_len = strlen(arg) + 1;
		if (!grow_array((void **)&as->call_names, &as->call_names_cap,
				as->call_names_len + name_len, 1, 2 * JIT_MAX_SOURCE_BYTES))
			return fail(as, line, "too many calls", NULL);
		struct call_use *use = &as->call_uses[as->ncall_uses++];
		use->name_at = as->call_names_len;
		memcpy(as->call_names + as->call_names_len, arg, name_len);
		as->call_names_len += name_len;
		use->func = as->mod->nfuncs - 1;
		use->patch_at = as->fn->len + 1;
		use->arity = (int)arity;
		use->line = line;
		memset(bytes + *n, 0, 3);
		*n += 3;
		return true;
	}
	case OPND_NONE:
		break;
	}
	return true;
}

static bool parse_line(struct assembler *as, int line,
		       const struct line_tokens *t)
{
	int first = 0;
	if (t->count == 0)
		return true;
	if (strcmp(t->tok[0], "func") == 0)
		return parse_func_header(as, line, t);
	size_t len0 = strlen(t->tok[0]);
	if (t->tok[0][len0 - 1] == ':') {
		if (!define_label(as, line, t->tok[0]))
			return false;
		first = 1;
		if (t->count == 1)
			return true;
	}
	if (!as->fn)
		return fail(as, line, "instruction outside of a function", t->tok[first]);
	int op = opcode_by_name(t->tok[first]);
	if (op < 0)
		return fail(as, line, "unknown instruction", t->tok[first]);
	uint8_t bytes[16];
	size_t n = 0;
	bytes[n++] = (uint8_t)op;
	if (!parse_operand(as, line, op, t, first, bytes, &n))
		return false;
	return emit_bytes(as, line, bytes, n);
}

static bool resolve_calls(struct assembler *as)
{
	for (size_t i = 0; i < as->ncall_uses; i++) {
		struct call_use *use = &as->call_uses[i];
		const char *name = as->call_names + use->name_at;
		int callee = bc_find_func(as->mod, name);
		if (callee < 0)
			return fail(as, use->line, "call to undefined function", name);
		int arity = use->arity >= 0 ? use->arity : as->mod->funcs[callee].nargs;
		uint8_t *p = as->mod->funcs[use->func].code + use->patch_at;
		p[0] = (uint8_t)callee;
		p[1] = (uint8_t)(callee >> 8);
		p[2] = (uint8_t)arity;
	}
	return true;
}

static bool assemble(struct assembler *as, const char *text, size_t len)
{
	if (len > JIT_MAX_SOURCE_BYTES)
		return fail(as, 0, "source too large (limit 1 MiB)", NULL);
	const char *nul = memchr(text, '\0', len);
	if (nul) {
		int nul_line = 1;
		for (const char *q = text; q < nul; q++)
			nul_line += *q == '\n';
		return fail(as, nul_line, "NUL byte in source", NULL);
	}
	const char *p = text, *end = text + len;
	int line = 0;
	while (p < end) {
		line++;
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		struct line_tokens tokens;
		if (!tokenize(as, line, p, eol, &tokens) ||
		    !parse_line(as, line, &tokens))
			return false;
		p = eol + 1;
	}
	if (!finish_function(as))
		return false;
	if (as->mod->nfuncs == 0)
		return fail(as, line > 0 ? line : 1, "no functions in module", NULL);
	return resolve_calls(as);
}

struct bc_module *asm_parse(const char *file, const char *text, size_t len,
			    struct jit_diag *diag)
{
	struct assembler as = { .file = file, .diag = diag };
	as.mod = calloc(1, sizeof *as.mod);
	if (!as.mod) {
		diag_at(diag, file, 0, "out of memory");
		return NULL;
	}
	snprintf(as.mod->file, sizeof as.mod->file, "%s", file);
	bool ok = assemble(&as, text, len);
	free(as.labels);
	free(as.label_uses);
	free(as.call_uses);
	free(as.call_names);
	if (!ok) {
		bc_module_free(as.mod);
		return NULL;
	}
	return as.mod;
}
