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
# stress-ng is the bundle of guest/bundle.sh, in ./stress-ng/
# (or $STRESS_NG_DIR), run through its own loader.

# stressor:bogo-ops[:option], one worker each.  Under --icount a count must
# repeat within 1% from boot to boot (pagemove at its default 4 MiB: 100
# ops do, 20 did not) and fit the time budget: the sizes are cut from the
# defaults (mmap and mremap 256 MiB) so that each stressor runs about one
# guest second (10^9 instructions).  $STRESSORS overrides, to calibrate.
STRESSORS="${STRESSORS:-pagemove:100:--pagemove-bytes=1M mmap:10:--mmap-bytes=4M
	mremap:100:--mremap-bytes=4M mprotect:100000 madvise:30 brk:50000}"

here=$(cd "$(dirname "$0")" && pwd)
bench_mm=${BENCH_MM:-$here/bench-mm}
stress_dir=${STRESS_NG_DIR:-$here/stress-ng}

# stress_get STRESSOR FIELD: 2 the bogo-ops, 3 the extra option
stress_get() {
	for spec in $STRESSORS; do
		[ "${spec%%:*}" = "$1" ] && { echo "$spec" | cut -d: -f"$2"; return 0; }
	done
	return 1
}

list() {
	"$bench_mm" --list || exit 1
	for spec in $STRESSORS; do
		s=${spec%%:*}
		printf 'stress-ng/%s\tstress-ng --%s 1 --%s-ops %s %s\n' "$s" "$s" "$s" \
			"$(stress_get "$s" 2)" "$(stress_get "$s" 3)"
	done
}

# One stressor; bogo-ops per second of guest (instruction) time.
stress() {
	name=$1 ops=$(stress_get "$1" 2) option=$(stress_get "$1" 3)
	rm -f /tmp/stress.yaml
	"$stress_dir/ld-linux-x86-64.so.2" --library-path "$stress_dir" \
		"$stress_dir/stress-ng" --"$name" 1 --"$name"-ops "$ops" $option \
		--timeout 600 --no-rand-seed --temp-path /tmp --metrics-brief \
		--yaml /tmp/stress.yaml >/tmp/stress.log 2>&1
	rc=$?
	rate=$(awk '$1 == "bogo-ops-per-second-real-time:" { print $2 }' \
		/tmp/stress.yaml 2>/dev/null)
	done_ops=$(awk '$1 == "bogo-ops:" { print $2 }' /tmp/stress.yaml 2>/dev/null)
	secs=$(awk '$1 == "wall-clock-time:" { print $2 }' /tmp/stress.yaml 2>/dev/null)
	# a worker may overshoot the count by a few; fewer means it stopped early
	if [ $rc -ne 0 ] || [ -z "$rate" ] || [ "${done_ops:-0}" -lt "$ops" ]; then
		printf 'stress-ng/%s\terror\t-\tstress-ng exited %s, %s of %s ops: %s\n' \
			"$name" "$rc" "${done_ops:-no}" "$ops" \
			"$(grep -v '^ *$' /tmp/stress.log | tail -n 1)"
		return 1
	fi
	printf 'stress-ng/%s\t%s\tbogo-ops/s\tops=%s guest-secs=%s\n' "$name" "$rate" "$done_ops" "$secs"
}

[ "${1:-}" = --list ] && { list; exit 0; }
mm_cases=
for c in "$@"; do
	case $c in
	stress-ng/*) stress_get "${c#stress-ng/}" 1 >/dev/null || {
		echo "guest-bench: unknown case '$c' (--list names them)" >&2
		exit 2
	} ;;
	*) mm_cases="$mm_cases $c" ;;
	esac
done
# The clock source settled and address randomization off (guest/settle).
settle
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
