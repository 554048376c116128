#!/usr/bin/env bash
# scripts/test-progress.sh COMMAND [ARG...] - run COMMAND (make test's
# steps), saying every 30 s how many result files build/results/ holds (of
# the count the last whole run left, once there was one) and which steps
# tests/tap-run is running, with how long each has run.  Exits with
# COMMAND's status.  The display is scripts/progress.sh's.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
results=${RESULTS:-$top/build/results}
cache=${SEALJIT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sealjit}
last_count=$cache/test-results-count
[ $# -gt 0 ] || { echo "usage: scripts/test-progress.sh COMMAND [ARG...]" >&2; exit 2; }
. "$top/scripts/progress.sh"

# "DONE[/TOTAL] running: NAME (M:SS), ..." from the results and the
# markers tests/tap-run leaves while a step runs.
steps_so_far() {
	local done total running='' marker now
	done=$(find "$results" -maxdepth 1 -name '*.tap' 2>/dev/null | wc -l)
	total=$(cat "$last_count" 2>/dev/null || true)
	now=$(date +%s)
	for marker in "$results"/.running/*; do
		[ -f "$marker" ] || continue
		running="$running, $(basename "$marker") ($(progress_clock $((now - $(stat -c %Y "$marker")))))"
	done
	printf '%s%s%s\n' "$done" "${total:+/$total}" "${running:+ running: ${running#, }}"
}

progress_start "make test" "/result files" steps_so_far
"$@"
status=$?
progress_stop
# The next run's estimate: how many result files a whole run leaves.
if [ "$status" -eq 0 ]; then
	mkdir -p "$cache"
	find "$results" -maxdepth 1 -name '*.tap' | wc -l >"$last_count"
fi
exit "$status"
