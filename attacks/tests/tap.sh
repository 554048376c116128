# tests/tap.sh - sourced by the host TAP scripts (cli.sh, views.sh): a
# scratch directory $tmp, removed on exit, and the test points.
#   check DESCRIPTION COMMAND...   ok when COMMAND succeeds (its output hidden)
#   skip DESCRIPTION REASON        ok ... # SKIP REASON
#   plan_and_status                the closing plan; fails if any check did
tmp=$(mktemp -d "${TMPDIR:-/tmp}/attacks-$(basename "$0" .sh).XXXXXX")
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0
check() {
	what=$1; shift
	n=$((n + 1))
	if "$@" >/dev/null 2>&1; then echo "ok $n - $what"
	else echo "not ok $n - $what"; failed=$((failed + 1)); fi
}
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
plan_and_status() {
	echo "1..$n"
	[ "$failed" -eq 0 ]
}
