#!/bin/sh
# realjit/luajit/series/debian-tests.sh CONTROL FIRST LUAJIT... - the tests Debian
# ships with its luajit source package (debian/tests/control, autopkgtest's
# format), each Test-Command run with `luajit` meaning the command LUAJIT...
# (a path, or a loader and its arguments).  POSIX sh: it runs on the host
# and in the guest (with tests/tap.sh beside it there).  One TAP line per
# test, numbered from FIRST; no plan (the caller's).  Exits 0 when every test passed, 1 if not, 2 on misuse
# or a control file that names no Test-Command.
[ $# -ge 3 ] && [ -f "$1" ] || { echo "usage: debian-tests.sh CONTROL FIRST LUAJIT..." >&2; exit 2; }
control=$1 n=$2
shift 2
lj_args="$*"
# a Test-Command with its first word, luajit, replaced by LUAJIT...
run_test() { eval "set -- $lj_args ${1#luajit}" && "$@"; }
commands=$(sed -n 's/^Test-Command:[ ]*//p' "$control")
[ -n "$commands" ] || { echo "debian-tests.sh: $control names no Test-Command" >&2; exit 2; }
for tap_sh in "$(dirname "$0")/tap.sh" "$(dirname "$0")/../../../tests/tap.sh"; do
	[ -f "$tap_sh" ] && break
done
. "$tap_sh"
tap_n=$((n - 1))
echo "$commands" | {
	while read -r cmd; do
		out=$(run_test "$cmd" 2>&1)
		rc=$?
		tap_result $rc "Debian's test: $cmd" "exit $rc" "$out"
	done
	[ "$tap_failed" -eq 0 ]
}
