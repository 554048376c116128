/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sealjit/smaps.h - the one reader of /proc/self/smaps (and maps): each
 * mapping's range, permissions, name, protection key, and how it shows a
 * seal.  The series prints a "Seals:" line naming the seal types and "sl"
 * in VmFlags; upstream prints "sl" only; a kernel without seals neither.
 *
 * It reads into the caller's buffer with read(2) and parses in place: no
 * stdio and no allocation, so that a forked child of a threaded process
 * (mmstress's race), and a loop that reads smaps after every call
 * (mmstress's model check), can use it.
 *
 *	static char buf[1 << 20];
 *	struct smaps_mapping m;
 *	const char *at = buf;
 *	if (smaps_read("/proc/self/smaps", buf, sizeof(buf)))
 *		while (smaps_next(&at, &m))
 *			...
 */
#ifndef SEALJIT_SMAPS_H
#define SEALJIT_SMAPS_H

#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <sealjit/seal-types.h>

/* kernel/kernels.tsv's smaps column. */
enum smaps_style {
	SMAPS_STYLE_NONE,	/* no mark: no mseal(), or the RFC (v1) */
	SMAPS_STYLE_SEALS,	/* the series: a "Seals:" line, and "sl" in VmFlags */
	SMAPS_STYLE_SL,		/* upstream: "sl" in VmFlags only */
};

/* One mapping.  The pointers are into the buffer read; a line ends at its
 * newline (smaps_line_len). */
struct smaps_mapping {
	uintptr_t start, end;
	char perms[5];		/* "r-xp" */
	const char *head;	/* the mapping's first line */
	const char *name;	/* its path or [name], "" for none */
	int pkey;		/* ProtectionKey:, -1 where the line is not */
	const char *seals_line;	/* "Seals: ...", or NULL */
	const char *vmflags_line;	/* "VmFlags: ...", or NULL (maps) */
	unsigned int seals;	/* the Seals: line's types (MM_SEAL_*) */
	bool sl;		/* "sl" among VmFlags */
};

/* The length of the line at @line, up to its newline. */
static inline size_t smaps_line_len(const char *line)
{
	return strcspn(line, "\n");
}

/* Reads @path (/proc/self/smaps or maps) into @buf, NUL-terminated; false
 * when it cannot be read or does not fit. */
static inline bool smaps_read(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t used = 0;
	ssize_t got = 0;

	if (fd < 0 || size == 0)
		return false;
	while (used < size - 1 && (got = read(fd, buf + used, size - 1 - used)) > 0)
		used += (size_t)got;
	close(fd);
	buf[used] = '\0';
	return got >= 0 && used < size - 1;
}

/* Hex digits of kernel-written text, into *@out; past them. */
static inline const char *smaps_hex(const char *s, uintptr_t *out)
{
	uintptr_t v = 0;

	for (;; s++) {
		int d = (*s >= '0' && *s <= '9') ? *s - '0' :
			(*s >= 'a' && *s <= 'f') ? *s - 'a' + 10 : -1;
		if (d < 0)
			break;
		v = v * 16 + (uintptr_t)d;
	}
	*out = v;
	return s;
}

/* Does the line at @s open a mapping ("start-end perms ...")? */
static inline bool smaps_is_head(const char *s)
{
	uintptr_t ignored;
	const char *p = smaps_hex(s, &ignored);

	return p != s && *p == '-';
}

/* Is @word one of the space-separated words of the line at @line? */
static inline bool smaps_has_word(const char *line, const char *word)
{
	size_t len = strlen(word), end = smaps_line_len(line);

	for (size_t i = 0; i + len <= end; i++)
		if ((i == 0 || line[i - 1] == ' ') && strncmp(line + i, word, len) == 0 &&
		    (i + len == end || line[i + len] == ' '))
			return true;
	return false;
}

static inline void smaps_head(const char *s, struct smaps_mapping *m)
{
	const char *p = smaps_hex(s, &m->start);
	size_t field;

	p = smaps_hex(p + 1, &m->end);
	*m = (struct smaps_mapping){ .start = m->start, .end = m->end, .head = s,
				     .name = "", .pkey = -1 };
	p += strspn(p, " ");
	memcpy(m->perms, p, 4);
	m->perms[4] = '\0';
	/* perms, offset, device, inode, then the name */
	for (field = 0; field < 4 && *p && *p != '\n'; field++) {
		p += strcspn(p, " \n");
		p += strspn(p, " ");
	}
	if (field == 4)
		m->name = p;
}

/* The mapping at *@at into *@m, and *@at past it; false at the end. */
static inline bool smaps_next(const char **at, struct smaps_mapping *m)
{
	const char *s = *at;

	while (*s && !smaps_is_head(s))
		s += smaps_line_len(s) + (s[smaps_line_len(s)] == '\n');
	if (!*s)
		return false;
	smaps_head(s, m);
	for (s += smaps_line_len(s) + (s[smaps_line_len(s)] == '\n'); *s && !smaps_is_head(s);
	     s += smaps_line_len(s) + (s[smaps_line_len(s)] == '\n')) {
		if (strncmp(s, "ProtectionKey:", 14) == 0) {
			m->pkey = 0;
			for (const char *p = s + 14; *p >= ' ' && *p != '\n'; p++)
				if (*p >= '0' && *p <= '9')
					m->pkey = m->pkey * 10 + (*p - '0');
		} else if (strncmp(s, "Seals:", 6) == 0) {
			m->seals_line = s;
			m->seals = mseal_types_parse(s + 6);
		} else if (strncmp(s, "VmFlags:", 8) == 0) {
			m->vmflags_line = s;
			m->sl = smaps_has_word(s + 8, "sl");
		}
	}
	*at = s;
	return true;
}

/* The mapping of /proc/self/smaps that holds @address, into *@m, read
 * into the caller's @buf of @size bytes; false when no mapping holds it
 * or smaps cannot be read. */
static inline bool smaps_mapping_at(uintptr_t address, char *buf, size_t size,
				    struct smaps_mapping *m)
{
	const char *at = buf;

	if (!smaps_read("/proc/self/smaps", buf, size))
		return false;
	while (smaps_next(&at, m))
		if (m->start <= address && address < m->end)
			return true;
	return false;
}

/* Does @m show every seal type, in @style? */
static inline bool smaps_fully_sealed(const struct smaps_mapping *m, enum smaps_style style)
{
	if (style == SMAPS_STYLE_SL)
		return m->sl;
	return style == SMAPS_STYLE_SEALS && m->sl && m->seals == MM_SEAL_ALL;
}

#endif /* SEALJIT_SMAPS_H */
