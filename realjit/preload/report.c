/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.c - what the library sealed and what the kernel refused: a
 * start line once the policy is settled, each area as it is made, the
 * rest at exit (and an error at start-up when it stops the process).
 * A process that never reaches exit (a signal, or exit_group() from
 * the attacker's bytes) still leaves its start and area lines.
 *
 * SEALJIT_SEAL_REPORT names a file the report is appended to; unset, it
 * goes to stderr.  Lines (every one starts "sealjit-preload: "):
 *   start policy=P types=T abi=A          (at start-up: the library runs)
 *   area ADDR +LEN sealed|not-sealed ERRNO   (when the area is made)
 *   refused CALL ADDR +LEN ERRNO        (when refused; the first MAX_REFUSALS)
 *   note TEXT
 *   summary policy=P types=T abi=A areas=N sealed=N sealed_bytes=B
 *           exec_protects=N write_protects=N old_area_patches=N
 *           areas_freed=N refused=N
 *           refused_mprotect=N refused_munmap=N refused_mremap=N
 *           refused_mmap=N refused_mseal=N refused_pkey_mprotect=N
 *           refused_madvise=N unfreed_bytes=B first_refused=C/E
 * write_protects: mprotect() of a known area without PROT_EXEC (LuaJIT
 * making it writable); old_area_patches: those of an area older than the
 * newest (patching an exit of an older trace).
 * unfreed_bytes: bytes of tracked areas in munmap() calls the kernel
 * refused (counted per call: an area refused twice counts twice).
 */
#define _GNU_SOURCE
#include "preload.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PREFIX "sealjit-preload: "
#define MAX_REFUSALS 32
#define MAX_NOTES 8
#define LINE_MAX_LEN 256

static const char *const call_names[CALL_KINDS] = {
	"mprotect", "munmap", "mremap", "mmap", "mseal", "pkey_mprotect",
	"madvise",
};

struct counters {
	unsigned long areas, sealed, sealed_bytes;
	unsigned long exec_protects, write_protects, old_area_patches;
	unsigned long areas_freed;
	unsigned long refused[CALL_KINDS], refused_total;
	unsigned long unfreed_bytes;
};

static struct counters count;
static char note_lines[MAX_NOTES][LINE_MAX_LEN];
static char first_refused[64] = "-";
static size_t note_lines_used;
static const char *report_path;

static const char *errno_name(int err)
{
	const char *name = strerrorname_np(err);
	return name ? name : "E?";
}

/* Writes go straight to the file descriptor: no stdio buffer to lose
 * when the process stops in an odd state. */
static void emit(int fd, const char *line)
{
	size_t len = strlen(line), done = 0;

	while (done < len) {
		ssize_t n = write(fd, line + done, len - done);
		if (n <= 0)
			return;
		done += (size_t)n;
	}
}

static int open_report(void)
{
	int fd;

	if (!report_path)
		return STDERR_FILENO;
	fd = open(report_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	return fd >= 0 ? fd : STDERR_FILENO;
}

void report_fatal(int status, const char *fmt, ...)
{
	char line[2 * LINE_MAX_LEN];
	int fd = open_report();
	va_list ap;
	int used = snprintf(line, sizeof(line), PREFIX "error: ");

	va_start(ap, fmt);
	vsnprintf(line + used, sizeof(line) - (size_t)used - 1, fmt, ap);
	va_end(ap);
	strcat(line, "\n");
	emit(fd, line);
	if (fd != STDERR_FILENO)
		emit(STDERR_FILENO, line);
	_exit(status);
}

/* A bad name is refused before it is used: the refusal goes to stderr. */
void report_init(void)
{
	const char *path = getenv("SEALJIT_SEAL_REPORT");

	if (path && path[0] != '/')
		report_fatal(PRELOAD_EXIT_BAD_ENV,
			     "SEALJIT_SEAL_REPORT must be an absolute file name, "
			     "not '%s'", path);
	report_path = path;
}

void report_note(const char *fmt, ...)
{
	va_list ap;

	if (note_lines_used == MAX_NOTES)
		return;
	va_start(ap, fmt);
	vsnprintf(note_lines[note_lines_used++], LINE_MAX_LEN, fmt, ap);
	va_end(ap);
}

/* Written now, not at exit: the refusal may be what stops the process. */
void report_refused(enum call_kind call, const void *addr, size_t len, int err)
{
	char line[LINE_MAX_LEN];
	int fd;

	if (count.refused_total < MAX_REFUSALS) {
		snprintf(line, sizeof(line), PREFIX "refused %s %p +%zu %s\n",
			 call_names[call], addr, len, errno_name(err));
		fd = open_report();
		emit(fd, line);
		if (fd != STDERR_FILENO)
			close(fd);
	}
	if (count.refused_total == 0)
		snprintf(first_refused, sizeof(first_refused), "%s/%s",
			 call_names[call], errno_name(err));
	count.refused[call]++;
	count.refused_total++;
}

/* Written now, not at exit: what was sealed outlives a process that
 * never gets there. */
void report_area(const void *addr, size_t len, int seal_err)
{
	char line[LINE_MAX_LEN];
	int fd;

	count.areas++;
	if (policy_seals() && !seal_err) {
		count.sealed++;
		count.sealed_bytes += len;
	}
	snprintf(line, sizeof(line), PREFIX "area %p +%zu %s %s\n", addr, len,
		 policy_seals() && !seal_err ? "sealed" : "not-sealed",
		 seal_err ? errno_name(seal_err) : "-");
	fd = open_report();
	emit(fd, line);
	if (fd != STDERR_FILENO)
		close(fd);
}

/* The library is loaded and its policy settled: a report that lacks this
 * line comes from a process the library never ran in. */
void report_start(void)
{
	char line[LINE_MAX_LEN];
	int fd = open_report();

	snprintf(line, sizeof(line), PREFIX "start policy=%s types=%#x abi=%s\n",
		 policy_name(), policy_types(), policy_abi());
	emit(fd, line);
	if (fd != STDERR_FILENO)
		close(fd);
}

void report_exec_protect(void) { count.exec_protects++; }
void report_write_protect(void) { count.write_protects++; }
void report_old_area_patch(void) { count.old_area_patches++; }
void report_area_freed(void) { count.areas_freed++; }
void report_unfreed(size_t bytes) { count.unfreed_bytes += bytes; }

static void emit_lines(int fd, char lines[][LINE_MAX_LEN], size_t n,
		       const char *kind)
{
	char line[LINE_MAX_LEN + 64];
	size_t i;

	for (i = 0; i < n; i++) {
		snprintf(line, sizeof(line), PREFIX "%s%s\n", kind, lines[i]);
		emit(fd, line);
	}
}

static void emit_summary(int fd)
{
	char line[4 * LINE_MAX_LEN];

	snprintf(line, sizeof(line), PREFIX "summary policy=%s types=%#x abi=%s "
		 "areas=%lu sealed=%lu sealed_bytes=%lu exec_protects=%lu "
		 "write_protects=%lu old_area_patches=%lu areas_freed=%lu "
		 "refused=%lu "
		 "refused_mprotect=%lu refused_munmap=%lu refused_mremap=%lu "
		 "refused_mmap=%lu refused_mseal=%lu refused_pkey_mprotect=%lu "
		 "refused_madvise=%lu unfreed_bytes=%lu first_refused=%s\n",
		 policy_name(), policy_types(), policy_abi(), count.areas,
		 count.sealed, count.sealed_bytes, count.exec_protects,
		 count.write_protects, count.old_area_patches, count.areas_freed,
		 count.refused_total,
		 count.refused[CALL_MPROTECT], count.refused[CALL_MUNMAP],
		 count.refused[CALL_MREMAP], count.refused[CALL_MMAP],
		 count.refused[CALL_MSEAL], count.refused[CALL_PKEY_MPROTECT],
		 count.refused[CALL_MADVISE], count.unfreed_bytes, first_refused);
	emit(fd, line);
}

void report_at_exit(void)
{
	int fd = open_report();

	emit_lines(fd, note_lines, note_lines_used, "note ");
	emit_summary(fd);
	if (fd != STDERR_FILENO)
		close(fd);
}
