#!/usr/bin/env bash
# scripts/step-time.sh KIND NAME COMMAND [ARG...] - run COMMAND and record
# how long it took, where make test starts its work (the Makefile: each
# build and each test step; tests/tap-run: each suite, KIND suite): one
# line "KIND<TAB>NAME<TAB>STEP<TAB>SECONDS<TAB>STATUS<TAB>CPU" appended to
# build/results/.times ($RESULTS).  CPU is the CPU seconds (user and
# system) of COMMAND and every process it waited for (its guests' QEMU):
# on busy cores a step's wall time is also the others' work, its CPU time
# its own.  STEP is the step NAME runs in (this
# script exports it to COMMAND as SEALJIT_STEP; NAME itself for a step).
# scripts/suite-times.sh makes the table.  Exits with COMMAND's status.
set -uo pipefail
[ $# -ge 3 ] || { echo "usage: scripts/step-time.sh KIND NAME COMMAND [ARG...]" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
results=${RESULTS:-$top/build/results}
kind=$1 name=$2
shift 2
step=${SEALJIT_STEP:-$name}
[ "$kind" = suite ] || { step=$name; export SEALJIT_STEP=$name; }
start=$(date +%s.%N)
"$@"
status=$?
end=$(date +%s.%N)
# (times: this shell's, then its children's user and system time, as
# 1m2.5s; in this shell, not a $(...) subshell, which has no children)
if mkdir -p "$results" && times >"$results/.cpu.$$"; then
	cpu=$(awk 'NR == 2 { for (i = 1; i <= NF; i++) { split($i, ms, "m"); s += ms[1] * 60 + ms[2] } printf "%.1f", s }' \
		"$results/.cpu.$$")
	rm -f "$results/.cpu.$$"
	printf '%s\t%s\t%s\t%.1f\t%s\t%s\n' "$kind" "$name" "$step" \
		"$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" "$status" "${cpu:--}" >>"$results/.times"
fi
exit "$status"
