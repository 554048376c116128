// SPDX-License-Identifier: GPL-2.0
/*
 * exec-seals - seals do not survive exec; system mappings are sealed at
 * exec exactly when the kernel says so.
 *
 *   exec-seals --kernel NAME [--sysmap on|off]
 *
 * The old image seals an anonymous range and a page of its own .bss with
 * whatever mseal() the kernel has, checks the seals took, and execs
 * itself.  The new image (--after-exec, numbering TAP on) checks that no
 * old seal survived, then checks the system mappings (sysmap.c).  NAME
 * says what to expect, as attacks/ does: see the kernels table.
 */
#define _GNU_SOURCE
#include "exec-seals.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <sealjit/mseal.h>

#define PLAN 19
/* Far from anything either image maps on its own. */
#define ANON_AT ((uintptr_t)0x200000000000)

static const struct kernel kernels[] = {
	{ "vanilla", ABI_NONE, 0, SMAPS_NONE, false },
	{ "v1", ABI_SERIES, EACCES, SMAPS_NONE, false },
	{ "mseal", ABI_SERIES, EACCES, SMAPS_SEALS, false },
	{ "upstream", ABI_UPSTREAM, EPERM, SMAPS_SL, false },
	{ "upstream-fixes", ABI_UPSTREAM, EPERM, SMAPS_SL, false },
};

/* A page of its own in .bss: the same address in both images (no PIE). */
unsigned char bss_page[PAGE] __attribute__((aligned(PAGE)));

static void tap_line(struct run *run, const char *status, const char *why,
		     const char *fmt, va_list ap)
{
	if (!why && strcmp(status, "ok"))
		run->failed++;
	if (why)
		run->skipped++;
	printf("%s %u - ", status, run->next++);
	vprintf(fmt, ap);
	if (why)
		printf(" # SKIP %s", why);
	putchar('\n');
	fflush(stdout);
}

void tap_ok(struct run *run, bool ok, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_line(run, ok ? "ok" : "not ok", NULL, fmt, ap);
	va_end(ap);
}

void tap_skip(struct run *run, const char *why, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_line(run, "ok", why, fmt, ap);
	va_end(ap);
}

