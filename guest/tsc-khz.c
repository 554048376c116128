/*
 * guest/tsc-khz - print this machine's TSC frequency in kHz, measured
 * against CLOCK_MONOTONIC_RAW.  A TCG guest's TSC is the host's (QEMU
 * reads the host's TSC), so guest/run hands this to the guest kernel
 * (tsc_early_khz=): a kernel left to calibrate against the PIT fails when
 * the host is loaded (the PIT's ticks are dropped while the vCPU waits),
 * marks the TSC unstable and runs on jiffies.
 *
 * Each sample brackets one clock read between two TSC reads and keeps the
 * tightest of several, so that being descheduled between the reads costs
 * a retry, not a wrong answer; the median of three 20 ms measurements is
 * printed.  Exits 1 (printing nothing) when no sample is tight.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <x86intrin.h>

struct pair {
	uint64_t tsc;
	int64_t ns;
};

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* A TSC and clock pair read close together; 0 when none was. */
static int read_pair(struct pair *out)
{
	uint64_t best = UINT64_MAX;

	for (int try = 0; try < 50; try++) {
		uint64_t before = __rdtsc();
		int64_t ns = now_ns();
		uint64_t after = __rdtsc();

		if (after - before < best) {
			best = after - before;
			out->tsc = before + (after - before) / 2;
			out->ns = ns;
		}
	}
	return best < 100000;
}

static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

int main(void)
{
	uint64_t khz[3];
	const struct timespec nap = { 0, 20 * 1000 * 1000 };

	for (int i = 0; i < 3; i++) {
		struct pair start, end;

		if (!read_pair(&start))
			return 1;
		nanosleep(&nap, NULL);
		if (!read_pair(&end) || end.ns <= start.ns)
			return 1;
		khz[i] = (uint64_t)((double)(end.tsc - start.tsc) * 1e6 / (double)(end.ns - start.ns) + 0.5);
	}
	qsort(khz, 3, sizeof(khz[0]), by_value);
	printf("%llu\n", (unsigned long long)khz[1]);
	return 0;
}
