#!/bin/sh
# bench/guest-bench.sh [--list | CASE...] - the guest side of
# scripts/bench-kernel.sh, for busybox sh.
#
# CASE is a bench-mm case (bench-mm --list) or stress-ng/STRESSOR, one of
# the stressors below, each run with one worker for a fixed number of
# bogo operations.  Prints one tab-separated line per case:
#   CASE  VALUE  UNIT  NOTE      (VALUE: a number, "n/a" or "error")
# Exits 1 if a case broke, 2 on an unknown case.
#
# stress-ng is the bundle of bench/stress-ng-bundle.sh, in ./stress-ng/
# (or $STRESS_NG_DIR), run through its own loader.

# stressor:bogo-ops.  Under --icount a count must repeat within 1% from
# boot to boot (pagemove: 100 does, 20 did not) and fit the time budget.
STRESSORS="pagemove:100 mmap:40 mremap:40 mprotect:4000 madvise:4000 brk:4000"

here=$(cd "$(dirname "$0")" && pwd)
bench_mm=${BENCH_MM:-$here/bench-mm}
stress_dir=${STRESS_NG_DIR:-$here/stress-ng}

stress_ops() {
	for pair in $STRESSORS; do
		[ "${pair%%:*}" = "$1" ] && { echo "${pair#*:}"; return 0; }
	done
	return 1
}

list() {
	"$bench_mm" --list || exit 1
	for pair in $STRESSORS; do
		printf 'stress-ng/%s\tstress-ng --%s 1 --%s-ops %s\n' \
			"${pair%%:*}" "${pair%%:*}" "${pair%%:*}" "${pair#*:}"
	done
}

# One stressor; bogo-ops per second of guest (instruction) time.
stress() {
	name=$1 ops=$(stress_ops "$1")
	rm -f /tmp/stress.yaml
	"$stress_dir/ld-linux-x86-64.so.2" --library-path "$stress_dir" \
		"$stress_dir/stress-ng" --"$name" 1 --"$name"-ops "$ops" \
		--timeout 600 --no-rand-seed --temp-path /tmp --metrics-brief \
		--yaml /tmp/stress.yaml >/tmp/stress.log 2>&1
	rc=$?
	rate=$(awk '$1 == "bogo-ops-per-second-real-time:" { print $2 }' \
		/tmp/stress.yaml 2>/dev/null)
	done_ops=$(awk '$1 == "bogo-ops:" { print $2 }' /tmp/stress.yaml 2>/dev/null)
	# a worker may overshoot the count by a few; fewer means it stopped early
	if [ $rc -ne 0 ] || [ -z "$rate" ] || [ "${done_ops:-0}" -lt "$ops" ]; then
		printf 'stress-ng/%s\terror\t-\tstress-ng exited %s, %s of %s ops: %s\n' \
			"$name" "$rc" "${done_ops:-no}" "$ops" \
			"$(grep -v '^ *$' /tmp/stress.log | tail -n 1)"
		return 1
	fi
	printf 'stress-ng/%s\t%s\tbogo-ops/s\tops=%s\n' "$name" "$rate" "$done_ops"
}

[ "${1:-}" = --list ] && { list; exit 0; }
mm_cases=
for c in "$@"; do
	case $c in
	stress-ng/*) stress_ops "${c#stress-ng/}" >/dev/null || {
		echo "guest-bench: unknown case '$c' (--list names them)" >&2
		exit 2
	} ;;
	*) mm_cases="$mm_cases $c" ;;
	esac
done
printf '# kernel %s, clocksource %s\n' "$(uname -r)" \
	"$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)"
failed=0
# shellcheck disable=SC2086 # case names are single words
if [ -n "$mm_cases" ]; then
	"$bench_mm" $mm_cases
	rc=$?
	[ $rc -eq 2 ] && exit 2
	[ $rc -eq 0 ] || failed=1
fi
for c in "$@"; do
	case $c in
	stress-ng/*) stress "${c#stress-ng/}" || failed=1 ;;
	esac
done
exit $failed
