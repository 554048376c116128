/* SPDX-License-Identifier: GPL-2.0 */
/*
 * icount-time COMMAND [ARG...] - run COMMAND, then print on stderr
 *   icount-time ns=N status=S
 * where N is the CLOCK_MONOTONIC nanoseconds from fork to reap.  Under
 * guest/run --icount (-icount shift=0,sleep=off) one guest nanosecond is
 * one guest instruction, so N counts the instructions the guest ran for
 * COMMAND (its kernel work included).  Exits with COMMAND's status
 * (128 + signal when it was killed), 127 when it could not be run.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int status_of(int wstatus)
{
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	return 128 + WTERMSIG(wstatus);
}

int main(int argc, char **argv)
{
	long long start;
	int wstatus, status;
	pid_t child;

	if (argc < 2) {
		fprintf(stderr, "usage: icount-time COMMAND [ARG...]\n");
		return 2;
	}
	start = now_ns();
	child = fork();
	if (child == 0) {
		execvp(argv[1], argv + 1);
		perror("icount-time: exec");
		_exit(127);
	}
	if (child < 0 || waitpid(child, &wstatus, 0) != child) {
		perror("icount-time");
		return 127;
	}
	status = status_of(wstatus);
	fprintf(stderr, "icount-time ns=%lld status=%d\n", now_ns() - start, status);
	return status;
}
