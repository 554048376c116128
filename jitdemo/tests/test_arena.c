/*
 * test_arena.c - code memory: W^X at every step, one seal per arena, the
 * kernel's answer reported, sealed memory really refusing mprotect, mremap,
 * mmap over it and (for upstream or --seal=all) munmap.  Vanilla (ENOSYS)
 * and patched 4-argument kernels are simulated with a seccomp filter in a
 * child process.
 *
 * On this host's upstream kernel a sealed arena can never be freed, so only
 * a handful of tests seal.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sealjit/mseal.h>

#include "arena.h"
#include "seccomp_mseal.h"
#include <sealjit/tap.h>

static const char square_src[] = "func sq 1 0\n arg 0\n arg 0\n mul\n ret\n";

/* The permission string of the maps line that contains addr. */
static bool maps_perms(const void *addr, char perms[5])
{
	FILE *maps = fopen("/proc/self/maps", "r");
	char line[512];
	bool found = false;
	while (maps && !found && fgets(line, sizeof line, maps)) {
		unsigned long lo, hi;
		if (sscanf(line, "%lx-%lx %4s", &lo, &hi, perms) == 3 &&
		    (unsigned long)addr >= lo && (unsigned long)addr < hi)
			found = true;
	}
	if (maps)
		fclose(maps);
	return found;
}

static struct jit_module *compile(enum jit_seal_policy policy, bool require,
				  struct jit_diag *diag)
{
	struct jit_module *m = jit_load_string("sq", square_src, sizeof square_src - 1, diag);
	struct jit_options opt = { .seal = policy, .require_seal = require };
	if (m && jit_compile(m, &opt, diag) != 0) {
		jit_release(m, NULL);
		return NULL;
	}
	return m;
}

static bool squares(struct jit_module *m)
{
	int64_t arg = 12, result = 0;
	struct jit_diag diag;
	return m && jit_call(m, "sq", &arg, 1, &result, &diag) == 0 && result == 144;
}

static void check_w_xor_x(struct tap *t)
{
	struct arena a;
	struct jit_diag diag;
	char perms[5] = "";
	bool mapped = arena_map(&a, 100, NULL, &diag);
	tap_ok(t, mapped && a.length % 4096 == 0 && maps_perms(a.base, perms) &&
	       strcmp(perms, "rw-p") == 0, "a new arena is read+write, not executable (%s)", perms);
	static const uint8_t ret = 0xc3;
	tap_ok(t, mapped && arena_write(&a, &ret, 1), "code is written while the arena is RW");
	bool sealed = mapped && arena_seal(&a, JIT_SEAL_NONE, false, &diag);
	tap_ok(t, sealed && maps_perms(a.base, perms) && strcmp(perms, "r-xp") == 0,
	       "after arena_seal it is read+execute, not writable (%s)", perms);
	tap_ok(t, sealed && !arena_write(&a, &ret, 1), "arena_write refuses an executable arena");
	tap_ok(t, mapped && arena_unmap(&a) == 0, "an unsealed arena unmaps");
}

static void check_policy_none(struct tap *t)
{
	struct jit_diag diag;
	struct jit_module *m = compile(JIT_SEAL_NONE, false, &diag);
	struct jit_arena_info info;
	tap_ok(t, m && jit_arena_info(m, &info) == 0 && info.outcome == JIT_SEAL_OUTCOME_POLICY_NONE &&
	       info.types_requested == 0 && info.types_applied == 0 && info.code_bytes > 0,
	       "--seal=none: no seal asked, none applied");
	tap_ok(t, squares(m), "--seal=none: code runs");
	struct jit_release_report report;
	jit_release(m, &report);
	tap_ok(t, report.arena_unmapped && report.unmap_errno == 0, "--seal=none: arena is freed");
	m = compile(JIT_SEAL_NONE, true, &diag);
	tap_ok(t, !m && strstr(diag.text, "--require-seal"), "--require-seal fails without a seal: %s",
	       diag.text);
}

