#!/usr/bin/env bash
# kernel/check-series.sh - TAP: every patch of kernel-series/ builds on its
# own, applied one at a time with the mseal kernel's config (one flavor,
# "check", rebuilt incrementally by kernel/build.sh after each patch, so
# the compiler cache serves every file a patch does not change), and the
# whole series also builds with CONFIG_MSEAL=n (flavor "check-nomseal").
# Where a patch's tree has the selftest, it must build too (-Werror).
# `make check-series`, not part of `make test`.  Needs `make kernel`.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
patches=()
for p in "$top"/kernel-series/0*.patch; do
	case $p in */0000-*) ;; *) patches+=("$p") ;; esac
done

echo "TAP version 13"
echo "1..$((${#patches[@]} + 1))"
n=0
build() { # build DESCRIPTION BUILD.SH-ARGS...
	local desc=$1
	shift
	n=$((n + 1))
	if SEALJIT_BUILD=$work "$top/kernel/build.sh" "$@" >"$work/log" 2>&1; then
		echo "ok $n - $desc ($(sed -n 's/.*built in \([0-9]* s\).*/\1/p' "$work/log"))"
	else
		echo "not ok $n - $desc"
		tail -n 15 "$work/log" | sed 's/^/# /'
	fi
}
for i in "${!patches[@]}"; do
	build "builds with CONFIG_MSEAL=y after $(basename "${patches[$i]}")" \
		--fragment "$top/kernel/mseal.fragment" check "${patches[@]:0:$((i + 1))}"
done
build "the whole series builds with CONFIG_MSEAL=n" check-nomseal "${patches[@]}"
