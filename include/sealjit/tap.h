/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sealjit/tap.h - the TAP 13 producer of every C test program (the kernel's
 * tools/testing/selftests/kselftest.h is the model; tests/tap.sh is the
 * shell's twin).  A struct tap counts the test points; a program may carry
 * one across an exec (exec-seals does).
 *
 *	struct tap t;
 *	tap_start(&t);			"TAP version 13"
 *	tap_plan(&t, 3);		"1..3", when the count is known first
 *	tap_ok(&t, got == want, "add: %d", got);
 *	tap_skip(&t, "no mseal()", "seal the arena");
 *	tap_todo(&t, ok, "a known hole", "...");	not ok is no failure
 *	tap_note("the kernel said %s", what);	a "# ..." comment
 *	return tap_done(&t);		the plan if none was given, the
 *					counts, and the exit status
 * tap_bail() stops the program: "Bail out! WHY", exit 1; tap_skip_all()
 * says the whole program skipped: "1..0 # SKIP WHY".
 */
#ifndef SEALJIT_TAP_H
#define SEALJIT_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

struct tap {
	unsigned int count;	/* test points so far */
	unsigned int failed;	/* of them not ok (a TODO aside) */
	unsigned int skipped;	/* of them skipped */
	bool planned;		/* the plan was printed first */
};

static inline void tap_start(struct tap *t)
{
	*t = (struct tap){ 0 };
	printf("TAP version 13\n");
	fflush(stdout);
}

static inline void tap_plan(struct tap *t, unsigned int count)
{
	t->planned = true;
	printf("1..%u\n", count);
	fflush(stdout);
}

/* A test point; DIRECTIVE "SKIP" or "TODO" with its WHY, or NULL. */
static inline void tap_vpoint(struct tap *t, bool ok, const char *directive,
			      const char *why, const char *fmt, va_list ap)
{
	bool todo = directive && directive[0] == 'T';

	t->count++;
	if (!ok && !todo)
		t->failed++;
	if (directive && !todo)
		t->skipped++;
	printf("%sok %u - ", ok ? "" : "not ", t->count);
	vprintf(fmt, ap);
	if (directive)
		printf(" # %s %s", directive, why);
	putchar('\n');
	fflush(stdout);
}

static inline bool tap_ok(struct tap *t, bool ok, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static inline bool tap_ok(struct tap *t, bool ok, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vpoint(t, ok, NULL, NULL, fmt, ap);
	va_end(ap);
	return ok;
}

static inline void tap_skip(struct tap *t, const char *why, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static inline void tap_skip(struct tap *t, const char *why, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vpoint(t, true, "SKIP", why, fmt, ap);
	va_end(ap);
}

/* A point that may fail for a known reason, WHY: not ok, it says TODO and
 * is no failure; ok, it is an ordinary pass. */
static inline bool tap_todo(struct tap *t, bool ok, const char *why, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static inline bool tap_todo(struct tap *t, bool ok, const char *why, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vpoint(t, ok, ok || !why ? NULL : "TODO", why, fmt, ap);
	va_end(ap);
	return ok;
}

static inline void tap_skip_all(const char *why)
{
	printf("1..0 # SKIP %s\n", why);
	fflush(stdout);
}

static inline void tap_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline void tap_note(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static inline void tap_bail(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));
static inline void tap_bail(const char *fmt, ...)
{
	va_list ap;

	printf("Bail out! ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	exit(1);
}

/* The plan (at the end, as TAP allows) unless given first, the counts as a
 * comment; the exit status: 1 when a test point failed. */
static inline int tap_done(struct tap *t)
{
	if (!t->planned)
		printf("1..%u\n", t->count);
	printf("# %u passed, %u failed, %u skipped\n",
	       t->count - t->failed - t->skipped, t->failed, t->skipped);
	fflush(stdout);
	return t->failed ? 1 : 0;
}

#endif /* SEALJIT_TAP_H */
