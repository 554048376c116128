/* SPDX-License-Identifier: GPL-2.0 */
/*
 * key-attacks.c - the attacks on a JIT's protection key (key-attacks.h).
 */
#define _GNU_SOURCE
#include "key-attacks.h"
#include "live-code.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define PAYLOAD_LEN 12	/* live-code.h's payload */

static int attacked_key;

static int store_code(void)
{
	return 0;
}

static int pkey_reuse(void)
{
	long got;

	if (attacked_key == 0)
		return 0;	/* no key to take: the store meets W^X alone */
	if (syscall(SYS_pkey_free, attacked_key) != 0)
		return errno;
	got = syscall(SYS_pkey_alloc, 0, 0);
	if (got < 0)
		return errno;
	return 0;	/* another key: the store tells */
}

/* live-code.c's frame edit, on SIGUSR2 */
static int sigreturn_edit(void)
{
	struct sigaction open_key = { .sa_sigaction = live_code_open_saved_pkru, .sa_flags = SA_SIGINFO };
	struct sigaction saved;

	sigemptyset(&open_key.sa_mask);
	if (sigaction(SIGUSR2, &open_key, &saved) != 0)
		return errno;
	raise(SIGUSR2);
	sigaction(SIGUSR2, &saved, NULL);
	return 0;
}

struct key_scenario {
	const char *name;
	int (*attack)(void);
};

/* in byte order */
static const struct key_scenario scenarios[] = {
	{ "pkey-reuse", pkey_reuse },
	{ "sigreturn-edit", sigreturn_edit },
	{ "store-code", store_code },
};

#define SCENARIOS (sizeof(scenarios) / sizeof(scenarios[0]))

const char *key_attack_scenario(size_t index)
{
	return index < SCENARIOS ? scenarios[index].name : NULL;
}

int key_attack(const char *name, uintptr_t address, size_t size,
	       char *line, size_t line_len)
{
	const struct key_scenario *s = NULL;
	unsigned char before[PAYLOAD_LEN];
	int err, changed;
	size_t i;

	for (i = 0; i < SCENARIOS; i++)
		if (strcmp(scenarios[i].name, name) == 0)
			s = &scenarios[i];
	if (!s) {
		snprintf(line, line_len, "attack unknown-scenario=%s", name);
		return 2;
	}
	if (size < PAYLOAD_LEN) {
		printf("attack setup-failed: the code is shorter than the payload\n");
		fflush(stdout);
		exit(LIVE_CODE_EXIT_SETUP);
	}
	attacked_key = live_code_pkey(address);
	if (attacked_key < 0)
		attacked_key = 0;	/* smaps names none: no key */
	memcpy(before, (const void *)address, sizeof(before));
	err = s->attack();
	if (!err)
		err = live_code_plant(address);
	changed = memcmp(before, (const void *)address, sizeof(before)) != 0;
	snprintf(line, line_len,
		 "attack scenario=%s call=%s outcome=%s errno=%s changed=%s "
		 "code=%lx+%zu pkey=%d",
		 name, err > 0 ? strerrorname_np(err) : "ok",
		 changed ? "LANDED" : err ? "BLOCKED" : "ERROR",
		 err > 0 ? strerrorname_np(err) : err < 0 ? "SIGSEGV" : "-",
		 changed ? "code" : "-", address, size, attacked_key);
	return 0;
}
