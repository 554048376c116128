/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sealjit/errno-name.h - an errno as the tables and the TAP lines write it:
 * its name (EPERM), "-" for none.  The one pair of functions for it.
 * Needs _GNU_SOURCE (strerrorname_np), defined before the first include.
 */
#ifndef SEALJIT_ERRNO_NAME_H
#define SEALJIT_ERRNO_NAME_H

#include <string.h>

/* @err's name; "-" for 0 (no error), "E?" for one glibc cannot name. */
static inline const char *errno_name(int err)
{
	const char *name;

	if (err == 0)
		return "-";
	name = strerrorname_np(err);
	return name ? name : "E?";
}

/* The errno @text names ("-": 0), or -1 for no errno's name. */
static inline int errno_parse(const char *text)
{
	const char *name;

	if (strcmp(text, "-") == 0)
		return 0;
	for (int err = 1; err < 4096; err++) {
		name = strerrorname_np(err);
		if (name && strcmp(name, text) == 0)
			return err;
	}
	return -1;
}

#endif /* SEALJIT_ERRNO_NAME_H */
