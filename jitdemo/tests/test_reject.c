/*
 * test_reject.c - hostile input: truncated files, unknown opcodes, bad
 * jumps, stack errors, huge files, deep call chains, random bytes and
 * mutated examples.  Each gets an error in FILE:LINE form or loads; none
 * crashes, hangs or allocates without bound.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen.h"
#include "libjit.h"
#include <sealjit/tap.h>

#ifndef EXAMPLES_DIR
#define EXAMPLES_DIR "examples"
#endif

static const char *const examples[] = { "fib", "primes", "collatz", "gcd", "mandel" };

static char *read_example(const char *name, size_t *len)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s.jit", EXAMPLES_DIR, name);
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *text = malloc(1 << 16);
	*len = fread(text, 1, (1 << 16) - 1, f);
	text[*len] = '\0';
	fclose(f);
	return text;
}

/* An error names the source and a line: "name:N: ...". */
static bool is_located(const char *diag, const char *name)
{
	size_t n = strlen(name);
	if (strncmp(diag, name, n) != 0 || diag[n] != ':')
		return false;
	char *end;
	long line = strtol(diag + n + 1, &end, 10);
	return line > 0 && end[0] == ':' && end[1] == ' ';
}

/* Loads text; true when it loaded or failed with a located message. */
static bool loads_or_located(const char *text, size_t len, bool *loaded)
{
	struct jit_diag diag = { "" };
	struct jit_module *m = jit_load_string("in.jit", text, len, &diag);
	*loaded = m != NULL;
	jit_release(m, NULL);
	return m || is_located(diag.text, "in.jit");
}

static void check_truncations(struct tap *t)
{
	for (size_t e = 0; e < sizeof examples / sizeof examples[0]; e++) {
		size_t len;
		char *text = read_example(examples[e], &len);
		int bad = 0, loaded_count = 0;
		for (size_t cut = 0; text && cut < len; cut++) {
			bool loaded;
			if (!loads_or_located(text, cut, &loaded))
				bad++;
			loaded_count += loaded;
		}
		tap_ok(t, text && bad == 0 && loaded_count < (int)len,
		       "every truncation of %s.jit loads or fails with FILE:LINE (%d of %zu loaded)",
		       examples[e], loaded_count, len);
		free(text);
	}
}

static void check_mutations(struct tap *t)
{
	struct rng rng;
	rng_seed(&rng, 42);
	int bad = 0, rejected = 0, total = 0;
	for (size_t e = 0; e < sizeof examples / sizeof examples[0]; e++) {
		size_t len;
		char *text = read_example(examples[e], &len);
		for (int round = 0; text && round < 400; round++) {
			char *copy = malloc(len + 1);
			memcpy(copy, text, len + 1);
			for (int k = 0; k < 1 + (int)rng_below(&rng, 4); k++)
				copy[rng_below(&rng, len)] = (char)rng_below(&rng, 256);
			bool loaded;
			if (!loads_or_located(copy, len, &loaded))
				bad++;
			rejected += !loaded;
			total++;
			free(copy);
		}
		free(text);
	}
	tap_ok(t, bad == 0 && rejected > 0, "%d mutated examples load or fail located (%d rejected)",
	       total, rejected);
}

static void check_random_bytes(struct tap *t)
{
	struct rng rng;
	rng_seed(&rng, 7);
	int bad = 0;
	char buf[512];
	for (int round = 0; round < 2000; round++) {
		size_t len = rng_below(&rng, sizeof buf);
		for (size_t i = 0; i < len; i++)
			buf[i] = (char)rng_below(&rng, 256);
		struct jit_diag diag = { "" };
		struct jit_module *m = jit_load_string("in.jit", buf, len, &diag);
		if (m || strncmp(diag.text, "in.jit:", 7) != 0)
			bad++;
		jit_release(m, NULL);
	}
	tap_ok(t, bad == 0, "2000 random byte strings are rejected with a message");
}

static void expect_error(struct tap *t, const char *what, const char *text, const char *needle)
{
	struct jit_diag diag = { "" };
	struct jit_module *m = jit_load_string("in.jit", text, strlen(text), &diag);
	if (!tap_ok(t, !m && strstr(diag.text, needle) && strncmp(diag.text, "in.jit", 6) == 0,
		    "%s: %s", what, needle))
		tap_note("got \"%s\"", m ? "(accepted)" : diag.text);
	jit_release(m, NULL);
}

