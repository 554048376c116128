/* SPDX-License-Identifier: GPL-2.0 */
/*
 * live-code.c - one corrupted mm call on a JIT's live machine code, from
 * inside its process (see live-code.h), for every real JIT: V8's addon
 * (N-API) and LuaJIT's attack.lua (FFI, libsealjit-attack.so) call it.
 * The scenarios:
 *
 *   mprotect-rw        mprotect(RW), plant the payload, mprotect(RX)
 *   mprotect-rwx       mprotect(RWX), plant the payload
 *   pkey-mprotect-rwx  pkey_mprotect(RWX) with a fresh key, plant
 *   mremap-move        mremap the mapping 1 GiB away, map a sled in its place
 *   mremap-shrink      mremap it one page shorter, map a sled on that page
 *   mmap-fixed-anon    mmap(MAP_FIXED) a sled over it
 *   munmap-mmap        munmap it, map a sled in its place
 *   shmat-remap        shmat(SHM_REMAP|SHM_EXEC) a sled segment over it
 *   madvise-dontneed   madvise(MADV_DONTNEED): the code reads back as zeros
 *   proc-mem-write     pwrite the payload through /proc/self/mem
 *   uffd-fill          UFFDIO_COPY a sled into a never-faulted page of it
 * and, in live_code_scenario_all() only (LuaJIT's tables have them):
 *   libc-mprotect      mprotect-rw through libc's mprotect()
 *   store-code         no call: plant the payload
 *   pkey-realloc       pkey_free the mapping's key, pkey_alloc(0, 0), plant
 *   sigreturn-pkru     edit the PKRU saved in a signal frame to 0, plant
 *
 * A sled is NOPs with the payload at the end of every page, so a jump
 * anywhere into it reaches the payload.
 */
#define _GNU_SOURCE
#include "live-code.h"

#include <cpuid.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <linux/userfaultfd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#define PAGE 4096UL
#define ONE_GIB (1UL << 30)
#define MAPS_TEXT_MAX 1024
#define CODE_MAX 65536

static const unsigned char payload[] = {
	0xbf, LIVE_CODE_PAYLOAD_STATUS, 0, 0, 0,	/* mov edi, 65 */
	0xb8, 231, 0, 0, 0,			/* mov eax, 231 (exit_group) */
	0x0f, 0x05,				/* syscall */
};

struct target {
	uintptr_t address, lo, hi;
	uintptr_t spare;	/* a never-faulted page for uffd-fill, or 0 */
	size_t size;
};

struct snapshot {
	char maps[MAPS_TEXT_MAX];
	unsigned char code[CODE_MAX];
	bool code_readable;
	char resident[MAPS_TEXT_MAX];
};

static struct target target;

static __attribute__((noreturn)) void setup_failed(const char *what)
{
	printf("attack setup-failed: %s (%s)\n", what, strerrorname_np(errno) ?: "-");
	fflush(stdout);
	exit(LIVE_CODE_EXIT_SETUP);
}

/* 0 when the call succeeded, else its errno. */
static int answer(long rc)
{
	return rc == -1 ? errno : 0;
}

static size_t whole_len(void)
{
	return target.hi - target.lo;
}

/* The /proc/self/maps lines meeting [lo, hi), as "start-end perms,...";
 * with lo == hi == 0, finds the mapping holding target.address. */
static void maps_over(uintptr_t lo, uintptr_t hi, char *out, size_t out_len)
{
	FILE *maps = fopen("/proc/self/maps", "re");
	char line[512], perms[8];
	unsigned long start, end;
	size_t used = 0;

	if (!maps)
		setup_failed("cannot read /proc/self/maps");
	if (out_len)
		out[0] = '\0';
	while (fgets(line, sizeof(line), maps)) {
		if (sscanf(line, "%lx-%lx %7s", &start, &end, perms) != 3)
			continue;
		if (!lo && !hi) {
			if (start <= target.address && target.address < end) {
				target.lo = start;
				target.hi = end;
			}
			continue;
		}
		if (start < hi && lo < end && used < out_len)
			used += (size_t)snprintf(out + used, out_len - used, "%s%lx-%lx %s",
						 used ? "," : "", start, end, perms);
	}
	fclose(maps);
}

