#!/usr/bin/env bash
# scripts/bench-summary.sh [--chart DIR] TSV - the tables of a
# scripts/bench-kernel.sh run, in Markdown: scripts/bench-summary.awk
# summarises it (medians, ranges, every comparison, each kernel against its
# base in kernel/kernels.tsv), scripts/bench-tables.awk writes the tables
# and the goals (their comments say what each shows).  --chart DIR also
# keeps the summary, DIR/summary, which report/cost-svg.awk draws the chart
# from (scripts/performance-doc.sh: docs/performance.svg; the page's is the
# same drawing of the same summary).
# Exit status: 0, 1 for a malformed TSV (what is wrong on stderr), 2 on misuse.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
chart=
[ "${1:-}" = --chart ] && { [ $# -ge 2 ] || exit 2; chart=$2; shift 2; }
tsv=${1:?usage: scripts/bench-summary.sh [--chart DIR] TSV}
[ -f "$tsv" ] || { echo "bench-summary: no $tsv" >&2; exit 2; }
[ -z "$chart" ] || mkdir -p "$chart"
if [ -n "$chart" ]; then
	summary=$chart/summary
else
	summary=$(mktemp)
	trap 'rm -f "$summary"' EXIT
fi
registry=(-v registry="$top/kernel/kernels.tsv" -f "$top/scripts/kernels.awk")
awk "${registry[@]}" -f "$top/scripts/bench-summary.awk" "$tsv" >"$summary" || exit 1
awk "${registry[@]}" -f "$top/scripts/bench-tables.awk" "$summary"
