// SPDX-License-Identifier: GPL-2.0
/*
 * bench/outcome.c - how an operation says that a call went wrong, or that
 * the case does not apply to this kernel.  A refused case expects each of
 * its calls to fail with EACCES (our series, v1) or EPERM (upstream).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"

int bench_fail(struct op_state *st, const char *what)
{
	st->outcome = FAILED;
	snprintf(st->why, sizeof(st->why), "%s: %s", what, strerror(errno));
	return -1;
}

int bench_na(struct op_state *st, const char *why)
{
	st->outcome = NOT_APPLICABLE;
	snprintf(st->why, sizeof(st->why), "%s", why);
	return -1;
}

static int refusal(struct op_state *st, int failed, const char *what)
{
	char why[sizeof(st->why)];

	if (failed && (errno == EACCES || errno == EPERM))
		return 0;
	if (failed)
		return bench_fail(st, what);
	snprintf(why, sizeof(why), "not refused: %s succeeded on the sealed region",
		 what);
	return bench_na(st, why);
}

int bench_expect(struct op_state *st, long rc, const char *what)
{
	if (st->placement == REFUSED)
		return refusal(st, rc == -1, what);
	return rc == 0 ? 0 : bench_fail(st, what);
}

int bench_expect_ptr(struct op_state *st, void *got, void *want,
		     const char *what)
{
	if (st->placement == REFUSED)
		return refusal(st, got != want, what);
	if (got == want)
		return 0;
	if (got != (void *)-1)
		errno = EFAULT;	/* the call moved it: report as such */
	return bench_fail(st, what);
}
