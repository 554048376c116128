/*
 * main.c - attacks: run the attack matrix, print TAP 13 (or a narration).
 *
 *   attacks --kernel NAME [--expect FILE] [--policy P]... [--scenario S]...
 *           [--narrate] [--list]
 * --list: NAME<TAB>NARRATION<TAB>DESCRIPTION, one scenario a line.
 *
 * NAME is a kernel of kernel/kernels.tsv: its rows in the table are those
 * of the name the registry says it is judged as (mseal-debug: mseal's).
 * Default matrix: every scenario x {none,card,all} x {root,nocaps} x
 * {self,child}, and the scenarios that write into key-protected code
 * (struct scenario's key_policies) under {pkey,keyonly} too.  A case that
 * cannot run on this machine for a reason that is no seal's (no memory
 * protection keys; Yama forbids the tracer) is not run and not counted:
 * a "# not run: ..." line says which and why.  Each case is followed by exactly one line
 *   # result kernel=K scenario=S policy=P priv=R from=F outcome=O errno=E expected=O2/E2 seals=X
 * and then by what the attacking process saw of the arena before and after
 * the call (struct arena_view), one TAP comment per line:
 *   # maps before: LINE       # smaps before: Seals:/VmFlags: LINE
 *   # maps after: LINE        # smaps after: ...
 * Exit status 0 iff every case met its expectation, 1 if not, 2 on misuse.
 */
#define _GNU_SOURCE
#include "attacks.h"

#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sealjit/kernel.h>
#include <sealjit/tap.h>

#define MAX_SCENARIOS 64
#define MAX_POLICIES 5
#define NARRATE_WIDTH 56

struct options {
	const char *kernel;
	const char *judged_as;	/* the kernel's name in the table */
	const char *expect_path;
	const struct scenario *scenarios[MAX_SCENARIOS];
	size_t scenario_count;
	enum jit_seal_policy policies[MAX_POLICIES];
	size_t policy_count;
	bool narrate;
	bool list;
};

struct tally {
	size_t cases, mismatches;
	size_t by_outcome[OUTCOME_ERROR + 1];
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: attacks --kernel NAME [--expect FILE]  (NAME: kernel/kernels.tsv's)\n"
		"               [--policy none|card|all|pkey|keyonly]... [--scenario NAME]...\n"
		"               [--narrate] [--list]\n");
}

static bool add_policy(struct options *o, const char *text)
{
	enum jit_seal_policy p;
	if (!jit_parse_seal_policy(text, &p) || o->policy_count == MAX_POLICIES) {
		fprintf(stderr, "attacks: bad --policy %s\n", text);
		return false;
	}
	o->policies[o->policy_count++] = p;
	return true;
}

static bool add_scenario(struct options *o, const char *name)
{
	const struct scenario *s = scenario_find(name);
	if (!s || o->scenario_count == MAX_SCENARIOS) {
		fprintf(stderr, "attacks: unknown --scenario %s (see --list)\n", name);
		return false;
	}
	o->scenarios[o->scenario_count++] = s;
	return true;
}

static void fill_defaults(struct options *o)
{
	if (o->scenario_count == 0)
		for (size_t i = 0; i < scenario_count() && i < MAX_SCENARIOS; i++)
			o->scenarios[o->scenario_count++] = scenario_at(i);
	if (o->policy_count == 0) {
		static const enum jit_seal_policy every[] = {
			JIT_SEAL_NONE, JIT_SEAL_CARD, JIT_SEAL_ALL,
			JIT_SEAL_PKEY, JIT_SEAL_KEYONLY };
		size_t count = o->narrate ? 1 : MAX_POLICIES;
		for (size_t i = 0; i < count; i++)
			o->policies[o->policy_count++] =
				o->narrate ? JIT_SEAL_CARD : every[i];
	}
}

