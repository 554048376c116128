/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exec-seals.h - shared by the parts of exec-seals: what each kernel is
 * expected to do, the TAP helpers, smaps and vDSO readers.
 */
#ifndef EXEC_SEALS_H
#define EXEC_SEALS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Which mseal() a kernel has (include/sealjit/mseal.h spells both). */
#define PAGE 4096
/* The anonymous range the old image seals. */
#define ANON_LEN (2 * PAGE)

enum abi {
	ABI_NONE,	/* no mseal: ENOSYS */
	ABI_SERIES,	/* mseal(addr, len, types, flags): v1 and the series */
	ABI_UPSTREAM,	/* mseal(addr, len, 0): 6.10+ */
};

/* How /proc/PID/smaps shows a seal. */
enum smaps_style {
	SMAPS_NONE,	/* it does not: vanilla, v1 (before "proc: show ...") */
	SMAPS_SEALS,	/* the series: a "Seals:" line, and "sl" in VmFlags */
	SMAPS_SL,	/* upstream: "sl" in VmFlags */
};

struct kernel {
	const char *name;
	enum abi abi;
	int refusal;		/* errno of a refusal by a seal the old image
				 * makes (the system mappings': EPERM) */
	enum smaps_style smaps;
	bool sysmap;		/* system mappings sealed at exec */
};

/* The whole run's state, passed from the old image to the new in argv. */
struct run {
	const struct kernel *kernel;
	int pid;		/* the old image's, which the new one must have */
	unsigned int next;	/* next TAP test number */
	unsigned int failed;	/* tests not ok so far */
	unsigned int skipped;	/* tests skipped so far */
	uintptr_t anon;		/* the anonymous range the old image sealed */
	uintptr_t page;		/* its .bss page, at the same address in both */
	bool sealed;		/* did the old image seal them? */
};

/* TAP, numbered across the exec. */
void tap_ok(struct run *run, bool ok, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void tap_skip(struct run *run, const char *why, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void tap_bail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* One mapping as /proc/self/smaps shows it. */
struct mapping {
	uintptr_t start, end;
	char perms[8];
	char name[64];
	char seals[96];		/* the "Seals:" line's names, or "" */
	bool sl;		/* "sl" among VmFlags */
};

typedef bool (*mapping_fn)(const struct mapping *m, void *arg);

/* Calls @fn for each mapping until it returns false; false on error. */
bool smaps_each(mapping_fn fn, void *arg);
/* The mapping named @name ("[vdso]"), or false. */
bool smaps_find_name(const char *name, struct mapping *out);
/* The mapping that contains @addr, or false. */
bool smaps_find_addr(uintptr_t addr, struct mapping *out);
/* Does @m show a seal, in any style? */
bool mapping_sealed(const struct mapping *m);
/* Does @m show every seal type, in @style? */
bool mapping_fully_sealed(const struct mapping *m, enum smaps_style style);

/* clock_gettime(CLOCK_MONOTONIC) through the vDSO's own function. */
typedef int (*vdso_gettime_fn)(int clock, void *ts);
vdso_gettime_fn vdso_gettime(void);
/* Does the vDSO's clock_gettime() agree with the system call's? */
bool vdso_works(vdso_gettime_fn fn);

/* The bss page, at the same address in both images. */
extern unsigned char bss_page[];

/* The checks, in the old image and in the new. */
void before_exec(struct run *run, char *argv0);
void after_exec(struct run *run);
void check_system_mappings(struct run *run);

#endif /* EXEC_SEALS_H */
