/* bench_main.c - times one C twin of an example (see bench.h). */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <time.h>

#include <sealjit/intparse.h>

#include "bench.h"

int main(int argc, char **argv)
{
	int64_t args[8] = { 0 };
	if (argc - 1 != bench_arity) {
		fprintf(stderr, "%s: takes %d arguments\n", argv[0], bench_arity);
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		enum intparse_error e = intparse_i64(argv[i], INT64_MIN, INT64_MAX, &args[i - 1]);
		if (e != INTPARSE_OK) {
			fprintf(stderr, "%s: '%s': %s\n", argv[0], argv[i], intparse_strerror(e));
			return 2;
		}
	}
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	int64_t result = bench_entry(args);
	clock_gettime(CLOCK_MONOTONIC, &b);
	double ms = (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
	printf("%" PRId64 " %.3f\n", result, ms);
	return 0;
}
