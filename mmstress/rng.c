// SPDX-License-Identifier: GPL-2.0
/* rng.c - splitmix64: the one source of randomness, so a seed replays. */
#include "mmstress.h"

uint64_t rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint64_t rng_below(uint64_t *state, uint64_t n)
{
	return n ? rng_next(state) % n : 0;
}
