#!/usr/bin/env bash
# kernel/export-series.sh SERIES DEVTREE [BASE]
#
# Regenerate kernel-series/SERIES/ (6.1 or 6.12, see kernel/series-info.sh)
# from a kernel git tree where the series is developed as commits on top of
# BASE (default: the tag "pristine" that kernel/build.sh makes).  The cover
# letter's text is the branch description (git branch --edit-description).
# --zero-commit and a fixed --abbrev keep the patch files, and so the build
# cache key, stable across rebases that do not change any patch and across
# repositories of any size.
set -euo pipefail
usage="usage: kernel/export-series.sh SERIES DEVTREE [BASE]"
[ $# -ge 2 ] && [ $# -le 3 ] || { echo "$usage" >&2; exit 2; }
. "$(dirname "$0")/series-info.sh"
series_info "$1" || exit 2
tree=$2
base=${3:-pristine}
git -C "$tree" rev-parse --verify -q "$base^{commit}" >/dev/null ||
	{ echo "kernel/export-series.sh: $tree has no commit '$base'" >&2; exit 1; }
mkdir -p "$series_dir"
rm -f "$series_dir"/*.patch
git -C "$tree" format-patch -q --zero-commit --abbrev=9 --cover-letter \
	--cover-from-description=subject -o "$series_dir" "$base"..HEAD
ls "$series_dir"
