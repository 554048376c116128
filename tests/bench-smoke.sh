#!/usr/bin/env bash
# tests/bench-smoke.sh - a quick check of the kernel benchmark's harness
# (TAP): bench-mm's case list and errors, scripts/bench-kernel.sh's errors,
# one real case, its unsealed twin and a sealed case (n/a where KERNEL has no
# mseal(), kernel/kernels.tsv's abi) in one boot of KERNEL, and a guest
# that dies (a 1-second timeout) reported as died, not as a number.  The
# full benchmark is `make bench-kernel`.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
kernel=${1:?usage: tests/bench-smoke.sh KERNEL}
abi=$("$top/kernel/kernels" get "$kernel" abi) || exit 2
bench_mm=$top/build/bench/bench-mm
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$top/tests/tap.sh"
# the log of the last command, as TAP comments
show() { sed 's/^/# /' "$1"; }
field() { awk -F'\t' -v c="$1" -v f="$2" '$2 == c { print $f; exit }' "$3"; }

tap_start 12
# bench-mm's two files build at -j1: a jobserver inherited from make test
# is not passed to this script, and make would warn that it is missing.
unset MAKEFLAGS MFLAGS MAKELEVEL
make -s --no-print-directory -C "$top/bench" || { echo "Bail out! bench-mm does not build"; exit 1; }

"$bench_mm" --list >"$work/list"
check "bench-mm --list names the cases" grep -qx 'mprotect-pair.*' "$work/list"

"$bench_mm" no-such-case >"$work/out" 2>"$work/err"
check "bench-mm: an unknown case exits 2 and says so" \
	test $? -eq 2 -a -s "$work/err" -a ! -s "$work/out"
grep -q "unknown case 'no-such-case'" "$work/err" || show "$work/err"

harness() { "$top/scripts/bench-kernel.sh" --runs "$work/runs" --out "$work/tsv" "$@"; }

harness --kernels "$kernel" --cases "mprotect-pair no-such-case" >"$work/log" 2>&1
rc=$?
check "bench-kernel: an unknown case exits 2 before booting" \
	eval 'test $rc -eq 2 && grep -q "unknown case .no-such-case." "$work/log" && ! test -e "$work/runs"'

harness --kernels "no-such-kernel" --cases mprotect-pair >"$work/log" 2>&1
rc=$?
check "bench-kernel: an unknown kernel exits 2" \
	eval 'test $rc -eq 2 && grep -q "unknown kernel .no-such-kernel." "$work/log"'

harness --image "no-such-kernel=$bench_mm" --cases mprotect-pair >"$work/log" 2>&1
rc=$?
check "bench-kernel: --image of an unknown kernel exits 2" \
	eval 'test $rc -eq 2 && grep -q "unknown kernel .no-such-kernel." "$work/log"'

harness --image "$kernel=$work/no-such-bzImage" --cases mprotect-pair >"$work/log" 2>&1
rc=$?
check "bench-kernel: --image of a missing bzImage exits 2" \
	eval 'test $rc -eq 2 && grep -q "no bzImage" "$work/log" && ! test -e "$work/runs"'

harness --kernels "$kernel" --boots 1 \
	--cases "mprotect-pair mprotect-pair+far-unsealed mprotect-pair+far-seal" \
	>"$work/log" 2>&1
rc=$?
check "bench-kernel: one boot of $kernel runs (exit $rc)" test $rc -eq 0
[ $rc -eq 0 ] || show "$work/log"
check "mprotect-pair is measured: a number of ns/iter" \
	eval '[[ "$(field mprotect-pair 6 "$work/tsv")" = ok && "$(field mprotect-pair 4 "$work/tsv")" =~ ^[0-9]+(\.[0-9]+)?$ ]]'
check "its unsealed twin mprotect-pair+far-unsealed is measured on $kernel" \
	test "$(field mprotect-pair+far-unsealed 6 "$work/tsv")" = ok
if [ "$abi" = none ]; then
	check "mprotect-pair+far-seal is n/a on $kernel (no mseal)" \
		test "$(field mprotect-pair+far-seal 6 "$work/tsv")" = n/a
else
	check "mprotect-pair+far-seal is measured on $kernel" \
		test "$(field mprotect-pair+far-seal 6 "$work/tsv")" = ok
fi

harness --kernels "$kernel" --boots 1 --timeout 1 --cases mprotect-pair >"$work/log" 2>&1
rc=$?
check "a guest that dies fails the run (exit $rc)" test $rc -eq 1
check "... and its case is reported died, with no number" \
	eval 'test "$(field mprotect-pair 6 "$work/tsv")" = died -a "$(field mprotect-pair 4 "$work/tsv")" = -'
tap_end
