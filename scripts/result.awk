# scripts/result.awk - the one reader of "# result" lines, the line every
# case of a matrix prints after its TAP test point:
#   # result KEY=VALUE KEY=VALUE ... [detail=FREE TEXT]
# (attacks/main.c's: kernel scenario policy priv from outcome errno expected
# seals; realjit/guest/run-cases.sh's, for every real JIT: kind kernel name
# policy outcome errno, the library's and the JIT's counts, then detail=).
# Load it before the program that reads them:
# awk -f scripts/result.awk -f PROGRAM.awk.
#
# result_read(LINE) returns 1 for a result line (a trailing CR dropped) and
# fills result_field[KEY] with each KEY=VALUE word before detail=, and result_field["detail"]
# with the text after it; 0 for any other line (result_field[] emptied).
# result(KEY) is result_field[KEY], "" when the line had no such word.

function result_read(line,   n, i, w, eq, at) {
	split("", result_field)
	sub(/\r$/, "", line)
	if (index(line, "# result ") != 1) return 0
	line = substr(line, 10)
	at = index(" " line, " detail=")
	if (at) {
		result_field["detail"] = substr(line, at + 7)
		line = substr(line, 1, at - 1)
	}
	n = split(line, w, " ")
	for (i = 1; i <= n; i++) {
		eq = index(w[i], "=")
		if (eq > 1 && !(substr(w[i], 1, eq - 1) in result_field)) result_field[substr(w[i], 1, eq - 1)] = substr(w[i], eq + 1)
	}
	return 1
}

function result(key) {
	return (key in result_field) ? result_field[key] : ""
}

# result_of(LINE, KEY): KEY's field of the result line LINE, for a program
# that keeps result lines whole and reads them later (realjit's judge and
# summaries); "" when LINE is no result line or has no such field.
function result_of(line, key) {
	result_read(line)
	return result(key)
}

# An attacks result judged as its line records the program's expectation
# (expected=OUTCOME/ERRNO): 1 when the outcome or, for BLOCKED, the errno
# differs.
function result_unexpected(   x) {
	x = result("expected")
	if (result("outcome") == "LANDED") return x !~ /^LANDED\//
	return result("outcome") "/" result("errno") != x
}
