/*
 * test_expect.c - host-side TAP tests of attacks/expected.tsv handling:
 * the parser's refusals, first-match-wins, the judgement of a verdict, and
 * that the real table covers every case and says what issues 4, 10 and
 * 31 require.
 *
 *   test_expect PATH/TO/expected.tsv
 */
#define _GNU_SOURCE
#include "attacks.h"

#include <errno.h>
#include <string.h>

#include <sealjit/tap.h>

static void check(struct tap *tap, bool ok, const char *what)
{
	tap_ok(tap, ok, "%s", what);
}

static bool parse_text(const char *text, struct expectations *e, char *why,
		       size_t why_len)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	if (!in)
		return false;
	bool ok = expectations_parse(in, "text", e, why, why_len);
	fclose(in);
	return ok;
}

/* The text must be refused, naming its line and the given complaint. */
static void refuses(struct tap *tap, const char *text, const char *complaint,
		    const char *what)
{
	struct expectations e;
	char why[300] = "";
	bool parsed = parse_text(text, &e, why, sizeof why);
	if (parsed)
		expectations_free(&e);
	bool ok = !parsed && strstr(why, complaint) && strstr(why, "text:2:");
	if (!ok)
		tap_note("got: %s", parsed ? "(parsed)" : why);
	check(tap, ok, what);
}

static void test_refusals(struct tap *tap)
{
	static const char head[] = "# comment\n";
	char text[512];
#define REFUSE(row, complaint, what) \
	(snprintf(text, sizeof text, "%s%s\n", head, row), \
	 refuses(tap, text, complaint, what))
	REFUSE("mprotect-rw\tcard\tmseal\tBLOCKED", "5 or 6",
	       "a row with too few fields is refused");
	REFUSE("mprotect-rw\tcard\tmseal\tSTOPPED\tEACCES\tx", "outcome",
	       "an unknown outcome is refused");
	REFUSE("mprotect-rw\tcard\tmseal\tBLOCKED\tEWHAT\tx", "errno",
	       "an unknown errno name is refused");
	REFUSE("mprotect-rw\tcard\tmseal\tBLOCKED\t-\tx", "needs an errno",
	       "a BLOCKED row without an errno is refused");
	REFUSE("lazyfree-*\tcard\tmseal\tBLOCKED\t-\tx", "needs an errno",
	       "BLOCKED without an errno needs a harmless call's scenario, named exactly");
	REFUSE("mprotect-rw\tcard\tmseal\tERROR\t-\tx", "never an expectation",
	       "an ERROR row is refused");
	REFUSE("no-such-attack\tcard\tmseal\tLANDED\t-\tx", "no scenario",
	       "an unknown scenario is refused");
	REFUSE("mprotect-rw\tsome\tmseal\tLANDED\t-\tx", "policy",
	       "an unknown policy is refused");
	REFUSE("mprotect-rw\tcard\tlinux\tLANDED\t-\tx", "kernel",
	       "an unknown kernel is refused");
	REFUSE("mprotect-rw@parent\tcard\tmseal\tBLOCKED\tEACCES\tx", "origin",
	       "an origin other than self or child is refused");
	REFUSE("madvise-dontneed\tall\tmseal\tLANDED\t-", "needs a reason",
	       "LANDED under all on mseal without a reason is refused");
	REFUSE("madvise-dontneed\t*\t*\tLANDED\t-\t", "needs a reason",
	       "a wildcard LANDED row that can hit a sealing column needs a reason");
#undef REFUSE
}

/* A harmless call's scenario, named exactly, may be BLOCKED without an errno. */
static void test_harmless_blocked(struct tap *tap)
{
	struct expectations e;
	char why[300] = "";
	bool parsed = parse_text("lazyfree-pageout\tcard\tmseal\tBLOCKED\t-\tkept\n",
				 &e, why, sizeof why);
	if (parsed)
		expectations_free(&e);
	else
		tap_note("got: %s", why);
	check(tap, parsed, "a harmless call's scenario may be BLOCKED without an errno");
}

