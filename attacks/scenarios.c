/*
 * scenarios.c - the corrupted mm system calls.
 *
 * Each attack makes ONE corrupted call against the arena (plus, where a
 * real exploit would, the ordinary follow-up that plants the attacker's
 * bytes) and returns 0 when the call succeeded, its errno when it failed,
 * or ATTACK_SETUP_FAILED when the attacker's own preparation failed (then
 * the case is an ERROR: it proves nothing).  Whether the attack landed is
 * decided afterwards by probe.c, never here.
 */
#define _GNU_SOURCE
#include "attacks.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/aio_abi.h>
#include <linux/userfaultfd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <sealjit/mseal.h>

#ifndef UFFD_USER_MODE_ONLY
#define UFFD_USER_MODE_ONLY 1
#endif

#define PROT_RWX (PROT_READ | PROT_WRITE | PROT_EXEC)
#define ONE_GIB (1UL << 30)

static int answer(int ok)
{
	return ok ? 0 : errno;
}

static int mprotect_whole(const struct target *t, int prot)
{
	return answer(mprotect(t->base, t->length, prot) == 0);
}

static int attack_mprotect_rw(const struct target *t)
{
	return mprotect_whole(t, PROT_READ | PROT_WRITE);
}

static int attack_mprotect_rwx(const struct target *t)
{
	return mprotect_whole(t, PROT_RWX);
}

static int attack_mprotect_none(const struct target *t)
{
	return mprotect_whole(t, PROT_NONE);
}

/* A real protection key where the CPU has them, else -1 (plain mprotect). */
static int attack_pkey_mprotect_rwx(const struct target *t)
{
	int pkey = pkey_alloc(0, 0);
	return answer(pkey_mprotect(t->base, t->length, PROT_RWX, pkey) == 0);
}

