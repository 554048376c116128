/*
 * smaps.c - how /proc/self/smaps shows the arena's seals.
 *
 * The hardened series prints a "Seals:" line naming a sealed mapping's seal
 * types; upstream marks sealed mappings with "sl" in VmFlags only; kernels
 * without seals show neither.  The result is a short code for the table:
 * one letter per type (P mprotect, U munmap, M mmap, R mremap, S mseal),
 * "sl" for an upstream-style mark, or "-".  The raw lines travel too, for
 * the report's before/after views.
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

/* Does this smaps line open a mapping?  Its range, if so. */
static bool mapping_header(const char *line, unsigned long *from,
			   unsigned long *to)
{
	char dash;
	return sscanf(line, "%lx%c%lx ", from, &dash, to) == 3 && dash == '-';
}

/* Append line (newline-terminated, as fgets() read it) if it fits. */
static void append_line(char *out, size_t out_len, const char *line)
{
	size_t used = strlen(out);
	if (used + strlen(line) < out_len)
		strcpy(out + used, line);
}

/*
 * "Seals:" (the series only; it comes before VmFlags) and "VmFlags:" of
 * the mapping that holds base; empty when none does.
 */
void smaps_lines(uintptr_t base, char *out, size_t out_len)
{
	out[0] = '\0';
	FILE *smaps = fopen("/proc/self/smaps", "re");
	if (!smaps)
		return;
	char line[512];
	bool in_arena = false;
	while (fgets(line, sizeof line, smaps)) {
		unsigned long from, to;
		if (mapping_header(line, &from, &to)) {
			in_arena = from <= base && base < to;
			continue;
		}
		if (!in_arena)
			continue;
		if (strncmp(line, "Seals:", 6) == 0)
			append_line(out, out_len, line);
		if (strncmp(line, "VmFlags:", 8) == 0) {
			append_line(out, out_len, line);
			break;
		}
	}
	fclose(smaps);
}

void smaps_seals(uintptr_t base, char *out, size_t out_len)
{
	char lines[SMAPS_TEXT_MAX];
	smaps_lines(base, lines, sizeof lines);
	snprintf(out, out_len, "-");
	if (strncmp(lines, "Seals:", 6) == 0) {
		lines[strcspn(lines, "\n")] = '\0';
		seal_letters(lines + 6, out, out_len);
	} else if (strstr(lines, " sl")) {
		snprintf(out, out_len, "sl");
	}
}
