#!/usr/bin/env bash
# kernel/build.sh [--source TARBALL] [--fragment FILE]... FLAVOR [PATCH...]
#     - build one guest kernel in the cache.  Every kernel gets
#     kernel/config.fragment on top of tinyconfig, plus each --fragment.
# kernel/build.sh [--source TARBALL] --tree FLAVOR - print where that
#     kernel's source tree is.
# kernel/build.sh --cached [--fragment FILE]... FLAVOR [PATCH...] - exit 0
#     when the cache holds this very build (same key), 3 when it does not;
#     builds and copies nothing.
#
# FLAVOR names the kernel (vanilla, mseal, ...); the PATCH files are applied
# in order with `git am` on top of a pristine untar of a Debian
# linux-source-X.Y tarball (default: $LINUX_TARBALL, or
# /usr/src/linux-source-6.1.tar.xz).  Everything lives outside the
# repository:
#
#   $SEALJIT_CACHE/linux-<ver>/git        pristine source, one commit, tag "pristine"
#   $SEALJIT_CACHE/linux-<ver>/am         scratch worktree where the series is applied
#   $SEALJIT_CACHE/linux-<ver>/src-FLAVOR worktree that is built (reset to the am result)
#   $SEALJIT_CACHE/linux-<ver>/out-FLAVOR O= object directory
#
# The build is keyed by a hash of the series, the config fragments, the
# source version and this recipe's version.  An unchanged key rebuilds
# nothing.  A changed series is applied in the scratch worktree and the built
# worktree is moved to the new commit with `git reset --hard`, which rewrites
# only the files that differ, so kbuild recompiles incrementally.
#
# Results are copied to $SEALJIT_BUILD/kernels/FLAVOR/: bzImage, the uapi
# headers, and mseal_test (the selftest built from this flavor's own tree,
# when the tree has one).
set -euo pipefail

RECIPE_VERSION=1
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
tarball=${LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
cache=${SEALJIT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sealjit}
build=${SEALJIT_BUILD:-$top/build}
jobs=${JOBS:-$(nproc)}
fragments=("$here/config.fragment")

die() { printf 'kernel/build.sh: %s\n' "$*" >&2; exit 1; }
say() { printf '  %-8s %s\n' "$1" "$2"; }

usage="usage: kernel/build.sh [--source TARBALL] [--fragment FILE]... [--tree | --cached] FLAVOR [PATCH...]"
print_tree='' only_ask=''
while [ $# -gt 0 ]; do
	case $1 in
	--tree) print_tree=1; shift ;;
	--cached) only_ask=1; shift ;;
	--source) [ $# -ge 2 ] || die "$usage"; tarball=$2; shift 2 ;;
	--fragment)
		[ $# -ge 2 ] && [ -f "$2" ] || die "--fragment wants a config fragment file"
		fragments+=("$(realpath "$2")")
		shift 2
		;;
	-*) die "$usage" ;;
	*) break ;;
	esac
done
flavor=${1:?$usage}
shift
case $flavor in
*[!a-z0-9_-]* | '') die "bad flavor name '$flavor'" ;;
esac
patches=()
for p in "$@"; do
	[ -f "$p" ] || die "no such patch: $p"
	patches+=("$(realpath "$p")")
done

# The source: a Debian linux-source tarball, its version read once and cached.
source_version() {
	[ -f "$tarball" ] || die "missing kernel source $tarball
  install it with: apt-get install $(basename "$tarball" .tar.xz)   (or: make deps, as root)"
	local id memo
	id=$(stat -c '%s-%Y' "$tarball")
	memo=$cache/tarball-$id.version
	if [ ! -s "$memo" ]; then
		mkdir -p "$cache"
		tar -xOJf "$tarball" --wildcards --no-wildcards-match-slash \
			'*/Makefile' 2>/dev/null |
			awk -F' = ' '/^VERSION =/{v=$2} /^PATCHLEVEL =/{p=$2}
				/^SUBLEVEL =/{print v "." p "." $2; exit}' >"$memo.tmp" || true
		[ -s "$memo.tmp" ] || die "cannot read a kernel version from $tarball"
		mv "$memo.tmp" "$memo"
	fi
	cat "$memo"
}

# Debian names the tarball after the series it holds: linux-source-X.Y.
ver=$(source_version)
series=$(basename "$tarball" .tar.xz)
series=${series#linux-source-}
case $ver in
"$series".*) ;;
*) die "$tarball holds Linux $ver, not $series.y as its name says" ;;
esac
root=$cache/linux-$ver
src=$root/src-$flavor
out=$root/out-$flavor
dest=$build/kernels/$flavor

# --tree FLAVOR: where that flavor's source tree is (after a build).
if [ -n "$print_tree" ]; then
	[ -d "$src" ] || die "no tree for $flavor yet (run: make kernel)"
	echo "$src"
	exit 0
fi

key=$( {
	echo "recipe $RECIPE_VERSION source $ver flavor $flavor"
	for f in "${patches[@]}" "${fragments[@]}"; do sha256sum <"$f"; done
} | sha256sum | cut -c1-16)

# Copy what the build made to $dest: the kernel, the selftest built from
# this tree against its headers, and the list of patches.
install_results() {
	rm -rf "$dest"
	mkdir -p "$dest"
	cp "$out/arch/x86/boot/bzImage" "$dest/bzImage"
	build_selftest
	git -C "$src" log --oneline pristine..HEAD >"$dest/series.txt"
	echo "$key" >"$dest/key"
}


