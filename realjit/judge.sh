#!/usr/bin/env bash
# realjit/judge.sh --jit NAME --mode fast|full KERNEL CASES OUTPUT - TAP for
# one kernel's run of the JIT NAME (its profile: realjit/cases.sh): one
# test per line of CASES ("workload|attack NAME POLICY"), judged by the
# first row of its expected workloads or attacks table that matches it
# (scripts/expect.awk), against the `# result` line of OUTPUT
# (guest/run-cases.sh; the result lines follow as TAP comments); then two
# tests of the run as a whole.
#
#   RAN          must be RAN: exit 0, the reference's output, the JIT's own
#                check, code made executable
#   ABORTED E    must be the JIT's own stop (abort= the word of its
#                guest/jit.sh's JIT_OWN_ABORT, and the status the profile's
#                RJ_ABORT_STATUS asks, if any), E the errno of the call the
#                kernel refused it; where the table has a check column, the
#                JIT's words hold the row's (which operation was refused)
#   LANDED       must be LANDED (any errno)
#   BLOCKED E    must be BLOCKED with errno E, and the attacked code, run
#                again, must return the right value (rerun=ok)
#   UNAVAILABLE E  the library stopped the JIT at start-up (exit 3), its
#                probe having got E
#   UNSEALED E   the kernel refused the library's mseal of every area the
#                JIT made with E (sealed=0, refused_mseal == areas >= 1):
#                the policy could not be applied
# and every RAN, ABORTED, LANDED and BLOCKED case must show the policy
# applied: code made executable (areas >= 1), and under none nothing
# sealed, under a sealing policy every area sealed (sealed == areas) and
# no mseal refused (refused_mseal=0); and the profile's RJ_REQUIRE rules
# hold (luajit-pkey: its code kept W^X by the key, the attacked area under
# one).  A case with no result line, or no matching row, fails.
#
# The run as a whole:
#   - CASES is the mode's case list (cases.sh, from the workloads and the
#     attack table's scenarios): a shrunk or foreign plan fails;
#   - the guest ran to the end: OUTPUT has "# cases-done N" for all N cases
#     and "# guest/run exit 0" (a panic, an oops or a timeout after the last
#     result line fails here).
# Exit status: 0 when every test passed, 1 if not, 2 on misuse.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
usage() { echo "usage: judge.sh --jit NAME --mode fast|full KERNEL CASES OUTPUT" >&2; exit 2; }
RJ_WHO=judge
# shellcheck source=realjit/cases.sh
. "$here/cases.sh"
jit='' mode=''
rj_options '--jit=jit --mode=mode' "$@"
[ -n "$jit" ] && [ -n "$mode" ] && [ ${#rj_args[@]} -eq 3 ] || usage
kernel=${rj_args[0]} cases=${rj_args[1]} output=${rj_args[2]}
case $mode in fast | full) ;; *) echo "judge: unknown mode '$mode' (fast or full)" >&2; exit 2 ;; esac
[ -f "$cases" ] || { echo "judge: no cases file $cases" >&2; exit 2; }
[ -f "$output" ] || output=/dev/null

# The mode's case list, from the repository (not from the run).
rj_use_jit "$jit" && rj_need_tables || exit 2
rj_read_workloads || exit 2
rj_table_attack_names || exit 2
want_cases=$(mktemp)
trap 'rm -f "$want_cases"' EXIT
rj_write_cases "$mode" >"$want_cases" || exit 2
mode_words=$(rj_mode_words "$mode")

awk -v kernel="$kernel" -v cases="$cases" -v out="$output" -v want_cases="$want_cases" \
	-v mode="$mode" -v mode_words="$mode_words" -v registry="$top/kernel/kernels.tsv" \
	-v wtsv="$RJ_TABLE_W" -v atsv="$RJ_TABLE_A" -v check="$RJ_TABLE_CHECK" \
	-v program="$RJ_PROGRAM" -v own_abort="$RJ_ABORT" -v abort_status="$RJ_ABORT_STATUS" \
	-v abort_want="$RJ_ABORT_WANT" -v require="$(printf '%s\n' ${RJ_REQUIRE[@]+"${RJ_REQUIRE[@]}"})" \
	-f "$top/scripts/kernels.awk" -f "$top/scripts/result.awk" -f "$top/scripts/expect.awk" \
	-f "$here/judge.awk"
