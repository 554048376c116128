/*
 * test_diff.c - differential test: random well-formed programs (gen.c) run
 * in the interpreter and the JIT must give the same result or trap.
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
#include "tap.h"

#define ARG_SETS 3
#define BATCHES 10

struct coverage {
	long opcodes[OP_COUNT];
	long traps[4];
	long programs, calls;
};

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

/* Returns true when both engines agree on every argument set. */
static bool check_program(uint64_t seed, struct coverage *cov, char *why, size_t why_len)
{
	struct generated prog;
	if (gen_program(seed, &prog) != 0) {
		snprintf(why, why_len, "generator out of memory");
		return false;
	}
	struct jit_diag diag;
	struct jit_module *m = jit_load_string("generated", prog.text, strlen(prog.text), &diag);
	struct jit_options none = { .seal = JIT_SEAL_NONE };
	bool ok = m && jit_compile(m, &none, &diag) == 0;
	if (!ok)
		snprintf(why, why_len, "rejected: %s", diag.text);
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

int main(int argc, char **argv)
{
	long programs = argc > 1 ? atol(argv[1]) : 10000;
	const char *seed_env = getenv("JITDEMO_SEED");
	uint64_t base = seed_env ? strtoull(seed_env, NULL, 0) : 1;
	struct tap t;
	struct coverage cov = { 0 };
	tap_start(&t);
	tap_note("%ld programs from seed %" PRIu64 " (set JITDEMO_SEED to change)", programs, base);
	long per_batch = (programs + BATCHES - 1) / BATCHES;
	for (long first = 0; first < programs; first += per_batch) {
		long last = first + per_batch < programs ? first + per_batch : programs;
		uint64_t failing = 0;
		char why[600] = "";
		long failures = 0;
		for (long i = first; i < last; i++) {
			char reason[600];
			if (!check_program(base + (uint64_t)i, &cov, reason, sizeof reason)) {
				if (failures++ == 0) {
					failing = base + (uint64_t)i;
					snprintf(why, sizeof why, "%s", reason);
				}
			}
		}
		if (!tap_ok(&t, failures == 0, "interpreter and JIT agree on programs %ld..%ld",
			    first, last - 1))
			tap_note("%ld failed; first failing seed %" PRIu64 ": %s", failures,
				 failing, why);
	}
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
	return tap_done(&t);
}