/* Real kernel: whatever it is, a sealed arena must resist changes. */
static void check_real_kernel(struct tap *t)
{
	struct jit_diag diag;
	struct jit_module *m = compile(JIT_SEAL_CARD, false, &diag);
	struct jit_arena_info info = { 0 };
	bool compiled = m && jit_arena_info(m, &info) == 0;
	tap_note("this kernel answered: %s", compiled ? jit_seal_outcome_text(info.outcome) : diag.text);
	tap_ok(t, compiled && (info.outcome == JIT_SEAL_OUTCOME_SEALED ||
			       info.outcome == JIT_SEAL_OUTCOME_UPSTREAM ||
			       info.outcome == JIT_SEAL_OUTCOME_ENOSYS),
	       "--seal=card: the kernel's answer is recognised");
	tap_ok(t, compiled && info.types_requested == (MM_SEAL_MPROTECT | MM_SEAL_MMAP | MM_SEAL_MREMAP),
	       "--seal=card requests mprotect,mmap,mremap");
	tap_ok(t, squares(m), "code runs from the sealed arena");
	bool sealed = compiled && (info.outcome == JIT_SEAL_OUTCOME_SEALED ||
				   info.outcome == JIT_SEAL_OUTCOME_UPSTREAM);
	if (!sealed) {
		tap_skip(t, "kernel did not seal", "sealed arena refuses mprotect, mremap, mmap");
		jit_release(m, NULL);
		return;
	}
	errno = 0;
	int rc = mprotect(info.base, info.length, PROT_READ | PROT_WRITE | PROT_EXEC);
	bool denied = rc != 0 && (errno == EPERM || errno == EACCES);
	void *moved = mremap(info.base, info.length, info.length * 2, MREMAP_MAYMOVE);
	denied = denied && moved == MAP_FAILED;
	void *over = mmap(info.base, info.length, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	denied = denied && over == MAP_FAILED;
	tap_ok(t, denied && squares(m), "sealed arena refuses mprotect, mremap, mmap and still runs");
	struct jit_release_report report;
	jit_release(m, &report);
	if (info.outcome == JIT_SEAL_OUTCOME_UPSTREAM)
		tap_ok(t, !report.arena_unmapped && report.unmap_errno == EPERM,
		       "upstream seal: release reports munmap refused with EPERM, no crash");
	else
		tap_ok(t, report.arena_unmapped, "--seal=card leaves munmap allowed");
}

static void check_seal_all(struct tap *t)
{
	struct jit_diag diag;
	struct jit_module *m = compile(JIT_SEAL_ALL, false, &diag);
	struct jit_arena_info info = { 0 };
	bool compiled = m && jit_arena_info(m, &info) == 0;
	tap_ok(t, compiled && info.types_requested == MM_SEAL_ALL, "--seal=all requests every type");
	if (compiled && (info.outcome == JIT_SEAL_OUTCOME_SEALED ||
			 info.outcome == JIT_SEAL_OUTCOME_UPSTREAM)) {
		struct jit_release_report report;
		jit_release(m, &report);
		tap_ok(t, !report.arena_unmapped &&
		       (report.unmap_errno == EPERM || report.unmap_errno == EACCES),
		       "--seal=all: munmap refused and reported (%s)", strerror(report.unmap_errno));
	} else {
		jit_release(m, NULL);
		tap_skip(t, "kernel did not seal", "--seal=all: munmap refused");
	}
}

/* Runs body in a child under a simulated mseal; its exit code is a bitmask
 * of failed checks. */
static int in_simulation(enum mseal_sim sim, int (*body)(void))
{
	pid_t pid = fork();
	if (pid == 0) {
		if (install_mseal_sim(sim) != 0)
			_exit(255);
		_exit(body());
	}
	int status = 0;
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 254;
	return WEXITSTATUS(status);
}

static int enosys_body(void)
{
	struct jit_diag diag;
	struct jit_module *m = compile(JIT_SEAL_CARD, false, &diag);
	struct jit_arena_info info = { 0 };
	int fails = 0;
	if (!m || jit_arena_info(m, &info) != 0 || info.outcome != JIT_SEAL_OUTCOME_ENOSYS ||
	    info.types_applied != 0 || info.seal_errno != ENOSYS ||
	    !strstr(jit_seal_outcome_text(info.outcome), "code is W^X but not sealed"))
		fails |= 1;
	if (!squares(m))
		fails |= 2;
	struct jit_release_report report;
	jit_release(m, &report);
	if (!report.arena_unmapped)
		fails |= 4;
	m = compile(JIT_SEAL_CARD, true, &diag);
	if (m || !strstr(diag.text, "code is W^X but not sealed"))
		fails |= 8;
	return fails;
}

static int four_arg_body(void)
{
	struct jit_diag diag;
	struct jit_module *m = compile(JIT_SEAL_ALL, true, &diag);
	struct jit_arena_info info = { 0 };
	int fails = 0;
	if (!m || jit_arena_info(m, &info) != 0 || info.outcome != JIT_SEAL_OUTCOME_SEALED ||
	    info.types_applied != MM_SEAL_ALL || info.seal_errno != 0)
		fails |= 1;
	if (!squares(m))
		fails |= 2;
	jit_release(m, NULL);	/* not really sealed: munmap works */
	return fails;
}

static int eperm_body(void)
{
	struct jit_diag diag;
	struct jit_module *m = compile(JIT_SEAL_CARD, false, &diag);
	struct jit_arena_info info = { 0 };
	int fails = 0;
	if (!m || jit_arena_info(m, &info) != 0 || info.outcome != JIT_SEAL_OUTCOME_FAILED ||
	    info.seal_errno != EPERM)
		fails |= 1;
	jit_release(m, NULL);
	m = compile(JIT_SEAL_CARD, true, &diag);
	if (m)
		fails |= 2;
	return fails;
}

static void check_simulations(struct tap *t)
{
	int rc = in_simulation(MSEAL_SIM_ENOSYS, enosys_body);
	if (rc == 255) {
		tap_skip(t, "seccomp unavailable", "simulated kernels");
		return;
	}
	tap_ok(t, rc == 0, "vanilla kernel (ENOSYS, simulated): W^X but not sealed, runs, frees; "
	       "--require-seal fails (mask %d)", rc);
	rc = in_simulation(MSEAL_SIM_FOUR_ARG_OK, four_arg_body);
	tap_ok(t, rc == 0, "patched kernel (4-argument mseal, simulated): reported sealed with "
	       "the requested types (mask %d)", rc);
	rc = in_simulation(MSEAL_SIM_EPERM, eperm_body);
	tap_ok(t, rc == 0, "mseal failing otherwise (EPERM, simulated): reported as failed "
	       "(mask %d)", rc);
}

static void check_hint(struct tap *t)
{
	void *spot = mmap(NULL, 1 << 20, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	void *hint = (char *)spot + (1 << 19);
	munmap(spot, 1 << 20);
	struct jit_diag diag;
	struct jit_module *m = jit_load_string("sq", square_src, sizeof square_src - 1, &diag);
	struct jit_options opt = { .seal = JIT_SEAL_NONE, .hint = hint };
	struct jit_arena_info info = { 0 };
	bool ok = m && jit_compile(m, &opt, &diag) == 0 && jit_arena_info(m, &info) == 0;
	tap_ok(t, ok && info.base == hint, "the arena is placed at a free hint address");
	jit_release(m, NULL);
}

int main(void)
{
	struct tap t;
	tap_start(&t);
	check_w_xor_x(&t);
	check_policy_none(&t);
	check_hint(&t);
	check_simulations(&t);
	check_real_kernel(&t);
	check_seal_all(&t);
	return tap_done(&t);
}
