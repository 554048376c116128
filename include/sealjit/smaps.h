/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sealjit/smaps.h - how /proc/PID/smaps shows a seal.
 */
#ifndef SEALJIT_SMAPS_H
#define SEALJIT_SMAPS_H

/* kernel/kernels.tsv's smaps column. */
enum smaps_style {
	SMAPS_STYLE_NONE,	/* no mark: no mseal(), or the RFC (v1) */
	SMAPS_STYLE_SEALS,	/* the series: a "Seals:" line, and "sl" in VmFlags */
	SMAPS_STYLE_SL,		/* upstream: "sl" in VmFlags only */
};

#endif /* SEALJIT_SMAPS_H */
