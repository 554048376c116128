#!/usr/bin/env bash
# tests/kernel-build.sh - TAP checks of kernel/build.sh's own behaviour:
# bad input gets a clear message and a non-zero exit, an unchanged key
# rebuilds nothing, and a changed patch rebuilds what it touches (and, with
# the flavors sharing compiled objects, only that).  Runs after `make kernel`.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/kernel/build.sh
registry=$top/kernel/kernels
source61=$("$registry" tarball vanilla) || exit 1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

. "$top/tests/tap.sh"
tap_start 13

desc="a missing kernel source is named, with the package to install"
expect nonzero 'install it with: apt-get install linux-source-6\.1 ' "$desc" \
	env SEALJIT_CACHE="$work/cache" "$build" --source "$work/linux-source-6.1.tar.xz" vanilla

# A tarball whose Makefile says 6.2 but whose name says 6.1.
mkdir -p "$work/src/linux-source-6.1"
printf 'VERSION = 6\nPATCHLEVEL = 2\nSUBLEVEL = 0\n' >"$work/src/linux-source-6.1/Makefile"
tar -cJf "$work/linux-source-6.1.tar.xz" -C "$work/src" linux-source-6.1
desc="a tarball holding another version is refused"
expect nonzero 'holds Linux 6\.2\.0, not 6\.1\.y' "$desc" \
	env SEALJIT_CACHE="$work/cache" "$build" --source "$work/linux-source-6.1.tar.xz" vanilla

desc="a missing patch file is named"
expect nonzero 'no such patch: .*nothing\.patch' "$desc" "$build" --source "$source61" mseal "$work/nothing.patch"

desc="a bad flavor name is refused"
expect nonzero "bad flavor name" "$desc" "$build" '../evil'

desc="an unknown option prints the usage"
expect nonzero 'usage: kernel/build.sh' "$desc" "$build" --frobnicate vanilla

# quickly CMD...: CMD, failing if it takes 60 s or more: a rebuild of any
# kernel takes minutes, and a loaded host (make test-busy) made the check
# of an up-to-date kernel take 12 s once, against a limit of 10.
quickly() {
	local start=$SECONDS
	"$@" || return
	[ $((SECONDS - start)) -lt 60 ] || { echo "took $((SECONDS - start)) s"; return 1; }
}
desc="an unchanged key rebuilds nothing, in under 60 s (the registry's row for mseal)"
expect 0 'mseal +up to date' "$desc" quickly "$registry" build mseal

# The key is honest: flavor keytest is the pristine tree plus a patch that
# plants a marker string in mm/util.c.  A changed patch must rebuild that
# file into the kernel (the new marker in, the old one out), and only what
# the change touches: nothing else is recompiled.
tree=$("$build" --source "$source61" --tree vanilla) || exit 1
store=$(dirname "$(dirname "$(dirname "$tree")")")/built/keytest
installed=$work/build/kernels/keytest
probe_patch() { # probe_patch WORD: a patch appending marker WORD to mm/util.c
	local dir=$work/probe-$1
	mkdir -p "$dir/a/mm" "$dir/b/mm"
	git -C "$tree" show pristine:mm/util.c >"$dir/a/mm/util.c"
	{ cat "$dir/a/mm/util.c"; echo "const char sealjit_keytest[] = \"sealjit-keytest-$1\";"; } \
		>"$dir/b/mm/util.c"
	{
		printf 'From: sealjit <sealjit@localhost>\nDate: Thu, 1 Jan 2026 00:00:00 +0000\n'
		printf 'Subject: [PATCH] keytest: marker %s\n\n---\n' "$1"
		(cd "$dir" && diff -u a/mm/util.c b/mm/util.c) | sed '1,2s/\t.*//'
	} >"$work/keytest-$1.patch"
}
keytest_build() { # keytest_build [--cached] WORD
	local ask=()
	[ "$1" != --cached ] || { ask=(--cached); shift; }
	probe_patch "$1"
	SEALJIT_BUILD=$work/build "$build" --source "$source61" "${ask[@]}" keytest "$work/keytest-$1.patch"
}
# The markers in the kernel installed in build/ (read from the kernel
# itself, not from the cache's tree, which another clone may move on).
installed_markers() {
	"$tree/scripts/extract-vmlinux" "$installed/bzImage" | grep -ao 'sealjit-keytest-[A-Z]' | sort -u
}
# keytest WORD: build flavor keytest with marker WORD; the kernel must hold
# that marker and no other.
keytest() {
	keytest_build "$1" >"$work/out" 2>&1 || { cat "$work/out"; return 1; }
	cat "$work/out"
	[ "$(installed_markers)" = "sealjit-keytest-$1" ] ||
		{ echo "the kernel holds markers: $(installed_markers | tr '\n' ' ')"; return 1; }
	echo "holds marker $1"
}
compiled() { sed -n 's/.*built in .*(\([0-9]*\) objects compiled.*/\1/p' "$work/out"; }
# The first marker whose kernel the cache does not hold, or (--cached) does,
# other than $2.
marker() { # marker [--cached] [NOT]
	local want=3 w
	[ "${1:-}" != --cached ] || { want=0; shift; }
	for w in A B C D E F G H I J K L M N O P Q R S T U V W X Y Z; do
		[ "$w" != "${1:-}" ] || continue
		keytest_build --cached "$w" >/dev/null 2>&1
		[ $? = "$want" ] && { echo "$w"; return 0; }
	done
	return 1
}

# One change a run: to a marker the cache does not hold.
word=$(marker) || { echo "Bail out! every marker's kernel is cached: kernel/build.sh keeps none or all"; exit 1; }
desc="a changed patch rebuilds: the kernel holds the new marker ($word) and not the old one"
expect 0 "holds marker $word" "$desc" keytest "$word"
count=$(compiled)
desc="and rebuilds only what the change touches ($count objects compiled)"
[ -n "$count" ] && [ "$count" -le 20 ]
tap_result $? "$desc"
desc="the same patch again rebuilds nothing"
expect 0 'keytest +up to date' "$desc" keytest "$word"

# Two clones at two keys share one tree, which holds the last key built;
# each key's kernel stays in the cache, so going back to an earlier key
# (the previous run's marker) rebuilds nothing.  The first run on a machine
# has no earlier key: it builds one more, and goes back to $word.
back=$(marker --cached "$word") || {
	second=$(marker "$word") && keytest "$second" >"$work/second" ||
		{ cat "$work/second"; echo "Bail out! building a second marker failed"; exit 1; }
	back=$word
}
from_cache() { # from_cache WORD: keytest WORD, which must build nothing
	keytest "$1" | tee "$work/back" || return 1
	grep -qE 'keytest +up to date' "$work/back" || { echo "(built, not copied)"; return 1; }
}
desc="going back to an earlier key ($back) copies its kernel from the cache, building nothing"
expect 0 "holds marker $back" "$desc" from_cache "$back"
# A copy in build/ that was emptied since (as one was once, by a cause
# not found) is copied again from the cache, not booted empty.
: >"$installed/bzImage"
desc="an installed kernel emptied since is copied again, up to date, byte for byte"
expect 0 'keytest +up to date' "$desc" keytest "$back"
cmp -s "$installed/bzImage" "$store/$(cat "$installed/key")/bzImage"
tap_result $? "... the kernel in build/ is the cache's again"
keep=$(sed -n 's/^KEEP_KEYS=//p' "$build")
desc="the cache keeps the last $keep keys of a flavor, no more"
[ -n "$keep" ] && [ "$(find "$store" -mindepth 1 -maxdepth 1 | wc -l)" -le "$keep" ]
tap_result $? "$desc"
tap_end
