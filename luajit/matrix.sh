#!/usr/bin/env bash
# luajit/matrix.sh [--jit debian|pkey] [--fast] [--strict] [--brief] [--jobs N]
#                  [--timeout SECS] [KERNEL...] -
# Debian's LuaJIT, unmodified (--jit debian, the default), or built from
# Debian's source with luajit-series/ (--jit pkey: W^X by a protection
# key, luajit-series/build.sh), under every seal policy on every KERNEL
# (default: make test's, kernel/kernels.tsv; any kernel with a
# build/kernels/NAME/bzImage): the workloads and the attacks on its live
# code, one guest boot per kernel (guest/run; JOBS boots at a time,
# default 2), judged against expected-workloads.tsv and
# expected-attacks.tsv.
#
#   --fast   the subset `make test` runs: every policy once (hotloop and
#            flush), every attack under none (the controls), and the key
#            blocked cases (mprotect-rw, mremap-move, munmap-mmap,
#            madvise-dontneed under every sealing policy)
#   default  every workload and every attack under every policy
#            (the lists: luajit/cases.sh; attack.lua --list must name the
#            scenarios of expected-attacks.tsv, or nothing runs)
#   --strict exit 1 when a test failed (make luajit-attacks)
#   --brief  print only the failed tests, their result lines, and the
#            closing line (the whole TAP is in the files)
#
# Writes, under $RESULTS (default $SEALJIT/build/results), with NAME luajit
# for Debian's LuaJIT and luajit-pkey for the series' (cases.sh):
#   KERNEL-NAME.out     the mode ("# luajit-matrix mode=fast|full"), the guest's
#                       output (`# result` lines), guest/run's exit status last
#   KERNEL-NAME.tap     TAP: one test per case, the result lines as comments;
#                       then the case list is the mode's, and the guest ran
#                       to the end (judge.sh)
#   NAME-matrix.md      the Markdown summary (summary.sh), full mode only
#                       (NAME-matrix-fast.md for --fast)
# and prints the TAP and a closing "N passed, N failed, N skipped" line
# (tests/tap-summary).
# A case without a result line (the guest died, a case hung) fails.
# Exit status: 0 once every kernel's TAP is written, whatever it counts
# (as tests/tap-run: make test counts the failures); with --strict, 1 when a
# test failed.  1 when summary.sh fails; 2 on misuse or a bad case list.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
SEALJIT=${SEALJIT:-$(dirname "$here")}
BUILD=${BUILD:-$SEALJIT/build/luajit}
case $BUILD in /*) ;; *) BUILD=$here/$BUILD ;; esac
RESULTS=${RESULTS:-$SEALJIT/build/results}
mode=full jobs=2 timeout=1800 strict= brief= jit=debian

usage() { sed -n '2,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0" >&2; exit 2; }
die() { echo "matrix: $*" >&2; exit 2; }
. "$SEALJIT/scripts/whole-number.sh"
LJ_WHO=matrix
. "$here/cases.sh"

parse_options() {
	while [ $# -gt 0 ]; do
		case $1 in
		--fast) mode=fast; shift ;;
		--jit) [ $# -ge 2 ] || usage; jit=$2; shift 2 ;;
		--strict) strict=1; shift ;;
		--brief) brief=1; shift ;;
		--jobs) [ $# -ge 2 ] || usage; jobs=$2; shift 2 ;;
		--timeout) [ $# -ge 2 ] || usage; timeout=$2; shift 2 ;;
		-h | --help) usage ;;
		-*) echo "matrix: unknown option $1" >&2; usage ;;
		*) kernels+=("$1"); shift ;;
		esac
	done
	lj_use_jit "$jit" || exit 2
	whole_number matrix --jobs "$jobs"
	whole_number matrix --timeout "$timeout"
	local names
	names=$("$SEALJIT/kernel/kernels" bootable ${kernels[@]+"${kernels[@]}"}) || exit 2
	read -r -a kernels <<<"$names"
}

# The case list, checked (cases.sh): a failing or empty attack.lua --list,
# or one that is not expected-attacks.tsv's scenarios, stops the run.
write_cases() {
	lj_read_workloads || exit 2
	lj_read_attacks luajit || exit 2
	lj_write_cases "$mode" || exit 2
}

# The package every guest gets: /sealjit/luajit-pkg/.
make_package() {
	pkg=$BUILD/matrix-$jit/luajit-pkg
	SEALJIT=$SEALJIT BUILD=$BUILD "$here/package.sh" --jit "$jit" "$pkg"
	write_cases >"$pkg/cases"
	[ -s "$pkg/cases" ] || die "no cases"
}

boot() {
	local k=$1 rc=0
	local out=$RESULTS/$k-$LJ_RESULT.out
	echo "# luajit-matrix mode=$mode cases=$(wc -l <"$pkg/cases") jit=$jit" >"$out"
	"$SEALJIT/guest/run" --timeout "$timeout" --add "$pkg" \
		--console "$RESULTS/$k-$LJ_RESULT.console" "$k" -- \
		sh luajit-pkg/run-cases.sh "$k" luajit-pkg/cases \
		>>"$out" 2>&1 || rc=$?
	echo "# guest/run exit $rc" >>"$out"
	echo "matrix: $k ($LJ_RESULT): guest/run exit $rc" >&2
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
	local k
	for k in "${kernels[@]}"; do
		local tap=$RESULTS/$k-$LJ_RESULT.tap
		"$here/judge.sh" --jit "$jit" --mode "$mode" "$k" "$pkg/cases" "$RESULTS/$k-$LJ_RESULT.out" \
			>"$tap" || true
		RESULTS=$RESULTS "$SEALJIT/tests/provenance" "$k-$LJ_RESULT.tap" \
			luajit/matrix.sh --jit "$jit" $([ "$mode" = full ] || echo --fast) "${kernels[@]}"
		if [ -n "$brief" ]; then
			awk '/^not ok / { print; show = 1; next } show && /^# / { print; next } { show = 0 }' "$tap"
		else cat "$tap"; fi
	done
	RESULTS=$RESULTS "$SEALJIT/tests/tap-summary" --only "${kernels[@]/%/-$LJ_RESULT}"
}

main() {
	kernels=()
	parse_options "$@"
	mkdir -p "$RESULTS" "$BUILD"
	make_package
	echo "matrix: $LJ_RESULT, $mode mode, $(wc -l <"$pkg/cases") cases on each of: ${kernels[*]}" >&2
	run_boots
	local summary=$RESULTS/$LJ_RESULT-matrix.md rc=0 src=0
	[ "$mode" = full ] || summary=$RESULTS/$LJ_RESULT-matrix-fast.md
	judge || { [ -z "$strict" ] || rc=1; }
	rm -f "$summary"
	"$here/summary.sh" --jit "$jit" "${kernels[@]}" >"$summary.tmp" || src=$?
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
