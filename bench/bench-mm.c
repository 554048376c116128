// SPDX-License-Identifier: GPL-2.0
/*
 * bench-mm - what memory-management calls cost, with and without seals.
 *
 *   bench-mm --list        the case names, one per line, with what one
 *                          iteration does
 *   bench-mm [CASE...]     run the cases (all of them without arguments)
 *
 * Each case runs in a fresh child of this process, which seals nothing,
 * and prints one line (tab-separated):
 *   CASE  NS  ns/iter  NOTE     the median round, nanoseconds per
 *                               iteration (guest instructions under
 *                               guest/run --icount); NOTE is
 *                               "maps=N rounds=MIN..MAX [EXTRA]": the
 *                               process's VMAs after setup, the fastest
 *                               and slowest round, and what the case adds
 *   CASE  n/a  -  WHY           not applicable on this kernel (no mseal(),
 *                               or a refused case that was not refused)
 *   CASE  error  -  WHY         the case broke; the exit status is then 1
 * An unknown case name exits 2 before anything runs.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

static void usage(FILE *to)
{
	fprintf(to, "usage: bench-mm --list | bench-mm [CASE...]\n");
}

static int list(void)
{
	const struct mm_op *op;
	enum placement placement;
	char name[96];

	for (unsigned i = 0; i < bench_case_count(); i++) {
		bench_case_get(i, &op, &placement);
		printf("%s\t%s\n", bench_case_name(i, name, sizeof(name)), op->unit);
	}
	return 0;
}

/* In the child: set up, time, print the line; the exit status says how. */
static int run_case(unsigned index)
{
	struct op_state st = { .page = (size_t)sysconf(_SC_PAGESIZE) };
	const struct mm_op *op;
	char name[96];
	double ns;

	bench_case_get(index, &op, &st.placement);
	bench_case_name(index, name, sizeof(name));
	if (op->setup(&st) ||
	    bench_vmas_in(NULL, (void *)UINTPTR_MAX, &st.maps) ||
	    bench_time(op, &st, &ns) ||
	    (op->finish && op->finish(&st))) {
		dprintf(STDOUT_FILENO, "%s\t%s\t-\t%s\n", name,
			st.outcome == NOT_APPLICABLE ? "n/a" : "error", st.why);
		return st.outcome == NOT_APPLICABLE ? 0 : 1;
	}
	dprintf(STDOUT_FILENO, "%s\t%.1f\tns/iter\tmaps=%lu rounds=%.1f..%.1f%s%s\n",
		name, ns, st.maps, st.round_min, st.round_max,
		st.note[0] ? " " : "", st.note);
	return 0;
}

static int run_in_child(unsigned index)
{
	char name[96];
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(run_case(index));
	bench_case_name(index, name, sizeof(name));
	if (pid < 0 || waitpid(pid, &status, 0) != pid) {
		printf("%s\terror\t-\tcould not fork or wait for the case\n", name);
		return 1;
	}
	if (WIFSIGNALED(status)) {
		printf("%s\terror\t-\tkilled by signal %d\n", name, WTERMSIG(status));
		return 1;
	}
	return WEXITSTATUS(status) != 0;
}

int main(int argc, char **argv)
{
	unsigned count = bench_case_count(), index, failed = 0;

	if (argc == 2 && strcmp(argv[1], "--list") == 0)
		return list();
	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage(stdout);
		return 0;
	}
	for (int i = 1; i < argc; i++)
		if (bench_case_find(argv[i], &index)) {
			fprintf(stderr, "bench-mm: unknown case '%s'"
				" (bench-mm --list names them)\n", argv[i]);
			usage(stderr);
			return 2;
		}
	if (argc == 1)
		for (unsigned i = 0; i < count; i++)
			failed += run_in_child(i);
	for (int i = 1; i < argc; i++) {
		bench_case_find(argv[i], &index);
		failed += run_in_child(index);
	}
	fflush(stdout);
	return failed ? 1 : 0;
}