static void test_matching(struct tap *tap)
{
	static const char text[] =
		"# specific rows first\n"
		"\n"
		"madvise-dontneed\tcard\tmseal\tLANDED\t-\tmadvise is not sealed\n"
		"mprotect-*\t*\tmseal\tBLOCKED\tEACCES\n"
		"*\tnone\t*\tLANDED\t-\tcontrol\n"
		"*\t*\tmseal\tBLOCKED\tEPERM\tcatch-all\n";
	struct expectations e;
	char why[300] = "";
	bool parsed = parse_text(text, &e, why, sizeof why);
	check(tap, parsed && e.count == 4, "comments and blank lines are skipped");
	if (!parsed)
		return;
	const struct expectation *m;
	m = expectations_match(&e, "madvise-dontneed", "card", "mseal", FROM_SELF);
	check(tap, m && m->line == 3 && m->outcome == OUTCOME_LANDED &&
		   strcmp(m->reason, "madvise is not sealed") == 0,
	      "the specific row matches, with its line and reason");
	m = expectations_match(&e, "madvise-dontneed", "none", "mseal", FROM_SELF);
	check(tap, m && m->line == 5, "the first matching row wins");
	m = expectations_match(&e, "mprotect-none", "all", "mseal", FROM_SELF);
	check(tap, m && m->err == EACCES, "a pattern like mprotect-* matches");
	m = expectations_match(&e, "madvise-dontneed", "all", "mseal", FROM_SELF);
	check(tap, m && m->line == 6 && m->err == EPERM, "the catch-all row matches last");
	m = expectations_match(&e, "madvise-dontneed", "all", "vanilla", FROM_SELF);
	check(tap, m == NULL, "no matching row gives no expectation");
	expectations_free(&e);
}

static void test_origin(struct tap *tap)
{
	static const char text[] =
		"merge-steal@child\tcard\tv1\tBLOCKED\tEACCES\tno merge in a child\n"
		"merge-steal\tcard\tv1\tLANDED\t-\tmerge drops seals\n";
	struct expectations e;
	char why[300] = "";
	if (!parse_text(text, &e, why, sizeof why)) {
		tap_note("%s", why);
		check(tap, false, "an @child row parses");
		return;
	}
	const struct expectation *child =
		expectations_match(&e, "merge-steal", "card", "v1", FROM_CHILD);
	const struct expectation *self =
		expectations_match(&e, "merge-steal", "card", "v1", FROM_SELF);
	check(tap, child && child->line == 1 && strcmp(child->scenario, "merge-steal") == 0 &&
		   self && self->line == 2,
	      "an @child row holds from a child only; the self case falls through");
	expectations_free(&e);
}

static void test_judgement(struct tap *tap)
{
	struct expectation blocked = { .outcome = OUTCOME_BLOCKED, .err = EACCES };
	struct expectation landed = { .outcome = OUTCOME_LANDED, .err = 0 };
	struct case_report got = { .outcome = OUTCOME_BLOCKED, .call_errno = EACCES };
	check(tap, expectation_met(&blocked, &got), "BLOCKED EACCES meets BLOCKED EACCES");
	got.call_errno = EPERM;
	check(tap, !expectation_met(&blocked, &got), "BLOCKED EPERM does not meet BLOCKED EACCES");
	check(tap, !expectation_met(&landed, &got), "BLOCKED does not meet LANDED");
	got.outcome = OUTCOME_LANDED;
	check(tap, expectation_met(&landed, &got), "LANDED meets LANDED, whatever the errno");
	got.outcome = OUTCOME_ERROR;
	check(tap, !expectation_met(&landed, &got) && !expectation_met(&blocked, &got),
	      "ERROR meets nothing");
	check(tap, !expectation_met(NULL, &got), "no expectation is a failure");
	check(tap, errno_parse(errno_name(EACCES)) == EACCES && errno_parse("-") == 0 &&
		   strcmp(errno_name(EPERM), "EPERM") == 0,
	      "errno names round-trip");
}

