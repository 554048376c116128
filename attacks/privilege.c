/*
 * privilege.c - drop every capability, and prove it.
 *
 * The bounding set goes first (dropping from it needs CAP_SETPCAP, which
 * is about to go), then the ambient set, then effective, permitted and
 * inheritable together.  The uid stays 0: the point is that a process
 * with no capability at all meets the very same seals as full root.
 */
#define _GNU_SOURCE
#include "attacks.h"

#include <errno.h>
#include <string.h>
#include <sys/capability.h>

static bool drop_bounding_set(void)
{
	cap_value_t max = (cap_value_t)cap_max_bits();
	for (cap_value_t c = 0; c < max; c++)
		if (cap_get_bound(c) == 1 && cap_drop_bound(c) != 0)
			return false;
	return true;
}

static bool bounding_set_empty(void)
{
	cap_value_t max = (cap_value_t)cap_max_bits();
	for (cap_value_t c = 0; c < max; c++)
		if (cap_get_bound(c) == 1)
			return false;
	return true;
}

static bool process_sets_empty(void)
{
	cap_t now = cap_get_proc();
	cap_t none = cap_init();
	bool empty = now && none && cap_compare(now, none) == 0;
	cap_free(now);
	cap_free(none);
	return empty;
}

bool privilege_drop_all(char *why, size_t why_len)
{
	if (!drop_bounding_set()) {
		snprintf(why, why_len, "cap_drop_bound: %s", strerror(errno));
		return false;
	}
	cap_reset_ambient();
	cap_t none = cap_init();
	int set = none ? cap_set_proc(none) : -1;
	cap_free(none);
	if (set != 0) {
		snprintf(why, why_len, "cap_set_proc(empty): %s", strerror(errno));
		return false;
	}
	if (!bounding_set_empty() || !process_sets_empty()) {
		snprintf(why, why_len, "capabilities still held after dropping");
		return false;
	}
	return true;
}