static int mem_fd = -1;

/* The attack aims at the whole mapping that holds the code, or, in a
 * mapping of more pages than the text holds (V8 13's 512 MiB code range,
 * where other threads keep writing new code), at the pages that hold the
 * code, two at least: what a corrupted pointer to that function would
 * name. */
static void narrow_to_code(void)
{
	uintptr_t most = (MAPS_TEXT_MAX - 2) * PAGE;

	if (whole_len() <= most)
		return;
	target.lo = target.address & ~(PAGE - 1);
	target.hi = (target.address + target.size + PAGE - 1) & ~(PAGE - 1);
	if (target.hi - target.lo < 2 * PAGE)
		target.hi = target.lo + 2 * PAGE;	/* mremap-shrink keeps one */
}

static char residency(uintptr_t page)
{
	unsigned char v;

	return syscall(SYS_mincore, page, PAGE, &v) == 0 ? (v & 1 ? '1' : '0') : '?';
}

static void snapshot(struct snapshot *snap)
{
	size_t pages = whole_len() / PAGE, i;
	unsigned char vec[MAPS_TEXT_MAX];

	maps_over(target.lo, target.hi, snap->maps, sizeof(snap->maps));
	snap->code_readable = pread(mem_fd, snap->code, target.size,
				    (off_t)target.address) == (ssize_t)target.size;
	if (pages >= sizeof(vec) - 1 || syscall(SYS_mincore, target.lo, whole_len(), vec) != 0) {
		strcpy(snap->resident, "?");
		return;
	}
	for (i = 0; i < pages; i++)
		snap->resident[i] = vec[i] & 1 ? '1' : '0';
	snap->resident[pages] = target.spare ? residency(target.spare) : '\0';
	snap->resident[pages + 1] = '\0';
}

/* "maps,code,resident" or "" */
static void changes(const struct snapshot *before, const struct snapshot *after,
		    char *out, size_t out_len)
{
	bool code = before->code_readable != after->code_readable ||
		    (before->code_readable &&
		     memcmp(before->code, after->code, target.size) != 0);

	snprintf(out, out_len, "%s%s%s",
		 strcmp(before->maps, after->maps) ? "maps," : "",
		 code ? "code," : "",
		 strcmp(before->resident, after->resident) ? "resident," : "");
	if (out[0])
		out[strlen(out) - 1] = '\0';
}

static void fill_sled(uintptr_t address, size_t len)
{
	unsigned char *p = (unsigned char *)address;
	size_t page;

	memset(p, 0x90, len);
	for (page = PAGE; page <= len; page += PAGE)
		memcpy(p + page - sizeof(payload), payload, sizeof(payload));
}

static void map_sled(uintptr_t address, size_t len)
{
	long got = syscall(SYS_mmap, address, len, PROT_READ | PROT_WRITE | PROT_EXEC,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);

	if (got == (long)address)
		fill_sled(address, len);
}

/* One byte stored by one instruction; 1 when it faulted (the handler
 * moves the thread on to live_code_store_faulted). */
int live_code_store_byte(volatile unsigned char *dst, unsigned char byte);
extern const char live_code_store_insn[], live_code_store_faulted[];
__asm__(".text\n"
	".globl live_code_store_byte\n.hidden live_code_store_byte\n"
	".type live_code_store_byte, @function\n"
	"live_code_store_byte:\n"
	"	xor %eax, %eax\n"
	".globl live_code_store_insn\n.hidden live_code_store_insn\n"
	"live_code_store_insn:\n"
	"	movb %sil, (%rdi)\n"
	"	ret\n"
	".globl live_code_store_faulted\n.hidden live_code_store_faulted\n"
	"live_code_store_faulted:\n"
	"	mov $1, %eax\n"
	"	ret\n"
	".size live_code_store_byte, . - live_code_store_byte\n");

static void store_fault(int sig, siginfo_t *info, void *context)
{
	ucontext_t *uc = context;

	(void)sig;
	(void)info;
	if (uc->uc_mcontext.gregs[REG_RIP] != (greg_t)live_code_store_insn)
		abort();	/* not the store: nothing of ours */
	uc->uc_mcontext.gregs[REG_RIP] = (greg_t)live_code_store_faulted;
}

