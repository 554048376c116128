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
#   @LUAJIT@        "A JIT nobody here wrote": Debian's LuaJIT under every
#                   policy (luajit/summary.sh --section, from the full
#                   matrix of make luajit-attacks)
#   @LUAJIT_PKEY@   the same for LuaJIT with luajit-series/ (summary.sh
#                   --jit pkey --section), with make luajit-pkey-cost's table
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

"$top/luajit/summary.sh" --section "$@" >"$work/luajit" || {
	echo "threat-model: no LuaJIT matrix for every kernel (make luajit-attacks)" >&2
	exit 1
}
"$top/luajit/summary.sh" --jit pkey --section "$@" >"$work/luajit-pkey" || {
	echo "threat-model: no matrix of the patched LuaJIT for every kernel (make luajit-attacks)" >&2
	exit 1
}

# The template, filled in (scripts/threat-model.awk).
awk -v registry="$top/kernel/kernels.tsv" -v expected="$top/attacks/expected.tsv" \
	-v results="${RESULTS:-$top/build/results}" -v table="$work/table" -v luajit="$work/luajit" \
	-v luajit_pkey="$work/luajit-pkey" \
	-f "$top/kernel/kernels.awk" -f "$top/scripts/result.awk" -f "$top/scripts/expect.awk" \
	-f "$top/scripts/threat-model.awk" "$in" >"$out"
echo "wrote $out"
