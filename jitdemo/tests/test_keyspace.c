/*
 * test_keyspace.c - --seal=pkey, V8's and realjit/luajit/series/'s design in
 * libjit: the key space is mapped read-write-execute under a protection
 * key and sealed before any code is in it, then keeps growing: every later
 * module's code is written through the key, never through mprotect().
 *
 *	test_keyspace sealed|upstream|enosys [N]
 *
 * The word is what the kernel's mseal() should answer for the key space
 * (sealed: the 4-argument call applied every type; upstream: EINVAL, then
 * upstream's mseal(addr, len, 0); enosys: no mseal, the key alone).  N
 * modules (default 200) are compiled after the first.  First, in a fresh
 * child, --seal=keyonly: the same key space left unsealed (the key alone),
 * and a later --seal=pkey module refused in that process.  TAP; without memory
 * protection keys (pkey_alloc fails: this project's hosts) one SKIP plan.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sealjit/intparse.h>
#include <sealjit/smaps.h>
#include <sealjit/tap.h>

#include "libjit.h"

#define EXIT_PKUERR 42	/* the child's store faulted on the key */

static const char source[] = "func f 1 0\n arg 0\n const %d\n add\n ret\n";

/* The mapping of /proc/self/smaps that holds address; false if none. */
static bool vma_of(uintptr_t address, struct smaps_mapping *v)
{
	static char buf[1 << 20];
	return smaps_mapping_at(address, buf, sizeof buf, v);
}

static struct jit_module *compile_with(enum jit_seal_policy policy, int k,
				       struct jit_diag *diag)
{
	char text[128];
	snprintf(text, sizeof text, source, k);
	struct jit_module *m = jit_load_string("gen", text, strlen(text), diag);
	struct jit_options opt = { .seal = policy };
	if (m && jit_compile(m, &opt, diag) != 0) {
		jit_release(m, NULL);
		return NULL;
	}
	return m;
}

static struct jit_module *compile(int k, struct jit_diag *diag)
{
	return compile_with(JIT_SEAL_PKEY, k, diag);
}

static bool calls_right(struct jit_module *m, int k)
{
	int64_t arg = 1000, result = 0;
	struct jit_diag diag;
	return jit_call(m, "f", &arg, 1, &result, &diag) == 0 && result == 1000 + k;
}

static void pkuerr(int sig, siginfo_t *info, void *context)
{
	(void)sig;
	(void)context;
	_exit(info->si_code == SEGV_PKUERR ? EXIT_PKUERR : 1);
}

/* An ordinary store into the code, in a child: EXIT_PKUERR when the key
 * refused it, 0 when it went through, else how the child ended. */
static int store_status(void *code)
{
	pid_t pid = fork();
	if (pid == 0) {
		struct sigaction sa = { .sa_sigaction = pkuerr, .sa_flags = SA_SIGINFO };
		sigaction(SIGSEGV, &sa, NULL);
		*(volatile uint8_t *)code = 0xcc;
		_exit(0);
	}
	int status = 0;
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/*
 * --seal=keyonly, in a fresh child (a process has one key space, and the
 * parent's is made sealed below): what each check found, one bit each.
 */
enum keyonly_bits {
	KEYONLY_RUNS = 1,		/* compiled, unsealed, right answer */
	KEYONLY_KEYED = 2,		/* one rwxp VMA under a key */
	KEYONLY_STORE_FAULTS = 4,	/* the key refuses a store */
	KEYONLY_MPROTECT_WORKS = 8,	/* nothing sealed it */
	KEYONLY_NO_PKEY_MIX = 16,	/* a --seal=pkey module is refused */
	KEYONLY_ALL = 31,
};

static int keyonly_checks(void)
{
	struct jit_diag diag;
	int bits = 0;
	struct jit_module *m = compile_with(JIT_SEAL_KEYONLY, 7, &diag);
	struct jit_arena_info info;
	if (!m || jit_arena_info(m, &info) != 0)
		return 0;
	if (calls_right(m, 7) && info.outcome == JIT_SEAL_OUTCOME_POLICY_NONE &&
	    info.types_applied == 0)
		bits |= KEYONLY_RUNS;
	struct smaps_mapping v;
	if (vma_of((uintptr_t)info.base, &v) && !strcmp(v.perms, "rwxp") && v.pkey > 0)
		bits |= KEYONLY_KEYED;
	if (store_status(info.base) == EXIT_PKUERR)
		bits |= KEYONLY_STORE_FAULTS;
	struct jit_module *sealed = compile_with(JIT_SEAL_PKEY, 8, &diag);
	if (!sealed && strstr(diag.text, "made for --seal=keyonly"))
		bits |= KEYONLY_NO_PKEY_MIX;
	if (mprotect(info.base, info.length, PROT_READ | PROT_EXEC) == 0)
		bits |= KEYONLY_MPROTECT_WORKS;
	return bits;
}

static int keyonly_in_child(void)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0)
		_exit(keyonly_checks());
	int status = 0;
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