int live_code_plant(uintptr_t address)
{
	struct sigaction catch = { .sa_sigaction = store_fault, .sa_flags = SA_SIGINFO };
	struct sigaction saved;
	size_t i;
	int faulted = 0;

	sigemptyset(&catch.sa_mask);
	if (sigaction(SIGSEGV, &catch, &saved) != 0)
		return errno;
	for (i = 0; i < sizeof(payload) && !faulted; i++)
		faulted = live_code_store_byte((volatile unsigned char *)address + i, payload[i]);
	sigaction(SIGSEGV, &saved, NULL);
	return faulted ? -SIGSEGV : 0;
}

/* The ordinary store after the corrupted call; where it faults (a key
 * still write-disables the code) nothing is planted, and the call's own
 * change is what the snapshot sees. */
static int plant_faulted;	/* the last planting store faulted */

static void plant_payload(void)
{
	plant_faulted = live_code_plant(target.address) == -SIGSEGV;
}

static int mprotect_rw(void)
{
	int err = answer(syscall(SYS_mprotect, target.lo, whole_len(), PROT_READ | PROT_WRITE));

	if (!err) {
		plant_payload();
		syscall(SYS_mprotect, target.lo, whole_len(), PROT_READ | PROT_EXEC);
	}
	return err;
}

static int mprotect_rwx(void)
{
	int err = answer(syscall(SYS_mprotect, target.lo, whole_len(),
				 PROT_READ | PROT_WRITE | PROT_EXEC));

	if (!err)
		plant_payload();
	return err;
}

static int pkey_mprotect_rwx(void)
{
	long pkey = syscall(SYS_pkey_alloc, 0, 0);	/* -1 without PKU: plain mprotect */
	int err = answer(syscall(SYS_pkey_mprotect, target.lo, whole_len(),
				 PROT_READ | PROT_WRITE | PROT_EXEC, pkey));

	if (!err)
		plant_payload();
	return err;
}

