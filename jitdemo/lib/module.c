/* module.c - the public libjit API: glue between loader, engines, arena. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sealjit/seal-types.h>

#include "arena.h"
#include "asm.h"
#include "emit.h"
#include "interp.h"
#include "stack.h"
#include "libjit.h"
#include "util.h"
#include "verify.h"

struct jit_module {
	struct bc_module *bc;
	struct emitted_module emitted;	/* kept for jit_dump_func */
	struct arena arena;
	bool compiled;
	uint64_t emit_ns;
	size_t compiled_insns;
};

struct jit_module *jit_load_string(const char *name, const char *text,
				   size_t len, struct jit_diag *diag)
{
	struct bc_module *bc = asm_parse(name, text, len, diag);
	if (!bc)
		return NULL;
	if (!verify_module(bc, diag)) {
		bc_module_free(bc);
		return NULL;
	}
	struct jit_module *m = calloc(1, sizeof *m);
	if (!m) {
		diag_at(diag, name, 0, "out of memory");
		bc_module_free(bc);
		return NULL;
	}
	m->bc = bc;
	return m;
}

struct jit_module *jit_load_file(const char *path, struct jit_diag *diag)
{
	size_t len;
	char *text = read_bounded_file(path, JIT_MAX_SOURCE_BYTES, &len, diag);
	if (!text)
		return NULL;
	struct jit_module *m = jit_load_string(path, text, len, diag);
	free(text);
	return m;
}

int jit_func_count(const struct jit_module *m) { return m->bc->nfuncs; }

int jit_func_index(const struct jit_module *m, const char *name)
{
	return bc_find_func(m->bc, name);
}

const char *jit_func_name(const struct jit_module *m, int index)
{
	return index >= 0 && index < m->bc->nfuncs ? m->bc->funcs[index].name : NULL;
}

int jit_func_arity(const struct jit_module *m, int index)
{
	return index >= 0 && index < m->bc->nfuncs ? m->bc->funcs[index].nargs : -1;
}

struct jit_options jit_default_options(void)
{
	return (struct jit_options){ .seal = JIT_SEAL_CARD };
}

int jit_compile(struct jit_module *m, const struct jit_options *opt,
		struct jit_diag *diag)
{
	if (m->compiled) {
		diag_plain(diag, "module already compiled");
		return -1;
	}
	if (opt->hint && (opt->seal == JIT_SEAL_PKEY || opt->seal == JIT_SEAL_KEYONLY)) {
		diag_plain(diag, "--seal=%s writes code into the key space only: no hint",
			   jit_seal_policy_name(opt->seal));
		return -1;
	}
	uint64_t start = monotonic_ns();
	if (!emit_module(m->bc, &m->emitted, diag))
		return -1;
	m->emit_ns = monotonic_ns() - start;
	bool mapped = opt->hint ?
		      arena_map(&m->arena, m->emitted.code.len, opt->hint, diag) :
		      arena_map_in_code_space(&m->arena, m->emitted.code.len, opt->seal, diag);
	if (!mapped) {
		emitted_module_free(&m->emitted);
		return -1;
	}
	arena_write(&m->arena, m->emitted.code.bytes, m->emitted.code.len);
	if (!arena_seal(&m->arena, opt->seal, opt->require_seal, diag)) {
		arena_unmap(&m->arena);	/* not sealed, so this works */
		emitted_module_free(&m->emitted);
		return -1;
	}
	m->compiled_insns = 0;
	for (int i = 0; i < m->bc->nfuncs; i++)
		m->compiled_insns += m->bc->funcs[i].insn_count;
	m->compiled = true;
	return 0;
}

jit_native_fn jit_lookup(const struct jit_module *m, const char *name)
{
	int index = bc_find_func(m->bc, name);
	if (!m->compiled || index < 0)
		return NULL;
	void *entry = (char *)m->arena.base + m->emitted.funcs[index].entry;
	jit_native_fn fn;
	memcpy(&fn, &entry, sizeof fn);	/* object to function pointer */
	return fn;
}

void jit_code_space_info(struct jit_code_space_info *info)
{
	code_space_info(info);
}

void jit_ctx_init(struct jit_ctx *ctx)
{
	ctx->trap = JIT_TRAP_NONE;
	ctx->saved_rsp = 0;
	ctx->stack_floor = stack_floor_of_this_thread();
}

static int check_call(const struct jit_module *m, const char *name, int nargs,
		      struct jit_diag *diag)
{
	int index = bc_find_func(m->bc, name);
	if (index < 0) {
		diag_plain(diag, "no function named '%s'", name);
		return -1;
	}
	if (nargs != m->bc->funcs[index].nargs) {
		diag_plain(diag, "%s takes %d argument%s, %d given", name,
			   m->bc->funcs[index].nargs,
			   m->bc->funcs[index].nargs == 1 ? "" : "s", nargs);
		return -1;
	}
	return index;
}

