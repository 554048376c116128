#!/usr/bin/env bash
# scripts/step-time.sh KIND NAME COMMAND [ARG...] - run COMMAND and record
# how long it took, where make test starts its work (the Makefile: each
# build and each test step; tests/tap-run: each suite, KIND suite): one
# line "KIND<TAB>NAME<TAB>STEP<TAB>SECONDS<TAB>STATUS" appended to
# build/results/.times ($RESULTS).  STEP is the step NAME runs in (this
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
mkdir -p "$results" &&
	printf '%s\t%s\t%s\t%.1f\t%s\n' "$kind" "$name" "$step" \
		"$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" "$status" >>"$results/.times"
exit "$status"
