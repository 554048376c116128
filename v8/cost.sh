#!/usr/bin/env bash
# v8/cost.sh [--boots N] [--jobs N] [--policies "P..."] [--timeout SECS]
#            [KERNEL...] -
# what sealing V8's code costs, in guest instructions: every workload
# under every policy (default: bare none pin; bare = node without the
# library) in guests booted with guest/run --icount, N boots per kernel
# (default 3, at least 3), JOBS at a time (default 2: under --icount the
# counts do not depend on host load).  Kernels default to vanilla v1 mseal
# upstream upstream-fixes.
#
# Writes $RESULTS/v8-cost.tsv (kernel workload policy boot instructions
# status) and $RESULTS/v8-cost.md (luajit/cost-summary.sh: per kernel and
# workload, each policy's median, its spread and its difference from
# none's; "failed (status 133)" where V8 stopped itself).
# Exit status: 0 when every boot ended with all its lines, 1 if not.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
SEALJIT=${SEALJIT:-$(dirname "$here")}
BUILD=${BUILD:-$SEALJIT/build/v8}
case $BUILD in /*) ;; *) BUILD=$here/$BUILD ;; esac
RESULTS=${RESULTS:-$SEALJIT/build/results}
boots=3 jobs=2 timeout=3600 policies="bare none pin"
kernels=()

usage() { sed -n '2,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0" >&2; exit 2; }
die() { echo "cost: $*" >&2; exit 2; }
. "$SEALJIT/scripts/whole-number.sh"

while [ $# -gt 0 ]; do
	case $1 in
	--boots) [ $# -ge 2 ] || usage; boots=$2; shift 2 ;;
	--jobs) [ $# -ge 2 ] || usage; jobs=$2; shift 2 ;;
	--policies) [ $# -ge 2 ] || usage; policies=$2; shift 2 ;;
	--timeout) [ $# -ge 2 ] || usage; timeout=$2; shift 2 ;;
	-h | --help) usage ;;
	-*) echo "cost: unknown option $1" >&2; usage ;;
	*) kernels+=("$1"); shift ;;
	esac
done
whole_number cost --boots "$boots" 3 # a median and a spread
whole_number cost --jobs "$jobs"
whole_number cost --timeout "$timeout"
for p in $policies; do
	case $p in bare | none | pin | card | all | upstream) ;; *) die "unknown policy '$p'" ;; esac
done
[ ${#kernels[@]} -gt 0 ] || kernels=(vanilla v1 mseal upstream upstream-fixes)
for k in "${kernels[@]}"; do
	[ -f "$SEALJIT/build/kernels/$k/bzImage" ] || die "unknown kernel '$k'"
done

pkg=$BUILD/cost/v8-pkg
runs=$BUILD/cost/runs
mkdir -p "$RESULTS"
SEALJIT=$SEALJIT BUILD=$BUILD "$here/package.sh" "$pkg"
workloads=$(cd "$here/workloads" && ls -- *.js | sed 's/\.js$//' | paste -sd' ')
rm -rf "$runs"
mkdir -p "$runs"

boot() {
	local k=$1 b=$2 rc=0
	"$SEALJIT/guest/run" --icount --timeout "$timeout" --add "$pkg" "$k" -- \
		sh v8-pkg/cost-run.sh "$k" "$workloads" "$policies" \
		>"$runs/$k-$b.out" 2>&1 || rc=$?
	echo "cost: $k boot $b: guest/run exit $rc" >&2
	grep -q '^# cost-done' "$runs/$k-$b.out"
}

failed=0 running=0
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

tsv=$RESULTS/v8-cost.tsv
{
	printf 'kernel\tworkload\tpolicy\tboot\tinstructions\tstatus\n'
	for f in "$runs"/*.out; do
		b=${f##*-}; b=${b%.out}
		tr -d '\r' <"$f" | sed -n 's/^# cost kernel=\([^ ]*\) workload=\([^ ]*\) policy=\([^ ]*\) instructions=\([^ ]*\) status=\([^ ]*\)$/\1\t\2\t\3\t'"$b"'\t\4\t\5/p'
	done
} >"$tsv"
JIT_PROCESS=node "$SEALJIT/luajit/cost-summary.sh" "$tsv" "$boots" "${kernels[@]}" >"$RESULTS/v8-cost.md"
RESULTS=$RESULTS "$SEALJIT/tests/provenance" v8-cost.md v8/cost.sh --boots "$boots" --policies "$policies" "${kernels[@]}"
cat "$RESULTS/v8-cost.md"
echo "cost: wrote $tsv and $RESULTS/v8-cost.md" >&2
exit "$failed"
