/*
 * case.c - one case, in its own process.
 *
 *   runner ──fork──> case process: drop capabilities (nocaps), compile the
 *                    victim into a sealed arena at a fixed address
 *                    from=self:  snapshot, attack, classify, report
 *                    from=child: fork; the grandchild snapshots, attacks
 *                    its inherited (and still sealed) copy, classifies and
 *                    reports; the case process reports only if it died
 *                    (either way the attacking process also records what
 *                    it sees of the arena right before and after the call)
 *
 * Reports travel as one struct case_report through a pipe.  A process that
 * dies before reporting (a crash, the alarm) makes the case an ERROR.
 */
#define _GNU_SOURCE
#include "attacks.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define CASE_SECONDS 20

static void send_report(int fd, const struct case_report *report)
{
	if (write(fd, report, sizeof *report) != sizeof *report)
		_exit(3);
}

static void report_error(int fd, struct case_report *report, const char *why)
{
	report->outcome = OUTCOME_ERROR;
	snprintf(report->detail, sizeof report->detail, "%s", why);
	send_report(fd, report);
}

static void describe_death(int status, const char *who, char *out, size_t len)
{
	if (WIFSIGNALED(status))
		snprintf(out, len, "%s killed by signal %d (%s)", who,
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		snprintf(out, len, "%s exited %d without a report", who,
			 WEXITSTATUS(status));
}

/* Snapshot, attack, classify: in whichever process holds the arena copy,
 * with the arena as that process sees it right before and after the call. */
static void attack_and_report(const struct case_spec *spec,
			      const struct target *t, int fd,
			      struct case_report *report)
{
	struct snapshot before;
	if (spec->scenario->prepare && !spec->scenario->prepare(t)) {
		char why[DETAIL_MAX];
		snprintf(why, sizeof why, "the attacker's own preparation failed (%s)",
			 strerror(errno));
		report_error(fd, report, why);
		return;
	}
	if (!snapshot_take(t, &before)) {
		report_error(fd, report, "cannot snapshot the arena before the attack");
		return;
	}
	bool with_page_below = spec->scenario->needs_page_below;
	arena_view_take(t, with_page_below, &report->before);
	int call_result = spec->scenario->attack(t);
	classify(t, &before, call_result, spec->scenario->harmless_call, report);
	/* classify() leaves the mappings as the call left them */
	arena_view_take(t, with_page_below, &report->after);
	send_report(fd, report);
}

static void attack_from_child(const struct case_spec *spec,
			      const struct target *t, int fd,
			      struct case_report *report)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		report_error(fd, report, "fork of the attacking child failed");
		return;
	}
	if (pid == 0) {
		attack_and_report(spec, t, fd, report);
		_exit(0);
	}
	int status = 0;
	waitpid(pid, &status, 0);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return;
	char why[DETAIL_MAX];
	describe_death(status, "the attacking child", why, sizeof why);
	report_error(fd, report, why);
}

static void case_process(const struct case_spec *spec, int fd)
{
	struct case_report report;
	memset(&report, 0, sizeof report);
	alarm(CASE_SECONDS);
	char why[DETAIL_MAX] = "";
	if (spec->priv == PRIV_NOCAPS && !privilege_drop_all(why, sizeof why)) {
		report_error(fd, &report, why);
		return;
	}
	struct target t;
	bool built = target_build(&t, spec->policy, spec->scenario, why,
				  sizeof why);
	if (t.module)
		snprintf(report.seal, sizeof report.seal, "%s",
			 t.seal_note[0] ? t.seal_note
					: jit_seal_outcome_text(t.info.outcome));
	if (built)
		smaps_seals((uintptr_t)t.base, report.smaps_seals,
			    sizeof report.smaps_seals);
	if (!built) {
		report_error(fd, &report, why);
		return;
	}
	if (spec->from == FROM_CHILD)
		attack_from_child(spec, &t, fd, &report);
	else
		attack_and_report(spec, &t, fd, &report);
}

static bool read_report(int fd, struct case_report *report)
{
	size_t got = 0;
	while (got < sizeof *report) {
		ssize_t n = read(fd, (char *)report + got, sizeof *report - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		got += (size_t)n;
	}
	return true;
}

void case_run(const struct case_spec *spec, struct case_report *report)
{
	memset(report, 0, sizeof *report);
	report->outcome = OUTCOME_ERROR;
	int fds[2];
	if (pipe(fds) != 0) {
		snprintf(report->detail, sizeof report->detail, "pipe: %s",
			 strerror(errno));
		return;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[0]);
		case_process(spec, fds[1]);
		_exit(0);
	}
	close(fds[1]);
	int status = 0;
	if (pid > 0)
		waitpid(pid, &status, 0);
	bool have = pid > 0 && read_report(fds[0], report);
	close(fds[0]);
	if (!have) {
		memset(report, 0, sizeof *report);
		report->outcome = OUTCOME_ERROR;
		if (pid < 0)
			snprintf(report->detail, sizeof report->detail, "fork failed");
		else
			describe_death(status, "the case process", report->detail,
				       sizeof report->detail);
	}
}
