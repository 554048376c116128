/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sealjit/seal-types.h - the seal types' words: each MM_SEAL_* bit's name
 * (as the series' smaps "Seals:" line and jitdemo's report write it) and
 * its letter (P mprotect, U munmap, M mmap, R mremap, S mseal: the attack
 * tables' seals column).  The one table of them.
 */
#ifndef SEALJIT_SEAL_TYPES_H
#define SEALJIT_SEAL_TYPES_H

#include <stdio.h>
#include <string.h>

#include <sealjit/mseal.h>

struct mseal_type_word {
	unsigned int bit;
	const char *name;
	char letter;
};

/* In the letters' order. */
static const struct mseal_type_word mseal_type_words[] = {
	{ MM_SEAL_MPROTECT, "mprotect", 'P' },
	{ MM_SEAL_MUNMAP, "munmap", 'U' },
	{ MM_SEAL_MMAP, "mmap", 'M' },
	{ MM_SEAL_MREMAP, "mremap", 'R' },
	{ MM_SEAL_MSEAL, "mseal", 'S' },
};
#define MSEAL_TYPE_WORDS (sizeof(mseal_type_words) / sizeof(mseal_type_words[0]))

/* The types named among the space-separated words of @text (up to its end
 * or a newline), e.g. the rest of a "Seals:" line; unknown words ignored. */
static inline unsigned int mseal_types_parse(const char *text)
{
	unsigned int types = 0;

	while (*text && *text != '\n') {
		size_t len;

		text += strspn(text, " \t");
		len = strcspn(text, " \t\n");
		for (size_t i = 0; i < MSEAL_TYPE_WORDS; i++)
			if (len == strlen(mseal_type_words[i].name) &&
			    strncmp(text, mseal_type_words[i].name, len) == 0)
				types |= mseal_type_words[i].bit;
		text += len;
	}
	return types;
}

/* @types as letters ("PMR"), "" for none. */
static inline char *mseal_types_letters(unsigned int types, char *buf, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < MSEAL_TYPE_WORDS && n + 1 < len; i++)
		if (types & mseal_type_words[i].bit)
			buf[n++] = mseal_type_words[i].letter;
	if (len)
		buf[n] = '\0';
	return buf;
}

/* The name of the one type @bit, or NULL. */
static inline const char *mseal_type_name(unsigned int bit)
{
	for (size_t i = 0; i < MSEAL_TYPE_WORDS; i++)
		if (mseal_type_words[i].bit == bit)
			return mseal_type_words[i].name;
	return NULL;
}

/* @types as names joined by commas, lowest bit first ("mseal,mprotect"),
 * cut where @buf ends. */
static inline char *mseal_types_names(unsigned int types, char *buf, size_t len)
{
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (unsigned int bit = 1; bit <= MM_SEAL_ALL; bit <<= 1) {
		int n;

		if (!(types & bit) || !mseal_type_name(bit))
			continue;
		n = snprintf(buf + used, len - used, "%s%s", used ? "," : "", mseal_type_name(bit));
		if (n < 0 || (size_t)n >= len - used)
			break;
		used += (size_t)n;
	}
	return buf;
}

#endif /* SEALJIT_SEAL_TYPES_H */
