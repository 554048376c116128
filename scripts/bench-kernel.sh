#!/usr/bin/env bash
# scripts/bench-kernel.sh [OPTIONS] - what mm calls cost on each kernel,
# measured in guest instructions: bench-mm (bench/) and stress-ng, run in
# guests booted under guest/run --icount, each kernel booted several times.
#
#   --kernels "K..."   kernels to boot (default: make test's, kernel/kernels.tsv)
#   --image K=BZIMAGE  boot BZIMAGE (a dev tree's build) as kernel K, which
#                      must be in kernel/kernels.tsv: its rows and summary are
#                      K's, compared with K's base; repeatable
#   --boots N          boots per kernel (default 5: stress-ng's rates move by up
#                      to 1% from boot to boot, the goals are 0.5%)
#   --cases "C..."     cases to run (default: all; see --list)
#   --jobs N           guests at a time (default 2; under --icount their
#                      timings do not depend on host load)
#   --out FILE         the results (default build/results/bench-kernel.tsv)
#   --timeout SECS     host-side limit per boot (default 600)
#   --runs DIR         where the guests' output and consoles go
#                      (default build/bench/runs)
#   --list             the case names, and what one iteration does
#
# Writes FILE, one row per kernel x case x boot:
#   kernel case boot value unit status note
# status is ok (value is a number), n/a (not applicable on that kernel),
# error (the case broke), died (the guest died: guest/run exit 125, a
# timeout, a kernel warning; value "-") or missing (no line for the case).
# Then prints the summary (scripts/bench-summary.sh).
#
# Exit status: 0 if every row is ok or n/a, 1 otherwise, 2 on bad options.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
kernels=
boots=5
cases=
jobs=2
out=$top/build/results/bench-kernel.tsv
timeout=600
runs=$top/build/bench/runs
bench_mm=$top/build/bench/bench-mm
bundle=$top/build/bench/stress-ng
declare -A images=()

usage() {
	sed -n '2,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0" >&2
	exit 2
}
. "$top/scripts/progress.sh"
# bench-mm builds at -j1: a jobserver inherited from make is not passed to
# this script, and make would warn that it is missing.
unset MAKEFLAGS MFLAGS MAKELEVEL
die() { echo "bench-kernel: $*" >&2; exit 2; }
. "$top/scripts/whole-number.sh"
whole() { whole_number bench-kernel "$@"; }

list_cases() { BENCH_MM=$bench_mm sh "$top/bench/guest-bench.sh" --list; }

build() {
	make -s --no-print-directory -C "$top/bench" >&2 || die "could not build bench-mm"
	if [[ " $cases " == *" stress-ng/"* ]] &&
		{ [ ! -x "$bundle/stress-ng" ] || [ "$(command -v stress-ng)" -nt "$bundle/stress-ng" ]; }; then
		"$top/guest/bundle.sh" stress-ng "$bundle" || die "could not bundle stress-ng"
	fi
}

parse_options() {
	while [ $# -gt 0 ]; do
		case $1 in
		--kernels) [ $# -ge 2 ] || usage; kernels=$2; shift 2 ;;
		--boots) [ $# -ge 2 ] || usage; whole --boots "$2"; boots=$2; shift 2 ;;
		--cases) [ $# -ge 2 ] || usage; cases=$2; shift 2 ;;
		--jobs) [ $# -ge 2 ] || usage; whole --jobs "$2"; jobs=$2; shift 2 ;;
		--out) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
		--timeout) [ $# -ge 2 ] || usage; whole --timeout "$2"; timeout=$2; shift 2 ;;
		--runs) [ $# -ge 2 ] || usage; runs=$2; shift 2 ;;
		--image) [ $# -ge 2 ] || usage; add_image "$2"; shift 2 ;;
		--list) make -s --no-print-directory -C "$top/bench" >&2; list_cases; exit 0 ;;
		-h | --help) usage ;;
		*) echo "bench-kernel: unknown argument '$1'" >&2; usage ;;
		esac
	done
	[ -z "$kernels" ] || [ -n "${kernels// /}" ] || die "--kernels names no kernel"
}