void tap_bail(const char *fmt, ...)
{
	va_list ap;

	printf("Bail out! ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	exit(1);
}

static const char *abi_name(enum abi abi)
{
	static const char *const names[] = {
		[ABI_NONE] = "none (ENOSYS)",
		[ABI_SERIES] = "mseal(addr, len, types, flags)",
		[ABI_UPSTREAM] = "mseal(addr, len, 0)",
	};
	return names[abi];
}

/* What the running kernel answers, on a page sealed for nothing else. */
static enum abi probe_abi(void)
{
	void *p = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		tap_bail("mmap: %s", strerror(errno));
	if (sys_mseal(p, PAGE, MM_SEAL_ALL, 0) == 0)
		return ABI_SERIES;
	if (errno == ENOSYS)
		return ABI_NONE;
	if (errno == EINVAL && sys_mseal_upstream(p, PAGE) == 0)
		return ABI_UPSTREAM;
	tap_bail("mseal() probe failed: %s", strerror(errno));
}

static int seal(const struct run *run, void *addr, size_t len)
{
	if (run->kernel->abi == ABI_SERIES)
		return sys_mseal(addr, len, MM_SEAL_ALL, 0);
	return sys_mseal_upstream(addr, len);
}

static void check_abi(struct run *run)
{
	enum abi abi = probe_abi();

	tap_ok(run, abi == run->kernel->abi, "%s has mseal ABI %s (found %s)",
	       run->kernel->name, abi_name(run->kernel->abi), abi_name(abi));
	if (abi != run->kernel->abi)
		tap_bail("not the kernel --kernel %s names", run->kernel->name);
}

static void seal_both(struct run *run)
{
	const char *none = run->kernel->abi == ABI_NONE ?
			   "kernel has no mseal (ENOSYS)" : NULL;
	void *anon = mmap((void *)ANON_AT, ANON_LEN, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
			  -1, 0);
	bool ok, ok2;

	if (anon != (void *)ANON_AT)
		tap_bail("mmap at %#" PRIxPTR ": %s", ANON_AT, strerror(errno));
	run->anon = ANON_AT;
	run->page = (uintptr_t)bss_page;
	if (none) {
		tap_skip(run, none, "seal an anonymous range before exec");
		tap_skip(run, none, "seal a .bss page before exec");
		return;
	}
	ok = seal(run, anon, ANON_LEN) == 0;
	tap_ok(run, ok, "seal an anonymous range before exec: %s",
	       ok ? "done" : strerrorname_np(errno));
	ok2 = seal(run, bss_page, PAGE) == 0;
	tap_ok(run, ok2, "seal a .bss page before exec: %s",
	       ok2 ? "done" : strerrorname_np(errno));
	run->sealed = ok && ok2;
}

/* The seals took: a refused mprotect(), and smaps shows them. */
static void check_sealed(struct run *run)
{
	const struct kernel *k = run->kernel;
	struct mapping m = { 0 };
	int ret, err;
	bool ok;

	if (!run->sealed) {
		tap_skip(run, "nothing sealed", "the sealed range refuses mprotect()");
		tap_skip(run, "nothing sealed", "smaps shows the seal");
		return;
	}
	errno = 0;
	ret = mprotect((void *)run->anon, ANON_LEN, PROT_READ);
	err = errno;
	tap_ok(run, ret == -1 && err == k->refusal,
	       "the sealed range refuses mprotect() with %s (got %d, %s)",
	       strerrorname_np(k->refusal), ret, strerrorname_np(err));
	if (k->smaps == SMAPS_NONE) {
		tap_skip(run, "this kernel's smaps shows no seals",
			 "smaps shows the seal");
		return;
	}
	ok = smaps_find_addr(run->anon, &m) && mapping_fully_sealed(&m, k->smaps);
	tap_ok(run, ok,
	       "smaps shows the seal (Seals: '%s', sl %d)", m.seals, m.sl);
}

void before_exec(struct run *run, char *argv0)
{
	char state[160];
	char *args[] = { argv0, "--kernel", (char *)run->kernel->name,
			 "--sysmap", run->kernel->sysmap ? "on" : "off",
			 "--after-exec", state, NULL };

	printf("TAP version 13\n1..%d\n", PLAN);
	check_abi(run);
	seal_both(run);
	check_sealed(run);
	snprintf(state, sizeof(state),
		 "next=%u,failed=%u,skipped=%u,anon=%#" PRIxPTR ",page=%#"
		 PRIxPTR ",sealed=%d", run->next, run->failed, run->skipped,
		 run->anon, run->page, run->sealed);
	fflush(stdout);
	execv("/proc/self/exe", args);
	tap_ok(run, false, "exec itself: %s", strerror(errno));
	tap_bail("exec failed");
}

static const struct kernel *kernel_named(const char *name)
{
	for (size_t i = 0; i < sizeof(kernels) / sizeof(kernels[0]); i++)
		if (strcmp(kernels[i].name, name) == 0)
			return &kernels[i];
	return NULL;
}

static void usage(const char *problem, const char *word)
{
	if (problem)
		fprintf(stderr, "exec-seals: %s '%s'\n", problem, word);
	fprintf(stderr, "usage: exec-seals --kernel NAME [--sysmap on|off]\n"
		"  NAME: vanilla v1 mseal upstream upstream-fixes\n"
		"  --sysmap on: the kernel has CONFIG_MSEAL_SYSTEM_MAPPINGS\n");
	exit(2);
}

static void parse_state(const char *text, struct run *run)
{
	int sealed = 0;

	if (sscanf(text, "next=%u,failed=%u,skipped=%u,anon=%" SCNxPTR
		   ",page=%" SCNxPTR ",sealed=%d", &run->next, &run->failed,
		   &run->skipped, &run->anon, &run->page, &sealed) != 6)
		tap_bail("bad --after-exec state '%s'", text);
	run->sealed = sealed;
}

static struct kernel chosen;

/* The options, in pairs; true in the new image (--after-exec). */
static bool parse_args(int argc, char **argv, struct run *run)
{
	const char *sysmap = NULL, *state = NULL;
	const struct kernel *k = NULL;

	if (argc % 2 == 0)
		usage(argc > 1 ? "no value for" : NULL, argv[argc - 1]);
	for (int i = 1; i < argc; i += 2) {
		if (strcmp(argv[i], "--kernel") == 0) {
			k = kernel_named(argv[i + 1]);
			if (!k)
				usage("unknown kernel", argv[i + 1]);
		} else if (strcmp(argv[i], "--sysmap") == 0) {
			sysmap = argv[i + 1];
		} else if (strcmp(argv[i], "--after-exec") == 0) {
			state = argv[i + 1];
		} else {
			usage("unknown option", argv[i]);
		}
	}
	if (!k)
		usage("missing", "--kernel");
	if (sysmap && strcmp(sysmap, "on") && strcmp(sysmap, "off"))
		usage("--sysmap is on or off, not", sysmap);
	chosen = *k;
	if (sysmap)
		chosen.sysmap = strcmp(sysmap, "on") == 0;
	run->kernel = &chosen;
	run->next = 1;
	if (state)
		parse_state(state, run);
	return state != NULL;
}

int main(int argc, char **argv)
{
	struct run run = { 0 };

	if (sysconf(_SC_PAGESIZE) != PAGE)
		tap_bail("page size is not %d", PAGE);
	if (!parse_args(argc, argv, &run))
		before_exec(&run, argv[0]);
	printf("# new image: pid %d, bss page %p\n", (int)getpid(), (void *)bss_page);
	tap_ok(&run, true, "exec'd a new image of itself");
	after_exec(&run);
	check_system_mappings(&run);
	if (run.next != PLAN + 1)
		tap_bail("ran %u tests, planned %d", run.next - 1, PLAN);
	printf("# %s (system mappings %s): %u passed, %u skipped, %u failed\n",
	       run.kernel->name, run.kernel->sysmap ? "sealed" : "not sealed",
	       PLAN - run.failed - run.skipped, run.skipped, run.failed);
	return run.failed ? 1 : 0;
}
