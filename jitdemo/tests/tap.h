/* tap.h - a minimal TAP 13 producer for the C test programs. */
#ifndef JITDEMO_TAP_H
#define JITDEMO_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

struct tap {
	int count;
	int failed;
};

static inline void tap_start(struct tap *t)
{
	t->count = t->failed = 0;
	printf("TAP version 13\n");
	fflush(stdout);
}

static inline bool tap_ok(struct tap *t, bool ok, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static inline bool tap_ok(struct tap *t, bool ok, const char *fmt, ...)
{
	va_list ap;
	t->count++;
	if (!ok)
		t->failed++;
	printf("%sok %d - ", ok ? "" : "not ", t->count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	return ok;
}

static inline void tap_skip(struct tap *t, const char *what, const char *why)
{
	t->count++;
	printf("ok %d - %s # SKIP %s\n", t->count, what, why);
	fflush(stdout);
}

/* A "# ..." diagnostic line. */
static inline void tap_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline void tap_note(const char *fmt, ...)
{
	va_list ap;
	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* Prints the plan (at the end, as TAP allows) and returns the exit status. */
static inline int tap_done(struct tap *t)
{
	printf("1..%d\n", t->count);
	printf("# %d passed, %d failed\n", t->count - t->failed, t->failed);
	return t->failed ? 1 : 0;
}

#endif
