#!/usr/bin/env bash
# scripts/threat-model.sh KERNEL... - write docs/threat-model.md from
# docs/threat-model.md.in and the attack results of a run
# (build/results/KERNEL-attacks.tap, made by `make test-attacks`), and the
# matrix it shows, docs/attack-matrix.svg (report/report.sh, which writes
# the page build/report/index.html with it).
#   @ATTACK_TABLE@  the side-by-side table (scripts/attack-table.sh)
#   @HOLES K@       the reasons attacks/expected.tsv gives for every
#                   attack that lands on kernel K under card/all
#   @LANDED K@      the scenarios measured LANDED on kernel K under card
#                   or all, or "none"
#   @KEY_COUNTS G...@  per scenario group G (report/scenario-groups.tsv),
#                   kernel and key-space policy: how many of its scenarios
#                   LANDED and were BLOCKED in this run
#   @REALJIT NAME@  the real JIT NAME under every policy (realjit/summary.sh
#                   --jit NAME --section, from the full matrix of make
#                   luajit-attacks, make v8-attacks, make node24-attacks;
#                   with its cost table): "A JIT nobody here wrote"
#                   (luajit), LuaJIT with realjit/luajit/series/ (luajit-pkey), V8
#                   (v8), V8 13.6 without and with its key (node24,
#                   node24-key)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
in=$top/docs/threat-model.md.in
out=$top/docs/threat-model.md
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$top/scripts/attack-table.sh" --markdown "$@" >"$work/table" || {
	cat "$work/table" >&2
	echo "threat-model: the run does not match attacks/expected.tsv" >&2
	exit 1
}
# The matrix as a picture, with the page.
"$top/report/report.sh" --kernels "$*" --svg "$top/docs/attack-matrix.svg" \
	"${RESULTS:-$top/build/results}" "$top/build/report" >&2 || {
	echo "threat-model: report/report.sh could not draw this run (above)" >&2
	exit 1
}
# The legend lines the table ends with become a paragraph.
grep '^|' "$work/table" >"$work/rows"
grep -v '^|' "$work/table" | sed '/^$/d' >"$work/legend"
{ cat "$work/rows"; echo; cat "$work/legend"; } >"$work/table"

mkdir -p "$work/sections"
for jit in $(sed -n 's/^@REALJIT \([a-z0-9-]*\)@$/\1/p' "$in"); do
	"$top/realjit/summary.sh" --jit "$jit" --section "$@" >"$work/sections/$jit" || {
		echo "threat-model: no full matrix of $jit for every kernel (make luajit-attacks, make v8-attacks, make node24-attacks)" >&2
		exit 1
	}
done

# The template, filled in (scripts/threat-model.awk).
awk -v registry="$top/kernel/kernels.tsv" -v expected="$top/attacks/expected.tsv" \
	-v results="${RESULTS:-$top/build/results}" -v table="$work/table" -v sections="$work/sections" \
	-v groups="$top/report/scenario-groups.tsv" -v kernels="$*" \
	-f "$top/scripts/kernels.awk" -f "$top/scripts/result.awk" -f "$top/scripts/expect.awk" \
	-f "$top/scripts/threat-model.awk" "$in" >"$out"
echo "wrote $out"
