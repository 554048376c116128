#!/usr/bin/env bash
# tests/new-cases-fail.sh ORIGINAL.tap EXTENDED.tap - TAP: a selftest's new
# cases find the holes they were written for.  ORIGINAL.tap is the
# unmodified selftest run on a kernel, EXTENDED.tap the series' extension
# of it run on the same kernel, one that lacks the series' fixes:
#   - the extension keeps the original's cases, first and in order, and
#     they still pass;
#   - every case the extension adds (a test function's name, as kselftest
#     prints it) fails at least once there: a new case that passes without
#     the fix proves nothing.  Except a guard: a case listed in
#     tests/selftest-guards checks that the fix breaks nothing a program
#     relies on, and passes there every time.
# Exit status: 0 when all hold, 1 if not, 2 on misuse.
set -uo pipefail
[ $# -eq 2 ] && [ -f "$1" ] && [ -f "$2" ] ||
	{ echo "usage: tests/new-cases-fail.sh ORIGINAL.tap EXTENDED.tap" >&2; exit 2; }

top=$(cd "$(dirname "$0")/.." && pwd)
# tap_awk PROGRAM FILE: PROGRAM over FILE's lines, read by scripts/tap.awk.
tap_awk() { awk -f "$top/scripts/result.awk" -f "$top/scripts/tap.awk" -f <(echo "$1") "$2"; }
# results FILE: "N STATUS NAME" per numbered test point (STATUS ok or fail;
# NAME the description's first word, as kselftest prints a test function's
# name, without a trailing ":").
results() {
	tap_awk 'tap_read($0) == "point" && tap_number != "" {
		split(tap_desc, word, " "); name = word[1]; sub(/:$/, "", name)
		print tap_number, tap_ok ? "ok" : "fail", name
	}' "$1"
}
original=$(results "$1")
extended=$(results "$2")
planned=$(tap_awk 'tap_read($0) == "plan" { print tap_plan; exit }' "$2")
count=$(wc -l <<<"$original")
[ -n "$original" ] || { echo "1..0 # SKIP no results in $1"; exit 1; }

. "$(dirname "$0")/tap.sh"
tap_start

[ -n "$planned" ] && [ "$planned" = "$(wc -l <<<"$extended")" ]
tap_result $? "the extension ran whole: ${planned:-no} plan, $(wc -l <<<"$extended") results"
head_names=$(head -n "$count" <<<"$extended" | awk '{ print $3 }')
diff=$(diff <(awk '{ print $3 }' <<<"$original") <(echo "$head_names"))
tap_result $? "the extension starts with the original's $count cases, in order" "$diff"
bad=$(head -n "$count" <<<"$extended" | awk '$2 != "ok"')
[ -z "$bad" ]
tap_result $? "the original's $count cases pass in the extension" "$bad"

new=$(tail -n +"$((count + 1))" <<<"$extended")
[ -n "$new" ]
tap_result $? "the extension adds cases ($(grep -c . <<<"$new") results)"
# The guards' names: the first column of tests/selftest-guards.
guards=$(awk -F'\t' '!/^#/ && NF >= 2 { print $1 }' "$(dirname "$0")/selftest-guards")
for name in $(awk '!seen[$3]++ { print $3 }' <<<"$new"); do
	if grep -qxF "$name" <<<"$guards"; then
		awk -v name="$name" '$3 == name && $2 != "ok" { bad = 1 } END { exit bad }' <<<"$new"
		tap_result $? "$name (a guard) passes where the fix is missing too"
		continue
	fi
	awk -v name="$name" '$3 == name && $2 == "fail" { found = 1 } END { exit !found }' <<<"$new"
	tap_result $? "$name fails where the fix is missing"
done
tap_end
