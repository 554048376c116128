#!/usr/bin/env bash
# realjit/matrix.sh --jit NAME [--fast] [--strict] [--brief] [--jobs N]
#                   [--timeout SECS] [KERNEL...] | --list -
# the JIT NAME (its profile, realjit/cases.sh: luajit, Debian's LuaJIT;
# luajit-pkey, LuaJIT with realjit/luajit/series/; v8, Debian's Node.js), under
# every seal policy on every KERNEL (default: make test's, kernel/kernels.tsv;
# any kernel with a build/kernels/NAME/bzImage): its workloads and the
# attacks on its live code, one guest boot per kernel (guest/run; JOBS
# boots at a time, default 2), judged against its expected tables
# (judge.sh).
#
#   --fast   the subset `make test` runs (cases.sh: the profile's fast
#            workloads under every policy, its fast attacks under every
#            sealing policy, the controls under none)
#   default  every workload and every attack under every policy (the
#            JIT's attacker must list the scenarios of its attack table,
#            or nothing runs)
#   --list   print the JITs it can run (every profile with expected
#            tables: realjit/jits list), one a line, and exit
#   --strict exit 1 when a test failed (make luajit-attacks, v8-attacks,
#            node24-attacks)
#   --brief  print only the failed tests, their result lines, and the
#            closing line (the whole TAP is in the files)
#   --timeout  seconds a boot may take (default: the profile's)
#
# Writes, under $RESULTS (default $SEALJIT/build/results):
#   KERNEL-NAME.out     the mode ("# realjit-matrix mode=fast|full"), the
#                       guest's output (`# result` lines), guest/run's exit
#                       status last
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
BUILD=${BUILD:-$SEALJIT/build/realjit}
case $BUILD in /*) ;; *) BUILD=$here/$BUILD ;; esac
RESULTS=${RESULTS:-$SEALJIT/build/results}
mode=full jobs=2 timeout='' strict='' brief='' jit=''

usage() { sed -n '2,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0" >&2; exit 2; }
die() { echo "matrix: $*" >&2; exit 2; }
. "$SEALJIT/scripts/whole-number.sh"
RJ_WHO=matrix
# shellcheck source=realjit/cases.sh
. "$here/cases.sh"

parse_options() {
	local fast='' list=''
	rj_options '--fast!fast --list!list --jit=jit --strict!strict --brief!brief --jobs=jobs --timeout=timeout' "$@"
	[ -z "$list" ] || { rj_matrix_jits | tr ' ' '\n'; exit 0; }
	[ -z "$fast" ] || mode=fast
	kernels=(${rj_args[@]+"${rj_args[@]}"})
	[ -n "$jit" ] || usage
	rj_use_jit "$jit" && rj_need_tables || exit 2
	timeout=${timeout:-$RJ_TIMEOUT}
	whole_number matrix --jobs "$jobs"
	whole_number matrix --timeout "$timeout"
	local names
	names=$("$SEALJIT/kernel/kernels" bootable ${kernels[@]+"${kernels[@]}"}) || exit 2
	read -r -a kernels <<<"$names"
}

# The case list, checked (cases.sh): a failing or empty list of the JIT's
# attacker, or one that is not its attack table's scenarios, stops the run.
write_cases() {
	rj_read_workloads || exit 2
	rj_read_attacks || exit 2
	rj_write_cases "$mode" || exit 2
}

# The package every guest gets: /sealjit/NAME-pkg/.
make_package() {
	pkg=$BUILD/$jit/matrix/$jit-pkg
	SEALJIT=$SEALJIT BUILD=$BUILD "$here/package.sh" --jit "$jit" "$pkg"
	write_cases >"$pkg/cases"
	[ -s "$pkg/cases" ] || die "no cases"
}

boot() {
	local k=$1 rc=0
	local out=$RESULTS/$k-$jit.out
	echo "# realjit-matrix mode=$mode cases=$(wc -l <"$pkg/cases") jit=$jit" >"$out"
	"$SEALJIT/guest/run" --timeout "$timeout" --add "$pkg" \
		--console "$RESULTS/$k-$jit.console" "$k" -- \
		sh "$jit-pkg/run-cases.sh" "$k" "$jit-pkg/cases" \
		>>"$out" 2>&1 || rc=$?
	echo "# guest/run exit $rc" >>"$out"
	echo "matrix: $k ($jit): guest/run exit $rc" >&2
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
		local tap=$RESULTS/$k-$jit.tap
		"$here/judge.sh" --jit "$jit" --mode "$mode" "$k" "$pkg/cases" "$RESULTS/$k-$jit.out" \
			>"$tap" || true
		RESULTS=$RESULTS "$SEALJIT/tests/provenance" "$k-$jit.tap" \
			realjit/matrix.sh --jit "$jit" $([ "$mode" = full ] || echo --fast) "${kernels[@]}"
		if [ -n "$brief" ]; then
			# the failed points, each with its comments (scripts/tap.awk)
			awk -f "$SEALJIT/scripts/result.awk" -f "$SEALJIT/scripts/tap.awk" -f <(echo '
				{ tap = tap_read($0) }
				tap == "point" && !tap_ok { print; show = 1; next }
				show && (tap == "comment" || tap == "result") { print; next }
				{ show = 0 }') "$tap"
		else cat "$tap"; fi
	done
	RESULTS=$RESULTS "$SEALJIT/tests/tap-summary" --only "${kernels[@]/%/-$jit}"
}

main() {
	kernels=()
	parse_options "$@"
	mkdir -p "$RESULTS" "$BUILD"
	make_package
	echo "matrix: $jit, $mode mode, $(wc -l <"$pkg/cases") cases on each of: ${kernels[*]}" >&2
	run_boots
	local summary=$RESULTS/$jit-matrix.md rc=0 src=0
	[ "$mode" = full ] || summary=$RESULTS/$jit-matrix-fast.md
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
