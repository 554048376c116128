// SPDX-License-Identifier: GPL-2.0
/*
 * smaps.c - read /proc/self/smaps: each mapping's range, name and seals.
 *
 * The series prints a "Seals:" line naming the seal types and "sl" in
 * VmFlags; upstream prints "sl" only; vanilla and v1 print neither.
 * VmFlags is the last line of each mapping on every kernel here.
 */
#define _GNU_SOURCE
#include "exec-seals.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* A mapping's first line starts a new @m; any other leaves it alone. */
static bool parse_head(const char *line, struct mapping *m)
{
	struct mapping head = { 0 };
	int name_at = 0;

	if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " %7s %*s %*s %*s %n",
		   &head.start, &head.end, head.perms, &name_at) < 3)
		return false;
	if (name_at > 0)
		snprintf(head.name, sizeof(head.name), "%.*s",
			 (int)strcspn(line + name_at, "\n"), line + name_at);
	*m = head;
	return true;
}

/* Is @word one of the space-separated words of @list? */
static bool has_word(const char *list, const char *word)
{
	size_t len = strlen(word);

	for (const char *at = strstr(list, word); at; at = strstr(at + 1, word)) {
		bool starts = at == list || at[-1] == ' ' || at[-1] == '\t';
		bool ends = at[len] == ' ' || at[len] == '\n' || at[len] == '\0';

		if (starts && ends)
			return true;
	}
	return false;
}

static void parse_line(const char *line, struct mapping *m)
{
	if (strncmp(line, "Seals:", 6) == 0)
		snprintf(m->seals, sizeof(m->seals), "%.*s",
			 (int)strcspn(line + 6 + strspn(line + 6, " "), "\n"),
			 line + 6 + strspn(line + 6, " "));
	else if (strncmp(line, "VmFlags:", 8) == 0)
		m->sl = has_word(line + 8, "sl");
}

bool smaps_each(mapping_fn fn, void *arg)
{
	FILE *smaps = fopen("/proc/self/smaps", "re");
	struct mapping m;
	char line[512];
	bool in_mapping = false, go_on = true;

	if (!smaps)
		return false;
	while (go_on && fgets(line, sizeof(line), smaps)) {
		if (parse_head(line, &m)) {
			in_mapping = true;
			continue;
		}
		if (!in_mapping)
			continue;
		parse_line(line, &m);
		if (strncmp(line, "VmFlags:", 8) == 0) {
			in_mapping = false;
			go_on = fn(&m, arg);
		}
	}
	fclose(smaps);
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
	static const char *const types[] = {
		"mprotect", "munmap", "mmap", "mremap", "mseal",
	};

	if (style == SMAPS_STYLE_SL)
		return m->sl;
	if (style != SMAPS_STYLE_SEALS || !m->sl)
		return false;
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!has_word(m->seals, types[i]))
			return false;
	return true;
}
