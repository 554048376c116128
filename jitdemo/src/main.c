/* main.c - the jitdemo command line: run a bytecode function, JIT'd or not. */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sealjit/intparse.h>
#include <sealjit/smaps.h>

#include "libjit.h"

enum { EXIT_PROGRAM_ERROR = 1, EXIT_USAGE = 2 };

#define BENCH_COMPILE_ROUNDS 200
#define BENCH_SEAL_ROUNDS 8

struct cli {
	const char *command;
	const char *file;
	const char *func;
	int64_t args[JIT_MAX_ARGS];
	int nargs;
	bool interp, dump, maps, bench, quiet, time;
	struct jit_options opt;
};

static const char usage_text[] =
	"usage: jitdemo run [options] FILE FUNC [ARG...]\n"
	"       jitdemo check FILE\n"
	"       jitdemo --help\n"
	"\n"
	"Runs FUNC of the bytecode assembler file FILE with integer ARGs and\n"
	"prints its result.  The code is JIT-compiled into an arena that is\n"
	"mapped read+write, filled, flipped to read+execute and sealed.\n"
	"\n"
	"options:\n"
	"  --interp         use the reference interpreter instead of the JIT\n"
	"  --seal=POLICY    card (default: mprotect,mmap,mremap), all (adds\n"
	"                   munmap,mseal), none, or pkey (all, on the key space:\n"
	"                   code written through a protection key, never mprotect),\n"
	"                   or keyonly (that key space, unsealed)\n"
	"  --require-seal   fail unless the kernel sealed the code arena\n"
	"  --dump           print the machine code of every function\n"
	"  --maps           print the arena's mappings and seals (/proc/self/smaps)\n"
	"  --bench          time interpreter and JIT on this call (one table row)\n"
	"  --quiet          do not print the seal report on stderr\n"
	"  --time           print how long the call took on stderr\n"
	"\n"
	"exit status: 0 ok, 1 program error or trap, 2 usage error\n";

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "jitdemo: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'jitdemo --help'.\n");
	return EXIT_USAGE;
}

static int parse_option(struct cli *cli, const char *arg)
{
	if (strcmp(arg, "--interp") == 0)
		cli->interp = true;
	else if (strcmp(arg, "--dump") == 0)
		cli->dump = true;
	else if (strcmp(arg, "--maps") == 0)
		cli->maps = true;
	else if (strcmp(arg, "--bench") == 0)
		cli->bench = true;
	else if (strcmp(arg, "--quiet") == 0)
		cli->quiet = true;
	else if (strcmp(arg, "--time") == 0)
		cli->time = true;
	else if (strcmp(arg, "--require-seal") == 0)
		cli->opt.require_seal = true;
	else if (strncmp(arg, "--seal=", 7) == 0) {
		if (!jit_parse_seal_policy(arg + 7, &cli->opt.seal))
			return usage_error("unknown seal policy '%s' (card, all, none, pkey, keyonly)",
					   arg + 7);
	} else
		return usage_error("unknown option '%s'", arg);
	return 0;
}

/* Options may stand anywhere; negative numbers have a single dash. */
static int parse_command_line(struct cli *cli, int argc, char **argv)
{
	const char *positional[3 + JIT_MAX_ARGS];
	int npositional = 0;
	cli->opt = jit_default_options();
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(usage_text, stdout);
			exit(0);
		}
		if (strncmp(argv[i], "--", 2) == 0) {
			int status = parse_option(cli, argv[i]);
			if (status)
				return status;
			continue;
		}
		if (npositional == (int)(sizeof positional / sizeof positional[0]))
			return usage_error("too many arguments (at most %s per function)", "5");
		positional[npositional++] = argv[i];
	}
	if (npositional == 0)
		return usage_error("missing command%s", "");
	cli->command = positional[0];
	if (strcmp(cli->command, "check") == 0) {
		if (npositional != 2)
			return usage_error("check takes one FILE%s", "");
		cli->file = positional[1];
		return 0;
	}
	if (strcmp(cli->command, "run") != 0)
		return usage_error("unknown command '%s'", cli->command);
	if (npositional < 3)
		return usage_error("run needs FILE and FUNC%s", "");
	cli->file = positional[1];
	cli->func = positional[2];
	for (int i = 3; i < npositional; i++) {
		enum intparse_error error = intparse_i64(positional[i], INT64_MIN,
							 INT64_MAX, &cli->args[cli->nargs++]);
		if (error != INTPARSE_OK) {
			char why[160];
			snprintf(why, sizeof why, "argument '%s' is not a 64-bit integer: %s",
				 positional[i], intparse_strerror(error));
			return usage_error("%s", why);
		}
	}
	return 0;
}

