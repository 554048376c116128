#!/usr/bin/env bash
# scripts/attack-table.sh [--markdown|--plain|--color] KERNEL... 
#
# The side-by-side table of build/results/KERNEL-attacks.tap (from
# `attacks --kernel KERNEL`): one row per scenario, one column per kernel
# and seal policy.  A cell is the errno a BLOCKED attack got (EACCES,
# EPERM), LANDED, or ERROR, summed over the four runs of each case (as
# root and without capabilities, from the process and from a forked
# child); "mixed" when those disagree.  A cell whose outcome differs from
# attacks/expected.tsv is marked "!".  Exits 1 when any cell is marked or
# a kernel has no results.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
results=${RESULTS:-$top/build/results}
mode=plain
[ -t 1 ] && [ -z "${NO_COLOR:-}" ] && mode=color
case ${1:-} in
--markdown | --plain | --color) mode=${1#--}; shift ;;
esac
[ $# -gt 0 ] || { echo "usage: scripts/attack-table.sh [--markdown|--plain|--color] KERNEL..." >&2; exit 2; }

files=()
for k in "$@"; do
	f=$results/$k-attacks.tap
	[ -f "$f" ] || { echo "attack-table: no results for $k ($f); run: make attacks" >&2; exit 1; }
	files+=("$f")
done

awk -f "$top/scripts/result.awk" -f "$top/scripts/attack-table.awk" -v mode="$mode" -v kernels="$*" "${files[@]}"