int jit_call(struct jit_module *m, const char *name, const int64_t *args,
	     int nargs, int64_t *result, struct jit_diag *diag)
{
	if (check_call(m, name, nargs, diag) < 0)
		return -1;
	jit_native_fn fn = jit_lookup(m, name);
	if (!fn) {
		diag_plain(diag, "module not compiled");
		return -1;
	}
	int64_t a[JIT_MAX_ARGS] = { 0 };
	for (int i = 0; i < nargs; i++)
		a[i] = args[i];
	struct jit_ctx ctx;
	jit_ctx_init(&ctx);
	int64_t value = fn(&ctx, a[0], a[1], a[2], a[3], a[4]);
	if (ctx.trap != JIT_TRAP_NONE)
		return (int)ctx.trap;
	*result = value;
	return JIT_TRAP_NONE;
}

int jit_interp_call(struct jit_module *m, const char *name,
		    const int64_t *args, int nargs, int64_t *result,
		    struct jit_diag *diag)
{
	int index = check_call(m, name, nargs, diag);
	if (index < 0)
		return -1;
	int trap = interp_call(m->bc, index, args, result);
	if (trap == INTERP_OUT_OF_MEMORY) {
		diag_plain(diag, "interpreter out of memory");
		return -1;
	}
	return trap;
}

const char *jit_trap_text(int trap)
{
	switch (trap) {
	case JIT_TRAP_NONE: return "no trap";
	case JIT_TRAP_DIV_ZERO: return "division by zero";
	case JIT_TRAP_DIV_OVERFLOW: return "division overflow (INT64_MIN / -1)";
	case JIT_TRAP_CALL_DEPTH: return "call stack limit exceeded";
	}
	return "unknown trap";
}

int jit_arena_info(const struct jit_module *m, struct jit_arena_info *info)
{
	memset(info, 0, sizeof *info);
	if (!m->compiled)
		return -1;
	const struct arena *a = &m->arena;
	info->base = a->base;
	info->length = a->length;
	info->code_bytes = a->used;
	info->types_requested = a->types_requested;
	info->types_applied = a->types_applied;
	info->outcome = a->outcome;
	info->seal_errno = a->seal_errno;
	info->emit_ns = m->emit_ns;
	info->protect_ns = a->protect_ns;
	info->seal_ns = a->seal_ns;
	info->bytecode_insns = m->compiled_insns;
	return 0;
}

const char *jit_seal_types_text(unsigned types, char *buf, size_t len)
{
	mseal_types_names(types, buf, len);
	if (!buf[0])
		snprintf(buf, len, "none");
	return buf;
}

int jit_func_code(const struct jit_module *m, int index, const uint8_t **code,
		  size_t *len)
{
	if (!m->compiled || index < 0 || index >= m->bc->nfuncs)
		return -1;
	const struct emitted_func *f = &m->emitted.funcs[index];
	*code = (const uint8_t *)m->arena.base + f->start;
	*len = f->end - f->start;
	return 0;
}

static void dump_bytes(FILE *out, const char *label, const uint8_t *bytes,
		       size_t len)
{
	const size_t per_line = 12;
	fprintf(out, "  %-26s", label);
	for (size_t i = 0; i < len; i++) {
		if (i > 0 && i % per_line == 0)
			fprintf(out, "\n  %-26s", "");
		fprintf(out, " %02x", bytes[i]);
	}
	fputc('\n', out);
}

int jit_dump_func(const struct jit_module *m, int index, char **text)
{
	const uint8_t *code;
	size_t len, size;
	if (jit_func_code(m, index, &code, &len) != 0)
		return -1;
	FILE *out = open_memstream(text, &size);
	if (!out)
		return -1;
	const struct bc_func *fn = &m->bc->funcs[index];
	const uint32_t *native_at = m->emitted.funcs[index].native_at;
	fprintf(out, "func %s (%d args, %d locals, max stack %d) at %p, %zu bytes\n",
		fn->name, fn->nargs, fn->nlocals, fn->max_stack, (const void *)code, len);
	dump_bytes(out, "prologue", code, native_at[0]);
	for (size_t pc = 0; pc < fn->len;) {
		size_t next = pc + 1 + operand_size(opcode_info(fn->code[pc])->operand);
		char insn[96], label[128];
		bc_format_insn(m->bc, fn, pc, insn, sizeof insn);
		snprintf(label, sizeof label, "@%04zu %s%s", pc, insn,
			 fn->depth_at[pc] < 0 ? " (dead)" : "");
		dump_bytes(out, label, code + native_at[pc], native_at[next] - native_at[pc]);
		pc = next;
	}
	dump_bytes(out, "after the body (64-bit divisions)", code + native_at[fn->len],
		   len - native_at[fn->len]);
	return fclose(out) == 0 ? 0 : -1;
}

void jit_release(struct jit_module *m, struct jit_release_report *report)
{
	struct jit_release_report r = { .arena_unmapped = true };
	if (!m)
		goto done;
	if (m->compiled) {
		r.unmap_errno = arena_unmap(&m->arena);
		r.arena_unmapped = r.unmap_errno == 0;
	}
	emitted_module_free(&m->emitted);
	bc_module_free(m->bc);
	free(m);
done:
	if (report)
		*report = r;
}
