#!/usr/bin/env bash
# kernel/check-series.sh - TAP: every patch of kernel-series/ builds on its
# own, applied one at a time (incremental builds in one object directory,
# with the mseal kernel's config), and the whole series also builds with
# CONFIG_MSEAL=n.  Slow (a near-full rebuild for every patch that touches
# mm.h): `make check-series`, not part of `make test`.  Needs `make kernel`.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
mseal_src=$("$top/kernel/build.sh" --fragment "$top/kernel/mseal.fragment" --tree mseal) || exit 1
root=$(dirname "$mseal_src")
src=$root/src-check
out=$root/out-check
jobs=${JOBS:-$(nproc)}
patches=()
for p in "$top"/kernel-series/0*.patch; do
	case $p in */0000-*) ;; *) patches+=("$p") ;; esac
done

git -C "$root/git" worktree prune
[ -d "$src" ] || git -C "$root/git" worktree add -q --detach "$src" pristine
git -C "$src" am --abort >/dev/null 2>&1 || true
git -C "$src" reset -q --hard pristine
mkdir -p "$out"
cp "$root/out-mseal/.config" "$out/.config"

echo "TAP version 13"
echo "1..$((${#patches[@]} + 1))"
n=0
build() { # build DESCRIPTION
	n=$((n + 1))
	if make -s -C "$src" O="$out" ARCH=x86_64 olddefconfig >"$out/check.log" 2>&1 &&
		make -s -C "$src" O="$out" ARCH=x86_64 -j"$jobs" bzImage >>"$out/check.log" 2>&1; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1"
		tail -n 15 "$out/check.log" | sed 's/^/# /'
	fi
}
for p in "${patches[@]}"; do
	git -c user.name=sealjit -c user.email=sealjit@localhost -C "$src" am -q "$p" ||
		{ echo "Bail out! $(basename "$p") does not apply"; exit 1; }
	build "builds with CONFIG_MSEAL=y after $(basename "$p")"
done
"$src/scripts/config" --file "$out/.config" --disable MSEAL
build "the whole series builds with CONFIG_MSEAL=n"
