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
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <unistd.h>

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
	uint8_t bytes[16];
	struct target just_entry = *t;
	just_entry.entry_offset = 0;
	target_payload(&just_entry, bytes, sizeof bytes);
	off_t where = (off_t)(uintptr_t)(t->base + t->entry_offset);
	int err = answer(pwrite(fd, bytes, 6, where) == 6);
	close(fd);
	return err;
}

/* [unsealed page below the arena, arena end): one call, two VMAs. */
static int attack_straddle_mprotect(const struct target *t)
{
	return answer(mprotect(t->base - t->page, t->length + t->page,
			       PROT_RWX) == 0);
}

static const struct scenario scenarios[] = {
	{ "mprotect-rw", "mprotect(code, PROT_READ|PROT_WRITE)",
	  "mprotect the code RW", false, attack_mprotect_rw },
	{ "mprotect-rwx", "mprotect(code, PROT_READ|PROT_WRITE|PROT_EXEC)",
	  "mprotect the code RWX", false, attack_mprotect_rwx },
	{ "mprotect-none", "mprotect(code, PROT_NONE)",
	  "mprotect the code PROT_NONE", false, attack_mprotect_none },
	{ "pkey-mprotect-rwx", "pkey_mprotect(code, RWX, pkey_alloc() or -1)",
	  "pkey_mprotect the code RWX", false, attack_pkey_mprotect_rwx },
	{ "mremap-move", "mremap(code, MREMAP_MAYMOVE|MREMAP_FIXED) 1 GiB away",
	  "move the code away with mremap", false, attack_mremap_move },
	{ "mremap-shrink", "mremap(code, len, len - 1 page) in place",
	  "shrink the code with mremap", false, attack_mremap_shrink },
	{ "mremap-expand", "mremap(code, len, len + 1 page) in place",
	  "grow the code with mremap", false, attack_mremap_expand },
	{ "mremap-dontunmap", "mremap(code, MREMAP_MAYMOVE|MREMAP_DONTUNMAP)",
	  "take the code's pages with MREMAP_DONTUNMAP", false,
	  attack_mremap_dontunmap },
	{ "mremap-onto", "mremap(attacker RWX pages, MREMAP_FIXED onto code)",
	  "move attacker RWX pages onto the code", false, attack_mremap_onto },
	{ "mmap-fixed-anon", "mmap(code, RWX, MAP_FIXED|MAP_ANONYMOUS), fill",
	  "mmap anonymous RWX over the code", false, attack_mmap_fixed_anon },
	{ "mmap-fixed-file", "mmap(code, RX, MAP_FIXED, attacker file)",
	  "mmap an attacker file over the code", false, attack_mmap_fixed_file },
	{ "munmap-mmap", "munmap(code), then mmap attacker RWX at the address",
	  "munmap the code, mmap attacker bytes there", false,
	  attack_munmap_mmap },
	{ "shmat-remap", "shmat(attacker segment, code, SHM_REMAP|SHM_EXEC)",
	  "shmat an attacker segment over the code", false,
	  attack_shmat_remap },
	{ "madvise-dontneed", "madvise(code, MADV_DONTNEED): reads back zeros",
	  "madvise(MADV_DONTNEED) the code", false, attack_madvise_dontneed },
	{ "proc-mem-write", "pwrite(/proc/self/mem) attacker bytes into code",
	  "write the code through /proc/self/mem", false,
	  attack_proc_mem_write },
	{ "straddle-mprotect", "mprotect([unsealed page below, code end), RWX)",
	  "mprotect RWX from an unsealed page into the code", true,
	  attack_straddle_mprotect },
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
