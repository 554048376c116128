/* SPDX-License-Identifier: GPL-2.0 */
/*
 * policy.c - which seal SEALJIT_SEAL_POLICY asks for, and whether the
 * running kernel can express it.
 *
 *   none      no seal (the control)
 *   pin       MM_SEAL_MUNMAP|MM_SEAL_MMAP|MM_SEAL_MREMAP: the mapping stays
 *             put, its permissions stay free (what Chrome asked for)
 *   card      MM_SEAL_MPROTECT|MM_SEAL_MMAP|MM_SEAL_MREMAP (jitdemo's card)
 *   all       MM_SEAL_ALL
 *   upstream  types == 0: upstream's all-or-nothing mseal(addr, len, 0)
 *
 * At start-up one scratch page is sealed with the policy and then
 * attacked once (munmap, or mprotect for card): a kernel without mseal()
 * (ENOSYS), one that takes no seal types (upstream's ABI: EINVAL), or one
 * whose call succeeds and seals nothing (the RFC's types == 0) cannot
 * express the policy, and the process stops with status 3 and says why:
 * never a silent downgrade to "none".  The scratch page stays sealed.
 */
#define _GNU_SOURCE
#include "preload.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <sealjit/mseal.h>

struct policy {
	const char *name;
	unsigned int types;	/* 0 for upstream's form */
	int seals;
};

static const struct policy known_policies[] = {
	{ "none", 0, 0 },
	{ "pin", MSEAL_TYPES_PIN, 1 },
	{ "card", MSEAL_TYPES_CARD, 1 },
	{ "all", MM_SEAL_ALL, 1 },
	{ "upstream", 0, 1 },
};

static const struct policy *chosen;
static const char *abi_used = "-";

const char *policy_name(void) { return chosen->name; }
unsigned int policy_types(void) { return chosen->types; }
int policy_seals(void) { return chosen->seals; }
const char *policy_abi(void) { return abi_used; }

/* The upstream form passes 0 in the fourth argument too: the series
 * ignores flags when types == 0, upstream has no fourth argument. */
int policy_seal(void *addr, size_t len)
{
	if (sys_mseal(addr, len, chosen->types, 0) == 0)
		return 0;
	return errno;
}

static const struct policy *policy_named(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(known_policies) / sizeof(known_policies[0]); i++)
		if (strcmp(known_policies[i].name, name) == 0)
			return &known_policies[i];
	return NULL;
}

static const char *why_seal_failed(int err)
{
	switch (err) {
	case ENOSYS:
		return "this kernel has no mseal() (ENOSYS)";
	case EINVAL:
		return chosen->types ?
			"mseal() refused seal types (EINVAL): upstream's ABI, "
			"mseal(addr, len, 0), seals everything or nothing" :
			"mseal(addr, len, 0) is EINVAL here";
	default:
		return strerrorname_np(err);
	}
}

/* Does the scratch page refuse what the policy's seal must refuse? */
static int probe_holds(void *page, long pagesize)
{
	if (chosen->types & MM_SEAL_MUNMAP || chosen->types == 0)
		return syscall(SYS_munmap, page, pagesize) != 0;
	return syscall(SYS_mprotect, page, pagesize,
		       PROT_READ | PROT_WRITE | PROT_EXEC) != 0;
}

static void probe_kernel(void)
{
	long pagesize = sysconf(_SC_PAGESIZE);
	void *page = mmap(NULL, pagesize, PROT_READ,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int err;

	if (page == MAP_FAILED)
		report_fatal(PRELOAD_EXIT_NO_POLICY,
			     "cannot map a scratch page to probe mseal()");
	err = policy_seal(page, pagesize);
	if (err)
		report_fatal(PRELOAD_EXIT_NO_POLICY,
			     "policy '%s' cannot be expressed on this kernel "
			     "(probe=%s): %s", chosen->name,
			     strerrorname_np(err), why_seal_failed(err));
	if (!probe_holds(page, pagesize))
		report_fatal(PRELOAD_EXIT_NO_POLICY,
			     "policy '%s' cannot be expressed on this kernel "
			     "(probe=NOSEAL): mseal(types=%#x) succeeded but "
			     "sealed nothing%s",
			     chosen->name, chosen->types,
			     chosen->types ? "" :
			     " (the RFC's ABI: types == 0 is no seal)");
	abi_used = chosen->types ? "mseal(addr,len,types,0)" :
				   "mseal(addr,len,0)";
	report_note("probe: one scratch page sealed with '%s' at %p; "
		    "the kernel refused the probe's %s (%s)",
		    chosen->name, page,
		    chosen->types & MM_SEAL_MUNMAP || !chosen->types ?
		    "munmap" : "mprotect", strerrorname_np(errno));
}

void policy_init(void)
{
	const char *name = getenv("SEALJIT_SEAL_POLICY");

	if (!name)
		report_fatal(PRELOAD_EXIT_BAD_ENV,
			     "SEALJIT_SEAL_POLICY is not set "
			     "(none, pin, card, all or upstream)");
	chosen = policy_named(name);
	if (!chosen)
		report_fatal(PRELOAD_EXIT_BAD_ENV,
			     "unknown SEALJIT_SEAL_POLICY '%s' "
			     "(none, pin, card, all or upstream)", name);
	if (chosen->seals)
		probe_kernel();
}
