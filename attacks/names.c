/* names.c - the words the TAP output and expected.tsv share. */
#define _GNU_SOURCE
#include "attacks.h"

#include <string.h>

static const char *const outcome_names[] = {
	[OUTCOME_BLOCKED] = "BLOCKED",
	[OUTCOME_LANDED] = "LANDED",
	[OUTCOME_ERROR] = "ERROR",
};

const char *outcome_name(enum outcome outcome)
{
	return outcome_names[outcome];
}

bool outcome_parse(const char *text, enum outcome *out)
{
	for (size_t i = 0; i < sizeof outcome_names / sizeof outcome_names[0]; i++) {
		if (strcmp(text, outcome_names[i]) == 0) {
			*out = (enum outcome)i;
			return true;
		}
	}
	return false;
}

const char *privilege_name(enum privilege priv)
{
	return priv == PRIV_NOCAPS ? "nocaps" : "root";
}

const char *origin_name(enum origin from)
{
	return from == FROM_CHILD ? "child" : "self";
}
