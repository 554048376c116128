/*
 * writers.c - the code written by someone other than the thread that holds
 * the key.
 *
 * Under --seal=pkey the code is mapped read-write-execute under a
 * protection key that the JIT's thread opens only around its own copy
 * (libjit's arena_write()); W^X rests on the key, and the seal keeps the
 * mapping as it is.  A write that is no store of that thread holds no
 * key: another process's process_vm_writev(), /proc/PID/mem or
 * PTRACE_POKEDATA (remote accesses, which no key binds), a userfaultfd
 * fill (which no key guards), or a write the kernel makes for the thread
 * with the keys opened (since 6.12, the signal frame on an alternate
 * stack).  Each attack here is one of those; under none, card and all the
 * same writes meet r-x code, which the unforced ones cannot write at all.
 *
 * The victim is always the attacking process's own code (probe.c judges
 * it there): the writers are a forked child of it, a tracer child, or a
 * task sharing its memory.  Each returns 0, the errno of the write, or
 * ATTACK_SETUP_FAILED with errno saying why the writer never got to write.
 */
#define _GNU_SOURCE
#include "attacks.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <linux/userfaultfd.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

static uint8_t *entry_of(const struct target *t)
{
	return t->base + t->entry_offset;
}

/* process_vm_writev() of the attacker's bytes to the entry in pid. */
static int vm_writev_into(const struct target *t, pid_t pid)
{
	uint8_t bytes[ENTRY_PAYLOAD_LEN];
	entry_payload(bytes);
	struct iovec local = { .iov_base = bytes, .iov_len = sizeof bytes };
	struct iovec remote = { .iov_base = entry_of(t), .iov_len = sizeof bytes };
	ssize_t n = process_vm_writev(pid, &local, 1, &remote, 1, 0);
	/* A short count is a success here: the bytes decide (probe.c). */
	return n < 0 ? errno : 0;
}

/* The process itself, through a corrupted remote iovec: a remote access,
 * which no protection key binds, even into its own memory. */
int attack_vm_writev(const struct target *t)
{
	return vm_writev_into(t, getpid());
}

/* What a writer child sends back: its answer, and errno when it is
 * ATTACK_SETUP_FAILED. */
struct writer_answer {
	int answer;
	int err;
};

static void writer_child(const struct target *t, writer_fn writer, void *arg,
			 int go, int back)
{
	char token;
	struct writer_answer a = { ATTACK_SETUP_FAILED, EPIPE };
	if (read(go, &token, 1) == 1) {
		errno = 0;
		a.answer = writer(t, getppid(), arg);
		a.err = errno;
	}
	_exit(write(back, &a, sizeof a) == sizeof a ? 0 : 1);
}

static ssize_t read_full(int fd, void *buf, size_t len)
{
	ssize_t n;
	do
		n = read(fd, buf, len);
	while (n < 0 && errno == EINTR);
	return n;
}

/*
 * Fork a child that runs writer(t, this process's pid, arg) against this
 * process's code.  as_tracer: this process names the child its ptracer
 * first (Yama's ptrace_scope=1 lets a process trace only its descendants
 * and those named so: a crash handler is named the same way).
 */
int in_writer_child(const struct target *t, writer_fn writer, void *arg,
		    bool as_tracer)
{
	int go[2], back[2];
	if (pipe(go) != 0)
		return ATTACK_SETUP_FAILED;
	if (pipe(back) != 0) {
		close(go[0]);
		close(go[1]);
		return ATTACK_SETUP_FAILED;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		close(go[1]);
		close(back[0]);
		writer_child(t, writer, arg, go[0], back[1]);
	}
	close(go[0]);
	close(back[1]);
	struct writer_answer a = { ATTACK_SETUP_FAILED, ECHILD };
	if (pid > 0) {
		/* EINVAL: no Yama, nothing to name */
		if (as_tracer && prctl(PR_SET_PTRACER, pid, 0, 0, 0) != 0 &&
		    errno != EINVAL)
			a.err = errno;
		else if (write(go[1], "g", 1) == 1 &&
			 read_full(back[0], &a, sizeof a) != sizeof a)
			a = (struct writer_answer){ ATTACK_SETUP_FAILED, ECHILD };
		close(go[1]);
		int status;
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	} else {
		close(go[1]);
	}
	close(back[0]);
	errno = a.err;
	return a.answer;
}

