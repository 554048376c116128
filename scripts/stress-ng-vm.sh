#!/usr/bin/env bash
# scripts/stress-ng-vm.sh [--ops N] [--slow N] [--tap NAME] KERNEL... -
# stress-ng's mm stressors
# (pagemove mmap mmapfork mremap mprotect madvise brk vm-segv pkey shm), each
# for a fixed op count, in one guest boot per KERNEL (make test-peer-vm:
# the series' kernel and its base, the control first).  The host's dynamically linked stress-ng travels with the
# libraries ldd names and runs through the copied ld-linux-x86-64.so.2.
# Prints a table (stressor | kernel...: exit code, bogo ops from
# --metrics-brief, lines that say "fail") and TAP (build/results/NAME.tap,
# default stress-ng-vm).  A stressor is ok when, on every kernel, it exits
# with the code the first kernel (the control) exits with or exits 0 after
# doing ops: all N, or, when the time limit stops it first (mmapfork
# here; pagemove, mmap and madvise too on the debug kernels), at least
# half the control's.  A kernel on which it does no op while another does
# some fails it; when no kernel does one within the time limit, it is a
# TAP skip.
# Each guest must also show no splat (guest/run fails the boot on one).
# --slow N multiplies the per-stressor and boot timeouts (debug kernels).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/tap.sh"
. "$top/scripts/guest-suite.sh"
out=$top/build/stress-ng
ops=50 slow=1 tap_name=stress-ng-vm
usage="scripts/stress-ng-vm.sh [--ops N] [--slow N] [--tap NAME] KERNEL..."
while [ $# -gt 0 ]; do
	case $1 in
	--ops) ops=$2; shift 2 ;;
	--slow) slow=$2; shift 2 ;;
	--tap) tap_name=$2; shift 2 ;;
	-*) echo "usage: $usage" >&2; exit 2 ;;
	*) break ;;
	esac
