/*
 * probe.c - what the arena looks like, and the verdict after an attack.
 *
 * Crash-safe order: the maps lines first (reading them never faults), the
 * code bytes only when the mapping is unchanged (so they are still
 * readable), and the function is called in this process only when both
 * are unchanged.  Once something changed, the function is called in a
 * throw-away child, so that a crash there only colours the detail.
 * Views (what the report shows before and after the call) read only
 * /proc/self/maps and /proc/self/smaps, which fault nothing in.
 */
#define _GNU_SOURCE
#include "attacks.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static bool line_meets(const char *line, uintptr_t from, uintptr_t to)
{
	uintptr_t start, end;
	if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR, &start, &end) != 2)
		return false;
	return start < to && end > from;
}

/* The /proc/self/maps lines that meet [from, to). */
static bool maps_lines(uintptr_t from, uintptr_t to, char *out, size_t out_len)
{
	FILE *maps = fopen("/proc/self/maps", "re");
	if (!maps)
		return false;
	char line[512];
	size_t used = 0;
	out[0] = '\0';
	while (fgets(line, sizeof line, maps)) {
		if (!line_meets(line, from, to))
			continue;
		size_t n = strlen(line);
		if (used + n + 1 > out_len)
			break;
		memcpy(out + used, line, n + 1);
		used += n;
	}
	fclose(maps);
	return true;
}

static bool arena_lines(const struct target *t, char *out, size_t out_len)
{
	uintptr_t base = (uintptr_t)t->base;
	return maps_lines(base, base + t->length, out, out_len);
}

static bool below_lines(const struct target *t, char *out, size_t out_len)
{
	uintptr_t base = (uintptr_t)t->base;
	return maps_lines(base - t->page, base, out, out_len);
}

void arena_view_take(const struct target *t, bool with_page_below,
		     struct arena_view *view)
{
	uintptr_t base = (uintptr_t)t->base;
	uintptr_t from = with_page_below ? base - t->page : base;
	if (!maps_lines(from, base + t->length, view->maps, sizeof view->maps))
		snprintf(view->maps, sizeof view->maps,
			 "(cannot read /proc/self/maps)\n");
	else if (!view->maps[0])
		snprintf(view->maps, sizeof view->maps, "(nothing mapped)\n");
	smaps_lines(base, view->smaps, sizeof view->smaps);
}

#define FNV_OFFSET 0xcbf29ce484222325ULL

static uint64_t fnv1a_more(uint64_t hash, const uint8_t *bytes, size_t len)
{
	for (size_t i = 0; i < len; i++)
		hash = (hash ^ bytes[i]) * 0x100000001b3ULL;
	return hash;
}

static uint64_t fnv1a_zeros(uint64_t hash, size_t len)
{
	for (size_t i = 0; i < len; i++)
		hash *= 0x100000001b3ULL;
	return hash;
}

/*
 * The code's hash.  A page that was never faulted in is hashed as the
 * zeros it would read back without reading it: a read would map the zero
 * page there, and the uffd-fill attacker needs a page with nothing mapped.
 */
static uint64_t code_hash(const struct target *t)
{
	size_t pages = t->length / t->page;
	unsigned char resident[64];
	if (pages > sizeof resident || mincore(t->base, t->length, resident) != 0)
		return fnv1a_more(FNV_OFFSET, t->base, t->length);
	uint64_t hash = FNV_OFFSET;
	for (size_t i = 0; i < pages; i++)
		hash = resident[i] & 1
			? fnv1a_more(hash, t->base + i * t->page, t->page)
			: fnv1a_zeros(hash, t->page);
	return hash;
}

static bool all_zero(const uint8_t *bytes, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (bytes[i])
			return false;
	return true;
}

bool snapshot_take(const struct target *t, struct snapshot *snap)
{
	memset(snap, 0, sizeof *snap);
	if (!arena_lines(t, snap->maps, sizeof snap->maps) || !snap->maps[0] ||
	    !below_lines(t, snap->below, sizeof snap->below))
		return false;
	snap->code_hash = code_hash(t);
	return target_call(t, &snap->result);
}

struct maps_line {
	uintptr_t start, end;
	char perms[8];
	char path[256];
};

static bool maps_first(const char *text, struct maps_line *out)
{
	memset(out, 0, sizeof *out);
	int path_at = 0;
	if (sscanf(text, "%" SCNxPTR "-%" SCNxPTR " %7s %*s %*s %*s %n",
		   &out->start, &out->end, out->perms, &path_at) < 3)
		return false;
	const char *path = text + path_at;
	size_t n = strcspn(path, "\n");
	if (path_at > 0 && n < sizeof out->path)
		memcpy(out->path, path, n);
	return true;
}

static void describe_maps_change(const struct target *t, const char *before,
				 const char *after, char *out, size_t len)
{
	struct maps_line was, now;
	if (!maps_first(after, &now)) {
		snprintf(out, len, "nothing mapped at the code any more");
		return;
	}
	maps_first(before, &was);
	if (now.start != was.start || now.end != was.end)
		snprintf(out, len, "code mapping now %zu pages from base%+ld pages, %s",
			 (size_t)(now.end - now.start) / t->page,
			 ((long)now.start - (long)(uintptr_t)t->base) / (long)t->page,
			 now.perms);
	else if (strcmp(now.perms, was.perms) != 0)
		snprintf(out, len, "code now %s (was %s)", now.perms, was.perms);
	else
		snprintf(out, len, "code replaced by %.96s",
			 now.path[0] ? now.path : "another mapping");
}

