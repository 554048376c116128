#!/usr/bin/env bash
# luajit/judge.sh [--jit debian|pkey] --mode fast|full KERNEL CASES OUTPUT -
# TAP for one kernel's run: one test per line of CASES ("workload|attack
# NAME POLICY"), judged by the first row of the LuaJIT's expected tables
# (cases.sh: expected-workloads.tsv and expected-attacks.tsv for Debian's,
# expected-pkey-*.tsv for luajit-series/') that matches it, against the
# `# result` line of OUTPUT (guest/run-cases.sh; the result lines follow as TAP comments); then two
# tests of the run as a whole.
#
#   RAN          must be RAN: exit 0, output of luajit -joff, code made
#                executable
#   ABORTED E    must be LuaJIT's own abort: exit status 1 after its panic
#                "runtime code generation failed" (panic=codegen), E the
#                errno of the first call the kernel refused it
#   LANDED       must be LANDED (any errno)
#   BLOCKED E    must be BLOCKED with errno E, and the trace, run again,
#                must return the right value (rerun=ok)
#   UNAVAILABLE E  the library stopped LuaJIT at start-up (exit 3), its
#                probe having got E
# and every RAN, ABORTED, LANDED and BLOCKED case must show the policy
# applied: code made executable (areas >= 1), and under none nothing
# sealed, under a sealing policy every area sealed (sealed == areas) and
# no mseal refused (refused_mseal=0).
# For --jit pkey, also: every RAN workload kept its code W^X by a
# protection key (mcode=pkey: jit.util.mcodeinfo(), guest/mcodeinfo.lua),
# and every attacked area was under a key (pkey= a number other than 0).
# A case with no result line, or no matching row, fails.
#
# The run as a whole:
#   - CASES is the mode's case list (luajit/cases.sh, from the workloads
#     and expected-attacks.tsv's scenarios): a shrunk or foreign plan fails;
#   - the guest ran to the end: OUTPUT has "# cases-done N" for all N cases
#     and "# guest/run exit 0" (a panic, an oops or a timeout after the last
#     result line fails here).
# Exit status: 0 when every test passed, 1 if not, 2 on misuse.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage() { echo "usage: judge.sh [--jit debian|pkey] --mode fast|full KERNEL CASES OUTPUT" >&2; exit 2; }
jit=debian
if [ "${1:-}" = --jit ]; then [ $# -ge 2 ] || usage; jit=$2; shift 2; fi
[ $# -eq 5 ] && [ "$1" = --mode ] || usage
mode=$2 kernel=$3 cases=$4 output=$5
case $mode in fast | full) ;; *) echo "judge: unknown mode '$mode' (fast or full)" >&2; exit 2 ;; esac
[ -f "$cases" ] || { echo "judge: no cases file $cases" >&2; exit 2; }
[ -f "$output" ] || output=/dev/null

# The mode's case list, from the repository (not from the run).
LJ_WHO=judge
. "$here/cases.sh"
lj_use_jit "$jit" || exit 2
lj_read_workloads || exit 2
lj_table_attack_names || exit 2
want_cases=$(mktemp)
trap 'rm -f "$want_cases"' EXIT
lj_write_cases "$mode" >"$want_cases" || exit 2
mode_words=$(lj_mode_words "$mode")

top=$(dirname "$here")
awk -v kernel="$kernel" -v cases="$cases" -v out="$output" -v want_cases="$want_cases" \
	-v mode="$mode" -v mode_words="$mode_words" -v jit="$jit" -v registry="$top/kernel/kernels.tsv" \
	-v wtsv="$LJ_TABLE_W" -v atsv="$LJ_TABLE_A" \
	-f "$top/kernel/kernels.awk" -f "$top/scripts/result.awk" -f "$top/scripts/expect.awk" \
	-f "$here/judge.awk"
