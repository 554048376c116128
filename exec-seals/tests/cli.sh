#!/usr/bin/env bash
# exec-seals/tests/cli.sh EXEC-SEALS - host TAP tests of exec-seals' command
# line, on any host kernel: misuse exits 2 with a message and no TAP, the
# --after-exec state included (intparse.h's rules: no sign, no trailing
# text, each field in range), and a state that parses but was not handed
# over by exec (another pid) fails the first test point, "exec'd a new
# image of itself".  Nothing here calls mseal(): the rejected runs stop at
# their arguments, and the one accepted state says nothing was sealed.
set -uo pipefail
bin=${1:?usage: exec-seals/tests/cli.sh EXEC-SEALS}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../../tests/tap.sh"
tap_start 15

# misuse WHAT PATTERN ARG...: exit 2, PATTERN (an extended regex) on stderr,
# nothing on stdout
misuse() {
	local what=$1 pattern=$2 rc
	shift 2
	"$bin" "$@" >"$work/out" 2>"$work/err"
	rc=$?
	if [ $rc -eq 2 ] && grep -qE "$pattern" "$work/err" && [ ! -s "$work/out" ]; then ok "$what"
	else not_ok "$what" "exit $rc, wanted 2 and /$pattern/ on stderr, nothing on stdout" \
		"stderr: $(head -c 300 "$work/err")" "stdout: $(head -c 300 "$work/out")"; fi
}
good=next=1,failed=0,skipped=0,anon=0x200000000000,page=0x4c9000,sealed=0
state() { echo "pid=$1,$good"; }

misuse "no arguments is misuse" '^usage: exec-seals --kernel NAME'
misuse "an unknown kernel is misuse, named" "unknown kernel 'nope'" --kernel nope
misuse "an option without its value is misuse, named" "no value for '--kernel'" --kernel
misuse "an unknown option is misuse, named (--sysmap is gone: the table says)" "unknown option '--sysmap'" \
	--kernel mseal --sysmap on
misuse "--after-exec: trailing text after the last field" "bad --after-exec state .*',x=1' after sealed" \
	--kernel vanilla --after-exec "$(state 7),x=1"
misuse "--after-exec: trailing junk in a number" "sealed=0junk: not a number" \
	--kernel vanilla --after-exec "$(state 7)junk"
misuse "--after-exec: a negative count (once wrapped by %u)" "next=-1: not a number" \
	--kernel vanilla --after-exec "pid=7,next=-1,failed=0,skipped=0,anon=0,page=0,sealed=0"
misuse "--after-exec: a count past the plan" "next=20: out of range \(1\.\.19\)" \
	--kernel vanilla --after-exec "pid=7,next=20,failed=0,skipped=0,anon=0,page=0,sealed=0"
misuse "--after-exec: sealed is 0 or 1" "sealed=2: out of range \(0\.\.1\)" \
	--kernel vanilla --after-exec "pid=7,next=1,failed=0,skipped=0,anon=0,page=0,sealed=2"
misuse "--after-exec: pid 0" "pid=0: out of range" \
	--kernel vanilla --after-exec "$(state 0)"
misuse "--after-exec: a field missing" "no next= where 'failed=0" \
	--kernel vanilla --after-exec "pid=7,failed=0,skipped=0,anon=0,page=0,sealed=0"
misuse "--after-exec: the text ends early" "it ends after skipped" \
	--kernel vanilla --after-exec "pid=7,next=1,failed=0,skipped=0"
misuse "--after-exec: more failed and skipped than tests run" "3 failed and 2 skipped of 4 tests" \
	--kernel vanilla --after-exec "pid=7,next=5,failed=3,skipped=2,anon=0,page=0,sealed=0"
misuse "--after-exec: a space in a number" "next= 1: not a number" \
	--kernel vanilla --after-exec "pid=7,next= 1,failed=0,skipped=0,anon=0,page=0,sealed=0"

# A well-formed state, but no exec handed it over: pid 1 is not this
# process, so "exec'd a new image of itself" must fail (and the run with it).
"$bin" --kernel vanilla --after-exec "$(state 1)" >"$work/out" 2>"$work/err"
rc=$?
if [ $rc -ne 0 ] && [ $rc -ne 2 ] && grep -qE "^not ok 1 - exec'd a new image of itself: pid [0-9]+ \(the old image's 1\)" "$work/out"
then ok "a state from no exec (pid 1): \"exec'd a new image of itself\" fails, exit $rc"
else not_ok "a state from no exec (pid 1): \"exec'd a new image of itself\" fails" "exit $rc" \
	"stdout: $(head -n 3 "$work/out" | paste -sd'|')" "stderr: $(head -c 300 "$work/err")"; fi
tap_end
