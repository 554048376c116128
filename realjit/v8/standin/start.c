/* SPDX-License-Identifier: GPL-2.0 */
/*
 * start.c - the stand-in's constructor and report (standin.h).  It runs
 * before Node's main() and before any thread exists: the key must be
 * allocated while one thread's PKRU is the only one (new threads inherit
 * their creator's).
 */
#define _GNU_SOURCE
#include "standin.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int report_fd = 2;

static void report_line(const char *kind, const char *fmt, va_list ap)
{
	char line[512];
	int n = snprintf(line, sizeof(line), "sealjit-node-standin: %s", kind);

	if (n < 0 || (size_t)n >= sizeof(line))
		return;
	vsnprintf(line + n, sizeof(line) - n - 1, fmt, ap);
	strcat(line, "\n");
	if (write(report_fd, line, strlen(line)) < 0)
		return;	/* a report that cannot be written changes nothing */
}

void standin_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report_line("", fmt, ap);
	va_end(ap);
}

void standin_fatal(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report_line("error: ", fmt, ap);
	va_end(ap);
	if (report_fd != 2) {
		report_fd = 2;
		va_start(ap, fmt);
		report_line("error: ", fmt, ap);
		va_end(ap);
	}
	_exit(status);
}

static void open_report(void)
{
	const char *path = getenv("SEALJIT_SEAL_REPORT");

	if (!path || !*path)
		return;
	if (path[0] != '/')
		standin_fatal(STANDIN_EXIT_BAD_ENV,
			      "SEALJIT_SEAL_REPORT '%s' is not an absolute path", path);
	report_fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (report_fd < 0) {
		report_fd = 2;
		standin_fatal(STANDIN_EXIT_BAD_ENV, "cannot open %s: %s", path,
			      strerrorname_np(errno));
	}
}

static void at_exit(void)
{
	calls_at_exit();
}

__attribute__((constructor)) static void standin_start(void)
{
	const char *mode = getenv("SEALJIT_NODE_STANDIN");
	int with_key, pkey = -1;

	open_report();
	if (!mode || (strcmp(mode, "key") && strcmp(mode, "nokey")))
		standin_fatal(STANDIN_EXIT_BAD_ENV,
			      "SEALJIT_NODE_STANDIN is '%s', not key or nokey",
			      mode ? mode : "(unset)");
	with_key = strcmp(mode, "key") == 0;
	if (with_key)
		pkey = platform_give_allocator();
	calls_init(pkey);
	standin_note("start mode=%s key=%d (0001 %s; short builtin calls on, 0004)",
		     mode, pkey, with_key ? (pkey >= 0 ? "V8's allocator given" :
				"no key: no PKU here") : "not applied");
	atexit(at_exit);
}