static bool is_card_sealed_scenario(const char *name)
{
	static const char *const prefixes[] = { "mprotect-", "pkey-mprotect-",
						"mremap-", "mmap-" };
	for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
		if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0)
			return true;
	return false;
}

/* Every case of the real table has a row; the required cells hold.  A
 * write that goes only where the mapping is writable (process_vm_writev(),
 * the signal frame, UFFDIO_MOVE) meets r-x code that nobody may write
 * under none, card and all: BLOCKED there on every kernel, W^X's refusal
 * rather than a seal's; its control is keyonly (test_key_rows). */
static void test_real_table(struct tap *tap, const struct expectations *e)
{
	static const char *const policies[] = { "none", "card", "all" };
	static const char *const kernels[] = { "vanilla", "v1", "mseal", "upstream" };
	enum { VANILLA, V1, MSEAL, UPSTREAM };
	size_t missing = 0, card_not_blocked = 0, vanilla_not_landed = 0,
	       none_not_landed = 0, hardened_not_blocked = 0, unforced_not_wx = 0;
	for (size_t s = 0; s < scenario_count(); s++) {
		const char *name = scenario_at(s)->name;
		bool unforced = scenario_at(s)->needs_writable;
		if (scenario_at(s)->key_space_only)
			continue;	/* test_opener_rows */
		for (size_t p = 0; p < 3; p++)
		for (size_t k = 0; k < 4; k++)
		for (int from = FROM_SELF; from <= FROM_CHILD; from++) {
			const struct expectation *m =
				expectations_match(e, name, policies[p], kernels[k],
						   (enum origin)from);
			if (!m) {
				tap_note("no expectation: %s %s %s", name,
				       policies[p], kernels[k]);
				missing++;
				continue;
			}
			if (unforced) {
				unforced_not_wx += m->outcome != OUTCOME_BLOCKED ||
						   m->err == 0;
				continue;
			}
			none_not_landed += p == 0 && m->outcome != OUTCOME_LANDED;
			/* memory sealed by upstream's call refuses with EPERM
			 * on mseal too (patch 46) */
			int hardened_err = scenario_at(s)->sealed_by_upstream_call ?
					   EPERM : EACCES;
			bool blocked_eacces = m->outcome == OUTCOME_BLOCKED &&
					      m->err == EACCES;
			bool blocked_hardened = m->outcome == OUTCOME_BLOCKED &&
						m->err == hardened_err;
			vanilla_not_landed += k == VANILLA && m->outcome != OUTCOME_LANDED;
			card_not_blocked += p == 1 && (k == V1 || k == MSEAL) &&
				is_card_sealed_scenario(name) && !blocked_eacces;
			/* a harmless call is BLOCKED when the code survives it */
			bool blocked_kept = m->outcome == OUTCOME_BLOCKED &&
					    scenario_at(s)->harmless_call && !m->err;
			hardened_not_blocked += p > 0 && k == MSEAL &&
						!blocked_hardened && !blocked_kept;
		}
	}
	check(tap, missing == 0, "every scenario x policy x kernel has an expectation");
	check(tap, card_not_blocked == 0,
	      "card on v1 and mseal: every mprotect, pkey_mprotect, mremap and mmap scenario is BLOCKED EACCES");
	check(tap, hardened_not_blocked == 0,
	      "card and all on the hardened mseal kernel: every scenario is BLOCKED "
	      "(EACCES; EPERM where upstream's call sealed; or the code kept through a harmless call)");
	check(tap, vanilla_not_landed == 0, "vanilla: every scenario LANDS");
	check(tap, none_not_landed == 0, "--seal=none: every scenario LANDS on every kernel");
	check(tap, unforced_not_wx == 0,
	      "a write that needs a writable mapping, into r-x code (none, card, all), "
	      "is BLOCKED on every kernel");
}

