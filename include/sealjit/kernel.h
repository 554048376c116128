/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sealjit/kernel.h - what a C program knows of a guest kernel: its row of
 * kernel/kernels.tsv, the registry, through the header `kernel/kernels
 * header` generates (build/include/sealjit/kernels.h; kernel/kernels.mk
 * makes it for the Makefiles that include it).  A program takes the
 * kernel's name (--kernel NAME) and looks it up here; it keeps no list of
 * its own.
 */
#ifndef SEALJIT_KERNEL_H
#define SEALJIT_KERNEL_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include <sealjit/kernels.h>
#include <sealjit/mseal.h>
#include <sealjit/smaps.h>

struct sealjit_kernel {
	const char *name;	/* the registry's name for it */
	const char *as;		/* the name its expected-table rows use */
	enum mseal_abi abi;	/* the mseal() it answers first */
	int refusal;		/* errno of a call its seals refuse; 0: no mseal() */
	enum smaps_style smaps;	/* how smaps shows a seal */
	bool sysmap;		/* system mappings sealed at exec */
	bool debug;		/* a debug twin (make test-debug boots it) */
};

#define SEALJIT_KERNEL_ROW(name, as, abi, refusal, smaps, sysmap, debug) \
	{ name, as, abi, refusal, smaps, sysmap, debug },
static const struct sealjit_kernel sealjit_kernels[] = {
	SEALJIT_KERNEL_ROWS(SEALJIT_KERNEL_ROW)
};
#undef SEALJIT_KERNEL_ROW
#define SEALJIT_KERNEL_COUNT (sizeof(sealjit_kernels) / sizeof(sealjit_kernels[0]))

/* The kernel called @name, or NULL. */
static inline const struct sealjit_kernel *sealjit_kernel_find(const char *name)
{
	for (size_t i = 0; i < SEALJIT_KERNEL_COUNT; i++)
		if (strcmp(sealjit_kernels[i].name, name) == 0)
			return &sealjit_kernels[i];
	return NULL;
}

#endif /* SEALJIT_KERNEL_H */