done
case $ops in [1-9] | [1-9][0-9] | [1-9][0-9][0-9] | [1-9][0-9][0-9][0-9]) ;;
*) echo "stress-ng-vm: --ops takes 1..9999, not '$ops'" >&2; exit 2 ;; esac
case $slow in [1-9] | [1-9][0-9]) ;; *) echo "stress-ng-vm: --slow takes 1..99, not '$slow'" >&2; exit 2 ;; esac
kernels=("$@")
[ ${#kernels[@]} -gt 0 ] || { echo "usage: $usage" >&2; exit 2; }
stressors=(pagemove mmap mmapfork mremap mprotect madvise brk vm-segv pkey shm)
# Smaller regions per op than stress-ng's defaults (mmap maps 256 MiB a
# time): the same calls, cheap enough that under TCG and KASAN each op
# takes seconds, not minutes.  With the defaults mmap did no op in 120 s
# on vanilla-debug.
declare -A sizes=([mmap]="--mmap-bytes 4M" [mremap]="--mremap-bytes 4M" [pagemove]="--pagemove-bytes 4M")
rm -rf "$out/pkg" && mkdir -p "$out/pkg" "$top/build/results"
"$top/guest/bundle.sh" stress-ng "$out/pkg/stress-ng" || exit 1

script=$out/pkg/run-stress.sh
{
	echo 'cd /tmp; mkdir -p /dev/shm; mount -t tmpfs tmpfs /dev/shm'
	echo 'S="/sealjit/stress-ng/ld-linux-x86-64.so.2 --library-path /sealjit/stress-ng /sealjit/stress-ng/stress-ng"'
	# ops_of NAME: the bogo ops on NAME's --metrics-brief line
	echo 'ops_of() { awk -v s="$1" '"'"'$2 == "metrc:" && $4 == s && $5 ~ /^[0-9]+$/ { print $5; exit }'"'"' "/tmp/$1.log"; }'
	i=0
	for s in "${stressors[@]}"; do
		printf 'echo "# progress %s/%s stressors"\n' "$i" "${#stressors[@]}"
		i=$((i + 1))
		printf '$S --%s 1 --%s-ops %s %s --timeout %s --metrics-brief >/tmp/%s.log 2>&1; rc=$?\n' \
			"$s" "$s" "$ops" "${sizes[$s]:-}" "$((30 * slow))" "$s"
		printf 'echo "RESULT %s rc=$rc ops=$(ops_of %s) $(grep -ci "fail" /tmp/%s.log) fail-lines"\n' \
			"$s" "$s" "$s"
		printf 'grep -i "fail\\|error\\|skip" /tmp/%s.log | head -n 3 | sed "s/^/LOG %s: /"\n' "$s" "$s"
	done
	printf 'echo "# progress %s/%s stressors"\n' "$i" "$i"
} >"$script"

boot_all $((900 * slow)) stress-ng "$script" "$out/pkg/stress-ng"

# field RESULT KEY: KEY's number in a result ("rc=0 ops=50 0 fail-lines"), or 0
field() { sed -n "s/.*\b$2=\([0-9]*\).*/\1/p" <<<"$1" | grep . || echo 0; }
# verdict STRESSOR: "ok", "skip" or "bad", then what each kernel did
verdict() {
	local base base_rc base_ops r rc done_ops seen='' what=''
	base=$(result "${kernels[0]}" "$1")
	base_rc=$(field "$base" rc) base_ops=$(field "$base" ops)
	[ "$base_rc" = 0 ] || base_ops=0
	for k in "${kernels[@]}"; do
		r=$(result "$k" "$1")
		rc=$(field "$r" rc) done_ops=$(field "$r" ops)
		what+=" $k $done_ops,"
		if [ -z "$r" ]; then seen+=" bad"
		elif [ "$rc" != 0 ]; then [ "$rc" = "$base_rc" ] && seen+=" ran" || seen+=" bad"
		elif [ "$done_ops" = 0 ]; then seen+=" none"
		elif [ "$done_ops" -ge "$ops" ] || [ $((2 * done_ops)) -ge "$base_ops" ]; then seen+=" ran"
		else seen+=" bad"
		fi
	done
	case $seen in
	*bad*) printf bad ;;
	*ran*) case $seen in *none*) printf bad ;; *) printf ok ;; esac ;;
	*) printf skip ;;
	esac
	echo " (ops:${what%,} of $ops)"
}
tap=$top/build/results/$tap_name.tap
{
	printf '# %-10s' stressor; for k in "${kernels[@]}"; do printf ' | %-22s' "$k"; done; echo
	n=0
	declare -a verdicts
	for s in "${stressors[@]}"; do
		n=$((n + 1))
		printf '# %-10s' "$s"
		for k in "${kernels[@]}"; do
			r=$(result "$k" "$s"); [ -n "$r" ] || r="no result"
			printf ' | %-22s' "$r"
		done
		echo
		verdicts[$n]="$s|$(verdict "$s")"
	done
	for k in "${kernels[@]}"; do
		grep -q '^guest/run exit 0$' "$out/$k.out" || echo "# $k: $(grep -a 'guest/run' "$out/$k.out" | head -n 2 | tr '\n' ' ')"
	done
	tap_plan $((n + ${#kernels[@]}))
	for i in $(seq 1 "$n"); do
		IFS='|' read -r s v <<<"${verdicts[$i]}"
		case $v in
		ok*) ok "$s: no failure that ${kernels[0]} does not show ${v#ok }" ;;
		skip*) skip "$s" "no kernel did an op within its time limit" ;;
		*) not_ok "$s: a failure, no result, or far fewer ops than ${kernels[0]} ${v#bad }" ;;
		esac
	done
	for k in "${kernels[@]}"; do
		grep -q '^guest/run exit 0$' "$out/$k.out"
		tap_result $? "$k: guest clean (no splat, no timeout)" "guest/run reported a problem"
	done
} | tee "$tap"