static void print_seal_report(const struct jit_module *m)
{
	struct jit_arena_info info;
	char requested[64], applied[64];
	jit_arena_info(m, &info);
	fprintf(stderr, "jitdemo: code arena %p, %zu bytes (%zu of code) r-x, "
		"requested %s: %s",
		info.base, info.length, info.code_bytes,
		jit_seal_types_text(info.types_requested, requested, sizeof requested),
		jit_seal_outcome_text(info.outcome));
	if (info.outcome == JIT_SEAL_OUTCOME_SEALED ||
	    info.outcome == JIT_SEAL_OUTCOME_UPSTREAM)
		fprintf(stderr, " (applied %s)",
			jit_seal_types_text(info.types_applied, applied, sizeof applied));
	if (info.outcome == JIT_SEAL_OUTCOME_FAILED)
		fprintf(stderr, " (%s)", strerror(info.seal_errno));
	fputc('\n', stderr);
}

/*
 * The arena's /proc/self/smaps entries (sealjit/smaps.h), cut to their
 * maps line and the lines that show seals: "Seals:" (our series) and
 * "VmFlags:" (where a sealed mapping carries "sl").
 */
static void print_maps(const struct jit_module *m)
{
	static char text[1 << 18];
	struct smaps_mapping map;
	struct jit_arena_info info;
	const char *at = text;

	jit_arena_info(m, &info);
	uintptr_t lo = (uintptr_t)info.base, hi = lo + info.length;
	if (!smaps_read("/proc/self/smaps", text, sizeof text)) {
		fprintf(stderr, "jitdemo: cannot read /proc/self/smaps: %s\n",
			strerror(errno));
		return;
	}
	printf("arena %#" PRIxPTR "-%#" PRIxPTR " in /proc/self/smaps:\n", lo, hi);
	while (smaps_next(&at, &map)) {
		if (map.start >= hi || map.end <= lo)
			continue;
		printf("  %.*s\n", (int)smaps_line_len(map.head), map.head);
		if (map.seals_line)
			printf("    %.*s\n", (int)smaps_line_len(map.seals_line), map.seals_line);
		if (map.vmflags_line)
			printf("    %.*s\n", (int)smaps_line_len(map.vmflags_line), map.vmflags_line);
	}
}

static void print_code_space(FILE *out)
{
	struct jit_code_space_info cs;
	jit_code_space_info(&cs);
	fprintf(out, "code space %p: %zu of %zu bytes used (%zu reservation(s)); modules: "
		"%zu live, %zu released, %zu pinned by their seal (%zu bytes pinned, "
		"%zu freed)\n", cs.base, cs.used, cs.reserved, cs.reservations,
		cs.modules_live, cs.modules_released, cs.modules_pinned, cs.bytes_pinned,
		cs.bytes_freed);
}

static void print_dump(const struct jit_module *m)
{
	for (int i = 0; i < jit_func_count(m); i++) {
		char *text = NULL;
		if (jit_dump_func(m, i, &text) == 0)
			fputs(text, stdout);
		free(text);
	}
}

static int report_outcome(int trap, int64_t result, const struct jit_diag *diag)
{
	if (trap < 0) {
		fprintf(stderr, "jitdemo: %s\n", diag->text);
		return EXIT_USAGE;
	}
	if (trap > 0) {
		fprintf(stderr, "jitdemo: trap: %s\n", jit_trap_text(trap));
		return EXIT_PROGRAM_ERROR;
	}
	printf("%" PRId64 "\n", result);
	return 0;
}

static double seconds_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Bytecode instructions per second of emit_module, over several loads. */
static double compile_rate(const struct cli *cli)
{
	struct jit_options none = { .seal = JIT_SEAL_NONE };
	uint64_t ns = 0, insns = 0;
	for (int i = 0; i < BENCH_COMPILE_ROUNDS; i++) {
		struct jit_diag diag;
		struct jit_module *m = jit_load_file(cli->file, &diag);
		if (!m || jit_compile(m, &none, &diag) != 0) {
			jit_release(m, NULL);
			return 0;
		}
		struct jit_arena_info info;
		jit_arena_info(m, &info);
		ns += info.emit_ns;
		insns += info.bytecode_insns;
		jit_release(m, NULL);
	}
	return ns ? (double)insns * 1e9 / (double)ns : 0;
}

/* Mean cost of mprotect+mseal, one arena each (sealed arenas stay mapped). */
static double seal_cost_us(const struct cli *cli, const struct jit_module *first)
{
	struct jit_arena_info info;
	jit_arena_info(first, &info);
	uint64_t ns = info.protect_ns + info.seal_ns;
	int rounds = 1;
	for (; rounds < BENCH_SEAL_ROUNDS; rounds++) {
		struct jit_diag diag;
		struct jit_module *m = jit_load_file(cli->file, &diag);
		if (!m || jit_compile(m, &cli->opt, &diag) != 0) {
			jit_release(m, NULL);
			break;
		}
		jit_arena_info(m, &info);
		ns += info.protect_ns + info.seal_ns;
		jit_release(m, NULL);
	}
	return (double)ns / rounds / 1e3;
}

