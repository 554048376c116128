#!/usr/bin/env bash
# tests/kernel-build.sh - TAP checks of kernel/build.sh's own behaviour:
# bad input gets a clear message and a non-zero exit, and an unchanged
# key rebuilds nothing.  Runs after `make kernel`.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/kernel/build.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "TAP version 13"
echo "1..6"
. "$top/tests/tap-expect.sh"

desc="a missing kernel source is named, with the package to install"
expect nonzero 'install it with: apt-get install linux-source-6\.1 ' \
	env SEALJIT_CACHE="$work/cache" "$build" --source "$work/linux-source-6.1.tar.xz" vanilla

# A tarball whose Makefile says 6.2 but whose name says 6.1.
mkdir -p "$work/src/linux-source-6.1"
printf 'VERSION = 6\nPATCHLEVEL = 2\nSUBLEVEL = 0\n' >"$work/src/linux-source-6.1/Makefile"
tar -cJf "$work/linux-source-6.1.tar.xz" -C "$work/src" linux-source-6.1
desc="a tarball holding another version is refused"
expect nonzero 'holds Linux 6\.2\.0, not 6\.1\.y' \
	env SEALJIT_CACHE="$work/cache" "$build" --source "$work/linux-source-6.1.tar.xz" vanilla

desc="a missing patch file is named"
expect nonzero 'no such patch: .*nothing\.patch' "$build" mseal "$work/nothing.patch"

desc="a bad flavor name is refused"
expect nonzero "bad flavor name" "$build" '../evil'

desc="an unknown option prints the usage"
expect nonzero 'usage: kernel/build.sh' "$build" --frobnicate vanilla

# quickly CMD...: CMD, failing if it takes 10 s or more.
quickly() {
	local start=$SECONDS
	"$@" || return
	[ $((SECONDS - start)) -lt 10 ] || { echo "took $((SECONDS - start)) s"; return 1; }
}
desc="an unchanged key rebuilds nothing, in under 10 s"
expect 0 'mseal +up to date' quickly "$build" --fragment "$top/kernel/mseal.fragment" mseal \
	$(ls "$top"/kernel-series/0*.patch | grep -v /0000-)
