#!/usr/bin/env bash
# kernel/export-series.sh DEVTREE [BASE]
#
# Regenerate kernel-series/ from a kernel git tree where the series is
# developed as commits on top of BASE (default: the tag "pristine" that
# kernel/build.sh makes).  The cover letter's text is the branch
# description (git branch --edit-description).  --zero-commit and a fixed
# --abbrev keep the patch files, and so the build cache key, stable across
# rebases that do not change any patch and across repositories of any size.
set -euo pipefail
tree=${1:?usage: kernel/export-series.sh DEVTREE [BASE]}
base=${2:-pristine}
out=$(cd "$(dirname "$0")/.." && pwd)/kernel-series
rm -f "$out"/*.patch
git -C "$tree" format-patch -q --zero-commit --abbrev=9 --cover-letter \
	--cover-from-description=subject -o "$out" "$base"..HEAD
ls "$out"
