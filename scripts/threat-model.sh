#!/usr/bin/env bash
# scripts/threat-model.sh KERNEL... - write docs/threat-model.md from
# docs/threat-model.md.in and the attack results of a run
# (build/results/KERNEL-attacks.tap, made by `make test-attacks`), and the
# matrix it shows, docs/attack-matrix.svg (report/report.sh, which writes
# the page build/report/index.html with it).
#   @ATTACK_TABLE@  the side-by-side table (scripts/attack-table.sh)
#   @HOLES@         the reasons attacks/expected.tsv gives for every
#                   attack that lands on the v1 kernel under card/all
#   @MSEAL_LANDED@  the scenarios measured LANDED on the mseal kernel
#                   under card or all, or "none"
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

# Holes: the reasons of the LANDED rows for the mseal kernel under card/all.
awk -F'\t' '!/^#/ && NF >= 6 && $4 == "LANDED" && ($3 == "v1" || $3 == "*") &&
	$2 != "none" && $6 != "" && $6 != "-" && !seen[$1 FS $6]++ {
	printf "- `%s` (%s): %s\n", $1, ($2 == "*" ? "any policy" : $2), $6
}' "$top/attacks/expected.tsv" >"$work/holes"

# Measured, not expected: what lands on mseal under card or all.
mseal_landed=$(awk '/^# result kernel=mseal / && / outcome=LANDED / &&
	(/ policy=card / || / policy=all /) {
		for (i = 1; i <= NF; i++) if ($i ~ /^scenario=/) print "`" substr($i, 10) "`"
	}' "${RESULTS:-$top/build/results}/mseal-attacks.tap" 2>/dev/null | sort -u | paste -sd, | sed 's/,/, /g')

"$top/luajit/summary.sh" --section "$@" >"$work/luajit" || {
	echo "threat-model: no LuaJIT matrix for every kernel (make luajit-attacks)" >&2
	exit 1
}
"$top/luajit/summary.sh" --jit pkey --section "$@" >"$work/luajit-pkey" || {
	echo "threat-model: no matrix of the patched LuaJIT for every kernel (make luajit-attacks)" >&2
	exit 1
}

awk -v table="$work/table" -v holes="$work/holes" -v landed="${mseal_landed:-none}" \
	-v luajit="$work/luajit" -v luajit_pkey="$work/luajit-pkey" '
	$0 == "@ATTACK_TABLE@" { while ((getline l < table) > 0) print l; next }
	$0 == "@HOLES@" { while ((getline l < holes) > 0) print l; next }
	$0 == "@LUAJIT@" { while ((getline l < luajit) > 0) print l; next }
	$0 == "@LUAJIT_PKEY@" { while ((getline l < luajit_pkey) > 0) print l; next }
	{ gsub(/@MSEAL_LANDED@/, landed); print }' "$in" >"$out"
echo "wrote $out"
