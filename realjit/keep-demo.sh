#!/usr/bin/env bash
# realjit/keep-demo.sh [KERNEL] - the end of make demo: the two production
# JITs that keep the seal, in one guest boot, narrated (default: the first
# kernel of kernel/kernels.tsv with the series' semantics, its model):
#
#   LuaJIT with realjit/luajit/series/ (luajit-pkey)   sealed with card, a hot loop
#       runs; the corrupted mprotect through libc is refused
#   V8 13.6 (Node.js 24) with its key            the stand-in for
#       (node24-key, realjit/v8/standin/)                 realjit/v8/node-series/, sealed
#       with card: TurboFan code runs; a corrupted mprotect is refused, and
#       a plain store into the code faults on V8's key
#
# Each case is run-cases.sh's (its "# result" line, judged by the JIT's
# expected tables through realjit/judge.sh, whose case points alone count:
# the demo's list is no matrix mode's), so the words on screen are the
# same a matrix records.  Exits 1 when a case misses its expectation.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
SEALJIT=${SEALJIT:-$(dirname "$here")}
BUILD=${BUILD:-$SEALJIT/build/realjit}
case $BUILD in /*) ;; *) BUILD=$here/$BUILD ;; esac
kernel=${1:-}
if [ -z "$kernel" ]; then
	kernel=$("$SEALJIT/kernel/kernels" names model=series) || exit 2
	kernel=${kernel%% *}
fi
work=$BUILD/keep-demo
rm -rf "$work"
mkdir -p "$work"
bold() { if [ -t 1 ]; then printf '\033[1m%s\033[0m\n' "$*"; else printf '%s\n' "$*"; fi; }

# The cases: one workload and the attacks each JIT's design must refuse.
declare -A cases=(
	[luajit-pkey]="workload hotloop card
attack libc-mprotect card"
	[node24-key]="workload tier card
attack mprotect-rw card
attack store-code card"
)
adds=()
for jit in luajit-pkey node24-key; do
	SEALJIT=$SEALJIT BUILD=$BUILD "$here/package.sh" --jit "$jit" "$work/$jit-pkg" >/dev/null
	printf '%s\n' "${cases[$jit]}" >"$work/$jit-pkg/cases"
	adds+=(--add "$work/$jit-pkg")
done

bold "== The JITs that keep the seal, on $kernel: LuaJIT with realjit/luajit/series/ and"
bold "   V8 13.6 (Node.js 24) with its key, both sealed with card, in one boot"
start=$(date +%s)
"$SEALJIT/guest/run" --timeout 900 "${adds[@]}" "$kernel" -- sh -c '
	for jit in luajit-pkey node24-key; do
		echo "# jit $jit"
		CASE_WORK=/tmp/$jit sh $jit-pkg/run-cases.sh "$1" $jit-pkg/cases
	done' keep-demo "$kernel" >"$work/out" || {
	echo "keep-demo: the guest did not finish (guest/run exit $?): $work/out" >&2
	exit 1
}
rc=0
for jit in luajit-pkey node24-key; do
	sed -n "/^# jit $jit\$/,/^# jit /p" "$work/out" | grep '^# result' >"$work/$jit.out" || true
	printf '\n'
	case $jit in
	luajit-pkey) bold "-- LuaJIT with realjit/luajit/series/: code read-write-execute under a key, sealed" ;;
	node24-key) bold "-- V8 13.6 with its key: Node's platform gives V8 its allocator (realjit/v8/standin/), sealed" ;;
	esac
	SEALJIT=$SEALJIT BUILD=$BUILD "$here/judge.sh" --jit "$jit" --mode fast "$kernel" \
		"$work/$jit-pkg/cases" "$work/$jit.out" >"$work/$jit.tap" 2>/dev/null || true
	awk -f "$SEALJIT/scripts/result.awk" -f <(echo '
		result_read($0) {
			if (result("kind") == "workload")
				printf "   %-20s under %-5s %s (output identical to the JIT-less run)\n",
					result("name"), result("policy"), result("outcome")
			else printf "   attack %-13s under %-5s %s %s\n", result("name"), result("policy"), result("outcome"),
				(result("errno") == "-" ? "" : result("errno"))
		}') "$work/$jit.out"
	# Every case gave its result, and none missed its expectation (the
	# case points only: the demo's list is not a matrix mode's).
	want=$(grep -c . "$work/$jit-pkg/cases")
	got=$(grep -c . "$work/$jit.out" || true)
	missed=$(awk -v kernel="$kernel" -f "$SEALJIT/scripts/result.awk" -f "$SEALJIT/scripts/tap.awk" \
		-f <(echo 'tap_read($0) == "point" && !tap_ok && index(tap_desc, kernel " ") == 1 &&
			substr(tap_desc, length(kernel) + 2) ~ /^(workload|attack) / { n++ }
			END { print n + 0 }') "$work/$jit.tap")
	if [ "$got" -ne "$want" ]; then
		echo "   ($got of $want cases gave a result: $work/out)"
		rc=1
	elif [ "$missed" -ne 0 ]; then
		echo "   ($missed cases missed their expectation: $work/$jit.tap)"
		rc=1
	fi
done
printf '\n'
if [ "$rc" -eq 0 ]; then
	bold "Both JITs ran sealed and refused the attacks, in $(($(date +%s) - start)) s of one boot."
else
	bold "Not what the JITs' tables expect (above): $work"
fi
exit "$rc"