static int mremap_move(void)
{
	uintptr_t away = 0;
	long hold = -1;
	int err, gib;

	/* the first free range 1, 2, ... 8 GiB above the code (a JIT's own
	 * reservations may sit 1 GiB above it) */
	for (gib = 1; gib <= 8 && hold != (long)away; gib++) {
		away = target.lo + gib * ONE_GIB;
		hold = syscall(SYS_mmap, away, whole_len(), PROT_NONE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	}
	if (hold != (long)away)
		setup_failed("cannot hold a range 1 to 8 GiB above the code");
	err = answer(syscall(SYS_mremap, target.lo, whole_len(), whole_len(),
			     MREMAP_MAYMOVE | MREMAP_FIXED, away));
	if (!err)
		map_sled(target.lo, whole_len());
	return err;
}

static int mremap_shrink(void)
{
	int err = answer(syscall(SYS_mremap, target.lo, whole_len(), whole_len() - PAGE, 0));

	if (!err)
		map_sled(target.hi - PAGE, PAGE);
	return err;
}

static int mmap_fixed_anon(void)
{
	long got = syscall(SYS_mmap, target.lo, whole_len(), PROT_READ | PROT_WRITE | PROT_EXEC,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);

	if (got != (long)target.lo)
		return answer(-1);
	fill_sled(target.lo, whole_len());
	return 0;
}

static int munmap_mmap(void)
{
	int err = answer(syscall(SYS_munmap, target.lo, whole_len()));

	if (!err)
		map_sled(target.lo, whole_len());
	return err;
}

static int shmat_remap(void)
{
	long id = syscall(SYS_shmget, IPC_PRIVATE, whole_len(), IPC_CREAT | 0600);
	long seg, got;

	if (id < 0)
		setup_failed("shmget");
	seg = syscall(SYS_shmat, id, 0, 0);
	if (seg == -1)
		setup_failed("shmat of the attacker's own segment");
	fill_sled((uintptr_t)seg, whole_len());
	got = syscall(SYS_shmat, id, target.lo, SHM_REMAP | SHM_EXEC);
	syscall(SYS_shmctl, id, IPC_RMID, 0);
	return got == -1 ? errno : 0;
}

static int madvise_dontneed(void)
{
	return answer(syscall(SYS_madvise, target.lo, whole_len(), MADV_DONTNEED));
}

static int proc_mem_write(void)
{
	int fd = open("/proc/self/mem", O_RDWR | O_CLOEXEC);
	ssize_t wrote;
	int err;

	if (fd < 0)
		setup_failed("open /proc/self/mem read-write");
	wrote = pwrite(fd, payload, sizeof(payload), (off_t)target.address);
	err = errno;
	close(fd);
	return wrote == (ssize_t)sizeof(payload) ? 0 : err;
}

/* A page of the mapping (within as many pages around the code as the
 * text holds) the JIT never touched, and none of the code's; its residency
 * is watched beside the target's. */
static uintptr_t unfaulted_page(uintptr_t vma_lo, uintptr_t vma_hi)
{
	uintptr_t most = (MAPS_TEXT_MAX - 2) * PAGE;
	uintptr_t code_page = target.address & ~(PAGE - 1), lo = vma_lo, hi = vma_hi, at;

	if (hi - lo > most) {
		lo = code_page - lo > most / 2 ? code_page - most / 2 : lo;
		hi = lo + most < vma_hi ? lo + most : vma_hi;
	}
	for (at = hi - PAGE; at >= lo && at != 0; at -= PAGE)
		if ((at + PAGE <= target.address || at >= target.address + target.size) &&
		    residency(at) == '0')
			return at;
	setup_failed("every page of the code mapping is resident");
}

static int uffd_fill(void)
{
	uintptr_t page = target.spare;
	long fd = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY);
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = {
		.range = { .start = page, .len = PAGE },
		.mode = UFFDIO_REGISTER_MODE_MISSING,
	};
	static unsigned char sled[PAGE] __attribute__((aligned(PAGE)));
	struct uffdio_copy copy = {
		.dst = page, .src = (uintptr_t)sled, .len = PAGE,
	};
	int err;

	if (fd < 0)
		setup_failed("userfaultfd(UFFD_USER_MODE_ONLY)");
	if (ioctl((int)fd, UFFDIO_API, &api) != 0)
		setup_failed("UFFDIO_API");
	err = answer(ioctl((int)fd, UFFDIO_REGISTER, &reg));
	if (err)
		return err;
	fill_sled((uintptr_t)sled, PAGE);
	return answer(ioctl((int)fd, UFFDIO_COPY, &copy));
}

/* mprotect-rw's calls, through libc (and whatever interposes it). */
static int libc_mprotect(void)
{
	int err = mprotect((void *)target.lo, whole_len(), PROT_READ | PROT_WRITE) ? errno : 0;

	if (!err) {
		plant_payload();
		mprotect((void *)target.lo, whole_len(), PROT_READ | PROT_EXEC);
	}
	return err;
}

/* No call at all: an ordinary store into the code, as a write primitive
 * would make.  W^X refuses it (read-execute pages, or a closed key). */
static int store_code(void)
{
	plant_payload();
	return 0;
}

int live_code_pkey(uintptr_t address)
{
	FILE *smaps = fopen("/proc/self/smaps", "re");
	char text[256];
	unsigned long start, end;
	int in = 0, key = -1;

	if (!smaps)
		return -1;
	while (fgets(text, sizeof(text), smaps)) {
		if (sscanf(text, "%lx-%lx ", &start, &end) == 2 && strchr(text, '-') < strchr(text, ' '))
			in = start <= address && address < end;
		else if (in && sscanf(text, "ProtectionKey: %d", &key) == 1)
			break;
	}
	fclose(smaps);
	return key;
}

/* Key openers: the kernel opens the code's key for this thread, then the
 * ordinary store.  Where the code has no key of its own (key 0, or none),
 * the store meets W^X as store-code does. */

/* pkey_free() of the code's key, pkey_alloc(0, 0): the same number comes
 * back with rights 0 (write allowed) in this thread's PKRU. */
