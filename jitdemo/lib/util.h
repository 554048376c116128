/* util.h - diagnostics, bounded arrays and file reading shared by libjit. */
#ifndef JITDEMO_UTIL_H
#define JITDEMO_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libjit.h"

#if defined(__GNUC__)
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define PRINTF_LIKE(f, a)
#endif

/* Writes "FILE:LINE: message" (or "FILE: message" when line is 0). */
void diag_at(struct jit_diag *diag, const char *file, int line,
	     const char *fmt, ...) PRINTF_LIKE(4, 5);
void diag_plain(struct jit_diag *diag, const char *fmt, ...) PRINTF_LIKE(2, 3);

/* Grows *items so that at least need elements fit, never beyond max.
 * Returns false (leaving *items valid) on overflow of max or allocation. */
bool grow_array(void **items, size_t *cap, size_t need, size_t elem_size,
		size_t max);

/* Reads a regular file of at most max_bytes; the size is what read()
 * returned, not st_size.  FIFOs and devices are refused without blocking. */
char *read_bounded_file(const char *path, size_t max_bytes, size_t *len,
			struct jit_diag *diag);

uint64_t monotonic_ns(void);

#endif