static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longs[] = {
		{ "kernel", required_argument, NULL, 'k' },
		{ "expect", required_argument, NULL, 'e' },
		{ "policy", required_argument, NULL, 'p' },
		{ "scenario", required_argument, NULL, 's' },
		{ "narrate", no_argument, NULL, 'n' },
		{ "list", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	memset(o, 0, sizeof *o);
	for (int c; (c = getopt_long(argc, argv, "", longs, NULL)) != -1;) {
		bool ok = true;
		switch (c) {
		case 'k': o->kernel = optarg; break;
		case 'e': o->expect_path = optarg; break;
		case 'p': ok = add_policy(o, optarg); break;
		case 's': ok = add_scenario(o, optarg); break;
		case 'n': o->narrate = true; break;
		case 'l': o->list = true; break;
		case 'h': usage(stdout); exit(0);
		default: ok = false;
		}
		if (!ok)
			return -1;
	}
	if (optind != argc || (!o->list && !o->kernel)) {
		usage(stderr);
		return -1;
	}
	if (o->kernel) {
		const struct sealjit_kernel *k = sealjit_kernel_find(o->kernel);
		if (!k) {
			fprintf(stderr, "attacks: --kernel %s is no kernel of kernel/kernels.tsv\n",
				o->kernel);
			return -1;
		}
		o->judged_as = k->as;
	}
	fill_defaults(o);
	return 0;
}

/* --expect, else expected.tsv beside the executable, else in the cwd. */
static bool load_expectations(const struct options *o, struct expectations *e)
{
	char path[PATH_MAX] = "expected.tsv";
	if (o->expect_path) {
		snprintf(path, sizeof path, "%s", o->expect_path);
	} else {
		char exe[PATH_MAX];
		ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
		if (n > 0) {
			exe[n] = '\0';
			snprintf(path, sizeof path, "%s/expected.tsv", dirname(exe));
			if (access(path, R_OK) != 0)
				snprintf(path, sizeof path, "expected.tsv");
		}
	}
	char why[300];
	if (!expectations_load(path, e, why, sizeof why)) {
		fprintf(stderr, "attacks: %s\n", why);
		return false;
	}
	return true;
}

static void outcome_text(enum outcome outcome, int err, char *out, size_t len)
{
	if (outcome == OUTCOME_BLOCKED)
		snprintf(out, len, "BLOCKED %s", errno_name(err));
	else
		snprintf(out, len, "%s", outcome_name(outcome));
}

/* "# maps before: LINE" for each line of text, without its trailing
 * blanks; a tab would split the report's fields, so it prints as a space. */
static void print_view_lines(const char *what, const char *when,
			     const char *text)
{
	while (*text) {
		size_t line_len = strcspn(text, "\n");
		size_t n = line_len;
		while (n > 0 && (text[n - 1] == ' ' || text[n - 1] == '\t'))
			n--;
		printf("# %s %s: ", what, when);
		for (size_t i = 0; i < n; i++)
			putchar(text[i] == '\t' ? ' ' : text[i]);
		putchar('\n');
		text += line_len + (text[line_len] == '\n');
	}
}

static void print_view(const char *when, const struct arena_view *view)
{
	print_view_lines("maps", when, view->maps);
	print_view_lines("smaps", when, view->smaps);
}

static void print_tap_case(struct tap *tap, const char *kernel,
			   const struct case_spec *spec,
			   const struct case_report *got,
			   const struct expectation *want, bool met)
{
	const char *policy = jit_seal_policy_name(spec->policy);
	char got_text[64], want_text[64] = "no expectation", miss[80] = "";
	outcome_text(got->outcome, got->call_errno, got_text, sizeof got_text);
	if (want)
		outcome_text(want->outcome, want->err, want_text, sizeof want_text);
	if (!met)
		snprintf(miss, sizeof miss, " (%s%s)", want ? "expected " : "", want_text);
	tap_ok(tap, met, "%s policy=%s priv=%s from=%s: %s%s", spec->scenario->name, policy,
	       privilege_name(spec->priv), origin_name(spec->from), got_text, miss);
	printf("# result kernel=%s scenario=%s policy=%s priv=%s from=%s "
	       "outcome=%s errno=%s expected=%s/%s seals=%s\n",
	       kernel, spec->scenario->name, policy, privilege_name(spec->priv),
	       origin_name(spec->from), outcome_name(got->outcome),
	       errno_name(got->call_errno),
	       want ? outcome_name(want->outcome) : "-",
	       want ? errno_name(want->err) : "-",
	       got->smaps_seals[0] ? got->smaps_seals : "-");
	print_view("before", &got->before);
	print_view("after", &got->after);
	fflush(stdout);
	/* A TAP comment too, since the guest merges stderr into stdout. */
	if (!met)
		fprintf(stderr, "# detail: %s policy=%s priv=%s from=%s: %s\n",
			spec->scenario->name, policy, privilege_name(spec->priv),
			origin_name(spec->from), got->detail);
}

static void count(struct tally *t, const struct case_report *got, bool met)
{
	t->cases++;
	t->by_outcome[got->outcome]++;
	t->mismatches += !met;
}

/* The origins a scenario runs from: self, and a forked child unless
 * its attack needs the state of the process that sealed. */
static int origins(const struct scenario *s)
{
	return s->self_only ? 1 : 2;
}

/* Does the scenario run under the policy at all?  The key space's
 * policies only for the scenarios that write key-protected code; the key
 * openers under those only. */
static bool case_applies(const struct scenario *s, enum jit_seal_policy policy)
{
	if (policy_in_key_space(policy))
		return s->key_policies || s->key_space_only;
	return !s->key_space_only;
}

/* Why this machine cannot run the case (NULL: it can). */
static const char *case_unavailable(const struct case_spec *spec)
{
	const char *why = NULL;
	if (policy_in_key_space(spec->policy))
		why = key_policies_unavailable();
	if (!why && spec->scenario->unavailable)
		why = spec->scenario->unavailable(spec->priv);
	return why;
}

#define MAX_CASES (MAX_SCENARIOS * MAX_POLICIES * 2 * 2)

/* The selection's cases, in the order they run: scenario, policy,
 * privilege, origin. */
static size_t collect_cases(const struct options *o, struct case_spec *out)
{
	size_t n = 0;
	for (size_t s = 0; s < o->scenario_count; s++)
	for (size_t p = 0; p < o->policy_count; p++)
	for (int priv = PRIV_ROOT; priv <= PRIV_NOCAPS; priv++)
	for (int from = FROM_SELF; from < FROM_SELF + origins(o->scenarios[s]); from++)
		if (case_applies(o->scenarios[s], o->policies[p]))
			out[n++] = (struct case_spec){ o->scenarios[s], o->policies[p],
						       (enum privilege)priv,
						       (enum origin)from };
	return n;
}

static int run_tap(const struct options *o, const struct expectations *e)
{
	static struct case_spec cases[MAX_CASES];
	size_t n_cases = collect_cases(o, cases), total = 0, not_run = 0;
	const char *first_why = NULL;
	if (n_cases == 0) {
		fprintf(stderr, "attacks: no selected scenario runs under the selected "
			"policies (pkey and keyonly: the key-writing ones, see README)\n");
		return 2;
	}
	for (size_t i = 0; i < n_cases; i++) {
		const char *why = case_unavailable(&cases[i]);
		total += !why;
		if (why && !first_why)
			first_why = why;
	}
	if (total == 0) {
		tap_skip_all(first_why);
		return 0;
	}
	struct tally tally = { 0 };
	struct tap tap;
	tap_start(&tap);
	tap_plan(&tap, (unsigned int)total);
	for (size_t i = 0; i < n_cases; i++) {
		const struct case_spec spec = cases[i];
		const char *why = case_unavailable(&spec);
		if (why) {
			printf("# not run: scenario=%s policy=%s priv=%s from=%s: %s\n",
			       spec.scenario->name, jit_seal_policy_name(spec.policy),
			       privilege_name(spec.priv), origin_name(spec.from), why);
			not_run++;
			continue;
		}
		struct case_report got;
		case_run(&spec, &got);
		const struct expectation *want = expectations_match(e,
			spec.scenario->name, jit_seal_policy_name(spec.policy),
			o->judged_as, spec.from);
		bool met = expectation_met(want, &got);
		count(&tally, &got, met);
		print_tap_case(&tap, o->kernel, &spec, &got, want, met);
	}
	printf("# kernel=%s: %zu cases, %zu BLOCKED, %zu LANDED, %zu ERROR; "
	       "%zu not as expected; %zu not run here\n", o->kernel, tally.cases,
	       tally.by_outcome[OUTCOME_BLOCKED], tally.by_outcome[OUTCOME_LANDED],
	       tally.by_outcome[OUTCOME_ERROR], tally.mismatches, not_run);
	return tally.mismatches ? 1 : 0;
}

static void narrate_line(const struct scenario *s, const struct case_report *got)
{
	int used = printf("  %s ", s->narration);
	for (int i = used; i < NARRATE_WIDTH; i++)
		putchar('.');
	if (got->outcome == OUTCOME_BLOCKED && got->below_now[0])
		printf(" BLOCKED (%s), but the unsealed page below is now %s"
		       " (partial apply)\n", errno_name(got->call_errno),
		       got->below_now);
	else if (got->outcome == OUTCOME_BLOCKED)
		printf(" BLOCKED (%s)\n", errno_name(got->call_errno));
	else
		printf(" %s: %s\n", outcome_name(got->outcome), got->detail);
}

static void narrate_verdict(const struct expectation *want, bool met)
{
	char want_text[64];
	if (!want) {
		printf("      !! no expectation for this case\n");
		return;
	}
	outcome_text(want->outcome, want->err, want_text, sizeof want_text);
	if (!met)
		printf("      !! NOT AS EXPECTED: the table says %s\n", want_text);
	else if (want->outcome == OUTCOME_LANDED && want->reason[0])
		printf("      expected LANDED: %s\n", want->reason);
}

static int run_narration(const struct options *o, const struct expectations *e)
{
	size_t mismatches = 0;
	for (size_t p = 0; p < o->policy_count; p++) {
		const char *policy = jit_seal_policy_name(o->policies[p]);
		bool headed = false;
		for (size_t s = 0; s < o->scenario_count; s++) {
			struct case_spec spec = { o->scenarios[s], o->policies[p],
						  PRIV_ROOT, FROM_SELF };
			if (!case_applies(spec.scenario, spec.policy))
				continue;
			const char *why = case_unavailable(&spec);
			if (why) {
				printf("  %s: not run here: %s\n", spec.scenario->name, why);
				continue;
			}
			struct case_report got;
			case_run(&spec, &got);
			if (!headed)
				printf("kernel %s, --seal=%s, arena: %s\n",
				       o->kernel, policy, got.seal);
			headed = true;
			const struct expectation *want = expectations_match(e,
				spec.scenario->name, policy, o->judged_as, spec.from);
			bool met = expectation_met(want, &got);
			mismatches += !met;
			narrate_line(spec.scenario, &got);
			narrate_verdict(want, met);
			fflush(stdout);
		}
	}
	return mismatches ? 1 : 0;
}

/* NAME<TAB>NARRATION<TAB>DESCRIPTION, a scenario a line: for people, and
 * for report/ (each row's words). */
static void list_scenarios(void)
{
	for (size_t i = 0; i < scenario_count(); i++)
		printf("%s\t%s\t%s\n", scenario_at(i)->name,
		       scenario_at(i)->narration, scenario_at(i)->description);
}

int main(int argc, char **argv)
{
	struct options o;
	if (parse_options(argc, argv, &o) != 0)
		return 2;
	if (o.list) {
		list_scenarios();
		return 0;
	}
	struct expectations e;
	if (!load_expectations(&o, &e))
		return 2;
	int status = o.narrate ? run_narration(&o, &e) : run_tap(&o, &e);
	expectations_free(&e);
	return status;
}
