// SPDX-License-Identifier: GPL-2.0
/*
 * mmstress - a model-checked random tester of Linux memory management
 * calls with mseal(), for the sealjit guest kernels.
 *
 *   mmstress [--seed S] [--calls N] [--check-every K] [--full-every F]
 *            [--maps-every M] [--model MODEL] [--no-seal]
 *            [--fork-rate PER_MILLE] [--no-ddmin] [--verbose]
 *   mmstress --threads N [--seed S] [--calls N] [--model MODEL]
 *   mmstress --bad-input [--map-count] [--model MODEL]
 *
 * MODEL is the semantics the kernel under test has (kernel/kernels.tsv's
 * model column): series (the 6.1 series', the default) or upstream (6.12's
 * 3-argument mseal, EPERM); a kernel without mseal() runs --no-seal.
 * --no-seal draws the same calls but issues no mseal, so a seed's digest
 * can be compared between kernels.  --map-count lowers
 * /proc/sys/vm/max_map_count for one case and restores it (guest only).
 * Every call's errno and the contents of the pages it named are checked
 * (every K-th call with --check-every); /proc/self/maps after each call the
 * model says changes the layout and every M-th call (--maps-every, 8);
 * /proc/self/smaps and every page after a successful mseal, pkey_mprotect
 * or VmFlags-setting madvise, and every F-th call (--full-every, 32).
 * Output is TAP; exit 0 when every invariant held.
 */
#include <stdio.h>
#include <string.h>

#include "mmstress.h"
#include "sealjit/intparse.h"

extern unsigned gen_fork_per_mille;

static int usage(void)
{
	fprintf(stderr,
		"usage: mmstress [--seed S] [--calls N] [--check-every K] [--full-every F] [--maps-every M]\n"
		"                [--model series|upstream]\n"
		"                [--no-seal] [--fork-rate PER_MILLE] [--no-ddmin] [--verbose]\n"
		"       mmstress --threads N [--seed S] [--calls N] [--model MODEL]\n"
		"       mmstress --bad-input [--map-count] [--model MODEL]\n");
	return 2;
}

static int number(const char *opt, const char *text, uint64_t min, uint64_t max, uint64_t *out)
{
	enum intparse_error e;

	if (!text) {
		fprintf(stderr, "mmstress: %s needs a value\n", opt);
		return -1;
	}
	e = intparse_u64(text, min, max, out);
	if (e != INTPARSE_OK) {
		fprintf(stderr, "mmstress: %s %s: %s (%llu..%llu)\n", opt, text,
			intparse_strerror(e), (unsigned long long)min, (unsigned long long)max);
		return -1;
	}
	return 0;
}

static int parse(int argc, char **argv, struct options *o, bool *no_seal)
{
	uint64_t v;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--seed")) {
			if (number(a, next, 0, UINT64_MAX, &o->seed)) return -1;
			i++;
		} else if (!strcmp(a, "--calls")) {
			if (number(a, next, 1, MAX_CALLS, &o->calls)) return -1;
			i++;
		} else if (!strcmp(a, "--check-every")) {
			if (number(a, next, 1, 1000000, &o->check_every)) return -1;
			i++;
		} else if (!strcmp(a, "--full-every")) {
			if (number(a, next, 1, 1000000, &o->full_every)) return -1;
			i++;
		} else if (!strcmp(a, "--maps-every")) {
			if (number(a, next, 1, 1000000, &o->maps_every)) return -1;
			i++;
		} else if (!strcmp(a, "--threads")) {
			if (number(a, next, 1, 16, &v)) return -1;
			o->threads = (unsigned)v;
			i++;
		} else if (!strcmp(a, "--fork-rate")) {
			if (number(a, next, 0, 1000, &v)) return -1;
			gen_fork_per_mille = (unsigned)v;
			i++;
		} else if (!strcmp(a, "--model") && next) {
			o->model = next;
			i++;
		} else if (!strcmp(a, "--replay") && next) {
			o->replay = next;
			i++;
		} else if (!strcmp(a, "--no-seal")) {
			*no_seal = true;
		} else if (!strcmp(a, "--no-ddmin")) {
			o->no_ddmin = true;
		} else if (!strcmp(a, "--verbose")) {
			o->verbose = true;
		} else if (!strcmp(a, "--bad-input")) {
			o->bad_input = true;
		} else if (!strcmp(a, "--map-count")) {
			o->map_count = true;
		} else {
			fprintf(stderr, "mmstress: unknown or incomplete argument '%s'\n", a);
			return -1;
		}
	}
	return 0;
}

/* A random run; when a check fails, ddmin shrinks its call log. */
static int random_run_shrunk(const struct options *o)
{
	struct run_failure failed;
	int status = run_random(o, &failed);

	if (status == 1 && !o->no_ddmin)
		ddmin_report(o, failed.log, failed.index, failed.family);
	return status;
}

int main(int argc, char **argv)
{
	static char outbuf[1 << 16];
	struct options o = { .seed = 1, .calls = 10000, .check_every = 1, .full_every = 32, .maps_every = 8, .model = "series" };
	bool no_seal = false;

	setvbuf(stdout, outbuf, _IOLBF, sizeof(outbuf));
	if (parse(argc, argv, &o, &no_seal))
		return usage();
	if (strcmp(o.model, "series") && strcmp(o.model, "upstream")) {
		fprintf(stderr, "mmstress: unknown model '%s'\n", o.model);
		return usage();
	}
	o.seal = no_seal ? SEAL_NONE : !strcmp(o.model, "upstream") ? SEAL_UPSTREAM : SEAL_FULL;
	if (o.replay)
		return replay_main(&o);
	if (o.bad_input)
		return run_bad_input(&o);
	if (o.threads)
		return run_race(&o);
	return random_run_shrunk(&o);
}
