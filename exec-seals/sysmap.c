// SPDX-License-Identifier: GPL-2.0
/*
 * sysmap.c - in the new image: the system mappings ([vdso], [vvar]) are
 * sealed when the kernel seals them at exec (CONFIG_MSEAL_SYSTEM_MAPPINGS)
 * and not otherwise.  Every call that could break the vDSO runs in a
 * forked child; a refused one must leave the vDSO working there.
 */
#define _GNU_SOURCE
#include "exec-seals.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

/* What a child saw: the call's result, then the state it left. */
struct outcome {
	int ret, err;
	bool vdso_ok;		/* the vDSO still works after the call */
	bool below_kept;	/* the mapping below [vvar] is unchanged */
	bool below_forks;	/* ... and a fork()ed child has it, as written */
};

struct sysmap {
	struct mapping vdso;
	uintptr_t low, high;	/* [vvar] to the end of [vdso] */
	uintptr_t below;	/* two pages of ours just under low, or 0 */
	vdso_gettime_fn gettime;
};

typedef int (*call_fn)(const struct sysmap *s);

/* The mapping below the system mappings, as placed and untouched? */
static bool below_kept(const struct sysmap *s)
{
	struct mapping m;

	return s->below && smaps_find_addr(s->below + PAGE, &m) &&
	       m.start <= s->below && m.end == s->low &&
	       strcmp(m.perms, "rw-p") == 0;
}

/* What place_below() writes at the start of the mapping below. */
#define BELOW_MARK 0x5a

/*
 * Does a child of ours have the mapping below, with what we wrote there?
 * Fork advice wrongly taken would leave it out of the child (MADV_DONTFORK)
 * or empty there (MADV_WIPEONFORK), which its flags in smaps do not show.
 */