int main(int argc, char **argv)
{
	struct tap t;
	struct jit_diag diag;
	int64_t n = 200;
	if (argc < 2 || argc > 3 ||
	    (strcmp(argv[1], "sealed") && strcmp(argv[1], "upstream") && strcmp(argv[1], "enosys")) ||
	    (argc == 3 && intparse_i64(argv[2], 1, 10000, &n) != INTPARSE_OK)) {
		fprintf(stderr, "usage: test_keyspace sealed|upstream|enosys [N (1..10000)]\n");
		return 2;
	}
	int probe = pkey_alloc(0, 0);
	if (probe < 0) {
		char why[128];
		snprintf(why, sizeof why, "no memory protection keys here (pkey_alloc: %s)", strerror(errno));
		tap_skip_all(why);
		return 0;
	}
	pkey_free(probe);
	tap_start(&t);

	int keyonly = keyonly_in_child();
	tap_ok(&t, keyonly == KEYONLY_ALL,
	       "--seal=keyonly (fresh process): runs unsealed %s, one rwxp VMA under a key %s, "
	       "the key refuses a store %s, mprotect() works %s, a pkey module is refused %s",
	       keyonly >= 0 && keyonly & KEYONLY_RUNS ? "yes" : "NO",
	       keyonly >= 0 && keyonly & KEYONLY_KEYED ? "yes" : "NO",
	       keyonly >= 0 && keyonly & KEYONLY_STORE_FAULTS ? "yes" : "NO",
	       keyonly >= 0 && keyonly & KEYONLY_MPROTECT_WORKS ? "yes" : "NO",
	       keyonly >= 0 && keyonly & KEYONLY_NO_PKEY_MIX ? "yes" : "NO");

	struct jit_module *first = compile(0, &diag);
	struct jit_arena_info info = { 0 };
	if (first)
		jit_arena_info(first, &info);
	enum jit_seal_outcome want = !strcmp(argv[1], "sealed") ? JIT_SEAL_OUTCOME_SEALED :
				     !strcmp(argv[1], "upstream") ? JIT_SEAL_OUTCOME_UPSTREAM :
				     JIT_SEAL_OUTCOME_ENOSYS;
	tap_ok(&t, first && calls_right(first, 0) && info.outcome == want,
	       "the first module runs from the key space: %s", first ?
	       jit_seal_outcome_text(info.outcome) : diag.text);
	if (!first)
		goto done;

	struct smaps_mapping space;
	bool mapped = vma_of((uintptr_t)info.base, &space);
	tap_ok(&t, mapped && !strcmp(space.perms, "rwxp") && space.pkey > 0,
	       "the key space is one read-write-execute VMA under a key of its own "
	       "(%s, ProtectionKey %d)", mapped ? space.perms : "none", mapped ? space.pkey : -1);

	long right = 0, inside = 0;
	struct jit_module **later = calloc((size_t)n, sizeof *later);
	for (int64_t k = 0; later && k < n; k++) {
		later[k] = compile((int)k + 1, &diag);
		struct jit_arena_info li;
		if (!later[k] || jit_arena_info(later[k], &li) != 0)
			break;
		right += calls_right(later[k], (int)k + 1);
		inside += (uintptr_t)li.base >= space.start && (uintptr_t)li.base + li.length <= space.end;
	}
	tap_ok(&t, right == n && inside == n,
	       "%" PRId64 " modules compiled after the seal: %ld return their own answer, %ld in the key space's VMA",
	       n, right, inside);
	struct smaps_mapping after;
	tap_ok(&t, vma_of((uintptr_t)info.base, &after) && after.start == space.start &&
	       after.end == space.end && !strcmp(after.perms, "rwxp"),
	       "the key space is still that one VMA: nothing re-protected it");

	int st = store_status(info.base);
	tap_ok(&t, st == EXIT_PKUERR, "outside libjit's write window a store into the code faults on the key "
	       "(SEGV_PKUERR: child status %d)", st);

	int rc = mprotect(info.base, info.length, PROT_READ | PROT_WRITE | PROT_EXEC);
	int err = errno;
	bool refused = rc != 0 && (err == EPERM || err == EACCES);
	tap_ok(&t, want == JIT_SEAL_OUTCOME_ENOSYS ? rc == 0 : refused,
	       "mprotect() of a module's pages: %s (%s)", rc ? strerror(err) : "allowed",
	       want == JIT_SEAL_OUTCOME_ENOSYS ? "no mseal here: the key alone" : "the seal refuses it");

	for (int64_t k = 0; later && k < n; k++)
		jit_release(later[k], NULL);
	free(later);
	struct jit_release_report report;
	jit_release(first, &report);
	tap_ok(&t, want == JIT_SEAL_OUTCOME_ENOSYS ? report.arena_unmapped :
	       !report.arena_unmapped && (report.unmap_errno == EPERM || report.unmap_errno == EACCES),
	       "a released module's pages: %s", report.arena_unmapped ? "unmapped" :
	       "kept, the seal refuses munmap");
done:
	return tap_done(&t);
}
