#!/usr/bin/env bash
# realjit/cost.sh --jit NAME [--jit NAME]... [--boots N] [--jobs N]
#                 [--policies "P..."] [--timeout SECS] [KERNEL...] -
# what sealing a real JIT's code costs, in guest instructions: every
# workload of each JIT NAME (its profile, realjit/cases.sh; several run one
# after the other in the same boots: luajit-plain then luajit-pkey, the
# series against its control) under every policy (default: bare none pin;
# bare = the JIT without the library) in guests booted with guest/run
# --icount, N boots per kernel (default 3, at least 3), JOBS at a time
# (default 2: under --icount the counts do not depend on host load).
# Kernels default to make test's (kernel/kernels.tsv).
#
# Writes $RESULTS/LAST-cost.tsv, LAST the last JIT named (kernel workload
# policy boot instructions status jit; status 0 ran, 3 the kernel cannot
# express the policy, unsealed: it ran but the kernel refused every seal)
# and $RESULTS/LAST-cost.md (cost-summary.sh): per kernel and workload,
# each policy's median over the boots, its spread ((max - min) / median)
# and its difference from none's median on the same kernel; with two
# JITs, the last against the first.  A policy that did not run on every
# boot shows why instead (n/a: not expressible; unsealed; failed).
# Exit status: 0 when every boot ended with all its lines, 1 if not; 2 on
# misuse.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
SEALJIT=${SEALJIT:-$(dirname "$here")}
BUILD=${BUILD:-$SEALJIT/build/realjit}
case $BUILD in /*) ;; *) BUILD=$here/$BUILD ;; esac
RESULTS=${RESULTS:-$SEALJIT/build/results}
boots=3 jobs=2 timeout='' policies="bare none pin"
jits=() kernels=()

usage() { sed -n '2,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0" >&2; exit 2; }
die() { echo "cost: $*" >&2; exit 2; }
. "$SEALJIT/scripts/whole-number.sh"
RJ_WHO=cost
# shellcheck source=realjit/cases.sh
. "$here/cases.sh"

rj_options '--jit+=jits --boots=boots --jobs=jobs --policies=policies --timeout=timeout' "$@"
kernels=(${rj_args[@]+"${rj_args[@]}"})
[ ${#jits[@]} -gt 0 ] || usage
whole_number cost --boots "$boots" 3 # a median and a spread
whole_number cost --jobs "$jobs"
for p in $policies; do
	case $p in bare | none | pin | card | all | upstream) ;; *) die "unknown policy '$p'" ;; esac
done
bootable=$("$SEALJIT/kernel/kernels" bootable ${kernels[@]+"${kernels[@]}"}) || exit 2
read -r -a kernels <<<"$bootable"

runs=$BUILD/cost/runs
mkdir -p "$RESULTS"
adds=() guest_cmd='' longest=0
for j in "${jits[@]}"; do
	rj_use_jit "$j" || exit 2
	[ "$RJ_TIMEOUT" -le "$longest" ] || longest=$RJ_TIMEOUT
	SEALJIT=$SEALJIT BUILD=$BUILD "$here/package.sh" --jit "$j" "$BUILD/cost/$j-pkg"
	workloads=$(cd "$RJ_WORKLOADS" && ls -- *."$RJ_EXT" | sed "s/\\.$RJ_EXT\$//" | paste -sd' ')
	adds+=(--add "$BUILD/cost/$j-pkg")
	guest_cmd+="sh $j-pkg/cost-run.sh \"\$1\" '$workloads' \"\$2\"; "
	process=$RJ_PROCESS
done
timeout=${timeout:-$longest}
whole_number cost --timeout "$timeout"
last=${jits[-1]}
rm -rf "$runs"
mkdir -p "$runs"

boot() {
	local k=$1 b=$2 rc=0
	"$SEALJIT/guest/run" --icount --timeout "$timeout" "${adds[@]}" "$k" -- \
		sh -c "$guest_cmd" - "$k" "$policies" \
		>"$runs/$k-$b.out" 2>&1 || rc=$?
	echo "cost: $k boot $b: guest/run exit $rc" >&2
	[ "$(grep -c '^# cost-done' "$runs/$k-$b.out")" = "${#jits[@]}" ]
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

tsv=$RESULTS/$last-cost.tsv
{
	printf 'kernel\tworkload\tpolicy\tboot\tinstructions\tstatus\tjit\n'
	for f in "$runs"/*.out; do
		b=${f##*-}; b=${b%.out}
		tr -d '\r' <"$f" | sed -n 's/^# cost kernel=\([^ ]*\) workload=\([^ ]*\) policy=\([^ ]*\) instructions=\([^ ]*\) status=\([^ ]*\) jit=\([^ ]*\)$/\1\t\2\t\3\t'"$b"'\t\4\t\5\t\6/p'
	done
} >"$tsv"
JIT_PROCESS=$process "$here/cost-summary.sh" "$tsv" "$boots" "${kernels[@]}" >"$RESULTS/$last-cost.md"
words=()
for j in "${jits[@]}"; do words+=(--jit "$j"); done
RESULTS=$RESULTS "$SEALJIT/tests/provenance" "$last-cost.md" realjit/cost.sh "${words[@]}" \
	--boots "$boots" --policies "$policies" "${kernels[@]}"
cat "$RESULTS/$last-cost.md"
echo "cost: wrote $tsv and $RESULTS/$last-cost.md" >&2
exit "$failed"
