/* target.c - the victim: fib() JIT-compiled by libjit into a sealed arena. */
#define _GNU_SOURCE
#include "attacks.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/*
 * The arena is placed at a fixed address far below where the kernel puts
 * mappings on its own, so the pages right above and below it stay free:
 * mremap can grow it in place and a scenario can put an unsealed page
 * directly under it.
 */
#define ARENA_HINT ((void *)0x3a5500000000UL)

/* fib first, so it sits on the arena's first page; pad makes the arena span
 * several pages, so that shrinking it leaves code behind.  Each pad pair
 * squares a value only known at run time ("dup; mul": a register copy and
 * an imul, 7 bytes), which no constant folding can shrink; target_build()
 * still checks the layout. */
#define PAD_PAIRS 2000

static char *module_text(size_t *len)
{
	static const char head[] =
		"func fib 1 0\n"
		"    arg 0\n    const 2\n    lt\n    jz recurse\n"
		"    arg 0\n    ret\n"
		"recurse:\n"
		"    arg 0\n    const 1\n    sub\n    call fib\n"
		"    arg 0\n    const 2\n    sub\n    call fib\n"
		"    add\n    ret\n"
		"func pad 1 0\n    arg 0\n";
	static const char pair[] = "    dup\n    mul\n";
	static const char tail[] = "    ret\n";
	size_t size = sizeof head + PAD_PAIRS * (sizeof pair - 1) + sizeof tail;
	char *text = malloc(size);
	if (!text)
		return NULL;
	char *at = stpcpy(text, head);
	for (int i = 0; i < PAD_PAIRS; i++)
		at = stpcpy(at, pair);
	at = stpcpy(at, tail);
	*len = (size_t)(at - text);
	return text;
}

static struct jit_module *load_module(char *why, size_t why_len)
{
	size_t len = 0;
	char *text = module_text(&len);
	if (!text) {
		snprintf(why, why_len, "out of memory");
		return NULL;
	}
	struct jit_diag diag;
	struct jit_module *m = jit_load_string("victim", text, len, &diag);
	free(text);
	if (!m)
		snprintf(why, why_len, "jit_load_string: %s", diag.text);
	return m;
}

static bool map_page_below(size_t page, char *why, size_t why_len)
{
	void *want = (uint8_t *)ARENA_HINT - page;
	void *got = mmap(want, page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (got == want) {
		memset(got, 0x5a, page);	/* an ordinary data page */
		return true;
	}
	snprintf(why, why_len, "cannot map the unsealed page below the arena: %s",
		 got == MAP_FAILED ? strerror(errno) : "placed elsewhere");
	return false;
}

bool policy_in_key_space(enum jit_seal_policy policy)
{
	return policy == JIT_SEAL_PKEY || policy == JIT_SEAL_KEYONLY;
}

/* Why the key space's policies cannot run here, or NULL. */
const char *key_policies_unavailable(void)
{
	static char why[96];
	int pkey = pkey_alloc(0, 0);
	if (pkey >= 0) {
		pkey_free(pkey);
		return NULL;
	}
	snprintf(why, sizeof why, "no memory protection keys here (pkey_alloc: %s)",
		 errno_name(errno));
	return why;
}

/*
 * At ARENA_HINT; under pkey and keyonly in libjit's key space instead (it
 * takes no hint), where the module's pages are the first ones handed out
 * and the never-touched rest of the space lies right above them.
 */
static bool compile_at_hint(struct target *t, enum jit_seal_policy policy,
			    char *why, size_t why_len)
{
	struct jit_options opt = jit_default_options();
	opt.seal = policy;
	t->in_key_space = policy_in_key_space(policy);
	opt.hint = t->in_key_space ? NULL : ARENA_HINT;
	struct jit_diag diag;
	if (jit_compile(t->module, &opt, &diag) != 0) {
		snprintf(why, why_len, "jit_compile: %s", diag.text);
		return false;
	}
	if (jit_arena_info(t->module, &t->info) != 0 ||
	    (!t->in_key_space && t->info.base != ARENA_HINT)) {
		snprintf(why, why_len, "arena not placed at %p", ARENA_HINT);
		return false;
	}
	t->base = t->info.base;
	t->length = t->info.length;
	return true;
}

bool target_build(struct target *t, enum jit_seal_policy policy,
		  const struct scenario *s, char *why, size_t why_len)
{
	memset(t, 0, sizeof *t);
	t->page = (size_t)sysconf(_SC_PAGESIZE);
	if (s->needs_page_below && !map_page_below(t->page, why, why_len))
		return false;
	t->module = load_module(why, why_len);
	enum jit_seal_policy libjit_policy = s->seals_itself ? JIT_SEAL_NONE : policy;
	if (!t->module || !compile_at_hint(t, libjit_policy, why, why_len))
		return false;
	jit_native_fn fn = jit_lookup(t->module, TARGET_FUNC);
	uint8_t *entry;
	memcpy(&entry, &fn, sizeof entry);	/* function to object pointer */
	t->entry_offset = (size_t)(entry - t->base);
	if (t->length < 3 * t->page || t->entry_offset >= t->page) {
		snprintf(why, why_len, "arena layout: %zu bytes, entry at +%zu",
			 t->length, t->entry_offset);
		return false;
	}
	if (!target_call(t, &t->result)) {
		snprintf(why, why_len, "%s(%d) trapped", TARGET_FUNC, TARGET_ARG);
		return false;
	}
	return !s->finish || s->finish(t, policy, why, why_len);
}

bool target_call(const struct target *t, int64_t *result)
{
	int64_t args[1] = { TARGET_ARG };
	struct jit_diag diag;
	return jit_call(t->module, TARGET_FUNC, args, 1, result, &diag) == 0;
}

/*
 * The attacker's bytes for a range as long as the arena: int3 everywhere,
 * and at the function's entry `mov eax, 0x41414141; ret`, so a landed
 * replacement shows as fib() returning PAYLOAD_RESULT.
 */
void target_payload(const struct target *t, uint8_t *buf, size_t len)
{
	static const uint8_t code[] = { 0xb8, 0x41, 0x41, 0x41, 0x41, 0xc3 };
	memset(buf, 0xcc, len);
	if (t->entry_offset + sizeof code <= len)
		memcpy(buf + t->entry_offset, code, sizeof code);
}

void entry_payload(uint8_t bytes[ENTRY_PAYLOAD_LEN])
{
	struct target at_entry = { .entry_offset = 0 };
	target_payload(&at_entry, bytes, ENTRY_PAYLOAD_LEN);
}
