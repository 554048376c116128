// SPDX-License-Identifier: GPL-2.0
/*
 * ddmin.c - shrink a failing call log to a short sequence that still fails
 * the same way, replaying each candidate in a fresh exec of this program
 * (a fork would inherit the seals).  First the shortest suffix of the log
 * that reproduces, then delta debugging (complements) within it, under a
 * budget of replays and seconds.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mmstress.h"

#define DDMIN_REPLAYS 150
#define DDMIN_SECONDS 90

#define DDMIN_MAX (1 << 16)	/* longest suffix a replay may start from */

static struct op cand[DDMIN_MAX + 1], best[DDMIN_MAX + 1];
static unsigned replays;
static time_t deadline;

static const char *replay_path(void)
{
	static char path[64];

	snprintf(path, sizeof(path), "/tmp/mmstress-replay.%d", (int)getpid());
	return path;
}

/* 1 if the N calls of OPS fail in family WANT in a fresh process. */
static int fails(const struct options *o, const struct op *ops, size_t n, enum family want)
{
	const char *path = replay_path();
	int fd, status;
	pid_t pid;

	if (replays >= DDMIN_REPLAYS || time(NULL) > deadline)
		return -1;
	replays++;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, ops, n * sizeof(*ops)) != (ssize_t)(n * sizeof(*ops))) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		execl("/proc/self/exe", "mmstress", "--replay", path, "--model", o->model,
		      o->seal == SEAL_NONE ? "--no-seal" : NULL, (char *)NULL);
		_exit(2);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 10 + (int)want;
}

static size_t shrink_suffix(const struct options *o, const struct op *log, size_t fail,
			    enum family want)
{
	for (size_t w = 0;; w = w ? w * 2 : 1) {
		if (w > fail)
			w = fail;
		if (w > DDMIN_MAX)
			return 0;
		memcpy(cand, log + fail - w, w * sizeof(*cand));
		cand[w] = log[fail];
		int r = fails(o, cand, w + 1, want);

		if (r == 1) {
			memcpy(best, cand, (w + 1) * sizeof(*best));
			return w + 1;
		}
		if (r < 0 || w == fail)
			return 0;
	}
}

/* Delta debugging over best[0..n-1), the failing call best[n-1] kept. */
static size_t ddmin(const struct options *o, size_t n, enum family want)
{
	size_t chunks = 2;

	while (n > 1) {
		size_t body = n - 1, size = (body + chunks - 1) / chunks;
		bool reduced = false;

		if (!body)
			break;
		for (size_t c = 0; c < chunks && c * size < body; c++) {
			size_t lo = c * size, hi = lo + size < body ? lo + size : body, k = 0;

			for (size_t i = 0; i < n; i++)
				if (i < lo || i >= hi)
					cand[k++] = best[i];
			int r = fails(o, cand, k, want);

			if (r < 0)
				return n;
			if (r == 1) {
				memcpy(best, cand, k * sizeof(*best));
				n = k;
				chunks = chunks > 2 ? chunks - 1 : 2;
				reduced = true;
				break;
			}
		}
		if (!reduced) {
			if (chunks >= body)
				break;
			chunks = chunks * 2 < body ? chunks * 2 : body;
		}
	}
	return n;
}

void ddmin_report(const struct options *o, const struct op *log, size_t fail_index,
		  enum family fam)
{
	struct model m;
	size_t n;
	char desc[200];

	deadline = time(NULL) + DDMIN_SECONDS;
	n = shrink_suffix(o, log, fail_index, fam);
	if (!n) {
		printf("# ddmin: the failure does not reproduce from the log in a fresh "
		       "process (%u replays): timing or state outside the log\n", replays);
		unlink(replay_path());
		return;
	}
	n = ddmin(o, n, fam);
	unlink(replay_path());
	model_init(&m, o->seal, 0);
	printf("# ddmin: %zu calls reproduce it (%u replays, last call is call %zu):\n",
	       n, replays, fail_index);
	for (size_t i = 0; i < n; i++) {
		op_describe(&m, &best[i], desc, sizeof(desc));
		printf("#   %s\n", desc);
	}
}

/*
 * --replay FILE: run a logged sequence; exit 10 + family on a failure.
 * A replay reads smaps after every call: the random run may see a change
 * some calls after the call that made it, and the shrinker needs the
 * sequence to fail at the call that shows it.
 */
int replay_main(const struct options *given)
{
	static struct stats st;
	struct options every_call = *given;
	const struct options *o = &every_call;
	size_t n = 0, fail;
	int fd = open(o->replay, O_RDONLY);
	ssize_t got;

	every_call.full_every = 1;
	every_call.maps_every = 1;
	if (fd < 0)
		return 2;
	while (n < DDMIN_MAX + 1 && (got = read(fd, &cand[n], sizeof(cand[0]))) == sizeof(cand[0]))
		n++;
	close(fd);
	if (run_log(o, cand, n, &st, &fail, true) != 1)
		return 0;
	for (int f = 0; f < NFAM; f++)
		if (st.fails[f]) {
			if (o->verbose)
				fprintf(stderr, "%s\n", st.first_fail[f]);
			return 10 + f;
		}
	return 0;
}
