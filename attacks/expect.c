/*
 * expect.c - attacks/expected.tsv: what every case should come to.
 *
 * Tab-separated rows `scenario policy kernel outcome errno reason`, `#`
 * comments and blank lines ignored.  scenario, policy and kernel are
 * fnmatch(3) patterns (usually a name or `*`); the first matching row
 * wins.  The scenario may end in `@self` or `@child`: the row then holds
 * only for cases attacking from that origin.  The parser refuses what would make the table lie quietly: an
 * unknown scenario, policy or kernel, a BLOCKED row without an errno (but
 * for a scenario whose completing call is harmless, named exactly), an
 * ERROR row, and a LANDED row on a sealing kernel and policy without a
 * reason naming the hole.  The kernels a row may name are the registry's
 * (kernel/kernels.tsv's as column, through sealjit/kernel.h).
 */
#define _GNU_SOURCE
#include "attacks.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include <sealjit/kernel.h>

#define FIELDS 6

static const char *const policy_names[] = { "none", "card", "all", "pkey", "keyonly" };
#define POLICY_NAMES (sizeof policy_names / sizeof policy_names[0])
static bool pattern_names_any(const char *pattern, const char *const *names,
			      size_t count)
{
	for (size_t i = 0; i < count; i++)
		if (fnmatch(pattern, names[i], 0) == 0)
			return true;
	return false;
}

/* Does @pattern name a kernel of the registry as the tables call it, one
 * with mseal() when @sealing? */
static bool pattern_names_kernel(const char *pattern, bool sealing)
{
	for (size_t i = 0; i < SEALJIT_KERNEL_COUNT; i++)
		if ((!sealing || sealjit_kernels[i].abi != MSEAL_ABI_NONE) &&
		    fnmatch(pattern, sealjit_kernels[i].as, 0) == 0)
			return true;
	return false;
}

static bool pattern_names_scenario(const char *pattern)
{
	for (size_t i = 0; i < scenario_count(); i++)
		if (fnmatch(pattern, scenario_at(i)->name, 0) == 0)
			return true;
	return false;
}

/* Split at tabs in place; returns the number of fields. */
static int split_tabs(char *line, char *fields[FIELDS])
{
	int n = 0;
	char *at = line;
	while (n < FIELDS) {
		fields[n++] = at;
		char *tab = strchr(at, '\t');
		if (!tab)
			break;
		*tab = '\0';
		at = tab + 1;
	}
	return n;
}

static bool copy_field(char *dst, size_t dst_len, const char *src)
{
	if (strlen(src) >= dst_len)
		return false;
	strcpy(dst, src);
	return true;
}

static bool sealing_pattern(const struct expectation *row)
{
	static const char *const sealing_policies[] = { "card", "all", "pkey" };
	return pattern_names_any(row->policy, sealing_policies,
				 sizeof(sealing_policies) / sizeof(sealing_policies[0])) &&
	       pattern_names_kernel(row->kernel, true);
}

/* Does @pattern name one scenario whose completing call is harmless (its
 * BLOCKED has no errno: the kernel kept the code through it)? */
static bool names_harmless_call(const char *pattern)
{
	const struct scenario *s = scenario_find(pattern);

	return s && s->harmless_call;
}

static const char *check_row(const struct expectation *row)
{
	if (!pattern_names_scenario(row->scenario))
		return "no scenario matches";
	if (row->origin[0] && strcmp(row->origin, origin_name(FROM_SELF)) != 0 &&
	    strcmp(row->origin, origin_name(FROM_CHILD)) != 0)
		return "origin after @ is neither self nor child";
	if (!pattern_names_any(row->policy, policy_names, POLICY_NAMES))
		return "policy is none of none, card, all, pkey, keyonly";
	if (!pattern_names_kernel(row->kernel, false))
		return "kernel is no kernel of kernel/kernels.tsv";
	if (row->outcome == OUTCOME_ERROR)
		return "ERROR is never an expectation";
	if (row->outcome == OUTCOME_BLOCKED && row->err == 0 &&
	    !names_harmless_call(row->scenario))
		return "a BLOCKED row needs an errno, but for a harmless call's scenario";
	if (row->outcome == OUTCOME_LANDED && sealing_pattern(row) &&
	    !row->reason[0])
		return "a LANDED row on a sealing kernel and policy needs a reason";
	return NULL;
}

