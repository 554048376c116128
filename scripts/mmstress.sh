#!/usr/bin/env bash
# scripts/mmstress.sh --kernel K [--control C] [--seed S] [--calls N]
#                     [--noseal-calls M] [--race-calls R] [--long]
#
# --long (for make test-debug) is 1,000,000 random calls, 100,000 --no-seal
# and 200,000 racing calls: about 5 minutes of TCG guest time on a
# production kernel at ~3,400 calls/s, several times that under KASAN.
#
# mmstress in the guest, boots side by side:
#   K: the random run with the semantics of K's model (kernel/kernels.tsv; N calls,
#     default 50000), the same seed with --no-seal (M calls, default
#     20000), the threaded race (R calls, default 20000, 4 threads) and
#     --bad-input (with max_map_count lowered: the guest runs as root);
#   C (default: K's base in kernel/kernels.tsv, none when that is a
#     different kernel): the same --no-seal seed and the race with --no-seal;
#     --control none leaves it out, and K's --no-seal run whose digest it
#     checks (make test's short debug pass: the production kernels already
#     compare the same seed's digests).
# With --long the random run is the longest part by far, so it gets a boot
# of its own and K's other parts a second boot, which with C's runs at a
# lower priority (nice 10): the random run keeps a core, and they share the
# other.  Without --long a third boot would cost more than it saves (a
# debug kernel takes ~30 s of CPU just to boot under TCG).
# TAP files in build/results/: K-mmstress, K-mmstress-race,
# K-mmstress-bad-input, C-mmstress, C-mmstress-race, and K-mmstress-digest
# (ok when K and C gave the same --no-seal digest: unsealed memory behaves
# the same on both).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
kernel= control= seed=${MMSTRESS_SEED:-20261203}
calls=50000 noseal_calls=20000 race_calls=20000 long=no
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2; shift 2 ;;
	--control) control=$2; shift 2 ;;
	--seed) seed=$2; shift 2 ;;
	--calls) calls=$2; shift 2 ;;
	--noseal-calls) noseal_calls=$2; shift 2 ;;
	--race-calls) race_calls=$2; shift 2 ;;
	--long) calls=1000000 noseal_calls=100000 race_calls=200000 long=yes; shift ;;
	*) echo "usage: scripts/mmstress.sh --kernel K [--control C] [--seed S] [--calls N]" \
		"[--noseal-calls M] [--race-calls R] [--long]" >&2; exit 2 ;;
	esac
done
[ -n "$kernel" ] || { echo "scripts/mmstress.sh: which kernel? (--kernel K)" >&2; exit 2; }
model=$("$top/kernel/kernels" get "$kernel" model) || exit 2
[ "$model" != - ] || { echo "scripts/mmstress.sh: kernel/kernels.tsv gives $kernel no model" >&2; exit 2; }
[ -n "$control" ] || control=$("$top/kernel/kernels" get "$kernel" base) || exit 2
case $control in -* | \~*) control=none ;; esac
bin=$top/build/mmstress/mmstress
out=$top/build/mmstress/runs
# Each boot's progress goes where this script's standard error goes.
exec 3>&2
mkdir -p "$out" "$top/build/results"
[ -x "$bin" ] || { echo "scripts/mmstress.sh: build $bin first (make -C mmstress)" >&2; exit 2; }

# Each boot runs several parts (scripts/guest-parts.sh).
. "$top/scripts/guest-parts.sh"

boot() {	# NAME KERNEL SCRIPT TIMEOUT [NICE]
	local name=$1 k=$2
	PROGRESS_FD=3 nice -n "${5:-0}" "$top/guest/run" --timeout "$4" \
		--progress "$name: mmstress" --add "$bin" --add "$3" "$k" -- \
		sh "$(basename "$3")" >"$out/$name.out" 2>&1
	parts_end "$out/$name.out" $?
}

# A boot's parts, each as KERNEL-PART's result.
collect_parts() {	# NAME KERNEL PART...
	local name=$1 k=$2 p
	shift 2
	for p; do collect "$out/$name.out" "$k-$p" "$p"; done
}

random_part=$(part mmstress "mmstress --model $model --seed $seed --calls $calls")
other_parts=$(
	[ "$control" = none ] ||
		part mmstress-noseal "mmstress --model $model --no-seal --seed $seed --calls $noseal_calls --no-ddmin"
	part mmstress-race "mmstress --model $model --threads 4 --seed $seed --calls $race_calls"
	part mmstress-bad-input "mmstress --model $model --bad-input --map-count"
)
cs=$out/run-$control.sh
{
	part mmstress "mmstress --no-seal --seed $seed --calls $noseal_calls --no-ddmin"
	part mmstress-race "mmstress --no-seal --threads 4 --seed $seed --calls $race_calls"
} >"$cs"
others_time=$((noseal_calls / 150 + race_calls / 50))

# The boots are independent single-threaded guests: run them side by side.
start=$SECONDS
if [ "$long" = yes ]; then
	side=$kernel-side
	printf '%s\n' "$random_part" >"$out/run-$kernel.sh"
	printf '%s\n' "$other_parts" >"$out/run-$side.sh"
	boot "$kernel" "$kernel" "$out/run-$kernel.sh" $((calls / 150 + 120)) &
	boot "$side" "$kernel" "$out/run-$side.sh" $((others_time + 180)) 10 &
	[ "$control" = none ] || boot "$control" "$control" "$cs" $((others_time + 120)) 10 &
else
	side=$kernel
	printf '%s\n' "$random_part" "$other_parts" >"$out/run-$kernel.sh"
	boot "$kernel" "$kernel" "$out/run-$kernel.sh" $((calls / 150 + others_time + 180)) &
	[ "$control" = none ] || boot "$control" "$control" "$cs" $((others_time + 120)) &
fi
wait
if [ "$control" = none ]; then
	echo "# $kernel: $((SECONDS - start)) s"
else
	echo "# $kernel and $control: $((SECONDS - start)) s for the boots, side by side"
fi
collect_parts "$kernel" "$kernel" mmstress
collect_parts "$side" "$kernel" mmstress-race mmstress-bad-input
[ "$control" = none ] || collect_parts "$control" "$control" mmstress mmstress-race

[ "$control" != none ] || exit 0
part_output "$out/$side.out" mmstress-noseal >"$out/$kernel-mmstress-noseal.tap"

# The --no-seal digests of the same seed must agree.
d1=$(grep -a '^# digest' "$out/$kernel-mmstress-noseal.tap" 2>/dev/null | head -n 1)
d2=$(grep -a '^# digest' "$out/$control-mmstress.tap" 2>/dev/null | head -n 1)
tap=$top/build/results/$kernel-mmstress-digest.tap
. "$top/tests/tap.sh"
{
	tap_plan 1
	if [ -n "$d1" ] && [ "$d1" = "$d2" ]; then
		ok "seed $seed --no-seal: $kernel and $control answered every call alike ($d1)"
	else
		not_ok "seed $seed --no-seal: $kernel and $control differ" "$kernel: ${d1:-no digest}" \
			"$control: ${d2:-no digest}" "$(grep -a '^not ok\|^# call' "$out/$kernel-mmstress-noseal.tap")"
	fi
} | tee "$tap"