static int pkey_realloc(void)
{
	int key = live_code_pkey(target.lo);

	if (key > 0) {
		if (syscall(SYS_pkey_free, key) != 0)
			return errno;
		syscall(SYS_pkey_alloc, 0, 0);
	}
	plant_payload();
	return 0;
}

#define XSAVE_HEADER_OFFSET 512	/* XSTATE_BV, in the standard format */
#define XFEATURE_PKRU 9

void live_code_open_saved_pkru(int sig, siginfo_t *info, void *context)
{
	ucontext_t *uc = context;
	unsigned char *xsave = (unsigned char *)uc->uc_mcontext.fpregs;
	unsigned int size, offset, ecx, edx;
	unsigned long long bv;

	(void)sig;
	(void)info;
	__cpuid_count(0xd, XFEATURE_PKRU, size, offset, ecx, edx);
	if (!xsave || size < 4 || offset < XSAVE_HEADER_OFFSET + 64)
		return;
	memcpy(&bv, xsave + XSAVE_HEADER_OFFSET, sizeof(bv));
	bv |= 1ULL << XFEATURE_PKRU;
	memcpy(xsave + XSAVE_HEADER_OFFSET, &bv, sizeof(bv));
	memset(xsave + offset, 0, 4);
}

static int sigreturn_pkru(void)
{
	struct sigaction open_key = { .sa_sigaction = live_code_open_saved_pkru, .sa_flags = SA_SIGINFO };
	struct sigaction saved;

	if (live_code_pkey(target.lo) > 0) {	/* else no PKRU to edit */
		sigemptyset(&open_key.sa_mask);
		if (sigaction(SIGUSR1, &open_key, &saved) != 0)
			setup_failed("sigaction");
		raise(SIGUSR1);
		sigaction(SIGUSR1, &saved, NULL);
	}
	plant_payload();
	return 0;
}

struct scenario {
	const char *name;
	int (*attack)(void);
	bool all_only;	/* not in live_code_scenario()'s list */
};

/* In byte order: live_code_scenario() and live_code_scenario_all() list
 * them so. */
static const struct scenario scenarios[] = {
	{ "libc-mprotect", libc_mprotect, true },
	{ "madvise-dontneed", madvise_dontneed, false },
	{ "mmap-fixed-anon", mmap_fixed_anon, false },
	{ "mprotect-rw", mprotect_rw, false },
	{ "mprotect-rwx", mprotect_rwx, false },
	{ "mremap-move", mremap_move, false },
	{ "mremap-shrink", mremap_shrink, false },
	{ "munmap-mmap", munmap_mmap, false },
	{ "pkey-mprotect-rwx", pkey_mprotect_rwx, false },
	{ "pkey-realloc", pkey_realloc, true },
	{ "proc-mem-write", proc_mem_write, false },
	{ "shmat-remap", shmat_remap, false },
	{ "sigreturn-pkru", sigreturn_pkru, true },
	{ "store-code", store_code, true },
	{ "uffd-fill", uffd_fill, false },
};

#define SCENARIOS (sizeof(scenarios) / sizeof(scenarios[0]))

/* The index-th scenario of the list (all: every one), or NULL. */
static const struct scenario *nth(size_t index, bool all)
{
	size_t i;

	for (i = 0; i < SCENARIOS; i++)
		if ((all || !scenarios[i].all_only) && index-- == 0)
			return &scenarios[i];
	return NULL;
}

const char *live_code_scenario(size_t index)
{
	const struct scenario *s = nth(index, false);

	return s ? s->name : NULL;
}

const char *live_code_scenario_all(size_t index)
{
	const struct scenario *s = nth(index, true);

	return s ? s->name : NULL;
}

static const char *verdict(int err, const char *changed, const char **errno_text)
{
	if (!err && !changed[0] && plant_faulted) {
		/* the call changed nothing, and the store after it faulted */
		*errno_text = "SIGSEGV";
		return "BLOCKED";
	}
	*errno_text = err ? strerrorname_np(err) : "-";
	if (!err && changed[0])
		return "LANDED";
	if (err && !changed[0])
		return "BLOCKED";
	if (err)
		return "LANDED";
	return "ERROR";
}