static void check_named_errors(struct tap *t)
{
	expect_error(t, "truncated header", "func f 1", "expected 'func NAME ARGS LOCALS'");
	expect_error(t, "truncated body", "func f 1 0\n arg 0\n jz", "missing operand for 'jz'");
	expect_error(t, "header only", "func f 0 0\n", "function f has no code");
	expect_error(t, "unknown opcode", "func f 0 0\n const 1\n popcnt\n ret\n",
		     "unknown instruction 'popcnt'");
	expect_error(t, "bad jump", "func f 0 0\n jmp g\n ret\nfunc g 0 0\ng:\n const 1\n ret\n",
		     "undefined label 'g'");
	expect_error(t, "stack mismatch", "func f 1 0\n arg 0\n jnz x\n const 5\nx:\n const 1\n ret\n",
		     "stack depth mismatch");
	expect_error(t, "stack underflow", "func f 0 0\n drop\n const 1\n ret\n", "stack underflow");
	expect_error(t, "arity", "func f 0 0\n const 1\n call f 1\n ret\n",
		     "call to f passes 1 arguments, it takes 0");
}

static void check_stack_overflow_and_size(struct tap *t)
{
	size_t cap = 8u << 20;
	char *big = malloc(cap);
	size_t len = (size_t)snprintf(big, cap, "func f 0 0\n");
	for (int i = 0; i < 100; i++)
		len += (size_t)snprintf(big + len, cap - len, " const %d\n", i);
	snprintf(big + len, cap - len, " ret\n");
	expect_error(t, "stack overflow", big, "stack overflow: more than 64 values");

	/* A function whose bytecode passes the per-function limit. */
	len = (size_t)snprintf(big, cap, "func f 0 0\n");
	while (len < (size_t)JIT_MAX_SOURCE_BYTES - 32)
		len += (size_t)snprintf(big + len, cap - len, " const 1\n drop\n");
	expect_error(t, "huge function", big, "function too large 'f'");

	/* Past the source limit. */
	memset(big, ' ', JIT_MAX_SOURCE_BYTES + 10);
	struct jit_diag diag;
	struct jit_module *m = jit_load_string("in.jit", big, JIT_MAX_SOURCE_BYTES + 10, &diag);
	tap_ok(t, !m && strstr(diag.text, "source too large"), "source past 1 MiB is refused");
	jit_release(m, NULL);

	char path[] = "/tmp/jitdemo-huge-XXXXXX";
	int fd = mkstemp(path);
	bool wrote = fd >= 0 && write(fd, big, JIT_MAX_SOURCE_BYTES + 10) ==
				      (ssize_t)JIT_MAX_SOURCE_BYTES + 10;
	if (fd >= 0)
		close(fd);
	m = jit_load_file(path, &diag);
	tap_ok(t, wrote && !m && strstr(diag.text, "file too large"), "huge file is refused: %s",
	       diag.text);
	unlink(path);
	m = jit_load_file("/nonexistent/x.jit", &diag);
	tap_ok(t, !m && strstr(diag.text, "cannot open"), "missing file: %s", diag.text);
	m = jit_load_file("/tmp", &diag);
	tap_ok(t, !m && strstr(diag.text, "not a regular file"), "directory: %s", diag.text);
	free(big);
}

/* 60k labels and jumps must not take quadratic time. */
static void check_many_labels(struct tap *t)
{
	size_t cap = 2u << 20;
	char *src = malloc(cap);
	size_t len = (size_t)snprintf(src, cap, "func f 0 0\n");
	for (int i = 0; len < (size_t)JIT_MAX_SOURCE_BYTES - 64; i++)
		len += (size_t)snprintf(src + len, cap - len, "l%d: jmp l%d\n", i, i + 1);
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	struct jit_diag diag;
	struct jit_module *m = jit_load_string("in.jit", src, len, &diag);
	clock_gettime(CLOCK_MONOTONIC, &b);
	double seconds = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	tap_ok(t, !m && seconds < 5.0, "tens of thousands of labels: rejected in %.2fs (%s)",
	       seconds, diag.text);
	jit_release(m, NULL);
	free(src);
}

/* A FIFO with no writer would block a plain open(): it must be refused. */
static void check_fifo(struct tap *t)
{
	char dir[] = "/tmp/jitdemo-fifo-XXXXXX", path[64];
	if (!mkdtemp(dir)) {
		tap_skip(t, "mkdtemp failed", "a FIFO is refused without blocking");
		return;
	}
	snprintf(path, sizeof path, "%s/fifo.jit", dir);
	struct jit_diag diag;
	bool made = mkfifo(path, 0600) == 0;
	alarm(10);		/* a hang fails the test instead of stalling it */
	struct jit_module *m = made ? jit_load_file(path, &diag) : NULL;
	alarm(0);
	tap_ok(t, made && !m && strstr(diag.text, "not a regular file"),
	       "a FIFO is refused without blocking: %s", made ? diag.text : "no mkfifo");
	jit_release(m, NULL);
	unlink(path);
	rmdir(dir);
}

/* CPU seconds of this thread since A: a busy machine that preempts the
 * test does not make a linear check look quadratic. */
static double cpu_seconds_since(const struct timespec *a)
{
	struct timespec b;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
	return (double)(b.tv_sec - a->tv_sec) + (double)(b.tv_nsec - a->tv_nsec) / 1e9;
}

