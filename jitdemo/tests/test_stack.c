/*
 * test_stack.c - the native stack guard: JIT'd recursion that would run
 * off the calling thread's stack traps with JIT_TRAP_CALL_DEPTH instead of
 * crashing, on a 256 KiB thread stack and on a 1 MiB main stack (this
 * program re-runs itself under RLIMIT_STACK = 1 MiB, as `ulimit -s 1024`).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cases.h"
#include "libjit.h"
#include <sealjit/tap.h>

#define SMALL_THREAD_STACK (256u * 1024)
#define SMALL_MAIN_STACK (1024u * 1024)

static const char recursion[] =
	"func f 1 0\n arg 0\n jz done\n arg 0\n const 1\n sub\n call f\n const 1\n add\n ret\n"
	"done:\n const 0\n ret\n";

struct probe {
	struct jit_module *m;
	int64_t arg, result;
	int trap;
};

static struct jit_module *compiled(void)
{
	struct jit_diag diag;
	struct jit_options none = { .seal = JIT_SEAL_NONE };
	struct jit_module *m = jit_load_string("rec", recursion, strlen(recursion), &diag);
	if (m && jit_compile(m, &none, &diag) != 0) {
		jit_release(m, NULL);
		m = NULL;
	}
	return m;
}

static void run_probe(struct probe *p)
{
	struct jit_diag diag;
	p->result = -1;
	p->trap = jit_call(p->m, "f", &p->arg, 1, &p->result, &diag);
}

static void *probe_thread(void *arg)
{
	run_probe(arg);
	return NULL;
}

static bool in_small_thread(struct probe *p)
{
	pthread_attr_t attr;
	pthread_t thread;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, SMALL_THREAD_STACK);
	bool ok = pthread_create(&thread, &attr, probe_thread, p) == 0 &&
		  pthread_join(thread, NULL) == 0;
	pthread_attr_destroy(&attr);
	return ok;
}

static void check_small_thread(struct tap *t, struct jit_module *m)
{
	struct probe deep = { .m = m, .arg = REC_MAX_ARG };
	bool ran = in_small_thread(&deep);
	tap_ok(t, ran && deep.trap == JIT_TRAP_CALL_DEPTH,
	       "256 KiB thread: f(%" PRId64 ") needs 1 MiB of frames and traps (trap %d)",
	       REC_MAX_ARG, deep.trap);
	struct probe endless = { .m = m, .arg = -1 };
	ran = in_small_thread(&endless);
	tap_ok(t, ran && endless.trap == JIT_TRAP_CALL_DEPTH,
	       "256 KiB thread: endless recursion traps (trap %d)", endless.trap);
	struct probe fits = { .m = m, .arg = 4000 };
	ran = in_small_thread(&fits);
	tap_ok(t, ran && fits.trap == 0 && fits.result == 4000,
	       "256 KiB thread: f(4000) fits and returns %" PRId64, fits.result);
	struct probe here = { .m = m, .arg = REC_MAX_ARG };
	run_probe(&here);
	tap_ok(t, here.trap == 0 && here.result == REC_MAX_ARG,
	       "the main thread (8 MiB) still runs f(%" PRId64 ") afterwards", REC_MAX_ARG);
}

/* Child mode: the main thread's stack is 1 MiB; exit 0 when it trapped. */
static int small_main(void)
{
	struct jit_module *m = compiled();
	struct probe deep = { .m = m, .arg = REC_MAX_ARG };
	if (!m)
		return 3;
	run_probe(&deep);
	struct probe fits = { .m = m, .arg = 1000 };
	run_probe(&fits);
	jit_release(m, NULL);
	return deep.trap == JIT_TRAP_CALL_DEPTH && fits.trap == 0 && fits.result == 1000 ? 0 : 1;
}

static void check_small_main(struct tap *t, const char *self)
{
	pid_t pid = fork();
	if (pid == 0) {
		struct rlimit rl = { SMALL_MAIN_STACK, SMALL_MAIN_STACK };
		if (setrlimit(RLIMIT_STACK, &rl) == 0)
			execl(self, self, "--small-main", (char *)NULL);
		_exit(4);
	}
	int status = 0;
	bool waited = pid > 0 && waitpid(pid, &status, 0) == pid;
	bool ok = waited && WIFEXITED(status) && WEXITSTATUS(status) == 0;
	if (!tap_ok(t, ok, "ulimit -s 1024: the main thread traps f(%" PRId64 ") cleanly, "
		    "then runs f(1000)", REC_MAX_ARG))
		tap_note("child status %#x (signal %d)", status,
			 WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--small-main") == 0)
		return small_main();
	struct tap t;
	tap_start(&t);
	struct jit_module *m = compiled();
	tap_ok(&t, m != NULL, "the recursion compiles");
	if (m)
		check_small_thread(&t, m);
	jit_release(m, NULL);
	check_small_main(&t, "/proc/self/exe");
	return tap_done(&t);
}
