// SPDX-License-Identifier: GPL-2.0
/*
 * smaps.c - each mapping of /proc/self/smaps as exec-seals keeps it (read
 * by include/sealjit/smaps.h), and the ones it looks for.
 */
#define _GNU_SOURCE
#include "exec-seals.h"

#include <stdio.h>
#include <string.h>

/* The buffer smaps is read into (a page or two of text per mapping). */
static char smaps_text[1 << 18];

/* @m, as exec-seals keeps it: copied out of the buffer. */
static void keep(const struct smaps_mapping *m, struct mapping *out)
{
	*out = (struct mapping){ .start = m->start, .end = m->end, .sl = m->sl,
				 .types = m->seals };
	snprintf(out->perms, sizeof(out->perms), "%s", m->perms);
	snprintf(out->name, sizeof(out->name), "%.*s", (int)smaps_line_len(m->name), m->name);
	if (m->seals_line) {
		const char *names = m->seals_line + 6 + strspn(m->seals_line + 6, " ");

		snprintf(out->seals, sizeof(out->seals), "%.*s", (int)smaps_line_len(names), names);
	}
}

bool smaps_each(mapping_fn fn, void *arg)
{
	struct smaps_mapping m;
	struct mapping kept;
	const char *at = smaps_text;

	if (!smaps_read("/proc/self/smaps", smaps_text, sizeof(smaps_text)))
		return false;
	while (smaps_next(&at, &m)) {
		keep(&m, &kept);
		if (!fn(&kept, arg))
			break;
	}
	return true;
}

struct find {
	const char *name;
	uintptr_t addr;
	struct mapping *out;
	bool found;
};

static bool match(const struct mapping *m, void *arg)
{
	struct find *f = arg;

	if (f->name ? strcmp(m->name, f->name) != 0
		    : (f->addr < m->start || f->addr >= m->end))
		return true;
	*f->out = *m;
	f->found = true;
	return false;
}

bool smaps_find_name(const char *name, struct mapping *out)
{
	struct find f = { .name = name, .out = out };

	return smaps_each(match, &f) && f.found;
}

bool smaps_find_addr(uintptr_t addr, struct mapping *out)
{
	struct find f = { .addr = addr, .out = out };

	return smaps_each(match, &f) && f.found;
}

bool mapping_sealed(const struct mapping *m)
{
	return m->seals[0] || m->sl;
}

bool mapping_fully_sealed(const struct mapping *m, enum smaps_style style)
{
	if (style == SMAPS_STYLE_SL)
		return m->sl;
	return style == SMAPS_STYLE_SEALS && m->sl && m->types == MM_SEAL_ALL;
}
