/*
 * across_time.c - attacks set up before the JIT seals its code and
 * completed after it (issue: seals that hold across time).
 *
 * libjit compiles with --seal=none; the scenario's finish hook plays the
 * attacker's first move on the finished r-x code, then seals it as libjit
 * would (seal_like_libjit(), with the policy's types), and the attack
 * completes the move.  The attacker's state lives in the process that
 * sealed (a sleeping thread, lazily freed pages), so these scenarios run
 * from that process only.
 */
#define _GNU_SOURCE
#include "attacks.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef UFFD_USER_MODE_ONLY
#define UFFD_USER_MODE_ONLY 1
#endif

#define EVENT_WAIT_MS 5000

/* The madvise() that sleeps across the seal, and its userfaultfd. */
static struct {
	int uffd;
	pthread_t thread;
	uint8_t *start;
	size_t len;
	int call_errno;
} inflight = { .uffd = -1 };

static bool seal_for_policy(struct target *t, enum jit_seal_policy policy,
			    char *why, size_t why_len)
{
	unsigned types = jit_seal_policy_types(policy);

	if (seal_like_libjit(t->base, t->length, types))
		return true;
	snprintf(why, why_len, "the JIT's mseal() failed: %s", strerror(errno));
	return false;
}

static void *madvise_dontneed(void *unused)
{
	(void)unused;
	inflight.call_errno = madvise(inflight.start, inflight.len,
				      MADV_DONTNEED) == 0 ? 0 : errno;
	return NULL;
}

static bool uffd_event_pending(int fd)
{
	struct pollfd poller = { .fd = fd, .events = POLLIN };

	return poll(&poller, 1, EVENT_WAIT_MS) == 1 && poller.revents == POLLIN;
}

/*
 * The attacker registers [reg, reg + reg_len) with userfaultfd and starts
 * madvise(MADV_DONTNEED) over [start, code end), which sleeps in
 * userfaultfd_remove() with mmap_lock dropped; then the JIT seals.
 */
static bool seal_while_madvise_sleeps(struct target *t,
				      enum jit_seal_policy policy,
				      uint8_t *reg, size_t reg_len,
				      uint8_t *start, char *why, size_t why_len)
{
	struct uffdio_register r = {
		.range = { .start = (uintptr_t)reg, .len = reg_len },
		.mode = UFFDIO_REGISTER_MODE_MISSING,
	};

	/* Non-blocking, and told of MADV_DONTNEED (EVENT_REMOVE). */
	inflight.uffd = uffd_open(O_NONBLOCK, UFFD_FEATURE_EVENT_REMOVE);
	inflight.start = start;
	inflight.len = (size_t)(t->base + t->length - start);
	if (inflight.uffd < 0 || ioctl(inflight.uffd, UFFDIO_REGISTER, &r) ||
	    pthread_create(&inflight.thread, NULL, madvise_dontneed, NULL)) {
		snprintf(why, why_len, "cannot start the sleeping madvise(): %s",
			 strerror(errno));
		return false;
	}
	if (!uffd_event_pending(inflight.uffd)) {
		snprintf(why, why_len, "madvise() did not sleep in userfaultfd");
		return false;
	}
	return seal_for_policy(t, policy, why, why_len);
}

/* The lure is the unsealed page below the code, a VMA of its own. */
bool finish_inflight_below(struct target *t, enum jit_seal_policy policy,
			   char *why, size_t why_len)
{
	uint8_t *below = t->base - t->page;

	return seal_while_madvise_sleeps(t, policy, below, t->page, below,
					 why, why_len);
}

/* The code itself is registered, while it is still unsealed. */
bool finish_inflight_code(struct target *t, enum jit_seal_policy policy,
			  char *why, size_t why_len)
{
	return seal_while_madvise_sleeps(t, policy, t->base, t->length,
					 t->base, why, why_len);
}

/* Take the event, which wakes the madvise(); its answer is the attack's. */
int attack_inflight(const struct target *t)
{
	struct uffd_msg msg;

	(void)t;
	if (read(inflight.uffd, &msg, sizeof msg) != sizeof msg ||
	    msg.event != UFFD_EVENT_REMOVE)
		return ATTACK_SETUP_FAILED;
	pthread_join(inflight.thread, NULL);
	close(inflight.uffd);
	inflight.uffd = -1;
	return inflight.call_errno;
}

/*
 * MADV_FREE leaves the pages in this CPU's lazy-free batch, off the LRU,
 * until the batch is drained, and MADV_PAGEOUT drains only the batch of the
 * CPU it runs on.  A case that moved to another CPU between the two would
 * see its code kept because reclaim never found the pages, not because a
 * seal kept them.  So the case (and its attacking child, which inherits
 * the mask) stays on one CPU; each case is a process of its own.
 */
static bool stay_on_this_cpu(char *why, size_t why_len)
{
	int cpu = sched_getcpu();
	cpu_set_t cpus;

	if (cpu < 0) {
		snprintf(why, why_len, "sched_getcpu: %s", strerror(errno));
		return false;
	}
	CPU_ZERO(&cpus);
	CPU_SET(cpu, &cpus);
	if (sched_setaffinity(0, sizeof cpus, &cpus) != 0) {
		snprintf(why, why_len, "sched_setaffinity: %s", strerror(errno));
		return false;
	}
	return true;
}

/* MADV_FREE on the finished code, before the JIT seals it. */
bool finish_lazyfree(struct target *t, enum jit_seal_policy policy,
		     char *why, size_t why_len)
{
	if (!stay_on_this_cpu(why, why_len))
		return false;
	if (madvise(t->base, t->length, MADV_FREE) != 0) {
		snprintf(why, why_len, "MADV_FREE: %s", strerror(errno));
		return false;
	}
	return seal_for_policy(t, policy, why, why_len);
}

/*
 * MADV_PAGEOUT is not destructive, so no seal refuses it: it succeeds, and
 * the lazily freed code is gone unless the kernel keeps it.
 */
int attack_pageout(const struct target *t)
{
	return madvise(t->base, t->length, MADV_PAGEOUT) == 0 ? 0 : errno;
}