/* What one attack came to. */
struct verdict {
	int err;		/* the call's errno, 0 when it succeeded */
	int store_faulted;	/* the store after it faulted */
	char changed[32];	/* "maps,code,resident" or "" */
	int pkey;		/* the mapping's key before the attack, or -1 */
};

/* Run the scenario NAME (all: any of live_code_scenario_all(), else of
 * live_code_scenario()) on the code at [address, address + size): 0, or
 * 2 with line naming an unknown scenario. */
static int run(const char *name, bool all, uintptr_t address, size_t size,
	       struct verdict *v, char *line, size_t line_len)
{
	const struct scenario *s = NULL;
	struct snapshot *before, *after;
	uintptr_t vma_lo, vma_hi;
	size_t i;

	for (i = 0; i < SCENARIOS; i++)
		if (strcmp(scenarios[i].name, name) == 0 && (all || !scenarios[i].all_only))
			s = &scenarios[i];
	if (!s) {
		snprintf(line, line_len, "attack unknown-scenario=%s", name);
		return 2;
	}
	if (size == 0 || size > CODE_MAX)
		setup_failed("the code's size is 0 or larger than 64 KiB");
	target = (struct target){ .address = address, .size = size };
	maps_over(0, 0, NULL, 0);
	if (!target.lo)
		setup_failed("the code's address is in no mapping");
	vma_lo = target.lo;
	vma_hi = target.hi;
	narrow_to_code();
	if (s->attack == uffd_fill)
		target.spare = unfaulted_page(vma_lo, vma_hi);
	if (mem_fd < 0)
		mem_fd = open("/proc/self/mem", O_RDONLY | O_CLOEXEC);
	before = calloc(1, sizeof(*before));
	after = calloc(1, sizeof(*after));
	if (mem_fd < 0 || !before || !after)
		setup_failed("cannot open /proc/self/mem or allocate snapshots");
	v->pkey = live_code_pkey(target.lo);
	snapshot(before);
	plant_faulted = 0;
	v->err = s->attack();
	v->store_faulted = plant_faulted;
	snapshot(after);
	changes(before, after, v->changed, sizeof(v->changed));
	free(before);
	free(after);
	return 0;
}

int live_code_attack(const char *name, uintptr_t address, size_t size,
		     char *line, size_t line_len)
{
	const char *errno_text, *outcome;
	struct verdict v;
	int rc = run(name, false, address, size, &v, line, line_len);

	if (rc)
		return rc;
	plant_faulted = v.store_faulted;
	outcome = verdict(v.err, v.changed, &errno_text);
	snprintf(line, line_len,
		 "attack scenario=%s call=%s outcome=%s errno=%s changed=%s "
		 "area=%lx+%zu code=%lx+%zu",
		 name, v.err ? errno_text : "ok", outcome, errno_text,
		 v.changed[0] ? v.changed : "-", target.lo, whole_len(),
		 target.address, target.size);
	return 0;
}

int live_code_attack_trace(const char *name, uintptr_t address, size_t size,
			   char *line, size_t line_len)
{
	const char *answer = NULL, *outcome, *errno_text;
	char key[16] = "-";
	struct verdict v;
	int rc = run(name, true, address, size, &v, line, line_len);

	if (rc)
		return rc;
	/* the call's errno, or the fault of the store after it */
	if (v.err)
		answer = strerrorname_np(v.err) ?: "E?";
	else if (v.store_faulted)
		answer = "SIGSEGV";
	if (!answer && v.changed[0])
		outcome = "LANDED", errno_text = "-";
	else if (answer && !v.changed[0])
		outcome = "BLOCKED", errno_text = answer;
	else if (answer)
		outcome = "LANDED", errno_text = answer;
	else
		outcome = "ERROR", errno_text = "-";
	if (v.pkey >= 0)
		snprintf(key, sizeof(key), "%d", v.pkey);
	snprintf(line, line_len,
		 "attack scenario=%s call=%s outcome=%s errno=%s changed=%s "
		 "area=%lx+%zu trace=%lx+%zu pkey=%s",
		 name, answer ? answer : "ok", outcome, errno_text,
		 v.changed[0] ? v.changed : "-", target.lo, whole_len(),
		 target.address, target.size, key);
	return 0;
}
