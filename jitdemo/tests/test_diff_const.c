/*
 * test_diff_const.c - differential test of arithmetic by constants: the
 * divide shape (gen.h) divides, takes the modulo of and multiplies edge
 * and random dividends by edge and random constants, and the interpreter
 * and the JIT must return the same hash or the same trap.
 *
 *	test_diff_const [PROGRAMS]   default 1000; JITDEMO_SEED picks the base
 *
 * Each program runs GEN_DIVIDE_CASES_PER_CALL cases in one call; a call
 * that traps counts as one case (the trap), since what follows it never
 * ran.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "libjit.h"
#include "tap.h"

#define BATCHES 10
#define MIN_CASES 1000000L

struct tally {
	long cases, traps, power_of_two_divisors, zero_divisors;
};

static bool is_power_of_two_magnitude(int64_t v)
{
	uint64_t m = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	return m > 1 && (m & (m - 1)) == 0;
}

/* Returns true when both engines agree. */
static bool check_divide_program(uint64_t seed, struct tally *tally, char *why, size_t why_len)
{
	struct divide_program dp;
	if (gen_divide_program(seed, &dp) != 0) {
		snprintf(why, why_len, "generator out of memory");
		return false;
	}
	struct jit_diag diag;
	struct jit_module *m = jit_load_string("divide", dp.prog.text, strlen(dp.prog.text), &diag);
	struct jit_options none = { .seal = JIT_SEAL_NONE };
	bool ok = m && jit_compile(m, &none, &diag) == 0;
	if (!ok)
		snprintf(why, why_len, "rejected: %s", diag.text);
	int64_t args[2] = { dp.x, dp.y }, want = 0, got = 0;
	int want_trap = ok ? jit_interp_call(m, "probe", args, 2, &want, &diag) : -1;
	int got_trap = ok ? jit_call(m, "probe", args, 2, &got, &diag) : -1;
	if (ok && (want_trap != got_trap || (want_trap == 0 && want != got))) {
		snprintf(why, why_len, "divisor %" PRId64 ", probe %" PRId64 " %" PRId64
			 ": interp %" PRId64 " trap %d, jit %" PRId64 " trap %d",
			 dp.divisor, dp.x, dp.y, want, want_trap, got, got_trap);
		ok = false;
	}
	if (!ok)
		printf("# program of seed %" PRIu64 ":\n%s", seed, dp.prog.text);
	tally->cases += want_trap == 0 ? GEN_DIVIDE_CASES_PER_CALL : 1;
	tally->traps += want_trap > 0;
	tally->power_of_two_divisors += is_power_of_two_magnitude(dp.divisor);
	tally->zero_divisors += dp.divisor == 0 && want_trap == JIT_TRAP_DIV_ZERO;
	jit_release(m, NULL);
	gen_free(&dp.prog);
	return ok;
}

int main(int argc, char **argv)
{
	long programs = argc > 1 ? atol(argv[1]) : 1000;
	const char *seed_env = getenv("JITDEMO_SEED");
	uint64_t base = seed_env ? strtoull(seed_env, NULL, 0) : 1;
	struct tap t;
	struct tally tally = { 0 };
	tap_start(&t);
	tap_note("%ld divide programs from seed %" PRIu64 " (set JITDEMO_SEED to change)",
		 programs, base);
	long per_batch = (programs + BATCHES - 1) / BATCHES;
	for (long first = 0; first < programs; first += per_batch) {
		long last = first + per_batch < programs ? first + per_batch : programs;
		long failures = 0;
		char why[700] = "";
		for (long i = first; i < last; i++) {
			char reason[600];
			if (!check_divide_program(base + (uint64_t)i, &tally, reason, sizeof reason) &&
			    failures++ == 0)
				snprintf(why, sizeof why, "seed %" PRIu64 ": %s", base + (uint64_t)i, reason);
		}
		if (!tap_ok(&t, failures == 0, "interpreter and JIT agree on divide programs %ld..%ld",
			    first, last - 1))
			tap_note("%ld failed; first: %s", failures, why);
	}
	tap_note("%ld cases, %ld calls trapped, %ld power-of-two divisors, %ld zero divisors",
		 tally.cases, tally.traps, tally.power_of_two_divisors, tally.zero_divisors);
	tap_ok(&t, programs < 1000 || tally.cases >= MIN_CASES,
	       "a full run checks at least %ld cases", MIN_CASES);
	tap_ok(&t, programs < 1000 || (tally.power_of_two_divisors > 0 && tally.zero_divisors > 0 &&
				       tally.traps < programs / 4),
	       "powers of two and zero occur as divisors, and most calls finish");
	return tap_done(&t);
}
