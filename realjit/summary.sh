#!/usr/bin/env bash
# realjit/summary.sh --jit NAME [--section] KERNEL... - the Markdown summary
# of a realjit/matrix.sh run of the JIT NAME, from $RESULTS/KERNEL-NAME.out:
# the workloads table, the JIT's own section (its profile's RJ_SUMMARY_AWK:
# LuaJIT's what the policies sealed and could never free, V8's words when
# it stopped), the attacks table, and the answer: per kernel, the strongest
# policy under which the JIT ran every workload, which attacks that policy
# leaves open (with the attack table's reasons), and the stronger policies
# the kernel refused to apply (UNSEALED).  Policies from strongest: all,
# upstream, card, pin, none; the answer is scripts/answer.awk's, and counts the
# attacks the run tried under the policy, not every attack of the run.  The
# mode of the run (each .out's "# realjit-matrix mode=" line, matrix.sh)
# is said first.
# --section: as docs/threat-model.md's section of the JIT (the profile's
# rj_section_intro, then the same tables; with $RESULTS/RJ_COST_MD, the
# cost too); only from a full run.
# Exits 1 when a kernel has no results, a file names no mode, the files
# are of different modes, or --section is asked of a fast run; 2 on misuse.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
SEALJIT=${SEALJIT:-$(dirname "$here")}
RESULTS=${RESULTS:-$SEALJIT/build/results}
usage() { echo "usage: summary.sh --jit NAME [--section] KERNEL..." >&2; exit 2; }
RJ_WHO=summary
# shellcheck source=realjit/cases.sh
. "$here/cases.sh"
section='' jit=''
rj_options '--jit=jit --section!section' "$@"
[ -n "$jit" ] && [ ${#rj_args[@]} -gt 0 ] || usage
set -- "${rj_args[@]}"
rj_use_jit "$jit" && rj_need_tables || exit 2
files=() mode=
for k in "$@"; do
	f=$RESULTS/$k-$jit.out
	[ -f "$f" ] || { echo "summary: no results for $k ($f)" >&2; exit 1; }
	m=$(sed -n 's/^# realjit-matrix mode=\([a-z]*\).*/\1/p' "$f" | head -n 1)
	[ -n "$m" ] || { echo "summary: $f names no mode (no \"# realjit-matrix mode=\" line): run realjit/matrix.sh again" >&2; exit 1; }
	[ -z "$mode" ] || [ "$m" = "$mode" ] ||
		{ echo "summary: $f is from a $m run, the files before it from a $mode run" >&2; exit 1; }
	mode=$m
	files+=("$f")
done
if [ -n "$section" ] && [ "$mode" != full ]; then
	echo "summary: --section needs the full matrix ($RJ_FULL_TARGET); $RESULTS holds a $mode run ($RJ_TEST_TARGET runs the fast subset)" >&2
	exit 1
fi

if [ -n "$section" ]; then
	! declare -F rj_section_intro >/dev/null || rj_section_intro
else
	rj_read_workloads && rj_table_attack_names || exit 2
	case $mode in
	fast) printf 'From a **fast** run (%s, the subset realjit/cases.sh names: %s); `-` marks a case it does not run.\n\n' \
		"$RJ_TEST_TARGET" "$(rj_mode_words fast)" ;;
	*) printf 'From a **%s** run (%s: %s).\n\n' "$mode" "$RJ_FULL_TARGET" "$(rj_mode_words "$mode")" ;;
	esac
fi

top=$(dirname "$here")
[ -f "${RJ_SUMMARY_AWK:-}" ] || { echo "summary: $jit's profile names no summary awk of its own (RJ_SUMMARY_AWK)" >&2; exit 2; }
awk -v kernels="$*" -v atsv="$RJ_TABLE_A" -v check="$RJ_TABLE_CHECK" -v registry="$top/kernel/kernels.tsv" \
	-v program="$RJ_PROGRAM" -v title="$RJ_TITLE" -v target="$RJ_ATTACK_TARGET" \
	-f "$top/scripts/kernels.awk" -f "$top/scripts/result.awk" -f "$top/scripts/expect.awk" \
	-f "$top/scripts/answer.awk" -f "$RJ_SUMMARY_AWK" -f "$here/summary.awk" "${files[@]}"
if [ -n "$section" ] && [ -n "${RJ_COST_MD:-}" ] && [ -f "$RESULTS/$RJ_COST_MD" ]; then
	printf '\n### %s\n\n' "$RJ_COST_HEADING"
	cat "$RESULTS/$RJ_COST_MD"
fi
