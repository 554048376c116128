/*
 * test_intparse.c - sealjit/intparse.h, the one integer parser of the CLI
 * and the assembler: decimal and 0x hex, no octal, no spaces, no '+',
 * overflow reported as a range error.
 */
#include <inttypes.h>
#include <string.h>

#include <sealjit/intparse.h>

#include <sealjit/tap.h>

struct i64_case {
	const char *text;
	int64_t min, max;
	enum intparse_error want;
	int64_t value;
};

static const struct i64_case i64_cases[] = {
	{ "0", INT64_MIN, INT64_MAX, INTPARSE_OK, 0 },
	{ "42", INT64_MIN, INT64_MAX, INTPARSE_OK, 42 },
	{ "-42", INT64_MIN, INT64_MAX, INTPARSE_OK, -42 },
	{ "010", INT64_MIN, INT64_MAX, INTPARSE_OK, 10 },	/* not octal */
	{ "0x10", INT64_MIN, INT64_MAX, INTPARSE_OK, 16 },
	{ "0XfF", INT64_MIN, INT64_MAX, INTPARSE_OK, 255 },
	{ "-0x8000000000000000", INT64_MIN, INT64_MAX, INTPARSE_OK, INT64_MIN },
	{ "9223372036854775807", INT64_MIN, INT64_MAX, INTPARSE_OK, INT64_MAX },
	{ "-9223372036854775808", INT64_MIN, INT64_MAX, INTPARSE_OK, INT64_MIN },
	{ "9223372036854775808", INT64_MIN, INT64_MAX, INTPARSE_RANGE, 0 },
	{ "-9223372036854775809", INT64_MIN, INT64_MAX, INTPARSE_RANGE, 0 },
	{ "99999999999999999999999", INT64_MIN, INT64_MAX, INTPARSE_RANGE, 0 },
	{ "0x10000000000000000", INT64_MIN, INT64_MAX, INTPARSE_RANGE, 0 },
	{ "6", 0, 5, INTPARSE_RANGE, 0 },
	{ "-1", 0, 5, INTPARSE_SYNTAX, 0 },	/* no sign where negatives are not allowed */
	{ "", INT64_MIN, INT64_MAX, INTPARSE_EMPTY, 0 },
	{ "-", INT64_MIN, INT64_MAX, INTPARSE_EMPTY, 0 },
	{ "0x", INT64_MIN, INT64_MAX, INTPARSE_EMPTY, 0 },
	{ " 5", INT64_MIN, INT64_MAX, INTPARSE_SYNTAX, 0 },
	{ "5 ", INT64_MIN, INT64_MAX, INTPARSE_SYNTAX, 0 },
	{ "+5", INT64_MIN, INT64_MAX, INTPARSE_SYNTAX, 0 },
	{ "12k", INT64_MIN, INT64_MAX, INTPARSE_SYNTAX, 0 },
	{ "0x1g", INT64_MIN, INT64_MAX, INTPARSE_SYNTAX, 0 },
	{ "1a", INT64_MIN, INT64_MAX, INTPARSE_SYNTAX, 0 },
	{ "--5", INT64_MIN, INT64_MAX, INTPARSE_SYNTAX, 0 },
};

static void check_i64(struct tap *t, const struct i64_case *c)
{
	int64_t value = 12345;
	enum intparse_error got = intparse_i64(c->text, c->min, c->max, &value);
	bool ok = got == c->want && (got != INTPARSE_OK || value == c->value) &&
		  (got == INTPARSE_OK || value == 12345);
	if (!tap_ok(t, ok, "i64 '%s' in [%" PRId64 ", %" PRId64 "]: %s", c->text, c->min,
		    c->max, intparse_strerror(c->want)))
		tap_note("got %s, value %" PRId64, intparse_strerror(got), value);
}

static void check_u64(struct tap *t)
{
	uint64_t v = 0;
	tap_ok(t, intparse_u64("18446744073709551615", 0, UINT64_MAX, &v) == INTPARSE_OK &&
	       v == UINT64_MAX, "u64 takes UINT64_MAX");
	tap_ok(t, intparse_u64("18446744073709551616", 0, UINT64_MAX, &v) == INTPARSE_RANGE,
	       "u64 reports overflow past UINT64_MAX");
	tap_ok(t, intparse_u64("-1", 0, UINT64_MAX, &v) == INTPARSE_SYNTAX,
	       "u64 refuses a sign");
	tap_ok(t, intparse_u64("3", 4, 9, &v) == INTPARSE_RANGE, "u64 checks its minimum");
	tap_ok(t, strcmp(intparse_strerror(INTPARSE_RANGE), "out of range") == 0,
	       "range errors say 'out of range'");
}

int main(void)
{
	struct tap t;
	tap_start(&t);
	for (size_t i = 0; i < sizeof i64_cases / sizeof i64_cases[0]; i++)
		check_i64(&t, &i64_cases[i]);
	check_u64(&t);
	return tap_done(&t);
}
