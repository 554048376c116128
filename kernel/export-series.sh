#!/usr/bin/env bash
# kernel/export-series.sh SERIES DEVTREE [BASE]
#
# Regenerate kernel-series/SERIES/ (6.1 or 6.12, see kernel/series-info.sh)
# from a kernel git tree where the series is developed as commits on top of
# BASE (default: the tag "pristine" that kernel/build.sh makes).  The cover
# letter's text is the branch description (git branch --edit-description).
# --zero-commit and a fixed --abbrev keep the patch files, and so the build
# cache key, stable across rebases that do not change any patch and across
# repositories of any size.  The patches are written to a scratch
# directory first and replace the old ones only when git format-patch has
# succeeded and written at least one patch besides the cover letter: a
# failed export leaves the series as it was.
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
# beside the series, so that the move is a rename on the same file system
new=$(mktemp -d "$series_dir/.export.XXXXXX")
trap 'rm -rf "$new"' EXIT
git -C "$tree" format-patch -q --zero-commit --abbrev=9 --cover-letter \
	--cover-from-description=subject -o "$new" "$base"..HEAD ||
	{ echo "kernel/export-series.sh: git format-patch failed; $series_dir is unchanged" >&2; exit 1; }
found=0
for p in "$new"/0*.patch; do case $p in */0000-*) ;; *) [ ! -f "$p" ] || found=$((found + 1)) ;; esac; done
[ $found -gt 0 ] ||
	{ echo "kernel/export-series.sh: no commits in $base..HEAD of $tree; $series_dir is unchanged" >&2; exit 1; }
rm -f "$series_dir"/*.patch
mv "$new"/*.patch "$series_dir"/
ls "$series_dir"
