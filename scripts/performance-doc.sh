#!/usr/bin/env bash
# scripts/performance-doc.sh [TSV] - write docs/performance.md from
# docs/performance.md.in and a scripts/bench-kernel.sh run (default
# build/results/bench-kernel.tsv), and draw docs/performance.svg with
# report/cost-svg.awk, as the page draws it: a panel per comparison
# scripts/bench-summary.awk charts (each kernel against its base, sealed
# against unsealed, refused against performed, mseal() itself; a different
# kernel is a table, not a panel).
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
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$top/scripts/bench-summary.sh" --chart "$work" "$tsv" >"$work/tables"
run=$(awk -F'\t' 'NR > 1 {
	if (!($1 in k)) { k[$1] = 1; ks = ks (ks == "" ? "" : ", ") "`" $1 "`" }
	if (!($2 in c)) { c[$2] = 1; nc++ }
	if ($3 > boots) boots = $3
} END { printf "%d boots of each of %s, %d cases", boots, ks, nc }' "$tsv")

# The chart: report/cost-svg.awk's drawing of the summary, the page's own.
chart_md="![each kernel's cost against its base, sealed against unsealed, refused against performed, mseal() itself: median and range of the boots](performance.svg)"
if awk -v registry="$top/kernel/kernels.tsv" -v problems=/dev/stderr -f "$top/scripts/kernels.awk" \
	-f "$top/scripts/result.awk" -f "$top/scripts/expect.awk" \
	-f "$top/scripts/page.awk" -f "$top/report/cost-svg.awk" "$work/summary" >"$work/chart.svg"; then
	mv "$work/chart.svg" "$svg"
else
	echo "performance-doc: no case measured on a kernel and what it is compared with: no chart" >&2
	rm -f "$svg"
	chart_md="(No chart: this run measured no kernel beside what it is compared with.)"
fi

awk -v tables="$work/tables" -v run="$run" -v chart="$chart_md" '
	$0 == "@TABLES@" { while ((getline l < tables) > 0) print l; next }
	$0 == "@CHART@" { print chart; next }
	{ gsub(/@RUN@/, run); print }' "$in" >"$out"
if [ -f "$svg" ]; then echo "wrote $out and $svg"; else echo "wrote $out (no chart)"; fi