/* Is the kernel a 6.1 one?  6.1 writes signal frames with the thread's
 * own PKRU, so no frame lands in key-protected code there, sealed or not. */
static bool is_61(const char *kernel)
{
	return strcmp(kernel, "upstream") != 0 && strcmp(kernel, "upstream-fixes") != 0;
}

/*
 * Issue 31: the key space.  Under keyonly (the key alone) every write by
 * someone other than the key's thread LANDS, but the signal frame on 6.1;
 * under pkey both series refuse every one of them (the done-when), vanilla
 * (no mseal) lets them all land but the frame, and so do v1 and upstream
 * (neither seal binds a write that is no store of the thread).
 */
static void test_key_rows(struct tap *tap, const struct expectations *e)
{
	static const char *const kernels[] = { "vanilla", "v1", "mseal", "upstream",
					       "upstream-fixes" };
	size_t scenarios = 0, missing = 0, keyonly_wrong = 0, series_not_blocked = 0,
	       open_not_landed = 0;
	for (size_t s = 0; s < scenario_count(); s++) {
		const struct scenario *sc = scenario_at(s);
		if (!sc->key_policies)
			continue;
		scenarios++;
		bool frame = strcmp(sc->name, "sigaltstack-frame") == 0;
		for (size_t k = 0; k < 5; k++)
		for (int from = FROM_SELF; from <= FROM_CHILD; from++) {
			const char *kernel = kernels[k];
			/* a call the 6.1 kernels lack: not run there */
			if (sc->since && is_61(kernel))
				continue;
			const struct expectation *keyonly =
				expectations_match(e, sc->name, "keyonly", kernel, (enum origin)from);
			const struct expectation *pkey =
				expectations_match(e, sc->name, "pkey", kernel, (enum origin)from);
			if (!keyonly || !pkey) {
				tap_note("no expectation: %s keyonly/pkey %s", sc->name, kernel);
				missing++;
				continue;
			}
			bool frame_held = frame && is_61(kernel);
			keyonly_wrong += keyonly->outcome !=
				(frame_held ? OUTCOME_BLOCKED : OUTCOME_LANDED);
			if (!strcmp(kernel, "mseal") || !strcmp(kernel, "upstream-fixes"))
				series_not_blocked += pkey->outcome != OUTCOME_BLOCKED;
			else if (!frame_held)
				open_not_landed += pkey->outcome != OUTCOME_LANDED;
		}
	}
	check(tap, scenarios >= 8 && missing == 0,
	      "the key-writing scenarios (8 or more) have a pkey and a keyonly row on every kernel");
	check(tap, keyonly_wrong == 0,
	      "keyonly: every write by someone other than the key's thread LANDS, "
	      "but the signal frame on 6.1 (written with the thread's own PKRU)");
	check(tap, series_not_blocked == 0,
	      "pkey on mseal and upstream-fixes: every such write is BLOCKED");
	check(tap, open_not_landed == 0,
	      "pkey on vanilla, v1 and upstream: every such write LANDS (the frame: on upstream)");
}

/* outcome/errno of one cell, for the issue-10 checks below */
static bool cell_is(const struct expectations *e, const char *scenario,
		    const char *policy, const char *kernel, enum outcome outcome,
		    int err)
{
	const struct expectation *m = expectations_match(e, scenario, policy, kernel,
							 FROM_SELF);
	return m && m->outcome == outcome && (outcome == OUTCOME_LANDED || m->err == err);
}

