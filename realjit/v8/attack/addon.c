/* SPDX-License-Identifier: GPL-2.0 */
/*
 * addon.c - live-code.c for Node.js: sealjit-attack.node, an N-API addon
 * (Debian's libnode-dev headers, realjit/v8/fetch-node.sh).
 *
 *   const attack = require('./sealjit-attack.node');
 *   attack.scenarios()                -> ['madvise-dontneed', ...]
 *   attack.keyScenarios()             -> ['pkey-reuse', ...] (key-attacks.h)
 *   attack.run(name, address, size)   -> the verdict line (live-code.h,
 *                                        key-attacks.h)
 *   attack.run(name, address, size, suffix)
 *                                     -> the same, and the line with suffix
 *                                        written to stdout at once, before
 *                                        the return into code the attack
 *                                        may have taken away
 *
 * address is a Number: x86-64 user addresses are below 2^47, which a
 * double holds exactly.  Bad arguments throw a TypeError; an unknown
 * scenario throws an Error naming it.
 */
#define _POSIX_C_SOURCE 200809L
#include <node_api.h>

#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "key-attacks.h"
#include "live-code.h"

#define LINE_MAX_LEN 512

static napi_value list_of(napi_env env, const char *(*scenario_at)(size_t))
{
	napi_value list, name;
	const char *scenario;
	uint32_t i;

	if (napi_create_array(env, &list) != napi_ok)
		return NULL;
	for (i = 0; (scenario = scenario_at(i)); i++) {
		if (napi_create_string_utf8(env, scenario, NAPI_AUTO_LENGTH, &name) != napi_ok ||
		    napi_set_element(env, list, i, name) != napi_ok)
			return NULL;
	}
	return list;
}

static napi_value scenarios(napi_env env, napi_callback_info info)
{
	(void)info;
	return list_of(env, live_code_scenario);
}

static napi_value key_scenarios(napi_env env, napi_callback_info info)
{
	(void)info;
	return list_of(env, key_attack_scenario);
}

static int is_key_scenario(const char *name)
{
	const char *scenario;
	size_t i;

	for (i = 0; (scenario = key_attack_scenario(i)); i++)
		if (strcmp(scenario, name) == 0)
			return 1;
	return 0;
}

static napi_value run(napi_env env, napi_callback_info info)
{
	napi_value argv[4], verdict;
	size_t argc = 4, name_len, suffix_len = 0;
	char name[64], line[LINE_MAX_LEN], suffix[64] = "";
	double address, size;

	if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok)
		return NULL;
	if ((argc != 3 && argc != 4) ||
	    (argc == 4 && napi_get_value_string_utf8(env, argv[3], suffix, sizeof(suffix),
						     &suffix_len) != napi_ok) ||
	    napi_get_value_string_utf8(env, argv[0], name, sizeof(name), &name_len) != napi_ok ||
	    napi_get_value_double(env, argv[1], &address) != napi_ok ||
	    napi_get_value_double(env, argv[2], &size) != napi_ok ||
	    address <= 0 || address >= 0x1p47 || size <= 0 || size > 0x1p20) {
		napi_throw_type_error(env, NULL,
				      "run(scenario, address, size[, suffix]): a name, two positive numbers[, a string]");
		return NULL;
	}
	if ((is_key_scenario(name) ?
	     key_attack(name, (uintptr_t)address, (size_t)size, line, sizeof(line)) :
	     live_code_attack(name, (uintptr_t)address, (size_t)size, line, sizeof(line)))) {
		napi_throw_error(env, NULL, line);
		return NULL;
	}
	fflush(stdout);
	if (argc == 4)
		dprintf(1, "%s%s\n", line, suffix);
	if (napi_create_string_utf8(env, line, NAPI_AUTO_LENGTH, &verdict) != napi_ok)
		return NULL;
	return verdict;
}

static napi_value init(napi_env env, napi_value exports)
{
	const napi_property_descriptor functions[] = {
		{ "scenarios", NULL, scenarios, NULL, NULL, NULL, napi_default, NULL },
		{ "keyScenarios", NULL, key_scenarios, NULL, NULL, NULL, napi_default, NULL },
		{ "run", NULL, run, NULL, NULL, NULL, napi_default, NULL },
	};

	if (napi_define_properties(env, exports, 3, functions) != napi_ok)
		return NULL;
	return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
