/*
 * smaps.c - how /proc/self/smaps shows the arena's seals (read by
 * include/sealjit/smaps.h).
 *
 * The hardened series prints a "Seals:" line naming a sealed mapping's seal
 * types; upstream marks sealed mappings with "sl" in VmFlags only; kernels
 * without seals show neither.  The result is a short code for the table:
 * one letter per type (sealjit/seal-types.h's), "sl" for an upstream-style
 * mark, or "-".  The raw lines travel too, for the report's before/after
 * views.
 */
#define _GNU_SOURCE
#include "attacks.h"

#include <stdio.h>
#include <string.h>

#include <sealjit/smaps.h>

static char smaps_text[1 << 18];

/* The mapping of /proc/self/smaps that holds @base, into *@m. */
static bool mapping_at(uintptr_t base, struct smaps_mapping *m)
{
	return smaps_mapping_at(base, smaps_text, sizeof smaps_text, m);
}

/* Append @line, to its newline, and a newline, if it fits. */
static void append_line(char *out, size_t out_len, const char *line)
{
	size_t used = strlen(out), len = smaps_line_len(line);

	if (used + len + 1 < out_len)
		snprintf(out + used, out_len - used, "%.*s\n", (int)len, line);
}

/*
 * "Seals:" (the series only; it comes before VmFlags) and "VmFlags:" of
 * the mapping that holds base; empty when none does.
 */
void smaps_lines(uintptr_t base, char *out, size_t out_len)
{
	struct smaps_mapping m;

	out[0] = '\0';
	if (!mapping_at(base, &m))
		return;
	if (m.seals_line)
		append_line(out, out_len, m.seals_line);
	if (m.vmflags_line)
		append_line(out, out_len, m.vmflags_line);
}

void smaps_seals(uintptr_t base, char *out, size_t out_len)
{
	struct smaps_mapping m;

	snprintf(out, out_len, "-");
	if (!mapping_at(base, &m))
		return;
	if (m.seals_line)
		mseal_types_letters(m.seals, out, out_len);
	else if (m.sl)
		snprintf(out, out_len, "sl");
}

int smaps_pkey(uintptr_t base)
{
	struct smaps_mapping m;

	return mapping_at(base, &m) ? m.pkey : -1;
}
