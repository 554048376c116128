/*
 * smaps.c - how /proc/self/smaps shows the arena's seals.
 *
 * The hardened series prints a "Seals:" line naming a sealed mapping's seal
 * types; upstream marks sealed mappings with "sl" in VmFlags only; kernels
 * without seals show neither.  The result is a short code for the table:
 * one letter per type (P mprotect, U munmap, M mmap, R mremap, S mseal),
 * "sl" for an upstream-style mark, or "-".
 */
#include "attacks.h"

#include <stdio.h>
#include <string.h>

/* "Seals:  mprotect mmap mremap" -> "PMR". */
static void seal_letters(const char *names, char *out, size_t out_len)
{
	static const struct { const char *name; char letter; } types[] = {
		{ "mprotect", 'P' }, { "munmap", 'U' }, { "mmap", 'M' },
		{ "mremap", 'R' }, { "mseal", 'S' },
	};
	size_t n = 0;
	for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
		const char *at = names;
		size_t len = strlen(types[i].name);
		while ((at = strstr(at, types[i].name)) != NULL) {
			bool word = (at == names || at[-1] == ' ') &&
				    (at[len] == ' ' || at[len] == '\n' || !at[len]);
			if (word && n + 1 < out_len) {
				out[n++] = types[i].letter;
				break;
			}
			at += len;
		}
	}
	out[n] = '\0';
}

void smaps_seals(uintptr_t base, char *out, size_t out_len)
{
	snprintf(out, out_len, "-");
	FILE *smaps = fopen("/proc/self/smaps", "r");
	if (!smaps)
		return;
	char line[512];
	bool in_arena = false;
	while (fgets(line, sizeof line, smaps)) {
		unsigned long from, to;
		char dash;
		if (sscanf(line, "%lx%c%lx ", &from, &dash, &to) == 3 && dash == '-') {
			in_arena = from == base;
			continue;
		}
		if (!in_arena)
			continue;
		if (strncmp(line, "Seals:", 6) == 0) {
			seal_letters(line + 6, out, out_len);
			break;
		}
		if (strncmp(line, "VmFlags:", 8) == 0) {
			if (strstr(line, " sl"))
				snprintf(out, out_len, "sl");
			break;
		}
	}
	fclose(smaps);
}
