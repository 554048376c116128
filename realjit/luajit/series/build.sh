#!/usr/bin/env bash
# realjit/luajit/series/build.sh [--source-only] [FLAVOR...] - Debian's luajit
# source package, fetched with `apt-get source`, built in the cache as
# Debian builds it (debian/rules: `make amalg` with dpkg-buildflags), in
# two flavors (default: both):
#
#   plain  the source as Debian ships it (its own patches applied by
#          dpkg-source): the control, built by the same recipe
#   pkey   plus this folder's series, applied with `patch -p1`
#
# Everything lives in the cache ($SEALJIT_CACHE, default ~/.cache/sealjit),
# never in the repository:
#   luajit-VERSION/dl/         what apt-get source fetched (.dsc, tarballs)
#   luajit-VERSION/pristine/   the unpacked source (dpkg-source -x)
#   luajit-VERSION/FLAVOR-KEY/ a built tree; KEY hashes the series, this
#                              recipe and the build flags: an unchanged key
#                              builds nothing
# and each flavor's binary is copied, stripped, to $BUILD/FLAVOR/luajit (default
# BUILD=build/luajit-series), its Lua modules (jit.v, jit.dump...) to
# $BUILD/FLAVOR/jit/, with $BUILD/FLAVOR/version saying what it is.
#
# --source-only  fetch and unpack, print the pristine tree's path, build
#                nothing
#
# One line on stderr and exit 1 when apt has no deb-src entry
# (scripts/deb-src.sh), apt-get source fails or takes longer than
# APT_TIMEOUT seconds (default 300), the series does not apply, or the
# build fails (its log is named); exit 2 on misuse.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$(dirname "$here")")")
RECIPE_VERSION=1
cache=${SEALJIT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sealjit}
BUILD=${BUILD:-$top/build/luajit-series}
case $BUILD in /*) ;; *) BUILD=$top/$BUILD ;; esac
apt_timeout=${APT_TIMEOUT:-300}
unset MAKEFLAGS MFLAGS MAKELEVEL

die() { echo "luajit-series: $*" >&2; exit 1; }
usage() { sed -n '2,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0" >&2; exit 2; }

source_only=
flavors=()
while [ $# -gt 0 ]; do
	case $1 in
	--source-only) source_only=1; shift ;;
	plain | pkey) flavors+=("$1"); shift ;;
	-h | --help) usage ;;
	*) echo "luajit-series: unknown flavor or option '$1' (plain, pkey, --source-only)" >&2; usage ;;
	esac
done
[ ${#flavors[@]} -gt 0 ] || flavors=(plain pkey)

series() { find "$here" -maxdepth 1 -name '0*.patch' ! -name '0000-*' | LC_ALL=C sort; }

# The version apt-get source would fetch: the .dsc it names.
source_version() {
	local uris dsc
	uris=$(timeout "$apt_timeout" apt-get source --print-uris -qq luajit 2>&1) ||
		die "apt-get source --print-uris luajit failed: $(tail -n 1 <<<"$uris")"
	dsc=$(sed -n "s/^'[^']*' \(luajit_[^ ]*\.dsc\) .*/\1/p" <<<"$uris" | head -n 1)
	[ -n "$dsc" ] || die "apt-get source names no luajit .dsc: $(tail -n 1 <<<"$uris")"
	dsc=${dsc#luajit_}
	echo "${dsc%.dsc}"
}

fetch() {
	"$top/scripts/deb-src.sh" check
	mkdir -p "$cache"
	# one build at a time in the cache (make -j, other work trees)
	exec 9>"$cache/luajit.lock"
	flock 9
	version=$(source_version)
	src=$cache/luajit-$version
	[ -f "$src/pristine/src/lj_mcode.c" ] && return 0
	mkdir -p "$src"
	rm -rf "$src/dl" "$src/pristine"
	mkdir "$src/dl"
	(cd "$src/dl" && timeout "$apt_timeout" apt-get source -qq --download-only "luajit=$version" \
		>apt.log 2>&1) || die "apt-get source luajit=$version failed: $(tail -n 1 "$src/dl/apt.log")"
	dpkg-source -x "$src"/dl/luajit_*.dsc "$src/pristine.tmp" >"$src/dl/dpkg-source.log" 2>&1 ||
		die "dpkg-source -x failed: $(tail -n 1 "$src/dl/dpkg-source.log")"
	rm -rf "$src/pristine.tmp/.pc"
	mv "$src/pristine.tmp" "$src/pristine"
}

# Debian's flags (debian/rules builds under dh, which exports them), as
# they are in the source's own folder: dpkg-buildflags maps the current
# directory away (-ffile-prefix-map=DIR=.), and a key that held the
# caller's directory made every work tree rebuild, and remove, the others'
# builds.
build_flags() { (cd "$src" && dpkg-buildflags --export=sh) | LC_ALL=C sort; }

flavor_key() {
	local f
	{
		echo "recipe $RECIPE_VERSION $version"
		build_flags
		gcc --version | head -n 1
		if [ "$1" = pkey ]; then
			for f in $(series); do sha256sum <"$f"; done
		fi
	} | sha256sum | cut -c 1-16
}

build_flavor() {
	local flavor=$1 key tree log f
	key=$(flavor_key "$flavor")
	tree=$src/$flavor-$key
	if [ ! -x "$tree/src/luajit" ]; then
		rm -rf "$src/$flavor"-* "$tree.tmp"
		cp -a "$src/pristine" "$tree.tmp"
		if [ "$flavor" = pkey ]; then
			for f in $(series); do
				patch -d "$tree.tmp" -p1 --batch --quiet <"$f" >"$tree.tmp/patch.log" 2>&1 ||
					die "$(basename "$f") does not apply to luajit $version: $(tail -n 1 "$tree.tmp/patch.log")"
			done
		fi
		log=$src/$flavor-build.log
		echo "luajit-series: building $flavor luajit $version (log: $log)" >&2
		(
			cd "$tree.tmp"
			eval "$(dpkg-buildflags --export=sh)"
			make amalg PREFIX=/usr Q= E=@: -j"${JOBS:-$(nproc)}"
		) >"$log" 2>&1 || die "building $flavor luajit $version failed (log: $log)"
		mv "$tree.tmp" "$tree"
	fi
	mkdir -p "$BUILD/$flavor"
	# stripped as dh_strip strips an executable
	strip --remove-section=.comment --remove-section=.note \
		-o "$BUILD/$flavor/luajit.tmp" "$tree/src/luajit"
	mv "$BUILD/$flavor/luajit.tmp" "$BUILD/$flavor/luajit"
	# the JIT's Lua modules (jit.v for -jv, jit.dump...): LUA_PATH=$BUILD/FLAVOR/?.lua
	rm -rf "$BUILD/$flavor/jit"
	cp -r "$tree/src/jit" "$BUILD/$flavor/jit"
	printf 'luajit %s, %s, key %s\n' "$version" \
		"$([ "$flavor" = pkey ] && echo "with realjit/luajit/series/ ($(series | wc -l) patches)" || echo "as Debian ships it")" \
		"$key" >"$BUILD/$flavor/version"
}

fetch
if [ -n "$source_only" ]; then echo "$src/pristine"; exit 0; fi
for f in "${flavors[@]}"; do build_flavor "$f"; done
