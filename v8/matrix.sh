#!/usr/bin/env bash
# v8/matrix.sh [--fast] [--strict] [--brief] [--jobs N] [--timeout SECS] [KERNEL...] -
# Debian's Node.js (V8 10.2), unmodified, under every seal policy on every
# KERNEL (default: vanilla v1 mseal upstream upstream-fixes; any flavor
# with a build/kernels/NAME/bzImage): the workloads and the attacks on its
# live code, one guest boot per kernel (guest/run; JOBS boots at a time,
# default 2), judged against expected-workloads.tsv and
# expected-attacks.tsv (judge.sh).
#
#   --fast   the subset `make test` runs (cases.sh): tier and wasm, and
#            four attacks, under every policy
#   default  every workload and every attack under every policy
#   --strict exit 1 when a test failed
#   --brief  print only the failed tests, their result lines, and the
#            closing line (the whole TAP is in the files)
#
# Writes, under $RESULTS (default $SEALJIT/build/results):
#   KERNEL-v8.out   the mode, the guest's output (`# result` lines),
#                   guest/run's exit status last
#   KERNEL-v8.tap   TAP (judge.sh)
#   v8-matrix.md    the Markdown summary (summary.sh; v8-matrix-fast.md
#                   for --fast)
# and prints the TAP and a closing "N passed, N failed" line.
# Exit status: 0 once every kernel's TAP is written, whatever it counts;
# with --strict, 1 when a test failed.  1 when summary.sh fails; 2 on
# misuse or a bad case list.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
SEALJIT=${SEALJIT:-$(dirname "$here")}
BUILD=${BUILD:-$SEALJIT/build/v8}
case $BUILD in /*) ;; *) BUILD=$here/$BUILD ;; esac
RESULTS=${RESULTS:-$SEALJIT/build/results}
mode=full jobs=2 timeout=3600 strict='' brief=''

usage() { sed -n '2,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0" >&2; exit 2; }
die() { echo "matrix: $*" >&2; exit 2; }
. "$SEALJIT/scripts/whole-number.sh"
V8_WHO=matrix
. "$here/cases.sh"

parse_options() {
	while [ $# -gt 0 ]; do
		case $1 in
		--fast) mode=fast; shift ;;
		--strict) strict=1; shift ;;
		--brief) brief=1; shift ;;
		--jobs) [ $# -ge 2 ] || usage; jobs=$2; shift 2 ;;
		--timeout) [ $# -ge 2 ] || usage; timeout=$2; shift 2 ;;
		-h | --help) usage ;;
		-*) echo "matrix: unknown option $1" >&2; usage ;;
		*) kernels+=("$1"); shift ;;
		esac
	done
	whole_number matrix --jobs "$jobs"
	whole_number matrix --timeout "$timeout"
	[ ${#kernels[@]} -gt 0 ] || kernels=(vanilla v1 mseal upstream upstream-fixes)
	local k
	for k in "${kernels[@]}"; do
		[ -f "$SEALJIT/build/kernels/$k/bzImage" ] ||
			die "unknown kernel '$k': no $SEALJIT/build/kernels/$k/bzImage"
	done
}

# The package every guest gets (/sealjit/v8-pkg/) and its case list,
# checked (cases.sh): the host's node lists the attacks.
make_package() {
	local root
	pkg=$BUILD/matrix/v8-pkg
	SEALJIT=$SEALJIT BUILD=$BUILD "$here/package.sh" "$pkg"
	root=$("$here/fetch-node.sh")
	v8_read_workloads || exit 2
	SEALJIT_ATTACK_ADDON=$pkg/sealjit-attack.node \
		v8_read_attacks env LD_LIBRARY_PATH="$root/usr/lib/x86_64-linux-gnu" "$root/usr/bin/node" || exit 2
	v8_write_cases "$mode" >"$pkg/cases" || exit 2
	[ -s "$pkg/cases" ] || die "no cases"
}

boot() {
	local k=$1 rc=0
	echo "# v8-matrix mode=$mode cases=$(wc -l <"$pkg/cases")" >"$RESULTS/$k-v8.out"
	"$SEALJIT/guest/run" --timeout "$timeout" --add "$pkg" \
		--console "$RESULTS/$k-v8.console" "$k" -- \
		sh v8-pkg/run-cases.sh "$k" v8-pkg/cases \
		>>"$RESULTS/$k-v8.out" 2>&1 || rc=$?
	echo "# guest/run exit $rc" >>"$RESULTS/$k-v8.out"
	echo "matrix: $k: guest/run exit $rc" >&2
}

run_boots() {
	local k running=0
	for k in "${kernels[@]}"; do
		boot "$k" &
		running=$((running + 1))
		if [ "$running" -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
	done
	wait
}

judge() {
	local k n=0 failed=0
	for k in "${kernels[@]}"; do
		"$here/judge.sh" --mode "$mode" "$k" "$pkg/cases" "$RESULTS/$k-v8.out" \
			>"$RESULTS/$k-v8.tap" || true
		RESULTS=$RESULTS "$SEALJIT/tests/provenance" "$k-v8.tap" \
			v8/matrix.sh $([ "$mode" = full ] || echo --fast) "${kernels[@]}"
		if [ -n "$brief" ]; then
			awk '/^not ok / { print; show = 1; next } show && /^# / { print; next } { show = 0 }' "$RESULTS/$k-v8.tap"
		else cat "$RESULTS/$k-v8.tap"; fi
		n=$((n + $(grep -c '^ok ' "$RESULTS/$k-v8.tap" || true)))
		failed=$((failed + $(grep -c '^not ok ' "$RESULTS/$k-v8.tap" || true)))
	done
	echo "$n passed, $failed failed"
	[ "$failed" -eq 0 ] && [ "$n" -gt 0 ]
}

main() {
	kernels=()
	parse_options "$@"
	mkdir -p "$RESULTS" "$BUILD"
	make_package
	echo "matrix: $mode mode, $(wc -l <"$pkg/cases") cases on each of: ${kernels[*]}" >&2
	run_boots
	local summary=$RESULTS/v8-matrix.md rc=0 src=0
	[ "$mode" = full ] || summary=$RESULTS/v8-matrix-fast.md
	judge || { [ -z "$strict" ] || rc=1; }
	rm -f "$summary"
	"$here/summary.sh" "${kernels[@]}" >"$summary.tmp" || src=$?
	if [ "$src" = 0 ]; then
		mv "$summary.tmp" "$summary"
		echo "matrix: wrote $summary" >&2
	else
		rm -f "$summary.tmp"
		echo "matrix: summary.sh failed (exit $src): no $summary" >&2
		rc=1
	fi
	exit "$rc"
}

main "$@"
