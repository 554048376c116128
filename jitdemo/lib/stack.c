/* stack.c - the calling thread's stack bounds (see stack.h). */
#define _GNU_SOURCE
#include "stack.h"

#include <pthread.h>
#include <sys/resource.h>

#include "libjit.h"

static _Thread_local uint64_t cached_floor;

/* Fallback: assume the stack can reach RLIMIT_STACK (or 256 KiB) below here. */
static uint64_t floor_from_rlimit(void)
{
	uintptr_t here = (uintptr_t)__builtin_frame_address(0);
	struct rlimit rl;
	uint64_t size = 256u * 1024;
	if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur < here)
		size = rl.rlim_cur;
	return here - size;
}

static uint64_t stack_low_end(void)
{
	pthread_attr_t attr;
	void *addr = NULL;
	size_t size = 0;
	uint64_t low = 0;
	if (pthread_getattr_np(pthread_self(), &attr) == 0) {
		if (pthread_attr_getstack(&attr, &addr, &size) == 0)
			low = (uint64_t)(uintptr_t)addr;
		pthread_attr_destroy(&attr);
	}
	uint64_t fallback = floor_from_rlimit();
	return low && low <= (uintptr_t)__builtin_frame_address(0) ? low : fallback;
}

uint64_t stack_floor_of_this_thread(void)
{
	if (!cached_floor)
		cached_floor = stack_low_end() + JIT_STACK_GUARD;
	return cached_floor;
}
