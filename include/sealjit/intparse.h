/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sealjit/intparse.h - the one integer parser every sealjit program uses
 * for numbers a person typed: command-line arguments, assembler operands,
 * benchmark and stress-test parameters.
 *
 * The rules, the same everywhere:
 *   - an optional '-' (only where the caller allows negatives), then
 *   - decimal digits, or "0x"/"0X" and hex digits;
 *   - no octal ("010" is ten), no leading or trailing space, no '+';
 *   - the whole text must be the number ("12k", "" and "0x" are errors);
 *   - a value outside [min, max] is an error, reported as such.
 */
#ifndef SEALJIT_INTPARSE_H
#define SEALJIT_INTPARSE_H

#include <stdbool.h>
#include <stdint.h>

enum intparse_error {
	INTPARSE_OK = 0,
	INTPARSE_EMPTY,		/* no digits at all */
	INTPARSE_SYNTAX,	/* a character that is not part of a number */
	INTPARSE_RANGE,		/* a number, but outside [min, max] */
};

static inline const char *intparse_strerror(enum intparse_error error)
{
	switch (error) {
	case INTPARSE_OK:
		return "ok";
	case INTPARSE_EMPTY:
		return "not a number (no digits)";
	case INTPARSE_SYNTAX:
		return "not a number (decimal or 0x hex, no spaces or signs)";
	case INTPARSE_RANGE:
		return "out of range";
	}
	return "bad number";
}

static inline int intparse_digit(char c, unsigned base)
{
	int value = -1;

	if (c >= '0' && c <= '9')
		value = c - '0';
	else if (c >= 'a' && c <= 'f')
		value = c - 'a' + 10;
	else if (c >= 'A' && c <= 'F')
		value = c - 'A' + 10;
	return value >= 0 && (unsigned)value < base ? value : -1;
}

/* The magnitude of an unsigned number in TEXT, saturating past UINT64_MAX. */
static inline enum intparse_error intparse_magnitude(const char *text,
						     uint64_t *magnitude,
						     bool *overflow)
{
	unsigned base = 10;
	uint64_t value = 0;

	*overflow = false;
	if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
		base = 16;
		text += 2;
	}
	if (*text == '\0')
		return INTPARSE_EMPTY;
	for (; *text; text++) {
		int digit = intparse_digit(*text, base);

		if (digit < 0)
			return INTPARSE_SYNTAX;
		if (value > (UINT64_MAX - (unsigned)digit) / base)
			*overflow = true;
		else
			value = value * base + (unsigned)digit;
	}
	*magnitude = value;
	return INTPARSE_OK;
}

/* Parse TEXT as a signed integer in [min, max] into *out. */
static inline enum intparse_error intparse_i64(const char *text, int64_t min,
					       int64_t max, int64_t *out)
{
	bool negative = text[0] == '-' && min < 0;
	uint64_t magnitude = 0;
	bool overflow;
	enum intparse_error error;
	int64_t value;

	error = intparse_magnitude(text + negative, &magnitude, &overflow);
	if (error != INTPARSE_OK)
		return error;
	if (overflow)
		return INTPARSE_RANGE;
	if (negative) {
		if (magnitude > (uint64_t)INT64_MAX + 1)
			return INTPARSE_RANGE;
		value = magnitude == (uint64_t)INT64_MAX + 1 ?
			INT64_MIN : -(int64_t)magnitude;
	} else {
		if (magnitude > (uint64_t)INT64_MAX)
			return INTPARSE_RANGE;
		value = (int64_t)magnitude;
	}
	if (value < min || value > max)
		return INTPARSE_RANGE;
	*out = value;
	return INTPARSE_OK;
}

/* Parse TEXT as an unsigned integer in [min, max] into *out. */
static inline enum intparse_error intparse_u64(const char *text, uint64_t min,
					       uint64_t max, uint64_t *out)
{
	uint64_t magnitude = 0;
	bool overflow;
	enum intparse_error error;

	error = intparse_magnitude(text, &magnitude, &overflow);
	if (error != INTPARSE_OK)
		return error;
	if (overflow || magnitude < min || magnitude > max)
		return INTPARSE_RANGE;
	*out = magnitude;
	return INTPARSE_OK;
}

#endif /* SEALJIT_INTPARSE_H */
