# shellcheck shell=sh
# tests/tap.sh - the TAP helper every shell test sources (POSIX sh, so that
# the scripts that run in the busybox guest can too).  The C tests' twin is
# include/sealjit/tap.h; tests/tap-run and tests/tap-summary read what both
# print.
#
#   tap_start [N]            "TAP version 13", and the plan when it is known
#   tap_plan N               the plan alone (after a table of comments)
#   ok DESCRIPTION           a passing test point
#   not_ok DESCRIPTION [LINE...]   a failing one, each LINE a "#   " comment
#   tap_result STATUS DESCRIPTION [LINE...]   ok when STATUS is 0
#   check DESCRIPTION COMMAND...   ok when COMMAND succeeds; its last lines
#                            of output are the comments when it does not
#   expect STATUS PATTERN DESCRIPTION COMMAND...   ok when COMMAND exits
#                            STATUS (a number, or "nonzero") and its output
#                            (stdout and stderr) matches the extended
#                            regular expression PATTERN
#   expect_text STATUS TEXT DESCRIPTION COMMAND...   the same, for a fixed
#                            TEXT in the output
#   skip DESCRIPTION REASON  "ok N - DESCRIPTION # SKIP REASON"
#   tap_files WHAT FILE...   succeeds when the first FILE exists (a loop over
#                            a glob's files may start); otherwise a failing
#                            point "WHAT: none at PATTERN", since a glob that
#                            matches nothing gives back its pattern
#   tap_end                  the plan, when tap_start had none; returns 1
#                            when a test point failed
# tap_n counts the test points so far, tap_failed the failures.
tap_n=0
tap_failed=0
tap_planned=

tap_start() {
	echo "TAP version 13"
	[ -z "${1:-}" ] || tap_plan "$1"
}

tap_plan() {
	echo "1..$1"
	tap_planned=1
}

ok() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1"
}

not_ok() {
	tap_n=$((tap_n + 1))
	tap_failed=$((tap_failed + 1))
	echo "not ok $tap_n - $1"
	shift
	for tap_line in "$@"; do
		printf '%s\n' "$tap_line" | sed 's/^/#   /'
	done
}

tap_result() {
	tap_status=$1
	shift
	if [ "$tap_status" -eq 0 ]; then ok "$1"; else not_ok "$@"; fi
}

check() {
	tap_what=$1
	shift
	if tap_out=$("$@" 2>&1); then
		ok "$tap_what"
	else
		not_ok "$tap_what" "exit $?: $*" "$(printf '%s\n' "$tap_out" | tap_ends)"
	fi
}

expect() { tap_expect -qE "$@"; }
expect_text() { tap_expect -qF "$@"; }
tap_expect() { # GREP-OPTIONS STATUS PATTERN DESCRIPTION COMMAND...
	tap_grep=$1 tap_want=$2 tap_pattern=$3 tap_what=$4
	shift 4
	tap_out=$("$@" 2>&1)
	tap_got=$?
	# A here-document, not a pipe: grep -q stops at its first match, and
	# a writer still writing then dies of SIGPIPE, which a caller's
	# pipefail turns into the failure of a pattern that matched.
	if { [ "$tap_want" = nonzero ] && [ "$tap_got" -ne 0 ] || [ "$tap_want" = "$tap_got" ]; } &&
		grep "$tap_grep" -- "$tap_pattern" <<EOF
$tap_out
EOF
	then
		ok "$tap_what"
	else
		not_ok "$tap_what" "wanted status $tap_want and /$tap_pattern/, got $tap_got:" \
			"$(printf '%s\n' "$tap_out" | tap_ends)"
	fi
}

# The first 3 and last 12 lines of standard input (where the cause and the
# end of a long output are).
tap_ends() {
	awk '{ line[NR] = $0 } END {
		for (i = 1; i <= NR; i++)
			if (i <= 3 || i > NR - 12) print line[i]
			else if (i == 4) print "..."
	}'
}

skip() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1 # SKIP $2"
}

tap_files() {
	[ -e "$2" ] && return 0
	not_ok "$1: none at $2"
	return 1
}

tap_end() {
	[ -n "$tap_planned" ] || echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}
