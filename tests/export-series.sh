#!/usr/bin/env bash
# tests/export-series.sh - TAP checks of kernel/export-series.sh, on a copy
# of it in a scratch tree (the repository's kernel-series/ is never
# touched) and a small git tree of its own: misuse and a missing base are
# refused, and an export that fails (git format-patch failing, or no
# commits to export) leaves the old series exactly as it was; a good one
# replaces every old patch and nothing else, leaving no scratch directory.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

. "$top/tests/tap.sh"
tap_start 7

mkdir -p "$work/top/kernel" "$work/top/scripts" "$work/top/kernel-series/6.1" "$work/bin"
# the script, and the registry it learns each series from (with its reader)
cp "$top/kernel/export-series.sh" "$top/kernel/series-info.sh" "$top"/kernel/kernels* \
	"$top"/kernel/*.fragment "$work/top/kernel/"
cp "$top/scripts/kernels.awk" "$work/top/scripts/"
export="$work/top/kernel/export-series.sh"
series=$work/top/kernel-series/6.1
for f in 0000-cover-letter 0001-old-one 0002-old-two; do echo "old $f" >"$series/$f.patch"; done
echo "not a patch" >"$series/NOTES"
(cd "$series" && md5sum ./*) >"$work/old.md5"

# the development tree: pristine, then one commit
tree=$work/tree
g() { git -C "$tree" -c user.name=t -c user.email=t@localhost -c commit.gpgsign=false -c tag.gpgsign=false "$@" >/dev/null 2>&1; }
git init -q -b dev "$tree"
echo base >"$tree/file"
g add file && g commit -q -m base && g tag pristine
g config branch.dev.description "mm: a test series"
echo change >>"$tree/file"
g commit -q -am "mm: one change" -m "Signed-off-by: t <t@localhost>"

# a git whose format-patch fails; everything else is the real one
realgit=$(command -v git)
printf '#!/bin/sh\nfor a; do [ "$a" = format-patch ] && { echo "fake git: format-patch fails" >&2; exit 128; }; done\nexec %s "$@"\n' \
	"$realgit" >"$work/bin/git"
chmod +x "$work/bin/git"

unchanged() { # the old series, byte for byte, and no scratch directory beside it
	(cd "$series" && md5sum -c --quiet "$work/old.md5") && [ "$(ls -A "$series" | wc -l)" -eq 4 ]
}

desc="misuse (one argument) exits 2 with the usage"
expect 2 'usage: kernel/export-series.sh' "$desc" "$export" 6.1
desc="an unknown series is refused"
expect 2 "no such series: '6.2'" "$desc" "$export" 6.2 "$tree"
desc="a tree without the base commit is refused"
expect nonzero "has no commit 'nope'" "$desc" "$export" 6.1 "$tree" nope

# failed_export PATTERN COMMAND...: exit 1 saying PATTERN, the old series as it was
failed_export() {
	local pattern=$1 rc
	shift
	"$@" >"$work/x.out" 2>&1
	rc=$?
	cat "$work/x.out"
	[ $rc -eq 1 ] || { echo "exit $rc"; return 1; }
	grep -qE "$pattern" "$work/x.out" && unchanged
}
desc="git format-patch failing: exit 1 saying so, the old series as it was"
expect 0 '' "$desc" failed_export 'git format-patch failed; .* is unchanged' env PATH="$work/bin:$PATH" "$export" 6.1 "$tree"
desc="no commits to export: exit 1 saying so, the old series as it was"
expect 0 '' "$desc" failed_export 'no commits in HEAD\.\.HEAD .* is unchanged' "$export" 6.1 "$tree" HEAD

# good_export: exit 0, and the series is the new patches and NOTES, nothing else
printf '%s\n' 0000-cover-letter.patch 0001-mm-one-change.patch NOTES >"$work/want"
good_export() {
	"$export" 6.1 "$tree" || return
	ls -A "$series" | diff - "$work/want"
}
desc="a good export replaces every old patch and nothing else, no scratch directory left"
expect 0 '' "$desc" good_export
desc="its cover letter's subject is the branch description"
expect 0 'Subject: \[PATCH 0/1\] mm: a test series' "$desc" cat "$series/0000-cover-letter.patch"
tap_end
