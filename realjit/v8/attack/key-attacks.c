/* SPDX-License-Identifier: GPL-2.0 */
/*
 * key-attacks.c - the attacks on a JIT's protection key (key-attacks.h).
 */
#define _GNU_SOURCE
#include "key-attacks.h"
#include "live-code.h"

#include <cpuid.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#define XSAVE_HEADER_OFFSET 512	/* XSTATE_BV, in the standard format */
#define XFEATURE_PKRU 9

#define PAYLOAD_LEN 12	/* live-code.h's payload */

/* The ProtectionKey of the smaps entry that holds address; 0 for none. */
static int code_key(uintptr_t address)
{
	FILE *smaps = fopen("/proc/self/smaps", "r");
	char text[256];
	unsigned long lo, hi;
	int in = 0, key = 0;

	if (!smaps)
		return 0;
	while (fgets(text, sizeof(text), smaps)) {
		if (sscanf(text, "%lx-%lx ", &lo, &hi) == 2 && strchr(text, '-') < strchr(text, ' '))
			in = lo <= address && address < hi;
		else if (in && sscanf(text, "ProtectionKey: %d", &key) == 1)
			break;
	}
	fclose(smaps);
	return key;
}

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

static void open_saved_pkru(int sig, siginfo_t *info, void *context)
{
	ucontext_t *uc = context;
	unsigned char *xsave = (unsigned char *)uc->uc_mcontext.fpregs;
	unsigned int size, offset, ecx, edx;
	unsigned long long bv;

	(void)sig;
	(void)info;
	__cpuid_count(0xd, XFEATURE_PKRU, size, offset, ecx, edx);
	if (!xsave || size < 4 || offset < XSAVE_HEADER_OFFSET + 64)
		return;
	memcpy(&bv, xsave + XSAVE_HEADER_OFFSET, sizeof(bv));
	bv |= 1ULL << XFEATURE_PKRU;
	memcpy(xsave + XSAVE_HEADER_OFFSET, &bv, sizeof(bv));
	memset(xsave + offset, 0, 4);	/* PKRU 0: every key open */
}

static int sigreturn_edit(void)
{
	struct sigaction open_key = { .sa_sigaction = open_saved_pkru, .sa_flags = SA_SIGINFO };
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
	attacked_key = code_key(address);
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
