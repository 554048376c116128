#!/usr/bin/env bash
# tests/guest-parts.sh - TAP checks of scripts/guest-parts.sh, on boot
# outputs written here (no guest): each part comes out as its own result
# with its own status, and a boot that died fails the part it was in and
# every part after it; jitdemo/tests/guest.sh refuses misuse.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$top/tests/tap.sh"
. "$top/scripts/guest-parts.sh"
export RESULTS=$work/results
tap_start 6

# The guest side: what part writes, run by sh as the guest would.
{
	part one "printf '1..1\nok 1 - first\n'"
	part two "printf '1..1\nnot ok 1 - second\n'; (exit 3)"
	part three "sh -c \"printf '1..2\\nok 1 - third\\n'\"; kill -9 \$\$"
	part four "printf '1..1\nok 1 - never\n'"
} >"$work/guest.sh"
(cd "$work" && sh guest.sh >boot.out 2>&1) 2>/dev/null # (it says the kill)
parts_end "$work/boot.out" 125
for p in one two three four; do collect "$work/boot.out" "k-$p" "$p" >/dev/null; done
has() { grep -qE "$2" "$RESULTS/$1.tap"; }

has k-one '^ok 1 - first$' && ! has k-one '^not ok' && [ "$(part_output "$work/boot.out" one)" = $'1..1\nok 1 - first' ]
tap_result $? "a part that ended well is its own result, its output exactly"
has k-two '^not ok 1 - second$' && ! has k-two 'first|third'
tap_result $? "a part that failed fails its result alone"
has k-three '^not ok - k-three: plan says 2 results, got 1 \(exit status 125\)$'
tap_result $? "the part the boot died in fails, with the boot's status"
has k-four '^not ok - k-four: no TAP plan in the output \(exit status 125\)$'
tap_result $? "a part after it, never started, fails too"

# No boot status at all (the caller never ended the file): status 1.
sed '/^==GUEST/d; /^==RC one /d' "$work/boot.out" >"$work/cut.out"
collect "$work/cut.out" k-cut one >/dev/null
has k-cut '^not ok - k-cut: exited with status 1 but reported no failure$'
tap_result $? "without the boot's status, a part not ended fails (status 1)"

guest=$top/jitdemo/tests/guest.sh
rcs=
"$guest" --codespace merge --keyspace sealed >/dev/null 2>&1; rcs+="$? "
"$guest" --codespace sideways --keyspace sealed k >/dev/null 2>&1; rcs+="$? "
"$guest" --examples maybe --codespace merge --keyspace sealed k >/dev/null 2>&1; rcs+="$? "
"$guest" --codespace merge --keyspace open k >/dev/null 2>&1; rcs+="$? "
"$guest" --frob --codespace merge --keyspace sealed k >/dev/null 2>&1; rcs+="$?"
[ "$rcs" = "2 2 2 2 2" ]
tap_result $? "jitdemo/tests/guest.sh: no kernel, a bad --codespace, --examples or --keyspace, an unknown option: exit 2 (got $rcs)"
tap_end
