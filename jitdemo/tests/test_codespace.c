/*
 * test_codespace.c - the code space: N modules (default 10000) compiled
 * with the default seal policy, called, released; then how many VMAs the
 * code space takes, what it costs in memory, and how much is pinned.
 *
 *	test_codespace [N] [merge|report|auto]
 *
 * merge   assert the code space is at most MAX_MERGED_VMAS VMAs (kernels
 *         that merge identically sealed neighbours: upstream 6.12; and
 *         vanilla, where nothing is sealed and RX neighbours merge anyway)
 * report  only report the count (kernels that do not merge sealed VMAs
 *         yet: our mseal series today, v1)
 * auto    merge unless the kernel took the 4-argument mseal() (default)
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sealjit/intparse.h>

#include "libjit.h"
#include <sealjit/tap.h>

#define MAX_MERGED_VMAS 4	/* RX code, the PROT_NONE rest, a split or two */

static const char source[] = "func f 1 0\n arg 0\n const %d\n add\n ret\n";

/* VMAs overlapping [lo, hi) and their Rss in KiB, from /proc/self/smaps. */
static int count_vmas(uintptr_t lo, uintptr_t hi, long *rss_kb)
{
	FILE *smaps = fopen("/proc/self/smaps", "r");
	char line[512];
	int count = 0;
	bool inside = false;
	*rss_kb = 0;
	while (smaps && fgets(line, sizeof line, smaps)) {
		unsigned long start, end;
		long kb;
		char dash;
		if (sscanf(line, "%lx%c%lx ", &start, &dash, &end) == 3 && dash == '-') {
			inside = start < hi && end > lo;
			count += inside;
		} else if (inside && sscanf(line, "Rss: %ld kB", &kb) == 1) {
			*rss_kb += kb;
		}
	}
	if (smaps)
		fclose(smaps);
	return smaps ? count : -1;
}

static long vm_rss_kb(void)
{
	FILE *status = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;
	while (status && fgets(line, sizeof line, status))
		if (sscanf(line, "VmRSS: %ld kB", &kb) == 1)
			break;
	if (status)
		fclose(status);
	return kb;
}

/* Compiles, calls and releases one module; its seal outcome in *outcome. */
static bool one_module(int i, enum jit_seal_outcome *outcome)
{
	char text[128];
	struct jit_diag diag;
	int len = snprintf(text, sizeof text, source, i);
	struct jit_module *m = jit_load_string("cs", text, (size_t)len, &diag);
	struct jit_options opt = jit_default_options();
	struct jit_arena_info info;
	int64_t arg = 1000000, result = 0;
	bool ok = m && jit_compile(m, &opt, &diag) == 0 && jit_arena_info(m, &info) == 0 &&
		  jit_call(m, "f", &arg, 1, &result, &diag) == 0 && result == 1000000 + i;
	if (ok)
		*outcome = info.outcome;
	jit_release(m, NULL);
	return ok;
}

int main(int argc, char **argv)
{
	int64_t n = 10000;
	const char *mode = argc > 2 ? argv[2] : "auto";
	if (argc > 1 && intparse_i64(argv[1], 1, 1000000, &n) != INTPARSE_OK) {
		fprintf(stderr, "usage: %s [N] [merge|report|auto]\n", argv[0]);
		return 2;
	}
	struct tap t;
	tap_start(&t);
	long rss_before = vm_rss_kb();
	enum jit_seal_outcome outcome = JIT_SEAL_OUTCOME_NOT_YET;
	int64_t good = 0;
	for (int64_t i = 0; i < n; i++)
		good += one_module((int)(i % 100000), &outcome);
	tap_ok(&t, good == n, "%" PRId64 " of %" PRId64 " modules compiled, ran and were released",
	       good, n);
	struct jit_code_space_info cs;
	jit_code_space_info(&cs);
	long rss_kb;
	uintptr_t lo = (uintptr_t)cs.base;
	int vmas = count_vmas(lo, lo + cs.reserved, &rss_kb);
	tap_ok(&t, cs.reservations == 1 && cs.used >= (size_t)n * 4096,
	       "one reservation holds them all: %zu bytes used of %zu", cs.used, cs.reserved);
	tap_ok(&t, cs.modules_released == (size_t)n && cs.modules_live == 0 &&
	       cs.bytes_pinned + cs.bytes_freed == cs.used,
	       "every released module is accounted: %zu pinned (%zu KiB), %zu KiB freed",
	       cs.modules_pinned, cs.bytes_pinned / 1024, cs.bytes_freed / 1024);
	bool expect_merge = strcmp(mode, "merge") == 0 ||
		(strcmp(mode, "auto") == 0 && outcome != JIT_SEAL_OUTCOME_SEALED);
	tap_note("seal outcome: %s", jit_seal_outcome_text(outcome));
	tap_note("code space: %d VMA(s), Rss %ld KiB; process VmRSS %ld KiB (%ld KiB before)",
		 vmas, rss_kb, vm_rss_kb(), rss_before);
	if (expect_merge)
		tap_ok(&t, vmas >= 1 && vmas <= MAX_MERGED_VMAS,
		       "%" PRId64 " modules take %d VMA(s) (bound %d: sealed neighbours merge)",
		       n, vmas, MAX_MERGED_VMAS);
	else
		tap_ok(&t, vmas >= 1, "%" PRId64 " modules take %d VMA(s) (reported only: "
		       "this kernel is not expected to merge sealed neighbours yet)", n, vmas);
	return tap_done(&t);
}
