/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exec-seals.h - shared by the parts of exec-seals: the run's state, the
 * smaps and vDSO readers.
 */
#ifndef EXEC_SEALS_H
#define EXEC_SEALS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sealjit/kernel.h>
#include <sealjit/smaps.h>
#include <sealjit/tap.h>

#define PAGE 4096
/* The anonymous range the old image seals. */
#define ANON_LEN (2 * PAGE)

/* The whole run's state, passed from the old image to the new in argv. */
struct run {
	const struct sealjit_kernel *kernel;	/* what to expect: its registry row */
	int pid;		/* the old image's, which the new one must have */
	struct tap tap;		/* the test points so far, numbered across exec */
	uintptr_t anon;		/* the anonymous range the old image sealed */
	uintptr_t page;		/* its .bss page, at the same address in both */
	bool sealed;		/* did the old image seal them? */
};

/* One mapping as /proc/self/smaps shows it. */
struct mapping {
	uintptr_t start, end;
	char perms[8];
	char name[64];
	char seals[96];		/* the "Seals:" line's names, or "" */
	unsigned int types;	/* those names' types (MM_SEAL_*) */
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