static int vm_writev_writer(const struct target *t, pid_t victim, void *arg)
{
	(void)arg;
	return vm_writev_into(t, victim);
}

int attack_child_vm_writev(const struct target *t)
{
	return in_writer_child(t, vm_writev_writer, NULL, false);
}

/* A forced write (FOLL_FORCE), as a debugger's. */
static int proc_mem_writer(const struct target *t, pid_t victim, void *arg)
{
	(void)arg;
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/mem", (int)victim);
	int fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return ATTACK_SETUP_FAILED;
	uint8_t bytes[ENTRY_PAYLOAD_LEN];
	entry_payload(bytes);
	off_t where = (off_t)(uintptr_t)entry_of(t);
	int err = pwrite(fd, bytes, sizeof bytes, where) == (ssize_t)sizeof bytes ? 0 : errno;
	close(fd);
	return err;
}

int attack_child_proc_mem(const struct target *t)
{
	return in_writer_child(t, proc_mem_writer, NULL, false);
}

/*
 * The tracer: seize the victim (no SIGSTOP), stop it with
 * PTRACE_INTERRUPT, read the word at the entry, put the attacker's bytes
 * over its low end and poke it back (a forced write), detach.
 */
static int tracer_writer(const struct target *t, pid_t victim, void *arg)
{
	(void)arg;
	if (ptrace(PTRACE_SEIZE, victim, 0, 0) != 0)
		return ATTACK_SETUP_FAILED;
	int status, answer = ATTACK_SETUP_FAILED;
	if (ptrace(PTRACE_INTERRUPT, victim, 0, 0) == 0 &&
	    waitpid(victim, &status, __WALL) == victim) {
		errno = 0;
		long word = ptrace(PTRACE_PEEKDATA, victim, entry_of(t), 0);
		if (errno == 0) {
			uint8_t bytes[ENTRY_PAYLOAD_LEN];
			entry_payload(bytes);
			memcpy(&word, bytes, sizeof bytes);
			answer = ptrace(PTRACE_POKEDATA, victim, entry_of(t),
					(void *)word) == 0 ? 0 : errno;
		}
	}
	int err = errno;
	ptrace(PTRACE_DETACH, victim, 0, 0);
	errno = err;
	return answer;
}

int attack_tracer_poke(const struct target *t)
{
	return in_writer_child(t, tracer_writer, NULL, true);
}

/*
 * Yama: ptrace_scope 0 and 1 let the tracer in (1 through PR_SET_PTRACER);
 * 2 only with CAP_SYS_PTRACE (priv=root); 3 never.  No Yama: NULL.
 */
const char *tracer_unavailable(enum privilege priv)
{
	static char why[96];
	FILE *f = fopen("/proc/sys/kernel/yama/ptrace_scope", "re");
	int scope = 0;
	if (!f)
		return NULL;
	if (fscanf(f, "%d", &scope) != 1)
		scope = 0;
	fclose(f);
	if (scope < 2 || (scope == 2 && priv == PRIV_ROOT))
		return NULL;
	snprintf(why, sizeof why, "Yama's ptrace_scope=%d lets %s attach", scope,
		 scope == 2 ? "only CAP_SYS_PTRACE" : "no process");
	return why;
}

static int uffd_copy_writer(const struct target *t, pid_t victim, void *arg)
{
	(void)victim;
	int fd = *(const int *)arg;
	return uffd_copy_payload(fd, t, t->base + t->length - t->page);
}

/*
 * The userfaultfd is this process's, registered on the never-faulted page
 * above the code (finish_room_above()) before the fork; the child fills
 * that page of this process through it.  Where the seal refuses the
 * registration, the attack ends there with its errno.  (In libjit the key
 * space is sealed when it is made, before any code: no registration can
 * come before the seal.)
 */
