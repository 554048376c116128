/* util.c - diagnostics, bounded arrays and file reading. */
#define _POSIX_C_SOURCE 200809L
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void diag_at(struct jit_diag *diag, const char *file, int line,
	     const char *fmt, ...)
{
	if (!diag)
		return;
	int used;
	if (line > 0)
		used = snprintf(diag->text, sizeof diag->text, "%s:%d: ", file, line);
	else
		used = snprintf(diag->text, sizeof diag->text, "%s: ", file);
	if (used < 0 || (size_t)used >= sizeof diag->text)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(diag->text + used, sizeof diag->text - (size_t)used, fmt, ap);
	va_end(ap);
}

void diag_plain(struct jit_diag *diag, const char *fmt, ...)
{
	if (!diag)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(diag->text, sizeof diag->text, fmt, ap);
	va_end(ap);
}

bool grow_array(void **items, size_t *cap, size_t need, size_t elem_size,
		size_t max)
{
	if (need <= *cap)
		return true;
	if (need > max)
		return false;
	size_t new_cap = *cap ? *cap : 16;
	while (new_cap < need)
		new_cap *= 2;
	if (new_cap > max)
		new_cap = max;
	void *grown = realloc(*items, new_cap * elem_size);
	if (!grown)
		return false;
	*items = grown;
	*cap = new_cap;
	return true;
}

/* Opens without blocking (a FIFO or device would block open() itself). */
static int open_regular_file(const char *path, struct jit_diag *diag)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		diag_at(diag, path, 0, "cannot open: %s", strerror(errno));
		return -1;
	}
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		diag_at(diag, path, 0, "not a regular file");
		close(fd);
		return -1;
	}
	return fd;
}

/* Reads up to max_bytes + 1 bytes, so that "too large" is seen by reading. */
static char *read_all(int fd, const char *path, size_t max_bytes, size_t *len,
		      struct jit_diag *diag)
{
	size_t got = 0, cap = 0;
	char *text = NULL;
	for (;;) {
		size_t need = got + 4097 < max_bytes + 2 ? got + 4097 : max_bytes + 2;
		if (!grow_array((void **)&text, &cap, need, 1, max_bytes + 2)) {
			diag_at(diag, path, 0, "out of memory");
			break;
		}
		size_t room = cap - 1 - got;
		ssize_t n = read(fd, text + got, room);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			diag_at(diag, path, 0, "read failed: %s", strerror(errno));
			break;
		}
		if (n == 0) {
			text[got] = '\0';
			*len = got;
			return text;
		}
		got += (size_t)n;
		if (got > max_bytes) {
			diag_at(diag, path, 0, "file too large (more than %zu bytes)",
				max_bytes);
			break;
		}
	}
	free(text);
	return NULL;
}

char *read_bounded_file(const char *path, size_t max_bytes, size_t *len,
			struct jit_diag *diag)
{
	int fd = open_regular_file(path, diag);
	if (fd < 0)
		return NULL;
	char *text = read_all(fd, path, max_bytes, len, diag);
	close(fd);
	return text;
}

uint64_t monotonic_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
