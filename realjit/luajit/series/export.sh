#!/usr/bin/env bash
# realjit/luajit/series/export.sh DEVTREE BASE - regenerate this folder's patches
# from a git tree of Debian's luajit source (build.sh --source-only prints
# the pristine one; copy it and `git init` it) where the series is
# developed as commits on top of BASE.  The cover letter's text is the
# branch description (git branch --edit-description): its first paragraph
# is the subject.  --zero-commit and a fixed --abbrev keep the files, and
# so build.sh's cache key, stable across rebases that change no patch.
# A failed export (or one with no commits) leaves the folder as it was.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: realjit/luajit/series/export.sh DEVTREE BASE" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
tree=$1 base=$2
git -C "$tree" rev-parse --verify -q "$base^{commit}" >/dev/null ||
	{ echo "realjit/luajit/series/export.sh: $tree has no commit '$base'" >&2; exit 1; }
new=$(mktemp -d "$here/.export.XXXXXX")
trap 'rm -rf "$new"' EXIT
git -C "$tree" format-patch -q --zero-commit --abbrev=9 --cover-letter \
	--cover-from-description=subject -o "$new" "$base"..HEAD ||
	{ echo "realjit/luajit/series/export.sh: git format-patch failed; the series is unchanged" >&2; exit 1; }
ls "$new"/0001-*.patch >/dev/null 2>&1 ||
	{ echo "realjit/luajit/series/export.sh: no commits in $base..HEAD; the series is unchanged" >&2; exit 1; }
rm -f "$here"/0*.patch
mv "$new"/*.patch "$here"/
ls "$here"/0*.patch