int attack_child_uffd_copy(const struct target *t)
{
	int fd = uffd_open(0, 0);
	if (fd < 0)
		return ATTACK_SETUP_FAILED;
	int err = uffd_register_missing(fd, t->base + t->length - t->page, t->page);
	if (err == 0)
		err = in_writer_child(t, uffd_copy_writer, &fd, false);
	int saved = errno;
	close(fd);
	errno = saved;
	return err;
}

/*
 * sigaltstack-frame: the corrupted pointer is the alternate signal stack,
 * set to the code's first bytes (see frame_task()); then a signal whose handler runs SA_ONSTACK makes the
 * kernel write the signal frame (the XSAVE image and rt_sigframe) at the
 * top of that "stack", with the thread's rights (6.1), or with every key
 * opened (sig_prepare_pkru(), since 6.12).  Where the kernel cannot write
 * the frame it kills the task with SIGSEGV, so the task is a clone sharing
 * this process's memory (CLONE_VM) but not its thread group: its death
 * leaves this process to judge the code.  The task uses raw system calls
 * only (it shares the parent thread's TLS).  Answer: 0 when the handler
 * ran and returned, EFAULT when the task died of SIGSEGV (the frame write
 * faulted in the kernel).
 */
#define FRAME_TASK_STACK (64 * 1024)

/*
 * Where the frame goes.  The task first learns how large its kernel's
 * frame is, as an attacker would: one signal on a scratch alternate stack
 * whose top is 64-aligned, the handler noting where its ucontext lies (the
 * frame starts 8 bytes below it, at pretcode).  Then the corrupted stack
 * is the arena's first bytes, its top 64-aligned and at most 64 bytes
 * above fib's entry plus that size: the frame, written downwards from the
 * top, ends just past the entry, over fib's code.
 */
#define SCRATCH_STACK (64 * 1024)

static uint8_t scratch_stack[SCRATCH_STACK] __attribute__((aligned(64)));
static volatile uintptr_t scratch_uc;

static void on_scratch(int sig, siginfo_t *info, void *uc)
{
	(void)sig;
	(void)info;
	scratch_uc = (uintptr_t)uc;
}

static int take_signal(const stack_t *ss, void (*handler)(int, siginfo_t *, void *))
{
	struct sigaction sa = { .sa_sigaction = handler,
				.sa_flags = SA_ONSTACK | SA_SIGINFO };
	sigemptyset(&sa.sa_mask);
	if (sigaltstack(ss, NULL) != 0 || sigaction(SIGUSR1, &sa, NULL) != 0)
		return -1;
	syscall(SYS_tgkill, syscall(SYS_getpid), syscall(SYS_gettid), SIGUSR1);
	return 0;
}

/* The size of this kernel's signal frame on an alternate stack; 0 if not. */
static size_t frame_size(void)
{
	stack_t scratch = { .ss_sp = scratch_stack, .ss_size = sizeof scratch_stack };
	uintptr_t top = (uintptr_t)scratch_stack + sizeof scratch_stack;
	scratch_uc = 0;
	if (take_signal(&scratch, on_scratch) != 0 || !scratch_uc)
		return 0;
	return top - (scratch_uc - sizeof(void *));
}

static void on_frame(int sig, siginfo_t *info, void *uc)
{
	(void)sig;
	(void)info;
	(void)uc;
}

struct frame_task_arg {
	const struct target *t;
	int open_key;		/* > 0: take the signal inside the write window */
};

static int frame_task(void *argp)
{
	const struct frame_task_arg *arg = argp;
	const struct target *t = arg->t;
	struct rlimit no_core = { 0, 0 };
	setrlimit(RLIMIT_CORE, &no_core);
	size_t frame = frame_size();
	if (frame == 0)
		return 2;
	size_t top = (t->entry_offset + frame) / 64 * 64 + 64;
	stack_t ss = { .ss_sp = t->base, .ss_size = top < t->length ? top : t->length };
	if (arg->open_key > 0)
		key_window_open(arg->open_key);
	return take_signal(&ss, on_frame) == 0 ? 0 : 2;
}

