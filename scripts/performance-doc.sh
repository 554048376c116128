#!/usr/bin/env bash
# scripts/performance-doc.sh [TSV] - write docs/performance.md from
# docs/performance.md.in and a scripts/bench-kernel.sh run (default
# build/results/bench-kernel.tsv), and draw docs/performance.svg with
# gnuplot: a panel per comparison scripts/bench-summary.awk makes (each
# kernel against its base, sealed against unsealed, refused against
# performed, mseal() itself, a different kernel), as the page draws them.
#   @RUN@     what the run measured: kernels, boots, cases
#   @TABLES@  the tables of scripts/bench-summary.sh
#   @CHART@   the chart, or why there is none (no kernel ran beside its base)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tsv=${1:-$top/build/results/bench-kernel.tsv}
in=$top/docs/performance.md.in
out=$top/docs/performance.md
svg=$top/docs/performance.svg
[ -f "$tsv" ] || { echo "performance-doc: no $tsv (run scripts/bench-kernel.sh)" >&2; exit 2; }
command -v gnuplot >/dev/null || { echo "performance-doc: gnuplot missing (apt-get install gnuplot-nox)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$top/scripts/bench-summary.sh" --chart "$work" "$tsv" >"$work/tables"
run=$(awk -F'\t' 'NR > 1 {
	if (!($1 in k)) { k[$1] = 1; ks = ks (ks == "" ? "" : ", ") "`" $1 "`" }
	if (!($2 in c)) { c[$2] = 1; nc++ }
	if ($3 > boots) boots = $3
} END { printf "%d boots of each of %s, %d cases", boots, ks, nc }' "$tsv")

# One panel per comparison of the summary (scripts/bench-summary.awk's, the
# page's too): bars of each kernel's change, with ranges, titled as the
# summary titles it.
panel() {
	local name=$1 col=2 plot= k title
	[ -s "$work/$name.dat" ] || return 0
	while read -r k; do
		plot+="${plot:+, }'$work/$name.dat' using $col:$((col + 1)):$((col + 2))"
		[ $col = 2 ] && plot+=":xtic(1)"
		plot+=" title '$k'"
		col=$((col + 3))
	done <"$work/$name.kernels"
	title=$(awk -F'\t' -v p="$name" '$1 == "T" && $2 == p { print $3 ": " $4 }' "$work/summary")
	printf 'set title "%s"\nplot %s\n' "${title//\"/\'}" "$plot"
}
mapfile -t names < <(awk -F'\t' '$1 == "T" { print $2 }' "$work/summary")
panels=0
for f in "${names[@]}"; do [ -s "$work/$f.dat" ] && panels=$((panels + 1)); done
chart_md="![each case's cost against what it is compared with, per kernel](performance.svg)"
if [ $panels -eq 0 ]; then
	echo "performance-doc: no case measured on a kernel and what it is compared with: no chart" >&2
	rm -f "$svg"
	chart_md="(No chart: this run measured no kernel beside what it is compared with.)"
else
	{
		cat <<GP
set terminal svg size 1200,$((panels * 420)) dynamic font "sans,11" noenhanced
set output '$svg.tmp'
set datafile missing '?'
set style data histogram
set style histogram errorbars gap 1 lw 1
set style fill solid 0.7 border -1
set ylabel 'change in cost (%)'
set xtics rotate by -35 left nomirror
set grid ytics
set key top left
set xzeroaxis lt -1
set multiplot layout $panels,1
GP
		for f in "${names[@]}"; do panel "$f"; done
		echo "unset multiplot"
	} >"$work/chart.gp"
	gnuplot "$work/chart.gp"
	mv "$svg.tmp" "$svg"
fi

awk -v tables="$work/tables" -v run="$run" -v chart="$chart_md" '
	$0 == "@TABLES@" { while ((getline l < tables) > 0) print l; next }
	$0 == "@CHART@" { print chart; next }
	{ gsub(/@RUN@/, run); print }' "$in" >"$out"
if [ -f "$svg" ]; then echo "wrote $out and $svg"; else echo "wrote $out (no chart)"; fi