# --image K=BZIMAGE: K must be a registry kernel, BZIMAGE a file.
add_image() {
	local k=${1%%=*} image=${1#*=}
	[[ $1 == *=* && -n $k && -n $image ]] || die "--image wants KERNEL=BZIMAGE, not '$1'"
	"$top/kernel/kernels" get "$k" kernel >/dev/null 2>&1 ||
		die "--image: unknown kernel '$k' (kernel/kernels.tsv names them)"
	[ -f "$image" ] || die "--image: no bzImage '$image'"
	images[$k]=$(realpath "$image")
}

check_kernels() {
	local k built=
	[ -n "$kernels" ] || kernels=$("$top/kernel/kernels" names) || exit 2
	for k in $kernels; do
		[ -n "${images[$k]:-}" ] || built+=" $k"
	done
	# every --image kernel is booted, named in --kernels or not
	for k in "${!images[@]}"; do
		[[ " $kernels " == *" $k "* ]] || kernels+=" $k"
	done
	# shellcheck disable=SC2086 # kernel names are single words
	[ -z "${built// /}" ] || "$top/kernel/kernels" bootable $built >/dev/null || exit 2
	kernels=$(echo $kernels)
	[ -f "$top/build/guest/base.cpio.gz" ] || die "no guest initramfs (run: make guest)"
}

check_cases() {
	local known c
	known=$(list_cases | cut -f1) || die "could not list the cases"
	[ -n "$cases" ] || cases=$(echo $known)
	for c in $cases; do
		grep -qxF -- "$c" <<<"$known" ||
			die "unknown case '$c' (scripts/bench-kernel.sh --list names them)"
	done
}

# One boot: its output, console and guest/run's exit status under $runs.
boot() {
	local k=$1 b=$2 adds=(--add "$bench_mm" --add "$top/bench/guest-bench.sh")
	[[ " $cases " == *" stress-ng/"* ]] && adds+=(--add "$bundle")
	local rc=0
	# shellcheck disable=SC2086 # case names are single words
	"$top/guest/run" --icount --timeout "$timeout" "${adds[@]}" \
		--console "$runs/$k-$b.console" "${images[$k]:-$k}" -- sh guest-bench.sh $cases \
		>"$runs/$k-$b.out" 2>"$runs/$k-$b.err" || rc=$?
	echo "$rc" >"$runs/$k-$b.rc"
	echo "bench-kernel: $k boot $b: guest/run exit $rc" >&2
}

# Boots finished so far (each leaves its exit status in a .rc file).
boots_done() { find "$runs" -name '*.rc' 2>/dev/null | wc -l; }

# Boot by boot, every kernel in turn, JOBS guests at a time.  Only the
# boots end: the progress display, also a child, runs until stopped.
run_boots() {
	local b k running=0
	rm -rf "$runs"
	mkdir -p "$runs"
	# shellcheck disable=SC2086 # kernel names are single words
	set -- $kernels
	progress_start "bench-kernel" "$(($# * boots))/boots" boots_done
	for b in $(seq 1 "$boots"); do
		for k in $kernels; do
			if [ "$running" -ge "$jobs" ]; then
				wait -n || true
				running=$((running - 1))
			fi
			boot "$k" "$b" &
			running=$((running + 1))
		done
	done
	for (( ; running > 0; running--)); do wait -n || true; done
	progress_stop
}

# The rows of one boot.  A guest that died gives "died" for every case,
# even those it printed: its kernel may have been broken while they ran.
rows_of_boot() {
	local k=$1 b=$2 rc why
	rc=$(cat "$runs/$k-$b.rc")
	if [ "$rc" != 0 ] && [ "$rc" != 1 ]; then
		why=$(grep -m1 '^guest/run:' "$runs/$k-$b.err" || head -n1 "$runs/$k-$b.err")
		why="guest/run exit $rc: ${why:-no message}"
		for c in $cases; do
			printf '%s\t%s\t%s\t-\t-\tdied\t%s\n' "$k" "$c" "$b" "${why//$'\t'/ }"
		done
		return
	fi
	awk -F'\t' -v k="$k" -v b="$b" -v cases="$cases" -f "$top/scripts/bench-rows.awk" "$runs/$k-$b.out"
}

collect() {
	local k b
	mkdir -p "$(dirname "$out")"
	{
		printf 'kernel\tcase\tboot\tvalue\tunit\tstatus\tnote\n'
		for k in $kernels; do
			for b in $(seq 1 "$boots"); do
				rows_of_boot "$k" "$b"
			done
		done
	} >"$out.tmp"
	mv "$out.tmp" "$out"
	# where the file came from, for report/ (the page shows it beside the chart)
	RESULTS=$(dirname "$out") "$top/tests/provenance" "$(basename "$out")" \
		scripts/bench-kernel.sh "${invocation[@]}"
}

main() {
	local start=$SECONDS
	invocation=("$@")
	parse_options "$@"
	check_kernels
	make -s --no-print-directory -C "$top/bench" >&2 || die "could not build bench-mm"
	check_cases
	build
	echo "bench-kernel: $(echo $kernels | wc -w) kernels x $boots boots," \
		"$(echo $cases | wc -w) cases, $jobs at a time" >&2
	run_boots
	collect
	echo "bench-kernel: wrote $out in $((SECONDS - start))s" >&2
	"$top/scripts/bench-summary.sh" "$out"
	! awk -F'\t' 'NR > 1 && $6 != "ok" && $6 != "n/a" { bad = 1 } END { exit !bad }' "$out"
}

main "$@"