static int frame_attack(const struct target *t, int open_key)
{
	uint8_t *stack = mmap(NULL, FRAME_TASK_STACK, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (stack == MAP_FAILED)
		return ATTACK_SETUP_FAILED;
	struct frame_task_arg arg = { .t = t, .open_key = open_key };
	fflush(NULL);
	pid_t pid = clone(frame_task, stack + FRAME_TASK_STACK, CLONE_VM | SIGCHLD,
			  &arg);
	int status = 0, answer = ATTACK_SETUP_FAILED;
	if (pid > 0 && waitpid(pid, &status, 0) == pid) {
		if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
			answer = 0;
		else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV)
			answer = EFAULT;
		else
			errno = WIFEXITED(status) ? EINVAL : EINTR;
	}
	int err = errno;
	munmap(stack, FRAME_TASK_STACK);
	errno = err;
	return answer;
}

int attack_sigaltstack_frame(const struct target *t)
{
	return frame_attack(t, 0);
}

/*
 * window-signal-frame (a key opener, openers.c): the same frame, taken
 * while the JIT's thread holds its write window open (the task opens the
 * code's key as arena_write() does).  6.1 writes the frame with the
 * thread's PKRU, open here; 6.12 opens every key for the frame anyway.
 */
int attack_window_signal_frame(const struct target *t)
{
	int key = t->in_key_space ? smaps_pkey((uintptr_t)t->base) : -1;
	return key > 0 ? frame_attack(t, key) : ATTACK_SETUP_FAILED;
}

/*
 * uffd-move-out: UFFDIO_MOVE (Linux 6.8) takes the code's first page out
 * of the arena into the attacker's own page, registered with its
 * userfaultfd; the code then reads back as zeros.  The kernel moves pages
 * only between writable anonymous VMAs of the same protection, key
 * included: so the attacker's page is mapped like the code (r-x; in the
 * key space rwx under the code's key, as smaps names it), and r-x code
 * refuses the move (EINVAL) with no seal.  Self only: after a fork the
 * page is shared, which UFFDIO_MOVE refuses for that reason alone.
 */
#ifndef UFFD_FEATURE_MOVE
#define UFFD_FEATURE_MOVE (1 << 16)
struct uffdio_move {
	uint64_t dst, src, len, mode;
	int64_t move;
};
#define UFFDIO_MOVE _IOWR(UFFDIO, 0x05, struct uffdio_move)
#endif

const char *uffd_move_unavailable(enum privilege priv)
{
	(void)priv;
	int fd = uffd_open(0, UFFD_FEATURE_MOVE);
	if (fd >= 0) {
		close(fd);
		return NULL;
	}
	return "no UFFDIO_MOVE here (Linux < 6.8: UFFDIO_API refuses UFFD_FEATURE_MOVE)";
}

/* The attacker's page, mapped and keyed as the code is; NULL if not. */
static uint8_t *page_like_code(const struct target *t)
{
	uint8_t *page = mmap(NULL, t->page, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		return NULL;
	int pkey = t->in_key_space ? smaps_pkey((uintptr_t)t->base) : -1;
	bool like = t->in_key_space
		? pkey > 0 && pkey_mprotect(page, t->page, PROT_READ | PROT_WRITE |
					    PROT_EXEC, pkey) == 0
		: mprotect(page, t->page, PROT_READ | PROT_EXEC) == 0;
	if (!like) {
		munmap(page, t->page);
		return NULL;
	}
	return page;
}

int attack_uffd_move_out(const struct target *t)
{
	int fd = uffd_open(0, UFFD_FEATURE_MOVE);
	if (fd < 0)
		return ATTACK_SETUP_FAILED;
	uint8_t *page = page_like_code(t);
	int err = page ? uffd_register_missing(fd, page, t->page) : ATTACK_SETUP_FAILED;
	if (err > 0)
		err = ATTACK_SETUP_FAILED;	/* the attacker's own page */
	if (err == 0) {
		struct uffdio_move move = { .dst = (uintptr_t)page,
					    .src = (uintptr_t)t->base,
					    .len = t->page };
		err = ioctl(fd, UFFDIO_MOVE, &move) == 0 ? 0 : errno;
	}
	int saved = errno;
	close(fd);
	errno = saved;
	return err;
}
