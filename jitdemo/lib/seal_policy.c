/*
 * seal_policy.c - the seal policies' and outcomes' words and the seal
 * types each policy asks for: one table below both the code memory
 * (arena.c) and the module interface (module.c), so neither calls the
 * other for a name.
 */
#define _GNU_SOURCE
#include <string.h>

#include <sealjit/mseal.h>

#include "libjit.h"

bool jit_parse_seal_policy(const char *text, enum jit_seal_policy *out)
{
	static const enum jit_seal_policy all[] = { JIT_SEAL_CARD, JIT_SEAL_ALL,
						    JIT_SEAL_NONE, JIT_SEAL_PKEY,
						    JIT_SEAL_KEYONLY };
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		if (strcmp(text, jit_seal_policy_name(all[i])) == 0) {
			*out = all[i];
			return true;
		}
	return false;
}

const char *jit_seal_policy_name(enum jit_seal_policy policy)
{
	switch (policy) {
	case JIT_SEAL_CARD: return "card";
	case JIT_SEAL_ALL: return "all";
	case JIT_SEAL_NONE: return "none";
	case JIT_SEAL_PKEY: return "pkey";
	case JIT_SEAL_KEYONLY: return "keyonly";
	}
	return "?";
}

unsigned jit_seal_policy_types(enum jit_seal_policy policy)
{
	switch (policy) {
	case JIT_SEAL_CARD: return MSEAL_TYPES_CARD;
	case JIT_SEAL_ALL:
	case JIT_SEAL_PKEY: return MM_SEAL_ALL;
	case JIT_SEAL_NONE:
	case JIT_SEAL_KEYONLY: return 0;
	}
	return 0;
}

const char *jit_seal_outcome_text(enum jit_seal_outcome outcome)
{
	switch (outcome) {
	case JIT_SEAL_OUTCOME_NOT_YET: return "not compiled";
	case JIT_SEAL_OUTCOME_SEALED: return "sealed";
	case JIT_SEAL_OUTCOME_UPSTREAM:
		return "sealed by upstream mseal(addr, len, 0), which seals every "
		       "operation (kernel rejected seal types with EINVAL)";
	case JIT_SEAL_OUTCOME_ENOSYS:
		return "code is W^X but not sealed (kernel has no mseal: ENOSYS)";
	case JIT_SEAL_OUTCOME_POLICY_NONE: return "not sealed (the policy asks for no seal: none, keyonly)";
	case JIT_SEAL_OUTCOME_FAILED: return "mseal failed: code is W^X but not sealed";
	}
	return "?";
}
