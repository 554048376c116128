/*
 * fuzz_asm.c - libFuzzer target for the assembler and verifier: any input
 * must load or fail with a message, never crash, hang or allocate without
 * bound.  Loaded modules are also compiled (unsealed) to exercise the
 * emitter on verified code; nothing is executed, since a valid program may
 * loop forever.
 *
 *	make fuzz [FUZZ_SECONDS=60]    corpus seeds: fuzz/corpus/
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libjit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jit_diag diag;
	diag.text[0] = '\0';
	struct jit_module *m = jit_load_string("fuzz.jit", (const char *)data, size, &diag);
	if (!m) {
		if (strncmp(diag.text, "fuzz.jit", 8) != 0)
			abort();	/* every error names its source */
		return 0;
	}
	struct jit_options none = { .seal = JIT_SEAL_NONE };
	if (jit_compile(m, &none, &diag) != 0)
		abort();		/* verified code always compiles */
	jit_release(m, NULL);
	return 0;
}
