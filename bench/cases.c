// SPDX-License-Identifier: GPL-2.0
/*
 * bench/cases.c - the list of cases: every operation of mm-ops.c in each
 * placement it has, placement by placement, then the costs of mseal()
 * itself.  A case's name is the operation's, plus "+far-unsealed",
 * "+far-seal", "+next-unsealed", "+next-seal" or "+refused" for the other
 * placements (bench.h).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "bench.h"

static const char *const suffixes[PLACEMENTS] = {
	[PLAIN] = "", [FAR_UNSEALED] = "+far-unsealed", [FAR_SEAL] = "+far-seal",
	[NEXT_UNSEALED] = "+next-unsealed", [NEXT_SEAL] = "+next-seal",
	[REFUSED] = "+refused",
};

/* Walk the cases in order; stop at INDEX, or count them all. */
static unsigned walk(unsigned index, const struct mm_op **op_out,
		     enum placement *placement_out)
{
	unsigned n = 0;

	for (int p = PLAIN; p < PLACEMENTS; p++)
		for (const struct mm_op *op = mm_ops; op->name; op++) {
			if (!(op->placements & (1u << p)))
				continue;
			if (n++ == index) {
				*op_out = op;
				*placement_out = (enum placement)p;
				return n;
			}
		}
	for (const struct mm_op *op = seal_ops; op->name; op++)
		if (n++ == index) {
			*op_out = op;
			*placement_out = PLAIN;
			return n;
		}
	return n;
}

unsigned bench_case_count(void)
{
	const struct mm_op *op;
	enum placement placement;

	return walk(-1u, &op, &placement);
}

void bench_case_get(unsigned index, const struct mm_op **op,
		    enum placement *placement)
{
	walk(index, op, placement);
}

const char *bench_case_name(unsigned index, char *buf, size_t size)
{
	const struct mm_op *op;
	enum placement placement;

	bench_case_get(index, &op, &placement);
	snprintf(buf, size, "%s%s", op->name, suffixes[placement]);
	return buf;
}

int bench_case_find(const char *name, unsigned *index)
{
	char buf[96];

	for (unsigned i = 0; i < bench_case_count(); i++)
		if (strcmp(bench_case_name(i, buf, sizeof(buf)), name) == 0) {
			*index = i;
			return 0;
		}
	return -1;
}
