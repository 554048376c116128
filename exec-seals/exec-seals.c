// SPDX-License-Identifier: GPL-2.0
/*
 * exec-seals - seals do not survive exec; system mappings are sealed at
 * exec exactly when the kernel says so.
 *
 *   exec-seals --kernel NAME
 *
 * The old image fills a page of its own .bss with a marker, seals it and
 * an anonymous range with whatever mseal() the kernel has, checks the
 * seals took, and execs itself.  The new image (--after-exec STATE,
 * numbering TAP on) checks that it is a new image of the same process
 * (same pid, the marker gone), that no old seal survived, then the system
 * mappings (sysmap.c).  NAME, a kernel of kernel/kernels.tsv, says what to
 * expect: its row's abi, errno, smaps and sysmap.  Misuse, a bad STATE
 * included, exits 2.
 */
#define _GNU_SOURCE
#include "exec-seals.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <sealjit/intparse.h>
#include <sealjit/mseal.h>

#define PLAN 19
/* Far from anything either image maps on its own. */
#define ANON_AT ((uintptr_t)0x200000000000)
/* What the old image leaves in its .bss page; the new one must not see it. */
#define MARKER 0xa5

/* A page of its own in .bss: the same address in both images (no PIE). */
unsigned char bss_page[PAGE] __attribute__((aligned(PAGE)));

static const char *abi_name(enum mseal_abi abi)
{
	static const char *const names[] = {
		[MSEAL_ABI_NONE] = "none (ENOSYS)",
		[MSEAL_ABI_TYPES] = "mseal(addr, len, types, flags)",
		[MSEAL_ABI_UPSTREAM] = "mseal(addr, len, 0)",
	};
	return names[abi];
}

/* What the running kernel answers, on a page sealed for nothing else. */
static enum mseal_abi probe_abi(void)
{
	enum mseal_abi abi;

	if (mseal_probe(&abi) != 0)
		tap_bail("mseal() probe failed: %s", strerror(errno));
	return abi;
}

static int seal(const struct run *run, void *addr, size_t len)
{
	if (run->kernel->abi == MSEAL_ABI_TYPES)
		return sys_mseal(addr, len, MM_SEAL_ALL, 0);
	return sys_mseal_upstream(addr, len);
}

static void check_abi(struct run *run)
{
	enum mseal_abi abi = probe_abi();

	tap_ok(&run->tap, abi == run->kernel->abi, "%s has mseal ABI %s (found %s)",
	       run->kernel->name, abi_name(run->kernel->abi), abi_name(abi));
	if (abi != run->kernel->abi)
		tap_bail("not the kernel --kernel %s names", run->kernel->name);
}

static void seal_both(struct run *run)
{
	const char *none = run->kernel->abi == MSEAL_ABI_NONE ?
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
		tap_skip(&run->tap, none, "seal an anonymous range before exec");
		tap_skip(&run->tap, none, "seal a .bss page before exec");
		return;
	}
	ok = seal(run, anon, ANON_LEN) == 0;
	tap_ok(&run->tap, ok, "seal an anonymous range before exec: %s",
	       ok ? "done" : strerrorname_np(errno));
	ok2 = seal(run, bss_page, PAGE) == 0;
	tap_ok(&run->tap, ok2, "seal a .bss page before exec: %s",
	       ok2 ? "done" : strerrorname_np(errno));
	run->sealed = ok && ok2;
}

/* The seals took: a refused mprotect(), and smaps shows them. */
static void check_sealed(struct run *run)
{
	const struct sealjit_kernel *k = run->kernel;
	struct mapping m = { 0 };
	int ret, err;
	bool ok;

	if (!run->sealed) {
		tap_skip(&run->tap, "nothing sealed", "the sealed range refuses mprotect()");
		tap_skip(&run->tap, "nothing sealed", "smaps shows the seal");
		return;
	}
	errno = 0;
	ret = mprotect((void *)run->anon, ANON_LEN, PROT_READ);
	err = errno;
	tap_ok(&run->tap, ret == -1 && err == k->refusal,
	       "the sealed range refuses mprotect() with %s (got %d, %s)",
	       strerrorname_np(k->refusal), ret, strerrorname_np(err));
	if (k->smaps == SMAPS_STYLE_NONE) {
		tap_skip(&run->tap, "this kernel's smaps shows no seals",
			 "smaps shows the seal");
		return;
	}
	ok = smaps_find_addr(run->anon, &m) && mapping_fully_sealed(&m, k->smaps);
	tap_ok(&run->tap, ok,
	       "smaps shows the seal (Seals: '%s', sl %d)", m.seals, m.sl);
}

void before_exec(struct run *run, char *argv0)
{
	char state[192];
	char *args[] = { argv0, "--kernel", (char *)run->kernel->name,
			 "--after-exec", state, NULL };

	tap_start(&run->tap);
	tap_plan(&run->tap, PLAN);
	check_abi(run);
	/* a mark the new image must not find: its .bss is its own, zero */
	memset(bss_page, MARKER, PAGE);
	seal_both(run);
	check_sealed(run);
	run->pid = getpid();
	snprintf(state, sizeof(state),
		 "pid=%d,next=%u,failed=%u,skipped=%u,anon=%#" PRIxPTR ",page=%#"
		 PRIxPTR ",sealed=%d", run->pid, run->tap.count + 1, run->tap.failed,
		 run->tap.skipped, run->anon, run->page, run->sealed);
	fflush(stdout);
	execv("/proc/self/exe", args);
	tap_ok(&run->tap, false, "exec itself: %s", strerror(errno));
	tap_bail("exec failed");
}

