#!/usr/bin/env bash
# scripts/stress-ng-vm.sh [--ops N] [KERNEL...] - stress-ng's mm stressors
# (pagemove mmap mmapfork mremap mprotect madvise brk vm-segv pkey shm), each
# for a fixed op count, in one guest boot per KERNEL (default: vanilla
# mseal).  The host's dynamically linked stress-ng travels with the
# libraries ldd names and runs through the copied ld-linux-x86-64.so.2.
# Prints a table (stressor | kernel...) and TAP: a stressor is ok when no
# kernel fails it that vanilla passes, and the guest shows no splat
# (guest/run fails the boot on one).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/stress-ng
ops=50
[ "${1:-}" = --ops ] && { ops=$2; shift 2; }
kernels=("$@")
[ ${#kernels[@]} -gt 0 ] || kernels=(vanilla mseal)
stressors=(pagemove mmap mmapfork mremap mprotect madvise brk vm-segv pkey shm)
sng=$(command -v stress-ng) || { echo "stress-ng-vm: stress-ng missing (apt-get install stress-ng)" >&2; exit 1; }

rm -rf "$out/pkg" && mkdir -p "$out/pkg/stress-ng/lib" "$top/build/results"
cp -L "$sng" "$out/pkg/stress-ng/stress-ng"
ldd "$sng" | awk '/=> \// { print $3 } /^\t\/.*ld-linux/ { print $1 }' |
	while read -r lib; do cp -L "$lib" "$out/pkg/stress-ng/lib/"; done
cp -L /lib64/ld-linux-x86-64.so.2 "$out/pkg/stress-ng/ld.so"

script=$out/pkg/run-stress.sh
{
	echo 'cd /tmp; mkdir -p /dev/shm; mount -t tmpfs tmpfs /dev/shm'
	echo 'S="/sealjit/stress-ng/ld.so --library-path /sealjit/stress-ng/lib /sealjit/stress-ng/stress-ng"'
	for s in "${stressors[@]}"; do
		printf '$S --%s 1 --%s-ops %s --timeout 30 --metrics-brief >/tmp/%s.log 2>&1; rc=$?\n' \
			"$s" "$s" "$ops" "$s"
		printf 'echo "RESULT %s rc=$rc $(grep -ci "fail" /tmp/%s.log) fail-lines"\n' "$s" "$s"
		printf 'grep -i "fail\\|error\\|skip" /tmp/%s.log | head -n 3 | sed "s/^/LOG %s: /"\n' "$s" "$s"
	done
} >"$script"

for k in "${kernels[@]}"; do
	"$top/guest/run" --timeout 900 --add "$out/pkg/stress-ng" --add "$script" "$k" -- \
		sh run-stress.sh >"$out/$k.out" 2>&1
	echo "guest/run exit $?" >>"$out/$k.out"
done

result() { grep -a "^RESULT $2 " "$out/$1.out" 2>/dev/null | head -n 1 | cut -d' ' -f3- | tr -d '\r'; }
tap=$top/build/results/stress-ng-vm.tap
{
	printf '# %-10s' stressor; for k in "${kernels[@]}"; do printf ' | %-22s' "$k"; done; echo
	n=0
	declare -a verdicts
	for s in "${stressors[@]}"; do
		n=$((n + 1))
		printf '# %-10s' "$s"
		base=$(result "${kernels[0]}" "$s") ok=1
		for k in "${kernels[@]}"; do
			r=$(result "$k" "$s"); [ -n "$r" ] || r="no result"
			printf ' | %-22s' "$r"
			case $r in rc=0\ *) ;; *) [ "$r" = "$base" ] || ok= ;; esac
		done
		echo
		verdicts[$n]="$s|$ok"
	done
	for k in "${kernels[@]}"; do
		grep -q '^guest/run exit 0$' "$out/$k.out" || echo "# $k: $(grep -a 'guest/run' "$out/$k.out" | head -n 2 | tr '\n' ' ')"
	done
	echo "1..$((n + ${#kernels[@]}))"
	for i in $(seq 1 "$n"); do
		IFS='|' read -r s ok <<<"${verdicts[$i]}"
		[ -n "$ok" ] && echo "ok $i - $s: no failure that ${kernels[0]} does not show" ||
			echo "not ok $i - $s: fails where ${kernels[0]} does not"
	done
	for k in "${kernels[@]}"; do
		i=$((i + 1))
		grep -q '^guest/run exit 0$' "$out/$k.out" && echo "ok $i - $k: guest clean (no splat, no timeout)" ||
			echo "not ok $i - $k: guest/run reported a problem"
	done
} | tee "$tap"
