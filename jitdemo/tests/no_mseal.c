/*
 * no_mseal.c - test helper: runs a command as if the kernel had no mseal()
 * (ENOSYS), the way a vanilla 6.1 kernel answers.
 *
 *	no-mseal COMMAND [ARG...]
 */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <unistd.h>

#include "seccomp_mseal.h"

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: no-mseal COMMAND [ARG...]\n");
		return 2;
	}
	if (install_mseal_sim(MSEAL_SIM_ENOSYS) != 0) {
		perror("no-mseal: seccomp");
		return 1;
	}
	execvp(argv[1], argv + 1);
	perror("no-mseal: exec");
	return 127;
}
