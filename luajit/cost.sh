#!/usr/bin/env bash
# luajit/cost.sh [--boots N] [--jobs N] [--policies "P..."] [--jits "J..."]
#                [--timeout SECS] [KERNEL...] -
# what sealing LuaJIT's code costs, in guest instructions: every workload
# under every policy (default: bare none pin; bare = luajit without the
# library) in guests booted with guest/run --icount, N boots per kernel
# (default 3, at least 3), JOBS at a time (default 2: under --icount the
# counts do not depend on host load).  Kernels default to make test's
# (kernel/kernels.tsv).  --jits: which LuaJITs each boot runs, one after
# the other (default debian: Debian's as installed; plain and pkey:
# luajit-series/build.sh's, without and with the series).
#
# Writes $RESULTS/luajit-cost.tsv (luajit-pkey-cost.tsv for any --jits but
# debian: kernel workload policy boot instructions
# status jit; status 0 ran, 3 the kernel cannot express the policy) and
# $RESULTS/luajit-cost.md (luajit-pkey-cost.md): per kernel and workload, each policy's median
# over the boots, its spread ((max - min) / median) and its difference
# from none's median on the same kernel.  A policy that did not run on
# every boot shows why instead (n/a: not expressible; failed).
# Exit status: 0 when every boot ended with all its lines, 1 if not.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
SEALJIT=${SEALJIT:-$(dirname "$here")}
BUILD=${BUILD:-$SEALJIT/build/luajit}
case $BUILD in /*) ;; *) BUILD=$here/$BUILD ;; esac
RESULTS=${RESULTS:-$SEALJIT/build/results}
boots=3 jobs=2 timeout=1800 policies="bare none pin" jits=debian
kernels=()

usage() { sed -n '2,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0" >&2; exit 2; }
die() { echo "cost: $*" >&2; exit 2; }
. "$SEALJIT/scripts/whole-number.sh"

while [ $# -gt 0 ]; do
	case $1 in
	--boots) [ $# -ge 2 ] || usage; boots=$2; shift 2 ;;
	--jobs) [ $# -ge 2 ] || usage; jobs=$2; shift 2 ;;
	--policies) [ $# -ge 2 ] || usage; policies=$2; shift 2 ;;
	--jits) [ $# -ge 2 ] || usage; jits=$2; shift 2 ;;
	--timeout) [ $# -ge 2 ] || usage; timeout=$2; shift 2 ;;
	-h | --help) usage ;;
	-*) echo "cost: unknown option $1" >&2; usage ;;
	*) kernels+=("$1"); shift ;;
	esac
done
whole_number cost --boots "$boots" 3 # a median and a spread
whole_number cost --jobs "$jobs"
whole_number cost --timeout "$timeout"
names=$("$SEALJIT/kernel/kernels" bootable ${kernels[@]+"${kernels[@]}"}) || exit 2
read -r -a kernels <<<"$names"

runs=$BUILD/cost-runs
mkdir -p "$RESULTS"
adds=() guest_cmd=
for j in $jits; do
	SEALJIT=$SEALJIT BUILD=$BUILD "$here/package.sh" --jit "$j" "$BUILD/cost/luajit-pkg-$j"
	adds+=(--add "$BUILD/cost/luajit-pkg-$j")
	guest_cmd+="sh luajit-pkg-$j/cost-run.sh \"\$1\" \"\$2\" \"\$3\"; "
done
workloads=$(cd "$here/workloads" && ls -- *.lua | sed 's/\.lua$//' | paste -sd' ')
rm -rf "$runs"
mkdir -p "$runs"

boot() {
	local k=$1 b=$2 rc=0
	"$SEALJIT/guest/run" --icount --timeout "$timeout" "${adds[@]}" "$k" -- \
		sh -c "$guest_cmd" - "$k" "$workloads" "$policies" \
		>"$runs/$k-$b.out" 2>&1 || rc=$?
	echo "cost: $k boot $b: guest/run exit $rc" >&2
	[ "$(grep -c '^# cost-done' "$runs/$k-$b.out")" = "$(wc -w <<<"$jits")" ]
}

failed=0
running=0
for b in $(seq 1 "$boots"); do
	for k in "${kernels[@]}"; do
		boot "$k" "$b" &
		running=$((running + 1))
		if [ "$running" -ge "$jobs" ]; then
			wait -n || failed=1
			running=$((running - 1))
		fi
	done
done
while [ "$running" -gt 0 ]; do wait -n || failed=1; running=$((running - 1)); done

name=luajit-cost
[ "$jits" = debian ] || name=luajit-pkey-cost
tsv=$RESULTS/$name.tsv
{
	printf 'kernel\tworkload\tpolicy\tboot\tinstructions\tstatus\tjit\n'
	for f in "$runs"/*.out; do
		b=${f##*-}; b=${b%.out}
		sed -n 's/^# cost kernel=\([^ ]*\) workload=\([^ ]*\) policy=\([^ ]*\) instructions=\([^ ]*\) status=\([^ ]*\) jit=\([^ ]*\)$/\1\t\2\t\3\t'"$b"'\t\4\t\5\t\6/p' "$f"
	done
} >"$tsv"
"$here/cost-summary.sh" "$tsv" "$boots" "${kernels[@]}" >"$RESULTS/$name.md"
cat "$RESULTS/$name.md"
echo "cost: wrote $tsv and $RESULTS/$name.md" >&2
exit "$failed"