static bool below_forks(const struct sysmap *s)
{
	int status = 0;
	pid_t pid;

	if (!s->below)
		return false;
	fflush(NULL);
	pid = fork();
	if (pid == 0)
		_exit(*(volatile char *)s->below == BELOW_MARK ? 0 : 1);
	return pid > 0 && waitpid(pid, &status, 0) == pid &&
	       WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static void child(call_fn call, const struct sysmap *s, int fd)
{
	struct outcome o = { 0 };

	errno = 0;
	o.ret = call(s);
	o.err = errno;
	if (o.ret) {
		o.vdso_ok = vdso_works(s->gettime);
		o.below_kept = below_kept(s);
		o.below_forks = below_forks(s);
	}
	_exit(write(fd, &o, sizeof(o)) == sizeof(o) ? 0 : 1);
}

/* Runs @call in a child; false, with @why, if the child died. */
static bool in_child(call_fn call, const struct sysmap *s, struct outcome *o,
		     char *why, size_t len)
{
	int fds[2], status = 0;
	ssize_t got;
	pid_t pid;

	if (pipe(fds))
		tap_bail("pipe: %s", strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		child(call, s, fds[1]);
	}
	close(fds[1]);
	got = pid > 0 ? read(fds[0], o, sizeof(*o)) : -1;
	close(fds[0]);
	if (pid > 0)
		waitpid(pid, &status, 0);
	if (got == (ssize_t)sizeof(*o))
		return true;
	snprintf(why, len, "the child %s %d", WIFSIGNALED(status) ?
		 "died of signal" : "exited", WIFSIGNALED(status) ?
		 WTERMSIG(status) : WEXITSTATUS(status));
	return false;
}

/*
 * The kernel seals its system mappings as upstream's mseal(addr, len, 0)
 * does, so a refusal reports upstream's EPERM on every kernel, the 6.1
 * series included (its patch 46).
 */
#define SYSMAP_REFUSAL EPERM

/*
 * Sealed: refused with EPERM, the vDSO still works and, when @below
 * matters, the mapping below is as it was.  Not sealed: done.
 */
static void judge(struct run *run, call_fn call, const struct sysmap *s,
		  bool below, const char *what)
{
	const struct sealjit_kernel *k = run->kernel;
	struct outcome o;
	char why[64];

	if (!in_child(call, s, &o, why, sizeof(why))) {
		tap_ok(&run->tap, false, "%s: %s", what, why);
		return;
	}
	if (!k->sysmap) {
		if (o.ret == 0)
			tap_ok(&run->tap, true, "%s: done, not sealed", what);
		else
			tap_ok(&run->tap, false, "%s: refused (%d, %s), but should "
			       "be done: not sealed", what, o.ret,
			       strerrorname_np(o.err));
		return;
	}
	if (o.ret == 0) {
		tap_ok(&run->tap, false, "%s: done, but should be refused with %s",
		       what, strerrorname_np(SYSMAP_REFUSAL));
		return;
	}
	tap_ok(&run->tap, o.ret == -1 && o.err == SYSMAP_REFUSAL && o.vdso_ok &&
		    (!below || (o.below_kept && o.below_forks)),
	       "%s: refused with %s (%d, %s), vDSO %s%s", what,
	       strerrorname_np(SYSMAP_REFUSAL), o.ret, strerrorname_np(o.err),
	       o.vdso_ok ? "works" : "BROKEN",
	       !below ? "" : !o.below_kept ? ", mapping below CHANGED" :
	       o.below_forks ? ", mapping below kept" :
	       ", mapping below NOT FORKED");
}

static int protect_vdso(const struct sysmap *s)
{
	return mprotect((void *)s->vdso.start, s->vdso.end - s->vdso.start,
			PROT_READ | PROT_WRITE | PROT_EXEC);
}

static int move_vdso(const struct sysmap *s)
{
	size_t len = s->vdso.end - s->vdso.start;
	void *to = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (to == MAP_FAILED)
		return -2;
	return mremap((void *)s->vdso.start, len, len,
		      MREMAP_MAYMOVE | MREMAP_FIXED, to) == to ? 0 : -1;
}

static int unmap_vdso(const struct sysmap *s)
{
	return munmap((void *)s->vdso.start, s->vdso.end - s->vdso.start);
}

/* From our mapping below [vvar] through [vdso]: only a range walk sees it. */
static int protect_from_below(const struct sysmap *s)
{
	return mprotect((void *)s->below, s->high - s->below, PROT_READ);
}

/*
 * Fork advice from our mapping below [vvar] through [vdso]: a process that
 * never sealed anything finds the seal only past the VMA it starts in.
 */
static int dontfork_from_below(const struct sysmap *s)
{
	return madvise((void *)s->below, s->high - s->below, MADV_DONTFORK);
}

/* From the middle of it, so that the unmap would split it first. */
static int unmap_from_below(const struct sysmap *s)
{
	return munmap((void *)(s->below + PAGE), s->high - s->below - PAGE);
}

static bool span(const struct mapping *m, void *arg)
{
	struct sysmap *s = arg;

	if (strcmp(m->name, "[vdso]") && strncmp(m->name, "[vvar", 5))
		return true;
	if (!s->low || m->start < s->low)
		s->low = m->start;
	if (m->end > s->high)
		s->high = m->end;
	return true;
}

static void check_smaps(struct run *run, const struct sysmap *s)
{
	const struct sealjit_kernel *k = run->kernel;
	struct mapping vvar;
	bool vvar_found = smaps_find_name("[vvar]", &vvar);

	if (k->smaps == SMAPS_STYLE_NONE && !k->sysmap) {
		tap_skip(&run->tap, "this kernel's smaps shows no seals",
			 "smaps: [vdso] and [vvar] not sealed");
		return;
	}
	if (k->sysmap)
		tap_ok(&run->tap, vvar_found && mapping_fully_sealed(&s->vdso, k->smaps) &&
			    mapping_fully_sealed(&vvar, k->smaps),
		       "smaps: [vdso] and [vvar] sealed with every type "
		       "(vdso Seals: '%s')", s->vdso.seals);
	else
		tap_ok(&run->tap, vvar_found && !mapping_sealed(&s->vdso) &&
			    !mapping_sealed(&vvar),
		       "smaps: [vdso] and [vvar] not sealed");
}

static void place_below(struct sysmap *s)
{
	void *at = (void *)(s->low - 2 * PAGE);
	void *got = mmap(at, 2 * PAGE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

	s->below = got == at ? (uintptr_t)at : 0;
	if (s->below)
		*(volatile char *)s->below = BELOW_MARK;
}

static void check_ranges(struct run *run, struct sysmap *s)
{
	const char *why = "no free pages just below [vvar] in this layout";

	place_below(s);
	if (!s->below) {
		tap_skip(&run->tap, why, "mprotect() from below [vvar] through [vdso]");
		tap_skip(&run->tap, why, "munmap() from below [vvar] through [vdso]");
		tap_skip(&run->tap, why,
			 "madvise(MADV_DONTFORK) from below [vvar] through [vdso]");
		return;
	}
	printf("# [vvar]..[vdso] %#" PRIxPTR "-%#" PRIxPTR ", ours below at %#"
	       PRIxPTR "\n", s->low, s->high, s->below);
	judge(run, protect_from_below, s, true,
	      "mprotect() from below [vvar] through [vdso]");
	judge(run, unmap_from_below, s, true,
	      "munmap() from below [vvar] through [vdso]");
	judge(run, dontfork_from_below, s, true,
	      "madvise(MADV_DONTFORK) from below [vvar] through [vdso]");
}

void check_system_mappings(struct run *run)
{
	struct sysmap s = { 0 };

	if (!smaps_find_name("[vdso]", &s.vdso) || !smaps_each(span, &s))
		tap_bail("no [vdso] in /proc/self/smaps (booted with vdso=0?)");
	s.gettime = vdso_gettime();
	if (!s.gettime || !vdso_works(s.gettime))
		tap_bail("the vDSO's clock_gettime() does not work to begin with");
	check_smaps(run, &s);
	judge(run, protect_vdso, &s, false, "mprotect() of [vdso] to rwx");
	judge(run, move_vdso, &s, false, "mremap() of [vdso] elsewhere");
	judge(run, unmap_vdso, &s, false, "munmap() of [vdso]");
	check_ranges(run, &s);
}