/* Issue 10: the red team's scenarios exist and keep v1's holes written down. */
static void test_red_team_rows(struct tap *tap, const struct expectations *e)
{
	static const char *const found[] = { "merge-steal", "merge-steal-mlock",
					     "aio-ring", "uffd-fill", "upstream-call" };
	size_t wrong = 0;
	for (size_t i = 0; i < sizeof found / sizeof found[0]; i++) {
		if (!scenario_find(found[i])) {
			tap_note("no scenario %s", found[i]);
			wrong++;
			continue;
		}
		for (int p = 0; p < 2; p++) {
			const char *policy = p ? "all" : "card";
			bool uffd = strcmp(found[i], "uffd-fill") == 0;
			wrong += !cell_is(e, found[i], policy, "v1", OUTCOME_LANDED, 0);
			wrong += !cell_is(e, found[i], policy, "upstream",
					  uffd ? OUTCOME_LANDED : OUTCOME_BLOCKED,
					  uffd ? 0 : EPERM);
		}
	}
	check(tap, wrong == 0, "issue 10's scenarios: LANDED on v1, upstream blocks all "
	      "but uffd-fill (EPERM)");
}

/*
 * Issue 41: the key openers.  Under keyonly (the key alone, nothing
 * sealed) every one LANDS on every kernel: the control.  Under pkey no
 * seal of vanilla, v1 or upstream keeps a key closed: every one LANDS;
 * the series (mseal, upstream-fixes) keep it closed: every one is BLOCKED.
 */
static void test_opener_rows(struct tap *tap, const struct expectations *e)
{
	static const char *const kernels[] = { "vanilla", "v1", "mseal", "upstream",
					       "upstream-fixes" };
	size_t openers = 0, missing = 0, keyonly_not_landed = 0, open_not_landed = 0;
	size_t series_not_blocked = 0;
	for (size_t s = 0; s < scenario_count(); s++) {
		const struct scenario *sc = scenario_at(s);
		if (!sc->key_space_only)
			continue;
		openers++;
		for (size_t k = 0; k < 5; k++)
		for (int from = FROM_SELF; from <= FROM_CHILD; from++) {
			const struct expectation *keyonly =
				expectations_match(e, sc->name, "keyonly", kernels[k], (enum origin)from);
			const struct expectation *pkey =
				expectations_match(e, sc->name, "pkey", kernels[k], (enum origin)from);
			if (!keyonly || !pkey) {
				tap_note("no expectation: %s keyonly/pkey %s", sc->name, kernels[k]);
				missing++;
				continue;
			}
			keyonly_not_landed += keyonly->outcome != OUTCOME_LANDED;
			bool series = !strcmp(kernels[k], "mseal") ||
				      !strcmp(kernels[k], "upstream-fixes");
			if (!series)
				open_not_landed += pkey->outcome != OUTCOME_LANDED;
			else
				series_not_blocked += pkey->outcome != OUTCOME_BLOCKED ||
						      !pkey->err;
		}
	}
	check(tap, openers >= 8 && missing == 0,
	      "the key openers (8 or more) have a pkey and a keyonly row on every kernel");
	check(tap, keyonly_not_landed == 0,
	      "keyonly: every key opener LANDS on every kernel (the control)");
	check(tap, open_not_landed == 0,
	      "pkey on vanilla, v1 and upstream: every key opener LANDS (no seal keeps a key closed)");
	check(tap, series_not_blocked == 0,
	      "pkey on mseal and upstream-fixes: every key opener is BLOCKED with an errno (the series keep the key closed)");
}

int main(int argc, char **argv)
{
	struct tap tap;
	tap_start(&tap);
	test_refusals(&tap);
	test_matching(&tap);
	test_origin(&tap);
	test_judgement(&tap);
	test_harmless_blocked(&tap);
	struct expectations e;
	char why[300] = "";
	bool loaded = argc > 1 && expectations_load(argv[1], &e, why, sizeof why);
	if (!loaded)
		tap_note("%s", argc > 1 ? why : "usage: test_expect expected.tsv");
	check(&tap, loaded, "the real expected.tsv parses");
	if (loaded) {
		test_real_table(&tap, &e);
		test_red_team_rows(&tap, &e);
		test_key_rows(&tap, &e);
		test_opener_rows(&tap, &e);
		expectations_free(&e);
	}
	return tap_done(&tap);
}
