/*
 * test_diff.c - differential test: random well-formed programs (gen.c) run
 * in the interpreter and the JIT must give the same result or trap.  Then
 * as many programs of the divide shape (gen.h), which divide, take the
 * modulo of and multiply edge and random dividends by one edge or random
 * constant, GEN_DIVIDE_CASES_PER_CALL cases a call; a call that traps
 * counts as one case (the trap), since what follows it never ran.
 *
 *	test_diff [PROGRAMS]        default 10000; JITDEMO_SEED picks the base
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bytecode.h"
#include "gen.h"
#include "libjit.h"
#include <sealjit/tap.h>

#define ARG_SETS 3
#define BATCHES 10
#define MIN_DIVIDE_CASES 1000000L

struct coverage {
	long opcodes[OP_COUNT];
	long traps[4];
	long programs, calls;
	/* the divide shape */
	long divide_cases, divide_traps, power_of_two_divisors, zero_divisors;
};

/* Checks the program of one seed: true when both engines agree. */
typedef bool check_fn(uint64_t seed, struct coverage *cov, char *why, size_t why_len);

/* Decodes the module's text again to count which opcodes appeared. */
static void count_opcodes(const char *text, struct coverage *cov)
{
	const char *line = text;
	while (line && *line) {
		char word[16];
		if (sscanf(line, " %15s", word) == 1) {
			int op = opcode_by_name(word);
			if (op >= 0)
				cov->opcodes[op]++;
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
}

/* The module compiled without a seal, or NULL with why filled in (m is
 * then released). */
static struct jit_module *load_unsealed(const char *name, const char *text,
					struct jit_diag *diag, char *why, size_t why_len)
{
	struct jit_module *m = jit_load_string(name, text, strlen(text), diag);
	struct jit_options none = { .seal = JIT_SEAL_NONE };
	if (m && jit_compile(m, &none, diag) == 0)
		return m;
	snprintf(why, why_len, "rejected: %s", diag->text);
	jit_release(m, NULL);
	return NULL;
}

/* Returns true when both engines agree on every argument set. */
static bool check_program(uint64_t seed, struct coverage *cov, char *why, size_t why_len)
{
	struct generated prog;
	if (gen_program(seed, &prog) != 0) {
		snprintf(why, why_len, "generator out of memory");
		return false;
	}
	struct jit_diag diag;
	struct jit_module *m = load_unsealed("generated", prog.text, &diag, why, why_len);
	bool ok = m != NULL;
	struct rng rng;
	rng_seed(&rng, seed ^ 0xa5a5a5a5u);
	for (int set = 0; ok && set < ARG_SETS; set++) {
		int64_t args[JIT_MAX_ARGS], want = 0, got = 0;
		for (int i = 0; i < JIT_MAX_ARGS; i++)
			args[i] = rng_interesting(&rng);
		int want_trap = jit_interp_call(m, prog.entry, args, prog.entry_arity, &want, &diag);
		int got_trap = jit_call(m, prog.entry, args, prog.entry_arity, &got, &diag);
		if (want_trap != got_trap || (want_trap == 0 && want != got)) {
			snprintf(why, why_len, "args set %d: interp %" PRId64 " trap %d, jit %"
				 PRId64 " trap %d", set, want, want_trap, got, got_trap);
			ok = false;
		}
		if (want_trap >= 0 && want_trap < 4)
			cov->traps[want_trap]++;
		cov->calls++;
	}
	if (!ok)
		printf("# program of seed %" PRIu64 ":\n%s", seed, prog.text);
	count_opcodes(prog.text, cov);
	cov->programs++;
	jit_release(m, NULL);
	gen_free(&prog);
	return ok;
}

static bool is_power_of_two_magnitude(int64_t v)
{
	uint64_t m = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	return m > 1 && (m & (m - 1)) == 0;
}

static bool check_divide_program(uint64_t seed, struct coverage *cov, char *why, size_t why_len)
{
	struct divide_program dp;
	if (gen_divide_program(seed, &dp) != 0) {
		snprintf(why, why_len, "generator out of memory");
		return false;
	}
	struct jit_diag diag;
	struct jit_module *m = load_unsealed("divide", dp.prog.text, &diag, why, why_len);
	bool ok = m != NULL;
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
	cov->divide_cases += want_trap == 0 ? GEN_DIVIDE_CASES_PER_CALL : 1;
	cov->divide_traps += want_trap > 0;
	cov->power_of_two_divisors += is_power_of_two_magnitude(dp.divisor);
	cov->zero_divisors += dp.divisor == 0 && want_trap == JIT_TRAP_DIV_ZERO;
	jit_release(m, NULL);
	gen_free(&dp.prog);
	return ok;
}

/* The programs of seeds base.. in BATCHES TAP lines. */
static void run_batches(struct tap *t, const char *shape, check_fn *check, long programs,
			uint64_t base, struct coverage *cov)
{
	long per_batch = (programs + BATCHES - 1) / BATCHES;
	for (long first = 0; first < programs; first += per_batch) {
		long last = first + per_batch < programs ? first + per_batch : programs;
		uint64_t failing = 0;
		char why[600] = "";
		long failures = 0;
		for (long i = first; i < last; i++) {
			char reason[600];
			if (!check(base + (uint64_t)i, cov, reason, sizeof reason)) {
				if (failures++ == 0) {
					failing = base + (uint64_t)i;
					snprintf(why, sizeof why, "%s", reason);
				}
			}
		}
		if (!tap_ok(t, failures == 0, "interpreter and JIT agree on %s %ld..%ld",
			    shape, first, last - 1))
			tap_note("%ld failed; first failing seed %" PRIu64 ": %s", failures,
				 failing, why);
	}
}

int main(int argc, char **argv)
{
	long programs = argc > 1 ? atol(argv[1]) : 10000;
	const char *seed_env = getenv("JITDEMO_SEED");
	uint64_t base = seed_env ? strtoull(seed_env, NULL, 0) : 1;
	struct tap t;
	struct coverage cov = { 0 };
	tap_start(&t);
	tap_note("%ld programs from seed %" PRIu64 " (set JITDEMO_SEED to change)", programs, base);
	run_batches(&t, "programs", check_program, programs, base, &cov);
	int missing = 0;
	for (int op = 0; op < OP_COUNT; op++)
		if (cov.opcodes[op] == 0) {
			tap_note("opcode %s never generated", opcode_info((unsigned)op)->name);
			missing++;
		}
	tap_ok(&t, programs < 100 || missing == 0, "every opcode appears in the generated programs");
	tap_note("traps seen: none %ld, div-zero %ld, div-overflow %ld, call-depth %ld",
		 cov.traps[0], cov.traps[1], cov.traps[2], cov.traps[3]);
	tap_ok(&t, programs < 1000 || (cov.traps[0] > cov.calls / 2 && cov.traps[1] > 0 &&
				       cov.traps[2] > 0 && cov.traps[3] > 0),
	       "programs mostly finish, and every trap kind occurs");

	run_batches(&t, "divide programs", check_divide_program, programs, base, &cov);
	tap_note("divide shape: %ld cases, %ld calls trapped, %ld power-of-two divisors, "
		 "%ld zero divisors", cov.divide_cases, cov.divide_traps,
		 cov.power_of_two_divisors, cov.zero_divisors);
	tap_ok(&t, programs < 1000 || cov.divide_cases >= MIN_DIVIDE_CASES,
	       "the divide shape checks at least %ld cases", MIN_DIVIDE_CASES);
	tap_ok(&t, programs < 1000 || (cov.power_of_two_divisors > 0 && cov.zero_divisors > 0 &&
				       cov.divide_traps < programs / 4),
	       "powers of two and zero occur as divisors, and most divide calls finish");
	return tap_done(&t);
}
