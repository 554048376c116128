#!/usr/bin/env bash
# scripts/test-progress.sh COMMAND [ARG...] - run COMMAND (make test's
# steps), saying every 30 s how far it is and which steps tests/tap-run is
# running, with how long each has run.  Exits with COMMAND's status.  The
# display is scripts/progress.sh's.
#
# The steps do not take equal time (the longest start first), so the count
# of result files says little about what is left.  Once a whole run has
# passed, its time is kept in the cache and the estimate is that time less
# the time elapsed, with the result files as detail:
#   [progress] make test: 90 of ~225 s, 1:30 elapsed, ~2:15 left; 13 of ~64 result files; ...
# Before that, the count of result files is all there is.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
results=${RESULTS:-$top/build/results}
cache=${SEALJIT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sealjit}
last_count=$cache/test-results-count
last_time=$cache/test-seconds
[ $# -gt 0 ] || { echo "usage: scripts/test-progress.sh COMMAND [ARG...]" >&2; exit 2; }
. "$top/scripts/progress.sh"

# The steps tests/tap-run is running: "NAME (M:SS), ..." from its markers.
running_steps() {
	local marker now list=''
	now=$(date +%s)
	for marker in "$results"/.running/*; do
		[ -f "$marker" ] || continue
		list="$list, $(basename "$marker") ($(progress_clock $((now - $(stat -c %Y "$marker")))))"
	done
	printf '%s' "${list#, }"
}

# One report: "DONE[/TOTAL[/UNIT]] DETAIL".
steps_so_far() {
	local files total seconds running
	files=$(find "$results" -maxdepth 1 -name '*.tap' 2>/dev/null | wc -l)
	total=$(cat "$last_count" 2>/dev/null || true)
	seconds=$(cat "$last_time" 2>/dev/null || true)
	running=$(running_steps)
	if [ -n "$seconds" ]; then
		printf '%s/%s/s %s%s\n' $(($(date +%s) - started)) "$seconds" \
			"$files${total:+ of ~$total} result files" "${running:+; running: $running}"
	else
		printf '%s%s%s\n' "$files" "${total:+/$total}" "${running:+ running: $running}"
	fi
}

started=$(date +%s)
progress_start "make test" "/result files" steps_so_far
"$@"
status=$?
progress_stop
# The next run's estimate: how long a whole run takes and how many result
# files it leaves.  Not a dry run's: `make -n test` runs this line too (it
# names $(MAKE)), and its seconds would be taken for a whole run's.
dry_run() {
	local flags=${MAKEFLAGS-}
	flags=${flags%% *}
	case $flags in
	-*) flags=${flags#-} ;;
	esac
	case $flags in
	-*) return 1 ;;
	*n*) return 0 ;;
	esac
	return 1
}
if [ "$status" -eq 0 ] && ! dry_run; then
	mkdir -p "$cache"
	find "$results" -maxdepth 1 -name '*.tap' | wc -l >"$last_count"
	echo $(($(date +%s) - started)) >"$last_time"
fi
exit "$status"
