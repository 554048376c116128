#!/usr/bin/env bash
# tests/shell-pipes.sh - TAP: a pattern that matched never reads as a
# failure because grep stopped reading early.  grep -q (or -m) exits at
# its first match; a writer still writing into the pipe then dies of
# SIGPIPE, and "set -o pipefail" makes the whole test fail on timing
# (a CI run failed tap-summary's test 6 this way, in tests/tap.sh's
# expect).  The helper is checked on an output longer than a pipe holds,
# and every shell script is scanned for the pattern (tests/early-grep.awk):
# not only those that set pipefail, since a file sourced inherits its
# caller's options (tests/tap.sh sets none).
# And a test's loop over a glob: a glob that matches nothing gives back its
# pattern, and the loop then runs once on a file that does not exist (a
# moved folder failed "workload *" with no word of why); a test takes the
# glob's files with "set --" and tap_files first (tests/glob-loop.awk).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

. "$top/tests/tap.sh"
tap_start 7

# expect and expect_text, the match on the first of ~600 KB of lines:
# with a pipe into grep -q this failed every time.
long() { echo "the first line"; seq 100000; }
(
	tap_n=0
	expect 0 '^the first line$' "regex" long
	expect_text 0 'the first line' "text" long
) >"$work/long.tap"
[ "$(grep -c '^ok ' "$work/long.tap")" = 2 ]
tap_result $? "tap.sh's expect: a match on the first line of a long output under pipefail" \
	"$(cat "$work/long.tap")"

# The scanner finds what it is for, and passes what is safe.
cat >"$work/sample.sh" <<'SH'
set -o pipefail
producer | grep -q found && echo one
producer |
	grep -qx found && echo two
producer | grep -m1 found
producer | grep found >"$work/all"   # reads to the end: safe
grep -q found <<<"$(producer)"       # no pipe: safe
# producer | grep -q commented
true || grep -q x "$file"           # "||" is no pipe
SH
awk -f "$top/scripts/heredoc.awk" -f "$top/tests/early-grep.awk" "$work/sample.sh" >"$work/found"
[ "$(cut -d: -f2 "$work/found" | tr '\n' ' ')" = '2 3 5 ' ]
tap_result $? "early-grep.awk finds the three early-exiting greps, by line, and nothing else" \
	"$(cat "$work/found")"

# The glob scanner finds the loop over a glob, and passes the guarded form.
cat >"$work/loops.sh" <<'SH'
for w in "$here"/workloads/*.lua; do
for t in a b c; do
set -- "$here"/workloads/*.lua
for w; do
	for f in "$dir"/*.args; do
SH
awk -f "$top/scripts/heredoc.awk" -f "$top/tests/glob-loop.awk" "$work/loops.sh" >"$work/found"
[ "$(cut -d: -f2 "$work/found" | tr '\n' ' ')" = '1 5 ' ]
tap_result $? "glob-loop.awk finds the two loops over a glob, by line, and nothing else" \
	"$(cat "$work/found")"

# Every tracked shell script.
scripts() {
	local f
	git -C "$top" ls-files | while read -r f; do
		[ -f "$top/$f" ] || continue
		case $f in
		*.sh) ;;
		*) grep -qE '^#!.*sh' <<<"$(head -n 1 "$top/$f")" || continue ;;
		esac
		echo "$f"
	done
}
mapfile -t shells < <(scripts)
[ "${#shells[@]}" -gt 50 ] && [[ " ${shells[*]} " == *" tests/tap.sh "* ]]
tap_result $? "the scan sees every shell script, tests/tap.sh among them (${#shells[@]})"
found=$(cd "$top" && awk -f scripts/heredoc.awk -f tests/early-grep.awk "${shells[@]}")
tap_result "$([ -z "$found" ]; echo $?)" \
	"no shell script pipes into a grep that stops early" "$found"
mapfile -t tests < <(printf '%s\n' "${shells[@]}" | grep -E '(^|/)tests/')
[ "${#tests[@]}" -gt 10 ]
tap_result $? "the glob scan sees every test's shell script (${#tests[@]})"
found=$(cd "$top" && awk -f scripts/heredoc.awk -f tests/glob-loop.awk "${tests[@]}")
tap_result "$([ -z "$found" ]; echo $?)" \
	"no test loops over a glob without tap_files (set -- GLOB; tap_files WHAT \"\$@\" && for x; do)" "$found"
tap_end