static int attack_mremap_move(const struct target *t)
{
	void *away = t->base + ONE_GIB;
	void *hold = mmap(away, t->length, PROT_NONE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (hold != away)
		return ATTACK_SETUP_FAILED;
	return answer(mremap(t->base, t->length, t->length,
			     MREMAP_MAYMOVE | MREMAP_FIXED, away) != MAP_FAILED);
}

static int attack_mremap_shrink(const struct target *t)
{
	return answer(mremap(t->base, t->length, t->length - t->page, 0) !=
		      MAP_FAILED);
}

/* In place: target.c keeps the pages above the arena free. */
static int attack_mremap_expand(const struct target *t)
{
	return answer(mremap(t->base, t->length, t->length + t->page, 0) !=
		      MAP_FAILED);
}

/* The pages move away; the range left behind reads back as zeros. */
static int attack_mremap_dontunmap(const struct target *t)
{
	return answer(mremap(t->base, t->length, t->length,
			     MREMAP_MAYMOVE | MREMAP_DONTUNMAP, NULL) != MAP_FAILED);
}

static uint8_t *attacker_pages(const struct target *t)
{
	void *p = mmap(NULL, t->length, PROT_RWX, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	target_payload(t, p, t->length);
	return p;
}

static int attack_mremap_onto(const struct target *t)
{
	uint8_t *evil = attacker_pages(t);
	if (!evil)
		return ATTACK_SETUP_FAILED;
	return answer(mremap(evil, t->length, t->length,
			     MREMAP_MAYMOVE | MREMAP_FIXED, t->base) != MAP_FAILED);
}

static int attack_mmap_fixed_anon(const struct target *t)
{
	void *p = mmap(t->base, t->length, PROT_RWX,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	if (p == MAP_FAILED)
		return errno;
	target_payload(t, p, t->length);
	return 0;
}

/* A file holding the attacker's bytes that can really be mapped PROT_EXEC
 * (so a noexec /tmp cannot pass for a seal's EPERM): /tmp, else a memfd. */
static bool file_maps_exec(int fd, size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		return false;
	munmap(p, len);
	return true;
}

static bool fill_file(int fd, const struct target *t)
{
	uint8_t *bytes = malloc(t->length);
	if (!bytes)
		return false;
	target_payload(t, bytes, t->length);
	bool ok = pwrite(fd, bytes, t->length, 0) == (ssize_t)t->length;
	free(bytes);
	return ok && file_maps_exec(fd, t->length);
}

static int payload_file(const struct target *t)
{
	char path[] = "/tmp/attacks-payload-XXXXXX";
	int fd = mkstemp(path);
	if (fd >= 0) {
		unlink(path);
		if (fill_file(fd, t))
			return fd;
		close(fd);
	}
	fd = memfd_create("attacks-payload", 0);
	if (fd >= 0 && fill_file(fd, t))
		return fd;
	if (fd >= 0)
		close(fd);
	return -1;
}

static int attack_mmap_fixed_file(const struct target *t)
{
	int fd = payload_file(t);
	if (fd < 0)
		return ATTACK_SETUP_FAILED;
	void *p = mmap(t->base, t->length, PROT_READ | PROT_EXEC,
		       MAP_PRIVATE | MAP_FIXED, fd, 0);
	int err = answer(p != MAP_FAILED);
	close(fd);
	return err;
}

/* munmap is the corrupted call; the program's next mmap reuses the hole. */
static int attack_munmap_mmap(const struct target *t)
{
	if (munmap(t->base, t->length) != 0)
		return errno;
	void *p = mmap(t->base, t->length, PROT_RWX,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p == t->base)
		target_payload(t, p, t->length);
	return 0;
}

/* The segment (mode 0700: SHM_EXEC needs x, or else CAP_IPC_OWNER) is
 * filled through a first attachment, then attached again
 * over the code; marking it removed while attached leaks nothing. */
static int attack_shmat_remap(const struct target *t)
{
	int id = shmget(IPC_PRIVATE, t->length, IPC_CREAT | 0700);
	if (id < 0)
		return ATTACK_SETUP_FAILED;
	void *fill = shmat(id, NULL, SHM_EXEC);
	if (fill == (void *)-1) {
		shmctl(id, IPC_RMID, NULL);
		return ATTACK_SETUP_FAILED;
	}
	target_payload(t, fill, t->length);
	int err = answer(shmat(id, t->base, SHM_REMAP | SHM_EXEC) != (void *)-1);
	shmctl(id, IPC_RMID, NULL);
	shmdt(fill);
	return err;
}

static int attack_madvise_dontneed(const struct target *t)
{
	return answer(madvise(t->base, t->length, MADV_DONTNEED) == 0);
}

static int attack_proc_mem_write(const struct target *t)
{
	int fd = open("/proc/self/mem", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return ATTACK_SETUP_FAILED;
	uint8_t bytes[ENTRY_PAYLOAD_LEN];
	entry_payload(bytes);
	off_t where = (off_t)(uintptr_t)(t->base + t->entry_offset);
	int err = answer(pwrite(fd, bytes, sizeof bytes, where) == sizeof bytes);
	close(fd);
	return err;
}

/* [unsealed page below the arena, arena end): one call, two VMAs. */
static int attack_straddle_mprotect(const struct target *t)
{
	return answer(mprotect(t->base - t->page, t->length + t->page,
			       PROT_RWX) == 0);
}

/*
 * merge-steal: the attacker's page N right above the code, faulted (so it
 * shares the code's anon_vma), made r-x and given the same harmless
 * attribute (MADV_DONTDUMP, or mlock) that the code's last page is then
 * given.  Where seals are kept beside vm_flags, the merge that follows can
 * hand that last page to N, unsealed.  libjit's arena is at least three
 * pages, so the stolen page is its last one (the red team used page 2 of 2).
 */
typedef int (*page_touch_fn)(void *addr, size_t len);

static int touch_dontdump(void *addr, size_t len)
{
	return madvise(addr, len, MADV_DONTDUMP);
}

static int touch_mlock(void *addr, size_t len)
{
	return mlock(addr, len);
}

static uint8_t *code_last_page(const struct target *t)
{
	return t->base + t->length - t->page;
}

static bool prepare_merge(const struct target *t, page_touch_fn touch)
{
	uint8_t *above = t->base + t->length;
	void *n = mmap(above, t->page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (n != above)
		return false;
	above[0] = 1;		/* faulted in: takes the code's anon_vma */
	return mprotect(above, t->page, PROT_READ | PROT_EXEC) == 0 &&
	       touch(above, t->page) == 0 &&
	       touch(code_last_page(t), t->page) == 0;
}

static bool prepare_merge_dontdump(const struct target *t)
{
	return prepare_merge(t, touch_dontdump);
}

static bool prepare_merge_mlock(const struct target *t)
{
	return prepare_merge(t, touch_mlock);
}

/* The corrupted call: mprotect the code's last page RW, then rewrite it. */
static int attack_merge_steal(const struct target *t)
{
	uint8_t *last = code_last_page(t);
	if (mprotect(last, t->page, PROT_READ | PROT_WRITE) != 0)
		return errno;
	memset(last, 0xcc, t->page);
	return 0;
}

/*
 * aio-ring: io_setup() maps a ring; the attacker shrinks it to one page
 * and moves that page right below the code (the ring's mremap handler
 * moves the context's base along, not its size), so io_destroy()'s unmap
 * of [base, base + original size) covers the code.  This is the issue's
 * "the arena lands in the freed ring range" turned around: it needs no
 * control over where the code is, and works from a forked child too.
 * The attacker then maps its bytes there (MAP_FIXED: where the code
 * survived io_destroy(), this mmap is what reports the seal's errno).
 */
#define AIO_EVENTS 4096		/* a ring of some 65 pages, wider than the code */

static aio_context_t aio_ring;	/* from prepare to attack, per case process */

static size_t mapping_length(uintptr_t start)
{
	FILE *maps = fopen("/proc/self/maps", "re");
	if (!maps)
		return 0;
	char line[512];
	size_t len = 0;
	while (!len && fgets(line, sizeof line, maps)) {
		uintptr_t from, to;
		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR, &from, &to) == 2 &&
		    from == start)
			len = to - from;
	}
	fclose(maps);
	return len;
}

static bool prepare_aio_ring(const struct target *t)
{
	aio_context_t ctx = 0;
	if (syscall(SYS_io_setup, AIO_EVENTS, &ctx) != 0)
		return false;
	size_t len = mapping_length((uintptr_t)ctx);
	if (len < t->length + t->page) {
		errno = ERANGE;		/* the ring cannot cover the code */
		return false;
	}
	uint8_t *below = t->base - t->page;
	if (mremap((void *)(uintptr_t)ctx, len, t->page,
		   MREMAP_MAYMOVE | MREMAP_FIXED, below) != below)
		return false;
	aio_ring = (aio_context_t)(uintptr_t)below;	/* the id moved too */
	return true;
}

static int attack_aio_ring(const struct target *t)
{
	if (syscall(SYS_io_destroy, aio_ring) != 0)
		return errno;
	return attack_mmap_fixed_anon(t);
}

/*
 * uffd-fill needs a sealed page that was never faulted in.  libjit's
 * arena has none (it maps exactly the code's pages and writes them all),
 * so the program grows its sealed code region by one r-x page directly
 * above the arena, never touched, sealed with the policy's own seal types
 * the way libjit seals (4-argument types, upstream's form on EINVAL), as
 * a JIT that keeps room for more code would.  The probes never read it.
 */
bool seal_like_libjit(void *addr, size_t len, unsigned types)
{
	enum mseal_abi form = MSEAL_ABI_TYPES;

	/* No mseal(): W^X only, as libjit leaves it. */
	return types == 0 || mseal_seal(addr, len, types, &form) == 0 ||
	       form == MSEAL_ABI_NONE;
}

/*
 * In the key space the room is already there: libjit hands its pages out
 * in order, so the page right above the arena is the never-touched rest
 * of the same sealed rwx VMA, where the JIT's next module would go.
 */
static bool room_in_key_space(struct target *t, char *why, size_t why_len)
{
	unsigned char resident = 0;
	uint8_t *above = t->base + t->length;
	if (mincore(above, t->page, &resident) != 0 || (resident & 1)) {
		snprintf(why, why_len, "the key space's page above the arena is %s",
			 resident & 1 ? "already faulted in" : "not mapped");
		return false;
	}
	t->length += t->page;
	return true;
}

bool finish_room_above(struct target *t, enum jit_seal_policy policy,
		       char *why, size_t why_len)
{
	(void)policy;
	if (t->in_key_space)
		return room_in_key_space(t, why, why_len);
	uint8_t *above = t->base + t->length;
	void *p = mmap(above, t->page, PROT_READ | PROT_EXEC,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p != above || !seal_like_libjit(above, t->page,
					    t->info.types_requested)) {
		snprintf(why, why_len, "cannot map and seal the room above the "
			 "arena: %s", strerror(errno));
		return false;
	}
	t->length += t->page;
	return true;
}

static int attack_uffd_fill(const struct target *t)
{
	int fd = uffd_open(0, 0);
	if (fd < 0)
		return ATTACK_SETUP_FAILED;
	uint8_t *hole = t->base + t->length - t->page;
	int err = uffd_register_missing(fd, hole, t->page);
	if (err == 0)
		err = uffd_copy_payload(fd, t, hole);
	close(fd);
	return err;
}

/*
 * upstream-call: the program seals its code the way every program written
 * for upstream's mseal() does, syscall(462, addr, len, 0), and, like a
 * three-argument caller, leaves whatever its register held in the fourth.
 */
#define GARBAGE_ARG4 0x7f3a5ea1UL

static bool finish_upstream_call(struct target *t, enum jit_seal_policy policy,
				 char *why, size_t why_len)
{
	(void)why;
	(void)why_len;
	if (policy == JIT_SEAL_NONE)
		return true;	/* the control: nothing sealed */
	long r = syscall(__NR_mseal, t->base, t->length, 0UL, GARBAGE_ARG4);
	snprintf(t->seal_note, sizeof t->seal_note,
		 "mseal(addr, len, 0) with a garbage 4th argument: %s",
		 r == 0 ? "0" : errno_name(errno));
	return true;
}

static int attack_upstream_call(const struct target *t)
{
	if (mprotect(t->base, t->length, PROT_READ | PROT_WRITE) != 0)
		return errno;
	target_payload(t, t->base, t->page);
	return 0;
}

static const struct scenario scenarios[] = {
	{ .name = "mprotect-rw",
	  .description = "mprotect(code, PROT_READ|PROT_WRITE)",
	  .narration = "mprotect the code RW",
	  .attack = attack_mprotect_rw },
	{ .name = "mprotect-rwx",
	  .description = "mprotect(code, PROT_READ|PROT_WRITE|PROT_EXEC)",
	  .narration = "mprotect the code RWX",
	  .attack = attack_mprotect_rwx },
	{ .name = "mprotect-none",
	  .description = "mprotect(code, PROT_NONE)",
	  .narration = "mprotect the code PROT_NONE",
	  .attack = attack_mprotect_none },
	{ .name = "pkey-mprotect-rwx",
	  .description = "pkey_mprotect(code, RWX, pkey_alloc() or -1)",
	  .narration = "pkey_mprotect the code RWX",
	  .attack = attack_pkey_mprotect_rwx },
	{ .name = "mremap-move",
	  .description = "mremap(code, MREMAP_MAYMOVE|MREMAP_FIXED) 1 GiB away",
	  .narration = "move the code away with mremap",
	  .attack = attack_mremap_move },
	{ .name = "mremap-shrink",
	  .description = "mremap(code, len, len - 1 page) in place",
	  .narration = "shrink the code with mremap",
	  .attack = attack_mremap_shrink },
	{ .name = "mremap-expand",
	  .description = "mremap(code, len, len + 1 page) in place",
	  .narration = "grow the code with mremap",
	  .attack = attack_mremap_expand },
	{ .name = "mremap-dontunmap",
	  .description = "mremap(code, MREMAP_MAYMOVE|MREMAP_DONTUNMAP)",
	  .narration = "take the code's pages with MREMAP_DONTUNMAP",
	  .attack = attack_mremap_dontunmap },
	{ .name = "mremap-onto",
	  .description = "mremap(attacker RWX pages, MREMAP_FIXED onto code)",
	  .narration = "move attacker RWX pages onto the code",
	  .attack = attack_mremap_onto },
	{ .name = "mmap-fixed-anon",
	  .description = "mmap(code, RWX, MAP_FIXED|MAP_ANONYMOUS), fill",
	  .narration = "mmap anonymous RWX over the code",
	  .attack = attack_mmap_fixed_anon },
	{ .name = "mmap-fixed-file",
	  .description = "mmap(code, RX, MAP_FIXED, attacker file)",
	  .narration = "mmap an attacker file over the code",
	  .attack = attack_mmap_fixed_file },
	{ .name = "munmap-mmap",
	  .description = "munmap(code), then mmap attacker RWX at the address",
	  .narration = "munmap the code, mmap attacker bytes there",
	  .attack = attack_munmap_mmap },
	{ .name = "shmat-remap",
	  .description = "shmat(attacker segment, code, SHM_REMAP|SHM_EXEC)",
	  .narration = "shmat an attacker segment over the code",
	  .attack = attack_shmat_remap },
	{ .name = "madvise-dontneed",
	  .description = "madvise(code, MADV_DONTNEED): reads back zeros",
	  .narration = "madvise(MADV_DONTNEED) the code",
	  .attack = attack_madvise_dontneed },
	{ .name = "proc-mem-write",
	  .description = "pwrite(/proc/self/mem) attacker bytes into code",
	  .narration = "write the code through /proc/self/mem",
	  .key_policies = true,
	  .attack = attack_proc_mem_write },
	{ .name = "straddle-mprotect",
	  .description = "mprotect([unsealed page below, code end), RWX)",
	  .narration = "mprotect RWX from an unsealed page into the code",
	  .needs_page_below = true,
	  .attack = attack_straddle_mprotect },
	{ .name = "merge-steal",
	  .description = "madvise(DONTDUMP) code's last page beside a like r-x page; mprotect it RW",
	  .narration = "merge the code's last page away, then rewrite it",
	  .prepare = prepare_merge_dontdump,
	  .attack = attack_merge_steal },
	{ .name = "merge-steal-mlock",
	  .description = "as merge-steal, with mlock() instead of MADV_DONTDUMP",
	  .narration = "merge the code's last page by mlock, then rewrite it",
	  .prepare = prepare_merge_mlock,
	  .attack = attack_merge_steal },
	{ .name = "aio-ring",
	  .description = "io_destroy() of an aio ring shrunk and moved below the code, then mmap",
	  .narration = "have io_destroy() unmap the code, map attacker bytes",
	  .prepare = prepare_aio_ring,
	  .attack = attack_aio_ring },
	{ .name = "uffd-fill",
	  .description = "userfaultfd MISSING + UFFDIO_COPY into a never-faulted sealed page",
	  .narration = "fill a never-faulted code page through userfaultfd",
	  .key_policies = true,
	  .finish = finish_room_above,
	  .attack = attack_uffd_fill },
	{ .name = "madvise-inflight",
	  .description = "madvise(DONTNEED) from a uffd page below the code sleeps while the JIT seals",
	  .narration = "sleep in madvise() across the seal, then zap the code",
	  .needs_page_below = true,
	  .seals_itself = true,
	  .self_only = true,
	  .finish = finish_inflight_below,
	  .attack = attack_inflight },
	{ .name = "madvise-inflight-code",
	  .description = "the code registered with uffd before the seal; madvise(DONTNEED) sleeps across it",
	  .narration = "register the code, sleep in madvise() across the seal",
	  .seals_itself = true,
	  .self_only = true,
	  .finish = finish_inflight_code,
	  .attack = attack_inflight },
	{ .name = "lazyfree-pageout",
	  .description = "MADV_FREE the code before the seal, MADV_PAGEOUT after it",
	  .narration = "free the code lazily before the seal, reclaim it after",
	  .seals_itself = true,
	  .self_only = true,
	  .harmless_call = true,
	  .finish = finish_lazyfree,
	  .attack = attack_pageout },
	{ .name = "upstream-call",
	  .description = "code sealed by mseal(addr, len, 0, garbage); mprotect RW, write",
	  .narration = "seal the upstream way, then mprotect the code RW",
	  .seals_itself = true,
	  .sealed_by_upstream_call = true,
	  .finish = finish_upstream_call,
	  .attack = attack_upstream_call },
	/* writers.c: the code written by someone other than the thread that
	 * holds the key: run under pkey and keyonly too */
	{ .name = "vm-writev",
	  .description = "process_vm_writev(own pid) attacker bytes into code",
	  .narration = "write the code through process_vm_writev() to itself",
	  .key_policies = true,
	  .needs_writable = true,
	  .attack = attack_vm_writev },
	{ .name = "child-vm-writev",
	  .description = "a forked child process_vm_writev()s attacker bytes into its parent's code",
	  .narration = "have a child write the code with process_vm_writev()",
	  .key_policies = true,
	  .needs_writable = true,
	  .attack = attack_child_vm_writev },
	{ .name = "child-proc-mem",
	  .description = "a forked child pwrite()s attacker bytes to /proc/PPID/mem",
	  .narration = "have a child write the code through /proc/PPID/mem",
	  .key_policies = true,
	  .attack = attack_child_proc_mem },
	{ .name = "tracer-poke",
	  .description = "a forked child seizes its parent (PR_SET_PTRACER) and PTRACE_POKEDATAs the code",
	  .narration = "have a tracer child poke the code",
	  .key_policies = true,
	  .unavailable = tracer_unavailable,
	  .attack = attack_tracer_poke },
	{ .name = "child-uffd-copy",
	  .description = "userfaultfd registered on a never-faulted code page, then fork: the child UFFDIO_COPYs",
	  .narration = "have a child fill a code page through an inherited userfaultfd",
	  .key_policies = true,
	  .finish = finish_room_above,
	  .attack = attack_child_uffd_copy },
	{ .name = "sigaltstack-frame",
	  .description = "sigaltstack(code), then a signal with an SA_ONSTACK handler: the kernel writes the frame",
	  .narration = "point sigaltstack() at the code, then take a signal",
	  .key_policies = true,
	  .needs_writable = true,
	  .attack = attack_sigaltstack_frame },
	{ .name = "uffd-move-out",
	  .description = "UFFDIO_MOVE the code's first page out into the attacker's registered page",
	  .narration = "move the code's first page out with UFFDIO_MOVE",
	  .key_policies = true,
	  .self_only = true,
	  .needs_writable = true,
	  .unavailable = uffd_move_unavailable,
	  .since = "6.8",
	  .attack = attack_uffd_move_out },
	/* openers.c: the kernel opens the code's key for the attacker, who
	 * then stores (issue 41): under pkey and keyonly only */
	{ .name = "pkey-reuse",
	  .description = "pkey_free(the code's key), pkey_alloc(0, 0): the number back with rights 0; a store",
	  .narration = "free the code's key and allocate it again, open, then write the code",
	  .key_space_only = true,
	  .attack = attack_pkey_reuse },
	{ .name = "sigreturn-edit",
	  .description = "a handler sets PKRU to 0 in its own frame's XSAVE image, rt_sigreturn; a store",
	  .narration = "have a signal handler open every key in the frame it returns through, then write the code",
	  .key_space_only = true,
	  .attack = attack_sigreturn_edit },
	{ .name = "sigreturn-forged",
	  .description = "rt_sigreturn of a frame no signal delivered, PKRU 0 in its XSAVE image; a store",
	  .narration = "forge a signal frame with every key open and rt_sigreturn through it, then write the code",
	  .key_space_only = true,
	  .attack = attack_sigreturn_forged },
	{ .name = "ptrace-xstate",
	  .description = "a forked tracer (PR_SET_PTRACER) sets PKRU to 0 by PTRACE_SETREGSET(NT_X86_XSTATE); a store",
	  .narration = "have a tracer child open every key through the XSAVE regset, then write the code",
	  .key_space_only = true,
	  .unavailable = tracer_unavailable,
	  .attack = attack_ptrace_xstate },
	{ .name = "window-thread-store",
	  .description = "a thread created inside the JIT's write window stores after the window closed",
	  .narration = "start a thread while the JIT's key is open; it writes the code later",
	  .key_space_only = true,
	  .attack = attack_window_thread_store },
	{ .name = "window-clone-store",
	  .description = "a CLONE_VM process created inside the write window stores after it closed",
	  .narration = "start a CLONE_VM process while the JIT's key is open; it writes the code later",
	  .key_space_only = true,
	  .attack = attack_window_clone_store },
	{ .name = "window-clone-madvise",
	  .description = "a CLONE_VM process created inside the write window madvise(MADV_DONTNEED)s the code",
	  .narration = "start a CLONE_VM process while the JIT's key is open; it empties the code later",
	  .key_space_only = true,
	  .attack = attack_window_clone_madvise },
	{ .name = "window-signal-frame",
	  .description = "a signal taken inside the write window on an alternate stack aimed at the code",
	  .narration = "take a signal while the JIT's key is open, its frame aimed at the code",
	  .key_space_only = true,
	  .attack = attack_window_signal_frame },
};

size_t scenario_count(void)
{
	return sizeof scenarios / sizeof scenarios[0];
}

const struct scenario *scenario_at(size_t index)
{
	return index < scenario_count() ? &scenarios[index] : NULL;
}

const struct scenario *scenario_find(const char *name)
{
	for (size_t i = 0; i < scenario_count(); i++)
		if (strcmp(scenarios[i].name, name) == 0)
			return &scenarios[i];
	return NULL;
}
