# scripts/tap.awk - the one reader of TAP lines: every program that reads
# test output (tests/tap-run, tests/tap-summary, tests/new-cases-fail.sh,
# guest/run's progress, the report's cells) classifies its lines here.
# Load it after scripts/result.awk, which reads the "# result" lines:
#   awk -f scripts/result.awk -f scripts/tap.awk -f PROGRAM.awk
#
# tap_read(LINE) drops a trailing CR and returns what LINE is:
#   "plan"     1..N [# SKIP why]: tap_plan (N), tap_skip (1 with a SKIP
#              directive: the whole file skipped when N is 0)
#   "point"    ok|not ok [N] [-] [DESCRIPTION] [# SKIP|# TODO why]: tap_ok
#              (1 or 0), tap_number ("" when the point has none), tap_desc
#              (the description, without the "- " before it and the
#              directive after it), tap_skip, tap_todo (1 with that directive)
#   "bailout"  Bail out! [why]: tap_reason
#   "result"   # result KEY=VALUE ...: its fields, by name, in result(KEY)
#              (scripts/result.awk)
#   "comment"  any other line that starts with "#": tap_comment, the text
#              after "#" and the blanks after it
#   "version"  TAP version N
#   "other"    anything else: a program's own output, or a point that is
#              not one ("okay", "not  ok")
# A directive is "# SKIP" or "# TODO", any number of blanks after the "#",
# anywhere on a point's or a plan's line.

function tap_read(line,   rest) {
	sub(/\r$/, "", line)
	tap_plan = tap_ok = tap_skip = tap_todo = 0
	tap_number = tap_desc = tap_reason = tap_comment = ""
	if (match(line, /^1\.\.[0-9]+/)) {
		tap_plan = substr(line, 4, RLENGTH - 3) + 0
		tap_skip = (line ~ /# *SKIP/)
		return "plan"
	}
	if (line ~ /^(not )?ok( |$)/) {
		tap_ok = (line !~ /^not /)
		rest = line; sub(/^(not )?ok */, "", rest)
		if (match(rest, /^[0-9]+/)) {
			tap_number = substr(rest, 1, RLENGTH)
			rest = substr(rest, RLENGTH + 1)
		}
		sub(/^ +(- +)?/, "", rest); sub(/^- +/, "", rest)
		tap_skip = (rest ~ /# *SKIP/); tap_todo = (rest ~ /# *TODO/)
		sub(/ *# *(SKIP|TODO).*$/, "", rest)
		tap_desc = rest
		return "point"
	}
	if (index(line, "Bail out!") == 1) {
		tap_reason = substr(line, 10); sub(/^ +/, "", tap_reason)
		return "bailout"
	}
	if (result_read(line)) return "result"
	if (index(line, "#") == 1) {
		tap_comment = substr(line, 2); sub(/^[ \t]+/, "", tap_comment)
		return "comment"
	}
	if (line ~ /^TAP version [0-9]+$/) return "version"
	return "other"
}
