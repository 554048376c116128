#!/usr/bin/env bash
# tests/tap-reader.sh - TAP checks of scripts/tap.awk, the one reader of TAP
# lines: each kind of line (version, plan, a whole-file SKIP plan, points
# with and without a number, a description, a SKIP or TODO directive, a
# result line read by name, other comments, a bail-out, other output) is
# what the library says it is, with its fields; a malformed point ("okay",
# "not  ok", an indented one) is no point; a trailing CR is dropped; and a
# line's fields do not leak into the next.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/tap.sh"

# read_line LINE: what the library makes of LINE, as
#   KIND|ok=O n=N skip=S todo=T plan=P|desc|reason|comment|name=...,detail=...
read_line() {
	printf '%s\n' "$1" | awk -f "$top/scripts/result.awk" -f "$top/scripts/tap.awk" -f <(echo '
		{
			k = tap_read($0)
			printf "%s|ok=%d n=%s skip=%d todo=%d plan=%d|%s|%s|%s|name=%s,detail=%s\n", k, tap_ok,
				tap_number, tap_skip, tap_todo, tap_plan, tap_desc, tap_reason, tap_comment,
				result("name"), result("detail")
		}')
}

cases=(
	"a version line"
	"TAP version 13"
	"version|ok=0 n= skip=0 todo=0 plan=0||||name=,detail="
	"a plan"
	"1..12"
	"plan|ok=0 n= skip=0 todo=0 plan=12||||name=,detail="
	"a plan that skips the whole file"
	"1..0 # SKIP no kernel here"
	"plan|ok=0 n= skip=1 todo=0 plan=0||||name=,detail="
	"a passing point"
	"ok 1 - the seal holds"
	"point|ok=1 n=1 skip=0 todo=0 plan=0|the seal holds|||name=,detail="
	"a failing point"
	"not ok 2 - mseal run: the guest died"
	"point|ok=0 n=2 skip=0 todo=0 plan=0|mseal run: the guest died|||name=,detail="
	"a point as kselftest prints it (no dash)"
	"ok 3 test_seal_mprotect"
	"point|ok=1 n=3 skip=0 todo=0 plan=0|test_seal_mprotect|||name=,detail="
	"a point with a SKIP directive"
	"ok 4 - on v1 # SKIP no pkeys"
	"point|ok=1 n=4 skip=1 todo=0 plan=0|on v1|||name=,detail="
	"a failing point with a TODO directive"
	"not ok 5 - a known hole #TODO the fix"
	"point|ok=0 n=5 skip=0 todo=1 plan=0|a known hole|||name=,detail="
	"a bare ok"
	"ok"
	"point|ok=1 n= skip=0 todo=0 plan=0||||name=,detail="
	"a point without a number"
	"not ok - no number"
	"point|ok=0 n= skip=0 todo=0 plan=0|no number|||name=,detail="
	"a point with a trailing CR"
	$'ok 6 - from a serial console\r'
	"point|ok=1 n=6 skip=0 todo=0 plan=0|from a serial console|||name=,detail="
	"okay (malformed: no point)"
	"okay 7 - not a point"
	"other|ok=0 n= skip=0 todo=0 plan=0||||name=,detail="
	"not and ok two blanks apart (malformed: no point)"
	"not  ok 8 - two blanks"
	"other|ok=0 n= skip=0 todo=0 plan=0||||name=,detail="
	"an indented point (a subtest's: no point of this file)"
	"    ok 9 - an indented subtest's point"
	"other|ok=0 n= skip=0 todo=0 plan=0||||name=,detail="
	"a bail-out"
	"Bail out! the guest did not boot"
	"bailout|ok=0 n= skip=0 todo=0 plan=0||the guest did not boot||name=,detail="
	"a result line, read by name"
	"# result kind=attack kernel=mseal name=mprotect-rw policy=all outcome=BLOCKED errno=EPERM detail=refused: EPERM"
	"result|ok=0 n= skip=0 todo=0 plan=0||||name=mprotect-rw,detail=refused: EPERM"
	"a comment"
	"# maps before: 7f00-7f10 r-xp"
	"comment|ok=0 n= skip=0 todo=0 plan=0|||maps before: 7f00-7f10 r-xp|name=,detail="
	"a comment after several blanks"
	"#   wanted 0"
	"comment|ok=0 n= skip=0 todo=0 plan=0|||wanted 0|name=,detail="
	"a program's own output"
	"[    0.000000] Linux version 6.1"
	"other|ok=0 n= skip=0 todo=0 plan=0||||name=,detail="
)
# what it is, the line, what the library must make of it
tap_start $((${#cases[@]} / 3 + 2))
for ((i = 0; i < ${#cases[@]}; i += 3)); do
	what=${cases[i]} line=${cases[i + 1]} want=${cases[i + 2]}
	got=$(read_line "$line")
	[ "$got" = "$want" ]
	tap_result $? "$what reads as ${want%%|*}" "line: $line" "got:  $got" "want: $want"
done

# A whole stream: nothing of a line's is left for the next, and a bail-out
# in the middle is seen where it is.
stream=$(printf '%s\n' "1..3" "ok 1 - a # SKIP b" "# result name=x" "# plain" "Bail out! stop" "ok 2" |
	awk -f "$top/scripts/result.awk" -f "$top/scripts/tap.awk" -f <(echo '
		{ k = tap_read($0); printf "%s:%s:%s:%s:%s ", k, tap_plan, tap_number, tap_skip, result("name") }'))
want="plan:3::0: point:0:1:1: result:0::0:x comment:0::0: bailout:0::0: point:0:2:0: "
[ "$stream" = "$want" ]
tap_result $? "a stream's lines keep none of the line before's fields" "got:  $stream" "want: $want"

# The readers count what the library reads: a bail-out and a malformed
# point in a file, summed by tests/tap-summary.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '%s\n' "1..2" "ok 1 - one" "okay 2 - not a point" "Bail out! gone" >"$work/x.tap"
got=$(RESULTS=$work "$top/tests/tap-summary" 2>&1)
want="FAILED: $work/x.tap: Bail out! gone
FAILED: $work/x.tap: plan says 2 results, got 1
1 passed, 2 failed, 0 skipped"
[ "$got" = "$want" ]
tap_result $? "tests/tap-summary fails a bail-out and a plan a malformed point leaves short" "got:  $got" "want: $want"
tap_end
