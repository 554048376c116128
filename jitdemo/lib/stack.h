/*
 * stack.h - where the calling thread's stack ends, so JIT'd code can stop
 * short of it (JIT_STACK_GUARD bytes above) instead of running off it.
 */
#ifndef JITDEMO_STACK_H
#define JITDEMO_STACK_H

#include <stdint.h>

/* Lowest address JIT'd code on this thread may push to; cached per thread.
 * The main thread's stack may grow to RLIMIT_STACK, and that is the limit
 * used; another thread's is its pthread stack. */
uint64_t stack_floor_of_this_thread(void);

#endif