static int run_bench(const struct cli *cli, struct jit_module *m)
{
	struct jit_diag diag;
	int64_t interp_result = 0, jit_result = 0;
	double t0 = seconds_now();
	int interp_trap = jit_interp_call(m, cli->func, cli->args, cli->nargs,
					  &interp_result, &diag);
	double t1 = seconds_now();
	int jit_trap = jit_call(m, cli->func, cli->args, cli->nargs, &jit_result, &diag);
	double t2 = seconds_now();
	if (interp_trap != jit_trap || interp_result != jit_result) {
		fprintf(stderr, "jitdemo: interpreter and JIT disagree\n");
		return EXIT_PROGRAM_ERROR;
	}
	const char *base = strrchr(cli->file, '/');
	char name[64];
	snprintf(name, sizeof name, "%s", base ? base + 1 : cli->file);
	char *dot = strrchr(name, '.');
	if (dot)
		*dot = '\0';
	double interp_ms = (t1 - t0) * 1e3, jit_ms = (t2 - t1) * 1e3;
	printf("%-12s %12.2f %10.2f %8.1fx %14.3g %14.1f\n", name, interp_ms, jit_ms,
	       jit_ms > 0 ? interp_ms / jit_ms : 0.0, compile_rate(cli),
	       seal_cost_us(cli, m));
	print_code_space(stdout);
	return 0;
}

/* One call by the chosen engine, timed when --time asks. */
static int timed_call(const struct cli *cli, struct jit_module *m, bool interp,
		      int64_t *result, struct jit_diag *diag)
{
	double start = seconds_now();
	int trap = interp ? jit_interp_call(m, cli->func, cli->args, cli->nargs, result, diag) :
		   jit_call(m, cli->func, cli->args, cli->nargs, result, diag);
	if (cli->time)
		fprintf(stderr, "jitdemo: %s call took %.3f ms\n", interp ? "interpreter" : "JIT",
			(seconds_now() - start) * 1e3);
	return trap;
}

static int run_jit(const struct cli *cli, struct jit_module *m)
{
	struct jit_diag diag;
	if (jit_compile(m, &cli->opt, &diag) != 0) {
		fprintf(stderr, "jitdemo: %s\n", diag.text);
		return EXIT_PROGRAM_ERROR;
	}
	if (!cli->quiet)
		print_seal_report(m);
	if (cli->maps) {
		print_maps(m);
		print_code_space(stdout);
	}
	if (cli->dump)
		print_dump(m);
	if (cli->bench)
		return run_bench(cli, m);
	int64_t result = 0;
	int trap = timed_call(cli, m, false, &result, &diag);
	return report_outcome(trap, result, &diag);
}

static int run(const struct cli *cli)
{
	struct jit_diag diag;
	struct jit_module *m = jit_load_file(cli->file, &diag);
	if (!m) {
		fprintf(stderr, "%s\n", diag.text);
		return EXIT_PROGRAM_ERROR;
	}
	int index = jit_func_index(m, cli->func);
	int status;
	if (index < 0) {
		fprintf(stderr, "jitdemo: %s has no function '%s'\n", cli->file, cli->func);
		status = EXIT_USAGE;
	} else if (jit_func_arity(m, index) != cli->nargs) {
		fprintf(stderr, "jitdemo: %s takes %d argument(s), %d given\n",
			cli->func, jit_func_arity(m, index), cli->nargs);
		status = EXIT_USAGE;
	} else if (cli->interp && !cli->bench) {
		int64_t result = 0;
		int trap = timed_call(cli, m, true, &result, &diag);
		status = report_outcome(trap, result, &diag);
	} else {
		status = run_jit(cli, m);
	}
	struct jit_release_report released;
	jit_release(m, &released);
	if (!released.arena_unmapped && !cli->quiet && !cli->bench)
		fprintf(stderr, "jitdemo: arena left mapped: munmap refused (%s), as sealed\n",
			strerror(released.unmap_errno));
	return status;
}

static int check(const struct cli *cli)
{
	struct jit_diag diag;
	struct jit_module *m = jit_load_file(cli->file, &diag);
	if (!m) {
		fprintf(stderr, "%s\n", diag.text);
		return EXIT_PROGRAM_ERROR;
	}
	printf("%s: ok, %d function(s)\n", cli->file, jit_func_count(m));
	jit_release(m, NULL);
	return 0;
}

int main(int argc, char **argv)
{
	struct cli cli = { 0 };
	int status = parse_command_line(&cli, argc, argv);
	if (status)
		return status;
	if (strcmp(cli.command, "check") == 0)
		return check(&cli);
	return run(&cli);
}