git_q() { git -c user.name=sealjit -c user.email=sealjit@localhost "$@"; }

# One git repository holding the pristine tree, made once per source version.
ensure_pristine_repo() {
	[ -d "$root/git/.git" ] && git -C "$root/git" rev-parse -q --verify pristine >/dev/null &&
		return 0
	say "$flavor" "unpacking $tarball (once per source version)"
	rm -rf "$root/git.tmp"
	mkdir -p "$root/git.tmp"
	tar -xJf "$tarball" -C "$root/git.tmp" --strip-components=1
	(
		cd "$root/git.tmp"
		git init -q -b base
		git add -f -A .
		git_q commit -q -m "$(basename "$tarball" .tar.xz) $ver (Debian, pristine)"
		git tag pristine
	)
	rm -rf "$root/git"
	mv "$root/git.tmp" "$root/git"
	git -C "$root/git" worktree prune
}

# Apply the series in the scratch worktree; print the resulting commit.
apply_series() {
	local am=$root/am
	if [ ! -d "$am" ]; then
		git -C "$root/git" worktree prune
		git -C "$root/git" worktree add -q --detach "$am" pristine
	fi
	git -C "$am" am --abort >/dev/null 2>&1 || true
	git -C "$am" checkout -q -f --detach pristine
	if [ ${#patches[@]} -gt 0 ] &&
		! git_q -C "$am" am -q --whitespace=nowarn "${patches[@]}" >"$root/am.log" 2>&1; then
		cat "$root/am.log" >&2
		git -C "$am" am --abort >/dev/null 2>&1 || true
		die "the series does not apply to linux $ver (see above)"
	fi
	git -C "$am" rev-parse HEAD
}

# Move the built worktree to COMMIT, rewriting only the files that differ.
checkout_tree() {
	local commit=$1
	if [ ! -d "$src" ]; then
		git -C "$root/git" worktree prune
		git -C "$root/git" worktree add -q --detach "$src" "$commit"
	else
		git -C "$src" reset -q --hard "$commit"
	fi
}

kmake() { make -s -C "$src" O="$out" ARCH=x86_64 "$@"; }

# tinyconfig + fragments, generated in a scratch object directory; the real
# .config is replaced only when its content changes, so kbuild does not see
# a new config where there is none.
configure() {
	local cfg=$root/cfg-$flavor
	mkdir -p "$cfg" "$out"
	if ! {
		make -s -C "$src" O="$cfg" ARCH=x86_64 tinyconfig &&
			(cd "$cfg" && "$src/scripts/kconfig/merge_config.sh" -m -O . \
				.config "${fragments[@]}") &&
			make -s -C "$src" O="$cfg" ARCH=x86_64 olddefconfig
	} >"$cfg/config.log" 2>&1; then
		tail -n 20 "$cfg/config.log" >&2
		die "configuring $flavor failed"
	fi
	local missing
	missing=$(grep -h '^CONFIG_.*=y$' "${fragments[@]}" | while read -r line; do
		grep -qx "$line" "$cfg/.config" || echo "$line"
	done)
	[ -z "$missing" ] || die "config fragment options did not survive olddefconfig:
$missing"
	cmp -s "$cfg/.config" "$out/.config" || cp "$cfg/.config" "$out/.config"
}

compile() {
	say "$flavor" "building bzImage (make -j$jobs, log in $out/build.log)"
	local start=$SECONDS
	if ! kmake -j"$jobs" bzImage >"$out/build.log" 2>&1; then
		tail -n 40 "$out/build.log" >&2
		die "kernel build failed for $flavor"
	fi
	kmake headers_install INSTALL_HDR_PATH="$out/usr" >/dev/null
	say "$flavor" "built in $((SECONDS - start)) s"
}

# The selftest comes from this flavor's own tree, built against its headers.
build_selftest() {
	local test=$src/tools/testing/selftests/vm/mseal_test.c
	rm -f "$dest/mseal_test"
	[ -f "$test" ] || return 0
	gcc -std=gnu11 -static -O2 -Wall -Werror \
		-isystem "$out/usr/include" -I "$src/tools/testing/selftests" \
		-o "$dest/mseal_test" "$test"
}

# The cache already holds this key's build: nothing to rebuild, at most
# the results to copy (into a fresh clone, say).
cached=
[ -f "$out/.sealjit-key" ] && [ "$(cat "$out/.sealjit-key")" = "$key" ] &&
	[ -f "$out/arch/x86/boot/bzImage" ] && cached=1
if [ -n "$only_ask" ]; then
	[ -n "$cached" ] && exit 0
	exit 3
fi
if [ -n "$cached" ]; then
	[ "$(cat "$dest/key" 2>/dev/null)" = "$key" ] && [ -f "$dest/bzImage" ] ||
		install_results
	say "$flavor" "up to date (linux $ver, key $key)"
	exit 0
fi

ensure_pristine_repo
commit=$(apply_series)
checkout_tree "$commit"
configure
compile
install_results
echo "$key" >"$out/.sealjit-key"
say "$flavor" "ready: $dest/bzImage ($(wc -l <"$dest/series.txt") patches, key $key)"
