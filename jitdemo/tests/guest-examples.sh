#!/bin/sh
# guest-examples.sh JITDEMO EXAMPLES_DIR sealed|enosys|upstream [POLICY]
#
# Runs every example JIT'd with the seal policy POLICY (default: libjit's,
# card; pkey: the key space) and prints TAP:
# for each, its stdout must match NAME.expected, and the seal report on
# stderr must say what the kernel is expected to do:
#   sealed    the patched kernel's 4-argument mseal sealed the arena
#   enosys    a vanilla kernel: "code is W^X but not sealed"
#   upstream  a kernel with upstream's 3-argument mseal (host testing)
# POSIX sh, busybox-compatible: in the guest tests/tap.sh travels beside
# it (guest/run --add).  Scratch files go to ${TMPDIR:-/tmp}.
if [ $# -ne 3 ] && [ $# -ne 4 ]; then
	echo "usage: $0 JITDEMO EXAMPLES_DIR sealed|enosys|upstream [POLICY]" >&2
	exit 2
fi
jit=$1
dir=$2
expect=$3
seal=${4:+--seal=$4}
case $expect in
sealed) pattern=': sealed (applied' ;;
enosys) pattern='code is W^X but not sealed' ;;
upstream) pattern='sealed by upstream mseal' ;;
*) echo "$0: expected behaviour must be sealed, enosys or upstream" >&2; exit 2 ;;
esac

for tap_sh in "$(dirname "$0")/tap.sh" "$(dirname "$0")/../../tests/tap.sh"; do
	[ -f "$tap_sh" ] && break
done
. "$tap_sh"

set -- "$dir"/*.args
[ -e "$1" ] || set -- # a glob that matched nothing gives back its pattern
tap_start $((2 * $#))
[ $# -gt 0 ] || { echo "# no examples in $dir"; exit 1; }

tmp=${TMPDIR:-/tmp}/guest-examples.$$
for args_file; do
	base=${args_file%.args}
	name=${base##*/}
	# shellcheck disable=SC2046 # the args file holds FUNC ARG... words
	# shellcheck disable=SC2086 # $seal is one word or none
	"$jit" run $seal "$base.jit" $(cat "$args_file") >"$tmp.out" 2>"$tmp.err"
	status=$?
	if [ "$status" -eq 0 ] && cmp -s "$tmp.out" "$base.expected"; then
		ok "$name: output matches $name.expected"
	else
		not_ok "$name: output matches $name.expected (exit $status)" "$(cat "$tmp.out" "$tmp.err")"
	fi
	if grep -F -q "$pattern" "$tmp.err"; then
		ok "$name: arena report says '$pattern'"
	else
		not_ok "$name: arena report says '$pattern'" "$(cat "$tmp.err")"
	fi
done
rm -f "$tmp.out" "$tmp.err"
tap_end