static const char *parse_row(char *line, struct expectation *row)
{
	char *f[FIELDS];
	int n = split_tabs(line, f);
	if (n < FIELDS - 1)
		return "want 5 or 6 tab-separated fields";
	memset(row, 0, sizeof *row);
	if (!copy_field(row->scenario, sizeof row->scenario, f[0]) ||
	    !copy_field(row->policy, sizeof row->policy, f[1]) ||
	    !copy_field(row->kernel, sizeof row->kernel, f[2]) ||
	    (n == FIELDS && !copy_field(row->reason, sizeof row->reason, f[5])))
		return "field too long";
	char *at = strchr(row->scenario, '@');
	if (at) {
		*at = '\0';
		if (!copy_field(row->origin, sizeof row->origin, at + 1))
			return "origin after @ is neither self nor child";
	}
	if (!outcome_parse(f[3], &row->outcome))
		return "outcome is none of BLOCKED, LANDED, ERROR";
	row->err = errno_parse(f[4]);
	if (row->err < 0)
		return "errno is not a name like EACCES, or -";
	return check_row(row);
}

static bool append_row(struct expectations *e, const struct expectation *row)
{
	struct expectation *rows = realloc(e->rows, (e->count + 1) * sizeof *rows);
	if (!rows)
		return false;
	rows[e->count++] = *row;
	e->rows = rows;
	return true;
}

static bool skip_line(const char *line)
{
	return line[0] == '#' || line[0] == '\0';
}

bool expectations_parse(FILE *in, const char *path, struct expectations *out,
			char *why, size_t why_len)
{
	memset(out, 0, sizeof *out);
	char line[512];
	for (int number = 1; fgets(line, sizeof line, in); number++) {
		line[strcspn(line, "\r\n")] = '\0';
		if (skip_line(line))
			continue;
		struct expectation row;
		const char *bad = parse_row(line, &row);
		row.line = number;
		if (!bad && !append_row(out, &row))
			bad = "out of memory";
		if (bad) {
			snprintf(why, why_len, "%s:%d: %s", path, number, bad);
			expectations_free(out);
			return false;
		}
	}
	return true;
}

bool expectations_load(const char *path, struct expectations *out,
		       char *why, size_t why_len)
{
	FILE *in = fopen(path, "re");
	if (!in) {
		snprintf(why, why_len, "%s: %s", path, strerror(errno));
		return false;
	}
	bool ok = expectations_parse(in, path, out, why, why_len);
	fclose(in);
	return ok;
}

const struct expectation *expectations_match(const struct expectations *e,
					     const char *scenario,
					     const char *policy,
					     const char *kernel,
					     enum origin from)
{
	for (size_t i = 0; i < e->count; i++) {
		const struct expectation *row = &e->rows[i];
		if ((!row->origin[0] || strcmp(row->origin, origin_name(from)) == 0) &&
		    fnmatch(row->scenario, scenario, 0) == 0 &&
		    fnmatch(row->policy, policy, 0) == 0 &&
		    fnmatch(row->kernel, kernel, 0) == 0)
			return row;
	}
	return NULL;
}

bool expectation_met(const struct expectation *want,
		     const struct case_report *got)
{
	if (!want || got->outcome == OUTCOME_ERROR || got->outcome != want->outcome)
		return false;
	return got->outcome != OUTCOME_BLOCKED || got->call_errno == want->err;
}

void expectations_free(struct expectations *e)
{
	free(e->rows);
	e->rows = NULL;
	e->count = 0;
}
