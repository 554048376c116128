# scripts/tree-state.sh - sourced by tests/provenance and report/report.sh:
# the one definition of which commit a result or a page came from.
#
#   tree_state DIR
#
# Prints DIR's HEAD as 12 hex digits, followed by " (with uncommitted
# changes)" when `git status --porcelain` lists anything: a tracked file
# changed (staged or not) or a file neither tracked nor ignored (a new
# script or source the build or a test picks up changes what ran just as
# much); "not a git checkout" when DIR is not one.  Always returns 0.
tree_state() {
	local commit changes
	commit=$(git -C "$1" rev-parse --short=12 HEAD 2>/dev/null) || { echo "not a git checkout"; return 0; }
	# the whole list, not its first byte through a pipe: no SIGPIPE under pipefail
	if ! changes=$(git -C "$1" status --porcelain 2>/dev/null); then
		echo "$commit (git status failed: changes unknown)"
	elif [ -n "$changes" ]; then
		echo "$commit (with uncommitted changes)"
	else
		echo "$commit"
	fi
	return 0
}
