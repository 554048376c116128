# shellcheck shell=bash
# realjit/tests/prologue.sh - the one prologue of the real-JIT host tests
# (realjit/tests/host.sh, the harness's; realjit/DIR/tests/host.sh, each
# JIT's), sourced first.  It sets
#   here      the folder the test is of (its script's ../: realjit/ or
#             realjit/DIR/)
#   SEALJIT   the tree (default: the one this file is in), absolute
#   BUILD     realjit/'s build (default $SEALJIT/build/realjit), absolute
#   lib       the seal-on-exec library in it (and SEALJIT_ATTACK_LIB, the
#             attacker LuaJIT's attack.lua loads, exported: unless set,
#             the one in it)
#   work      a scratch folder, removed at exit
# sources tests/tap.sh and realjit/cases.sh (RJ_WHO: the test's own name,
# for cases.sh's messages), starts the TAP, and defines
#   rj_test_need FILE... WHAT   "Bail out!" (exit 1) naming the first FILE
#                               missing and WHAT makes it
#   list_refused PATTERN COMMAND...   cases.sh's rj_read_attacks, with
#                               COMMAND as the attacker's --list, refuses
#                               it: exit 2, its message matching PATTERN
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
SEALJIT=${SEALJIT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
BUILD=${BUILD:-$SEALJIT/build/realjit}
case $BUILD in /*) ;; *) BUILD=$here/$BUILD ;; esac
lib=$BUILD/libsealjit-preload.so
export SEALJIT_ATTACK_LIB=${SEALJIT_ATTACK_LIB:-$BUILD/libsealjit-attack.so}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
RJ_WHO=${RJ_WHO:-host.sh}
# shellcheck source=tests/tap.sh
. "$SEALJIT/tests/tap.sh"
# shellcheck source=realjit/cases.sh
. "$SEALJIT/realjit/cases.sh"
tap_start

rj_test_need() {
	local f what=${*: -1}
	for f in "${@:1:$#-1}"; do
		[ -e "$f" ] || { echo "Bail out! no $f ($what)"; exit 1; }
	done
}

list_refused() {
	local pattern=$1 rc
	shift
	(rj_read_attacks "$@") >/dev/null 2>"$work/list.err"
	rc=$?
	[ $rc = 2 ] && grep -q "$pattern" "$work/list.err" || { echo "# exit $rc: $(cat "$work/list.err")"; return 1; }
}
