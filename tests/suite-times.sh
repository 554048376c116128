#!/usr/bin/env bash
# tests/suite-times.sh - TAP checks of make test's timing: scripts/step-time.sh
# records each step and suite with its status and keeps the command's exit
# status, tests/tap-run times the suite it runs, scripts/suite-times.sh
# writes the whole table and names the longest steps, with their suites,
# and fails when nothing was recorded; scripts/busy.sh refuses a bad count.
# Times are read as at least what the commands slept, never as exact: on a
# loaded host (make test-busy) 'exit 3' took 0.1 s and failed a 0.0% share,
# and the spinning step may outlast the sleeping one: the order is checked
# by the seconds, not by which step it is.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export RESULTS=$work/results
. "$top/tests/tap.sh"
tap_start 11

expect 3 '' "step-time.sh exits with its command's status" \
	"$top/scripts/step-time.sh" step failing sh -c 'exit 3'
"$top/scripts/step-time.sh" step slow sh -c 'sleep 1.2' >/dev/null
SEALJIT_STEP=slow "$top/tests/tap-run" inner -- sh -c 'sleep 0.3; echo 1..1; echo ok 1' >/dev/null
"$top/scripts/step-time.sh" phase kernels true
# CPU time: a fixed count of loops (its own work, however loaded the host)
"$top/scripts/step-time.sh" step spin sh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i + 1)); done'
"$top/scripts/step-time.sh" phase steps sleep 0.2
check "each is one line: kind, name, step, seconds, status, CPU seconds" \
	awk -F'\t' 'NF != 6 { exit 1 } END { exit NR != 6 }' "$RESULTS/.times"
check "a step's CPU time is its command's: a spinning one used some, a sleeping one next to none" \
	awk -F'\t' '$2 == "spin" && $6 >= 0.1 { spun = 1 } $2 == "slow" && $6 <= 0.1 { slept = 1 }
		END { exit !(spun && slept) }' "$RESULTS/.times"
check "a suite tap-run ran is timed, in the step it ran in" \
	awk -F'\t' '$1 == "suite" && $2 == "inner" && $3 == "slow" && $4 >= 0.3 && $5 == 0 { found = 1 }
		END { exit !found }' "$RESULTS/.times"
check "a step's time is its command's wall time, its status kept" \
	awk -F'\t' '$1 == "step" && $2 == "slow" && $3 == "slow" && $4 >= 1.2 && $5 == 0 { found = 1 }
		END { exit !found }' "$RESULTS/.times"

"$top/scripts/suite-times.sh" "$RESULTS" >"$work/out" 2>&1
check "the table is written, longest first, with CPU times and shares of the steps' time" \
	awk -F'\t' 'NR == 1 { ok = $0 == "kind\tname\tstep\tseconds\tcpu\tshare\tstatus"; next }
		$1 == "step" { sum += $6; secs[$2] = $4; share[$2] = $6; ok = ok && $5 ~ /^[0-9]+[.][0-9]$/ }
		NR > 2 { ok = ok && $4 <= last } { last = $4 }
		END { total = secs["slow"] + secs["failing"] + secs["spin"]
			# three shares, each rounded to 0.1: their sum is 100 +- 0.15
			exit !ok || NR != 7 || sum < 99.85 || sum > 100.15 ||
				sprintf("%.1f%%", 100 * secs["slow"] / total) != share["slow"] }' \
	"$RESULTS/suite-times.tsv"
expect 0 'slow +[0-9]+ s +[0-9.]+% +cpu +[0-9]+ s +inner [0-9]+ s' "the longest steps are printed with their CPU time and longest suites" \
	cat "$work/out"
expect 0 'the steps used [0-9]+ s of CPU in [0-9]+ s: [0-9.]+ cores busy' "and how busy the cores were while the steps ran" \
	cat "$work/out"
expect 0 'failing +[0-9]+ s +[0-9.]+% +cpu +[0-9]+ s +\[exit 3\]' "a step that failed says so" cat "$work/out"
expect 1 'no times recorded' "no times at all is an error, not an empty table" \
	"$top/scripts/suite-times.sh" "$work/none"
expect 2 "N wants a whole number" "busy.sh refuses a count that is not a number" \
	"$top/scripts/busy.sh" x true
tap_end
