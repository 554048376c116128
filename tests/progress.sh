#!/usr/bin/env bash
# tests/progress.sh - TAP checks of scripts/progress.sh, the progress
# display of every long step: the report's text, the estimate, a line per
# interval in a plain log, and a stop that is prompt and leaves nothing
# running.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'progress_stop; rm -rf "$work"' EXIT
. "$top/scripts/progress.sh"

. "$top/tests/tap.sh"
tap_start 9
# matches DESCRIPTION GOT WANTED-REGEX
matches() { expect 0 "$3" "$1" printf '%s\n' "$2"; }

matches "a count of a known total, with the time left scaled from the pace" \
	"$(progress_line mseal 1000 objects 250 60)" \
	'^mseal: 250 of ~1000 objects, 1:00 elapsed, ~3:00 left$'
matches "no estimate before a twentieth is done" \
	"$(progress_line mseal 1000 objects 20 60)" '^mseal: 20 of ~1000 objects, 1:00 elapsed$'
matches "an unknown total gives the count and the time, and the detail follows" \
	"$(progress_line guest '' results 7 125 'running: a (0:10)')" \
	'^guest: 7 results, 2:05 elapsed; running: a \(0:10\)$'

# In a plain log: a line per interval, the count's own total taking over.
echo 0 >"$work/count"
PROGRESS_INTERVAL=1 progress_start demo "10/files" cat "$work/count" 2>"$work/log"
sleep 1.5
echo "4/8 copying" >"$work/count"
sleep 2
stop_start=$(date +%s%N)
progress_stop 2>>"$work/log"
stop_took=$((($(date +%s%N) - stop_start) / 1000000))
lines_at_stop=$(wc -l <"$work/log")
matches "a plain log gets a line per interval" "$lines_at_stop" '^[2-4]$'
matches "a count may bring its own total and detail" "$(tail -n 1 "$work/log")" \
	'^\[progress\] demo: 4 of ~8 files, 0:0[2-4] elapsed, ~0:0[0-9] left; copying$'
sleep 1.2
matches "progress_stop is prompt (under a second) and silences it" \
	"$stop_took ms, $(wc -l <"$work/log") lines" "^[0-9]{1,3} ms, $lines_at_stop lines\$"

# A count may name what it counts (a guest suite's own "# progress" line).
echo "300/900/calls" >"$work/count"
PROGRESS_INTERVAL=1 progress_start demo "/TAP results" cat "$work/count" 2>"$work/log2"
sleep 1.5
progress_stop 2>>"$work/log2"
matches "a count may bring its own unit" "$(tail -n 1 "$work/log2")" \
	'^\[progress\] demo: 300 of ~900 calls, 0:0[1-2] elapsed, ~0:0[2-4] left$'

# make test's line: the estimate comes from the last whole run's time, not
# from the count of result files (the longest steps start first); a run
# that passes keeps its time for the next, a failing one does not.
mkdir -p "$work/results/.running" "$work/cache"
touch "$work/results/a.tap" "$work/results/.running/series"
echo 20 >"$work/cache/test-seconds"
echo 64 >"$work/cache/test-results-count"
RESULTS=$work/results SEALJIT_CACHE=$work/cache PROGRESS_INTERVAL=1 \
	"$top/scripts/test-progress.sh" sleep 2.5 2>"$work/log3"
matches "make test's estimate is the last run's time less the time elapsed" \
	"$(tail -n 1 "$work/log3")" \
	'^\[progress\] make test: ([1-3]) of ~20 s, 0:0\1 elapsed, ~0:1[7-9] left; 1 of ~64 result files; running: series \(0:0[0-9]\)$'
kept=$(cat "$work/cache/test-seconds")
RESULTS=$work/results SEALJIT_CACHE=$work/cache "$top/scripts/test-progress.sh" false
matches "a passing run keeps its time for the next estimate, a failing one does not" \
	"$kept $(cat "$work/cache/test-seconds")" '^([23]) \1$'
tap_end