static void usage(const char *problem, const char *word)
{
	if (problem && word)
		fprintf(stderr, "exec-seals: %s '%s'\n", problem, word);
	else if (problem)
		fprintf(stderr, "exec-seals: %s\n", problem);
	fprintf(stderr, "usage: exec-seals --kernel NAME\n  NAME (kernel/kernels.tsv):");
	for (size_t i = 0; i < SEALJIT_KERNEL_COUNT; i++)
		fprintf(stderr, " %s", sealjit_kernels[i].name);
	fputc('\n', stderr);
	exit(2);
}

/* The --after-exec state the old image wrote is not one: misuse. */
static void bad_state(const char *state, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
static void bad_state(const char *state, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "exec-seals: bad --after-exec state '%s': ", state);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

/*
 * "KEY=VALUE" at *pos, VALUE a whole number in [min, max] (intparse.h),
 * then a comma, or for the last field the end of the text.
 */
static uint64_t state_field(const char *state, const char **pos,
			    const char *key, uint64_t min, uint64_t max,
			    bool last)
{
	size_t klen = strlen(key), vlen;
	const char *text = *pos, *end;
	char value[24];
	enum intparse_error error;
	uint64_t v = 0;

	if (strncmp(text, key, klen) || text[klen] != '=')
		bad_state(state, "no %s= where '%s' is", key, text);
	text += klen + 1;
	end = text + strcspn(text, ",");
	vlen = (size_t)(end - text);
	if (vlen >= sizeof(value))
		bad_state(state, "%s=%.*s is too long", key, (int)vlen, text);
	memcpy(value, text, vlen);
	value[vlen] = '\0';
	error = intparse_u64(value, min, max, &v);
	if (error != INTPARSE_OK)
		bad_state(state, "%s=%s: %s (%" PRIu64 "..%" PRIu64 ")", key,
			  value, intparse_strerror(error), min, max);
	if (last && *end)
		bad_state(state, "'%s' after %s", end, key);
	if (!last && *end != ',')
		bad_state(state, "it ends after %s", key);
	*pos = last ? end : end + 1;
	return v;
}

static void parse_state(const char *state, struct run *run)
{
	const char *p = state;

	run->pid = (int)state_field(state, &p, "pid", 1, INT_MAX, false);
	run->tap.count = (unsigned int)state_field(state, &p, "next", 1, PLAN, false) - 1;
	run->tap.failed = (unsigned int)state_field(state, &p, "failed", 0, PLAN, false);
	run->tap.skipped = (unsigned int)state_field(state, &p, "skipped", 0, PLAN, false);
	run->anon = (uintptr_t)state_field(state, &p, "anon", 0, UINTPTR_MAX, false);
	run->page = (uintptr_t)state_field(state, &p, "page", 0, UINTPTR_MAX, false);
	run->sealed = state_field(state, &p, "sealed", 0, 1, true);
	if (run->tap.failed + run->tap.skipped > run->tap.count)
		bad_state(state, "%u failed and %u skipped of %u tests",
			  run->tap.failed, run->tap.skipped, run->tap.count);
}

/*
 * The options, in pairs; true in the new image (--after-exec).  argc 0
 * (no argv[0]: Linux before 5.18 allowed it) is misuse too.
 */
static bool parse_args(int argc, char **argv, struct run *run)
{
	const char *state = NULL;
	const struct sealjit_kernel *k = NULL;

	if (argc < 1)
		usage("no arguments, not even a name", NULL);
	if (argc % 2 == 0)
		usage(argc > 1 ? "no value for" : NULL, argv[argc - 1]);
	for (int i = 1; i < argc; i += 2) {
		if (strcmp(argv[i], "--kernel") == 0) {
			k = sealjit_kernel_find(argv[i + 1]);
			if (!k)
				usage("unknown kernel", argv[i + 1]);
		} else if (strcmp(argv[i], "--after-exec") == 0) {
			state = argv[i + 1];
		} else {
			usage("unknown option", argv[i]);
		}
	}
	if (!k)
		usage("missing", "--kernel");
	run->kernel = k;
	run->tap = (struct tap){ .planned = true };
	if (state)
		parse_state(state, run);
	return state != NULL;
}

/* The same process (its pid), a new image: its .bss has none of the marker. */
static void check_new_image(struct run *run)
{
	size_t marked = 0;

	for (size_t i = 0; i < PAGE; i++)
		marked += bss_page[i] != 0;
	tap_ok(&run->tap, getpid() == run->pid && marked == 0,
	       "exec'd a new image of itself: pid %d (the old image's %d), "
	       "%zu of the %d bytes the old image marked in .bss at %p non-zero",
	       (int)getpid(), run->pid, marked, PAGE, (void *)bss_page);
}

int main(int argc, char **argv)
{
	struct run run = { 0 };

	if (sysconf(_SC_PAGESIZE) != PAGE)
		tap_bail("page size is not %d", PAGE);
	if (!parse_args(argc, argv, &run))
		before_exec(&run, argv[0]);
	check_new_image(&run);
	after_exec(&run);
	check_system_mappings(&run);
	if (run.tap.count != PLAN)
		tap_bail("ran %u tests, planned %d", run.tap.count, PLAN);
	printf("# %s (system mappings %s): %u passed, %u skipped, %u failed\n",
	       run.kernel->name, run.kernel->sysmap ? "sealed" : "not sealed",
	       PLAN - run.tap.failed - run.tap.skipped, run.tap.skipped, run.tap.failed);
	return run.tap.failed ? 1 : 0;
}
