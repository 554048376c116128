#!/usr/bin/env bash
# tests/progress.sh - TAP checks of scripts/progress.sh, the progress
# display of every long step: the report's text, the estimate, a line per
# interval in a plain log, and a stop that is prompt and leaves nothing
# running.  The times it reads allow a loaded host (make test-busy): a
# background line may come a second or more late there.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'progress_stop; rm -rf "$work"' EXIT
. "$top/scripts/progress.sh"

. "$top/tests/tap.sh"
tap_start 11
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

# wait_for FILE REGEX: until a line of FILE matches (at most 60 s): the
# display's lines come from the background, late on a loaded host.
wait_for() {
	local i
	for i in $(seq 600); do
		grep -Eq "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# In a plain log: a line per interval, the count's own total taking over.
echo 0 >"$work/count"
PROGRESS_INTERVAL=1 progress_start demo "10/files" cat "$work/count" 2>"$work/log"
wait_for "$work/log" 'demo: 0 of ~10 files'
echo "4/8 copying" >"$work/count"
wait_for "$work/log" 'copying$'
progress_stop 2>>"$work/log"
lines_at_stop=$(wc -l <"$work/log")
matches "a plain log gets a line per interval" "$lines_at_stop" '^([2-9]|[1-9][0-9])$'
matches "a count may bring its own total and detail" "$(tail -n 1 "$work/log")" \
	'^\[progress\] demo: 4 of ~8 files, [0-9]+:[0-9]{2} elapsed(, ~[0-9]+:[0-9]{2} left)?; copying$'
# A stop does not wait out the interval: one of a minute stops at once.
PROGRESS_INTERVAL=60 progress_start demo "10/files" cat "$work/count" 2>"$work/log4"
sleep 0.5
stop_start=$(date +%s%N)
progress_stop 2>>"$work/log4"
stop_took=$((($(date +%s%N) - stop_start) / 1000000))
lines_at_stop=$(wc -l <"$work/log4")
sleep 1.2
matches "progress_stop is prompt (well under its interval) and silences it" \
	"$stop_took ms, $(wc -l <"$work/log4") lines" "^[0-9]{1,4} ms, $lines_at_stop lines\$"

# Stopping a display that already ended fails nothing, under set -e.  (Its
# sleep outlives the KILL, and would hold $(...) open for its interval but
# for the >/dev/null: a minute, in one run of six.)
stopped=$(bash -ec '. "$1/scripts/progress.sh"
	PROGRESS_INTERVAL=1 progress_start demo 10 true >/dev/null 2>&1
	kill -KILL "$progress_pid"; sleep 0.2
	progress_stop; echo went on' sh "$top" 2>&1)
matches "progress_stop of a display that already ended returns 0 (a caller under set -e goes on)" \
	"$stopped" '^went on$'

# A count may name what it counts (a guest suite's own "# progress" line).
echo "300/900/calls" >"$work/count"
PROGRESS_INTERVAL=1 progress_start demo "/TAP results" cat "$work/count" 2>"$work/log2"
wait_for "$work/log2" 'calls'
progress_stop 2>>"$work/log2"
matches "a count may bring its own unit" "$(tail -n 1 "$work/log2")" \
	'^\[progress\] demo: 300 of ~900 calls, [0-9]+:[0-9]{2} elapsed(, ~[0-9]+:[0-9]{2} left)?$'

# make test's line: the estimate comes from the last whole run's time, not
# from the count of result files (the longest steps start first); a run
# that passes keeps its time for the next, a failing one does not.  The
# command run is one that waits for the first line.
mkdir -p "$work/results/.running" "$work/cache"
touch "$work/results/a.tap" "$work/results/.running/series"
echo 20 >"$work/cache/test-seconds"
echo 64 >"$work/cache/test-results-count"
RESULTS=$work/results SEALJIT_CACHE=$work/cache PROGRESS_INTERVAL=1 \
	"$top/scripts/test-progress.sh" timeout 60 bash -c \
	'until grep -q "make test" "$0" 2>/dev/null; do sleep 0.1; done' "$work/log3" 2>"$work/log3"
matches "make test's estimate is the last run's time less the time elapsed" \
	"$(tail -n 1 "$work/log3")" \
	'^\[progress\] make test: [1-9] of ~20 s, 0:0[0-9] elapsed, ~0:[01][0-9] left; 1 of ~64 result files; running: series \(0:[0-9]{2}\)$'
kept=$(cat "$work/cache/test-seconds")
RESULTS=$work/results SEALJIT_CACHE=$work/cache "$top/scripts/test-progress.sh" false
matches "a passing run keeps its time for the next estimate, a failing one does not" \
	"$kept $(cat "$work/cache/test-seconds")" '^([1-9]) \1$'
# A dry run (make -n test runs the line, as it names $(MAKE)) keeps no time.
echo 20 >"$work/cache/test-seconds"
RESULTS=$work/results SEALJIT_CACHE=$work/cache MAKEFLAGS='kn -j2 -- BUILT=yes' \
	"$top/scripts/test-progress.sh" true
RESULTS=$work/results SEALJIT_CACHE=$work/cache MAKEFLAGS='n' \
	"$top/scripts/test-progress.sh" true
dry=$(cat "$work/cache/test-seconds")
RESULTS=$work/results SEALJIT_CACHE=$work/cache MAKEFLAGS=' --no-print-directory -j2' \
	"$top/scripts/test-progress.sh" true
matches "a dry run (make -n) keeps no time for the next estimate; a real one does" \
	"$dry $(cat "$work/cache/test-seconds")" '^20 ([0-9]|1[0-9])$'
tap_end
