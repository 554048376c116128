/* test_interp.c - the reference interpreter against the semantics table. */
#include <inttypes.h>
#include <string.h>

#include "asm.h"
#include "cases.h"
#include "interp.h"
#include <sealjit/tap.h>
#include "verify.h"

static void run_case(struct tap *t, const struct semantic_case *c)
{
	struct jit_diag diag;
	struct bc_module *mod = asm_parse("case", c->source, strlen(c->source), &diag);
	if (!mod || !verify_module(mod, &diag)) {
		tap_ok(t, false, "interp: %s (load: %s)", c->what, diag.text);
		bc_module_free(mod);
		return;
	}
	int64_t result = 0;
	int trap = interp_call(mod, bc_find_func(mod, "f"), c->args, &result);
	bool ok = trap == c->trap && (trap != 0 || result == c->result);
	if (!tap_ok(t, ok, "interp: %s", c->what))
		tap_note("got %" PRId64 " trap %d, want %" PRId64 " trap %d",
			 result, trap, c->result, c->trap);
	bc_module_free(mod);
}

int main(void)
{
	struct tap t;
	tap_start(&t);
	for (int i = 0; i < SEMANTIC_CASE_COUNT; i++)
		run_case(&t, &semantic_cases[i]);

	int64_t q = 0, r = 0;
	tap_ok(&t, interp_divide(7, 0, &q, &r) == JIT_TRAP_DIV_ZERO, "interp_divide: zero divisor");
	tap_ok(&t, interp_divide(INT64_MIN, -1, &q, &r) == JIT_TRAP_DIV_OVERFLOW,
	       "interp_divide: INT64_MIN / -1");
	tap_ok(&t, interp_divide(-9, 4, &q, &r) == 0 && q == -2 && r == -1,
	       "interp_divide: -9 / 4 = -2 rem -1");
	tap_ok(&t, interp_shift_arith(INT64_MIN, 63) == -1, "interp_shift_arith: sign fills");
	tap_ok(&t, interp_shift_arith(256, 68) == 16, "interp_shift_arith: count masked");
	return tap_done(&t);
}