/* Call the function in a child: its result, or how it died. */
static void describe_call(const struct target *t, char *out, size_t len)
{
	int fds[2];
	if (pipe(fds) != 0) {
		snprintf(out, len, "(cannot call it: %s)", strerror(errno));
		return;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[0]);
		alarm(2);
		int64_t result = 0;
		bool ok = target_call(t, &result);
		if (ok && write(fds[1], &result, sizeof result) != sizeof result)
			_exit(1);
		_exit(ok ? 0 : 1);
	}
	close(fds[1]);
	int64_t result = 0;
	ssize_t got = pid > 0 ? read(fds[0], &result, sizeof result) : -1;
	close(fds[0]);
	int status = 0;
	if (pid > 0)
		waitpid(pid, &status, 0);
	if (got == sizeof result && result == t->result)
		snprintf(out, len, "%s(%d) still returns %" PRId64, TARGET_FUNC,
			 TARGET_ARG, result);
	else if (got == sizeof result)
		snprintf(out, len, "%s(%d) now returns %#" PRIx64, TARGET_FUNC,
			 TARGET_ARG, (uint64_t)result);
	else if (pid > 0 && WIFSIGNALED(status))
		snprintf(out, len, "calling it dies of %s",
			 sigabbrev_np(WTERMSIG(status)) ? sigabbrev_np(WTERMSIG(status)) : "a signal");
	else
		snprintf(out, len, "calling it fails");
}

/*
 * Code that reads back as zeros is not called: what zeros do depends on
 * the registers the call starts with (through a writable pointer they
 * slide on through the whole arena until the child's alarm, seconds of a
 * TCG guest), which tells nothing about the seal.
 */
static void landed(const struct target *t, struct case_report *report,
		   const char *what, bool zeroed)
{
	char call[96] = "not called";
	if (!zeroed)
		describe_call(t, call, sizeof call);
	report->outcome = OUTCOME_LANDED;
	snprintf(report->detail, sizeof report->detail, "%.119s; %.78s", what, call);
}

/*
 * The verdict looks at the arena only, but a refused call that still
 * changed the unsealed page below it (upstream since 6.12 applies a range
 * VMA by VMA until it meets the seal) is worth telling.
 */
static void note_partial_apply(const struct target *t,
			       const struct snapshot *before,
			       struct case_report *report)
{
	char now[MAPS_TEXT_MAX];
	struct maps_line line;
	if (!below_lines(t, now, sizeof now) || strcmp(now, before->below) == 0)
		return;
	if (maps_first(now, &line))
		snprintf(report->below_now, sizeof report->below_now, "%s",
			 line.perms);
	else
		snprintf(report->below_now, sizeof report->below_now, "unmapped");
}

static void judge_unchanged(const struct target *t, const struct snapshot *before,
			    bool harmless_call, struct case_report *report)
{
	int64_t result = 0;
	if (!target_call(t, &result)) {
		report->outcome = OUTCOME_ERROR;
		snprintf(report->detail, sizeof report->detail,
			 "code and mapping unchanged, but the call trapped");
	} else if (result != before->result) {
		report->outcome = OUTCOME_LANDED;
		snprintf(report->detail, sizeof report->detail,
			 "%s(%d) now returns %#" PRIx64, TARGET_FUNC, TARGET_ARG,
			 (uint64_t)result);
	} else if (report->call_errno) {
		report->outcome = OUTCOME_BLOCKED;
		snprintf(report->detail, sizeof report->detail,
			 "refused; %s(%d) still returns %" PRId64, TARGET_FUNC,
			 TARGET_ARG, result);
		note_partial_apply(t, before, report);
	} else if (harmless_call) {
		report->outcome = OUTCOME_BLOCKED;
		snprintf(report->detail, sizeof report->detail,
			 "the call did its harmless part; the kernel kept the code, "
			 "%s(%d) still returns %" PRId64, TARGET_FUNC, TARGET_ARG,
			 result);
	} else {
		report->outcome = OUTCOME_ERROR;
		snprintf(report->detail, sizeof report->detail,
			 "the call succeeded but changed nothing");
	}
}

void classify(const struct target *t, const struct snapshot *before,
	      int call_result, bool harmless_call, struct case_report *report)
{
	report->call_errno = call_result > 0 ? call_result : 0;
	if (call_result == ATTACK_SETUP_FAILED) {
		report->outcome = OUTCOME_ERROR;
		snprintf(report->detail, sizeof report->detail,
			 "the attacker's own setup failed (%s)", strerror(errno));
		return;
	}
	char maps_now[MAPS_TEXT_MAX];
	if (!arena_lines(t, maps_now, sizeof maps_now)) {
		report->outcome = OUTCOME_ERROR;
		snprintf(report->detail, sizeof report->detail,
			 "cannot read /proc/self/maps: %s", strerror(errno));
		return;
	}
	char what[120];
	if (strcmp(maps_now, before->maps) != 0) {
		describe_maps_change(t, before->maps, maps_now, what, sizeof what);
		landed(t, report, what, false);
	} else if (code_hash(t) != before->code_hash) {
		bool zeroed = all_zero(t->base, t->length);
		snprintf(what, sizeof what, "%s",
			 zeroed ? "code reads back as zeros" : "code bytes changed");
		landed(t, report, what, zeroed);
	} else {
		judge_unchanged(t, before, harmless_call, report);
	}
}