/* Best of five load+verify CPU times of a module with CALLS calls. */
static double time_calls_module(int calls, bool *loaded)
{
	size_t cap = (size_t)calls * 16 + 65536;
	char *src = malloc(cap);
	size_t len = 0;
	int per_func = 12000;
	*loaded = src != NULL;
	for (int done = 0, f = 0; src && done < calls; f++) {
		len += (size_t)snprintf(src + len, cap - len, "func f%d 1 0\n arg 0\n", f);
		for (int i = 0; i < per_func && done < calls; i++, done++)
			len += (size_t)snprintf(src + len, cap - len, "call a\n");
		len += (size_t)snprintf(src + len, cap - len, " ret\n");
	}
	if (src)
		len += (size_t)snprintf(src + len, cap - len, "func a 1 0\n arg 0\n ret\n");
	double best = 1e9;
	for (int round = 0; src && round < 5; round++) {
		struct timespec a;
		struct jit_diag diag;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
		struct jit_module *m = jit_load_string("calls.jit", src, len, &diag);
		double s = cpu_seconds_since(&a);
		*loaded = *loaded && m != NULL;
		if (!m)
			tap_note("%d calls: %s", calls, diag.text);
		jit_release(m, NULL);
		if (s < best)
			best = s;
	}
	free(src);
	return best;
}

/* Call names resolve by hash: 100k calls cost about 4x 25k calls (a
 * quadratic lookup would cost 16x; 10x leaves room for page faults). */
static void check_check_is_linear(struct tap *t)
{
	bool small_ok, big_ok;
	double small = time_calls_module(25000, &small_ok);
	double big = time_calls_module(100000, &big_ok);
	tap_ok(t, small_ok && big_ok && big < 10 * small + 0.005,
	       "check of a 100k-call module: %.1f ms, 25k calls: %.1f ms (linear)",
	       big * 1e3, small * 1e3);
}

/* 256 functions each calling the next: loads, runs; one more is refused. */
static void check_call_chains(struct tap *t)
{
	size_t cap = 1u << 16;
	char *src = malloc(cap);
	size_t len = 0;
	for (int i = 0; i < JIT_MAX_FUNCS; i++) {
		if (i + 1 < JIT_MAX_FUNCS)
			len += (size_t)snprintf(src + len, cap - len,
						"func f%d 1 0\n arg 0\n const 1\n add\n call f%d\n ret\n",
						i, i + 1);
		else
			len += (size_t)snprintf(src + len, cap - len, "func f%d 1 0\n arg 0\n ret\n", i);
	}
	struct jit_diag diag;
	struct jit_module *m = jit_load_string("in.jit", src, len, &diag);
	struct jit_options none = { .seal = JIT_SEAL_NONE };
	int64_t arg = 0, r1 = 0, r2 = 0;
	bool ok = m && jit_compile(m, &none, &diag) == 0 &&
		  jit_call(m, "f0", &arg, 1, &r1, &diag) == 0 &&
		  jit_interp_call(m, "f0", &arg, 1, &r2, &diag) == 0;
	tap_ok(t, ok && r1 == JIT_MAX_FUNCS - 1 && r2 == r1, "a chain of 256 calls runs in both engines");
	jit_release(m, NULL);
	len += (size_t)snprintf(src + len, cap - len, "func extra 0 0\n const 0\n ret\n");
	expect_error(t, "257 functions", src, "too many functions");
	free(src);

	/* not tail calls ("call; ret" would reuse the frame and never trap) */
	const char *mutual = "func even 1 0\n arg 0\n jz yes\n arg 0\n const 1\n sub\n call odd\n"
			     " const 0\n add\n ret\n"
			     "yes:\n const 1\n ret\n"
			     "func odd 1 0\n arg 0\n jz no\n arg 0\n const 1\n sub\n call even\n"
			     " const 0\n add\n ret\n"
			     "no:\n const 0\n ret\n";
	m = jit_load_string("in.jit", mutual, strlen(mutual), &diag);
	arg = 1000000;
	int jit_trap = -9, interp_trap = -9;
	if (m && jit_compile(m, &none, &diag) == 0) {
		jit_trap = jit_call(m, "even", &arg, 1, &r1, &diag);
		interp_trap = jit_interp_call(m, "even", &arg, 1, &r2, &diag);
	}
	tap_ok(t, jit_trap == JIT_TRAP_CALL_DEPTH && interp_trap == JIT_TRAP_CALL_DEPTH,
	       "a million-deep mutual recursion traps in both engines, C stack intact");
	jit_release(m, NULL);
}

int main(void)
{
	struct tap t;
	tap_start(&t);
	check_truncations(&t);
	check_mutations(&t);
	check_random_bytes(&t);
	check_named_errors(&t);
	check_stack_overflow_and_size(&t);
	check_many_labels(&t);
	check_call_chains(&t);
	check_fifo(&t);
	check_check_is_linear(&t);
	return tap_done(&t);
}
