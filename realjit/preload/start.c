/* SPDX-License-Identifier: GPL-2.0 */
/*
 * start.c - the library's start-up, before the JIT's main(): read and
 * check the environment (report.c: where the report goes; policy.c: which
 * policy, and whether this kernel can express it), say so (the report's
 * start line), then ask for the rest of the report at exit.  Bad input stops the process here (exit 2, or 3 for a
 * policy the kernel cannot express), before the JIT makes any code.
 */
#include "preload.h"

#include <stdlib.h>

__attribute__((constructor)) static void preload_start(void)
{
	report_init();
	policy_init();
	report_start();
	if (atexit(report_at_exit) != 0)
		report_fatal(PRELOAD_EXIT_BAD_ENV, "atexit() failed");
}
