#!/usr/bin/env bash
# kernel/build.sh --source TARBALL [--fragment FILE]... FLAVOR [PATCH...]
#     - build one guest kernel in the cache.  Every kernel gets
#     kernel/config.fragment on top of tinyconfig, plus each --fragment.
# kernel/build.sh --source TARBALL --tree FLAVOR - print where that
#     kernel's source tree is.
# kernel/build.sh --source TARBALL --cached [--fragment FILE]... FLAVOR
#     [PATCH...] - exit 0 when the cache holds this very build (same key),
#     3 when it does not; builds and copies nothing.
#
# The kernels of kernel/kernels.tsv are built with the arguments their
# rows give (kernel/kernels build NAME); this is the recipe.  FLAVOR names
# the kernel; the PATCH files are applied in order with `git am` on top of
# a pristine untar of a Debian linux-source-X.Y tarball (--source, or
# $LINUX_TARBALL).  Everything lives outside the repository:
#
#   $SEALJIT_CACHE/ccache                      compiler cache, shared by all
#   $SEALJIT_CACHE/linux-<ver>/git             pristine source, tag "pristine"
#   $SEALJIT_CACHE/linux-<ver>/am              scratch worktree for the series
#   $SEALJIT_CACHE/linux-<ver>/trees/FLAVOR/src  worktree that is built
#   $SEALJIT_CACHE/linux-<ver>/trees/FLAVOR/out  its O= object directory
#   $SEALJIT_CACHE/linux-<ver>/slot            where a flavor is built
#   $SEALJIT_CACHE/linux-<ver>/built/FLAVOR/KEY  what a build at KEY made
#
# The build is keyed by a hash of the series, the config fragments, the
# source version and this recipe's version.  An unchanged key rebuilds
# nothing.  A changed series is applied in the scratch worktree and the built
# worktree is moved to the new commit with `git reset --hard`, which rewrites
# only the files that differ, so kbuild recompiles incrementally.  What a
# build made is kept by key (the last $KEEP_KEYS keys a flavor was built or
# used at), so two clones at two keys (two branches, say) each find their
# own kernel and never rebuild each other's: a flavor has one tree, but
# going back to a key it held before copies that key's results.
#
# Flavors share compiled objects through ccache.  For a cache hit the
# compiler's input must be the same text at the same paths, so every flavor
# of a source version is compiled at one path: its tree is moved to slot/
# for the build and back to trees/FLAVOR afterwards (kbuild's dependency
# files name the slot, where the tree always is when kbuild reads them).
# A file whose preprocessed text a series does not change is compiled once
# for all flavors; `make test`'s kernel-build suite checks that a changed
# patch still rebuilds what it touches.
#
# Results are copied to $SEALJIT_BUILD/kernels/FLAVOR/: bzImage, the uapi
# headers, and mseal_test (the selftest built from this flavor's own tree,
# when the tree has one).  Long steps report progress (scripts/progress.sh).
set -euo pipefail

RECIPE_VERSION=3
KEEP_KEYS=4
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
tarball=${LINUX_TARBALL:-}
cache=${SEALJIT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sealjit}
build=${SEALJIT_BUILD:-$top/build}
jobs=${JOBS:-$(nproc)}
fragments=("$here/config.fragment")
# Every kbuild run here sizes its own jobs: a jobserver inherited from the
# make that called us is not passed to this script, and kbuild would say so.
unset MAKEFLAGS MFLAGS MAKELEVEL
. "$top/scripts/progress.sh"
. "$top/scripts/whole-number.sh"
whole_number kernel/build.sh JOBS "$jobs"

die() { progress_stop; printf 'kernel/build.sh: %s\n' "$*" >&2; exit 1; }
say() { printf '  %-8s %s\n' "$1" "$2"; }

usage="usage: kernel/build.sh --source TARBALL [--fragment FILE]... [--tree | --cached] FLAVOR [PATCH...]"
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
[ -n "$tarball" ] || die "which kernel source? --source TARBALL (kernel/kernels tarball NAME names a kernel's)"
ver=$(source_version)
series=$(basename "$tarball" .tar.xz)
series=${series#linux-source-}
case $ver in
"$series".*) ;;
*) die "$tarball holds Linux $ver, not $series.y as its name says" ;;
esac
root=$cache/linux-$ver
home=$root/trees/$flavor
slot=$root/slot
dest=$build/kernels/$flavor

# --tree FLAVOR: where that flavor's source tree is (after a build).
if [ -n "$print_tree" ]; then
	[ -d "$home/src" ] || die "no tree for $flavor yet (run: make kernel)"
	echo "$home/src"
	exit 0
fi

fragment_key=$(for f in "${fragments[@]}"; do sha256sum <"$f"; done | sha256sum | cut -c1-16)
key=$( {
	echo "recipe $RECIPE_VERSION source $ver flavor $flavor"
	for f in "${patches[@]}" "${fragments[@]}"; do sha256sum <"$f"; done
} | sha256sum | cut -c1-16)

# What a build at this key made, kept apart from the tree that made it.
stored=$root/built/$flavor/$key

# The cache already holds this key's build: its stored results, or (a
# cache from before they were stored) the flavor's tree at this key.
cached=
if [ -f "$stored/bzImage" ]; then
	cached=stored
elif [ "$(cat "$home/out/.sealjit-key" 2>/dev/null)" = "$key" ] &&
	[ -f "$home/out/arch/x86/boot/bzImage" ]; then
	cached=tree
fi
if [ -n "$only_ask" ]; then
	[ -n "$cached" ] && exit 0
	exit 3
fi

git_q() { git -c user.name=sealjit -c user.email=sealjit@localhost -c gc.auto=0 "$@"; }

# Keep what the tree at $1 (the slot right after a build, the flavor's
# home otherwise) made at this key: the kernel, the selftest built from
# this tree against its headers, and the list of patches.  Written aside
# and moved in whole: a reader never sees half of it.  The flavor's other
# keys beyond the last $KEEP_KEYS used go.
store_results() {
	local tree=$1 part=$stored.tmp-$$
	rm -rf "$part"
	mkdir -p "$part"	# and built/FLAVOR, the first time
	cp "$tree/out/arch/x86/boot/bzImage" "$part/bzImage"
	build_selftest "$tree" "$part"
	git -C "$tree/src" log --oneline pristine..HEAD >"$part/series.txt"
	echo "$key" >"$part/key"
	rm -rf "$stored"
	mv "$part" "$stored"
	ls -1dt "$root/built/$flavor"/*/ | tail -n +$((KEEP_KEYS + 1)) | xargs -r rm -rf
}

# The selftest comes from this flavor's own tree, built against its headers:
# tools/testing/selftests/vm/ on 6.1 (the series adds it), mm/ on 6.12
# (upstream's own, and the 6.12 series' extension of it).
build_selftest() { # build_selftest TREE INTO
	local test dir
	for dir in vm mm; do
		test=$1/src/tools/testing/selftests/$dir/mseal_test.c
		[ -f "$test" ] || continue
		gcc -std=gnu11 -static -O2 -Wall -Werror \
			-isystem "$1/out/usr/include" -I "$1/src/tools/testing/selftests" \
			-o "$2/mseal_test" "$test"
		return
	done
}

# Copy this key's results to $dest, marking them used now.
install_results() {
	touch "$stored"
	rm -rf "$dest"
	mkdir -p "$(dirname "$dest")"
	cp -a "$stored" "$dest.tmp-$$"
	mv "$dest.tmp-$$" "$dest"
}

# A tree at this key is read under the builds' lock (a build moves it to
# the slot), and only if it is still at this key then.
if [ "$cached" = tree ]; then
	exec 9>"$root/.lock"
	flock 9
	if [ "$(cat "$home/out/.sealjit-key" 2>/dev/null)" = "$key" ]; then
		store_results "$home"
	else
		cached=
	fi
	exec 9>&-
fi
if [ -n "$cached" ]; then
	# Byte for byte, not only the key: a copy left short or emptied by
	# anything since is copied again, never booted as it is.
	if [ "$(cat "$dest/key" 2>/dev/null)" = "$key" ] &&
		cmp -s "$stored/bzImage" "$dest/bzImage"; then
		touch "$stored"
	else
		install_results
	fi
	say "$flavor" "up to date (linux $ver, key $key)"
	exit 0
fi

# One build per source version at a time: they share the slot.
mkdir -p "$root"
exec 9>"$root/.lock"
flock 9

# How many MiB of the tarball xz has read so far: fd 8, whose file offset
# xz shares.
unpack_progress() { awk '/^pos:/ { print int($2 / 1048576) }' "/proc/$$/fdinfo/8"; }
# How many files git has stored so far (one loose object each).
stored_objects() { find "$root/git.tmp/.git/objects" -type f 2>/dev/null | wc -l; }

# One git repository holding the pristine tree, made once per source version.
# Objects are stored with light compression: they are read back at once by
# the worktrees and never sent anywhere.
ensure_pristine_repo() {
	[ -d "$root/git/.git" ] && git -C "$root/git" rev-parse -q --verify pristine >/dev/null &&
		return 0
	say "$flavor" "unpacking $tarball (once per source version)"
	local start=$SECONDS mib
	rm -rf "$root/git.tmp"
	mkdir -p "$root/git.tmp"
	mib=$(($(stat -c %s "$tarball") / 1048576))
	exec 8<"$tarball"
	progress_start "$flavor: unpacking" "$mib/MiB of the tarball" unpack_progress
	xz -dcT0 <&8 | tar -x -C "$root/git.tmp" --strip-components=1 ||
		die "cannot unpack $tarball"
	exec 8<&-
	progress_stop
	local files
	files=$(find "$root/git.tmp" -type f | wc -l)
	progress_start "$flavor: storing the source in git" "$files/files" stored_objects
	(
		cd "$root/git.tmp"
		git init -q -b base
		git config gc.auto 0
		git config core.compression 1
		git config core.looseCompression 1
		git config core.bigFileThreshold 1m
		git add -f -A .
		git_q commit -q -m "$(basename "$tarball" .tar.xz) $ver (Debian, pristine)"
		git tag pristine
	)
	progress_stop
	rm -rf "$root/git"
	mv "$root/git.tmp" "$root/git"
	git -C "$root/git" worktree prune
	say "$flavor" "unpacked in $((SECONDS - start)) s"
}

# Apply the series in the scratch worktree; print the resulting commit.
# With no series, the pristine commit: no scratch worktree to check out.
apply_series() {
	local am=$root/am
	if [ ${#patches[@]} -eq 0 ]; then
		git -C "$root/git" rev-parse pristine
		return 0
	fi
	if [ ! -d "$am" ]; then
		git -C "$root/git" worktree prune
		git -C "$root/git" worktree add -q --detach "$am" pristine
	fi
	git -C "$am" am --abort >/dev/null 2>&1 || true
	git -C "$am" checkout -q -f --detach pristine
	if ! git_q -C "$am" am -q --whitespace=nowarn "${patches[@]}" >"$root/am.log" 2>&1; then
		cat "$root/am.log" >&2
		git -C "$am" am --abort >/dev/null 2>&1 || true
		die "the series does not apply to linux $ver (see above)"
	fi
	git -C "$am" rev-parse HEAD
}

# Move a flavor's tree between its home and the slot, telling git where its
# worktree went.  A tree left in the slot by an interrupted build goes home
# first.
move_tree() { # move_tree FROM TO
	mkdir -p "$(dirname "$2")"
	mv "$1" "$2"
	[ ! -e "$2/src/.git" ] || git -C "$root/git" worktree repair "$2/src" >/dev/null 2>&1
}
clear_slot() {
	[ -d "$slot" ] || return 0
	local owner
	owner=$(cat "$slot/flavor" 2>/dev/null || true)
	case $owner in
	'' | *[!a-z0-9_-]*) rm -rf "$slot"; git -C "$root/git" worktree prune ;;
	*)
		# Its build did not finish: neither a cached result nor a seed.
		rm -f "$slot/out/.sealjit-key"
		rm -rf "$root/trees/$owner"
		move_tree "$slot" "$root/trees/$owner"
		;;
	esac
}

# Move the built worktree to COMMIT, rewriting only the files that differ.
# A new flavor's tree starts as a copy of its nearest sibling (new_tree).
checkout_tree() {
	local commit=$1
	if [ -e "$slot/src/.git" ]; then
		git -C "$slot/src" reset -q --hard "$commit"
	else
		new_tree "$commit"
	fi
}

# The sibling whose tree is nearest COMMIT: the one with the fewest objects
# that kbuild would recompile, those whose dependency files name a source
# file the two commits differ in (by its slot path) or an option the two
# flavors' fragments set differently (include/config/OPTION).  A sibling
# that did not record its fragments counts as a whole rebuild.  Prints
# "SCORE PATH", or nothing.
nearest_sibling() {
	local commit=$1 t n ours
	ours=$(merged_fragments | sort)
	for t in "$root"/trees/*; do
		[ -e "$t/src/.git" ] && [ -f "$t/out/.sealjit-key" ] || continue
		{
			git -C "$root/git" diff --name-only "$(git -C "$t/src" rev-parse HEAD)" "$commit" |
				sed "s|^|$slot/src/|"
			[ ! -f "$t/fragment-lines" ] ||
				comm -3 "$t/fragment-lines" <(echo "$ours") | sed -E 's/^\t//;
					s/^# CONFIG_([A-Za-z0-9_]+) is not set$/\1/; s/^CONFIG_([A-Za-z0-9_]+)=.*/\1/;
					s|.*|include/config/&)|'
		} >"$root/changed"
		n=0
		[ ! -s "$root/changed" ] ||
			n=$(grep -rlF -f "$root/changed" --include='.*.cmd' "$t/out" | wc -l)
		[ -f "$t/fragment-lines" ] || n=$((n + 1000000))
		echo "$n $t"
	done | sort -n | head -n 1
	rm -f "$root/changed"
}

# A new flavor's worktree, copied from the nearest sibling with its objects
# (kbuild then recompiles only what the series or the config changes: its
# dependency files name the slot, where both trees are built), or else from
# the pristine checkout of the source repository.  The copy's index learns
# the files' state, so the move to COMMIT rewrites only the files that
# differ, and they alone are newer than the sibling's objects.
new_tree() {
	local commit=$1 from base sibling
	rm -rf "$slot/src" "$slot/out"
	git -C "$root/git" worktree prune
	git -C "$root/git" worktree add -q --no-checkout --detach "$slot/src" "$commit"
	sibling=$(nearest_sibling "$commit")
	sibling=${sibling#* }
	if [ -n "$sibling" ]; then
		say "$flavor" "new tree, a copy of $(basename "$sibling")'s, objects included"
		from=$sibling/src
		base=$(git -C "$from" rev-parse HEAD)
		cp -a "$sibling/out" "$slot/out"
		rm -f "$slot/out/.sealjit-key"
	else
		say "$flavor" "new tree, a copy of the pristine source"
		from=$root/git
		base=pristine
	fi
	rsync -a --exclude=/.git "$from/" "$slot/src/"
	git -C "$slot/src" read-tree "$base"
	git -C "$slot/src" update-index -q --refresh >/dev/null || true
	git -C "$slot/src" reset -q --hard "$commit"
}

# The compiler, through ccache when it is there.  Objects are keyed by the
# preprocessed text, so what one flavor compiled serves every other one.
compiler=gcc
if command -v ccache >/dev/null; then
	compiler="ccache gcc"
	export CCACHE_DIR=${CCACHE_DIR:-$cache/ccache}
	export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-10G}
	export CCACHE_NOHASHDIR=1
fi
kmake() { make -s -C "$slot/src" O="$slot/out" ARCH=x86_64 CC="$compiler" HOSTCC="$compiler" "$@"; }

# The fragments' =y and "is not set" lines, a later fragment's word on an
# option overriding an earlier one's.
merged_fragments() {
	awk '/^CONFIG_.*=y$/ { split($0, kv, "="); want[kv[1]] = $0; order[++n] = kv[1] }
		/^# CONFIG_.* is not set$/ { want[$2] = $0; order[++n] = $2 }
		END { for (i = 1; i <= n; i++) if (!seen[order[i]]++) print want[order[i]] }' \
		"${fragments[@]}"
}

# tinyconfig + fragments, generated in a scratch object directory; the real
# .config is replaced only when its content changes, so kbuild does not see
# a new config where there is none.
configure() {
	local cfg=$slot/cfg
	mkdir -p "$cfg" "$slot/out"
	if ! {
		make -s -C "$slot/src" O="$cfg" ARCH=x86_64 CC="$compiler" HOSTCC="$compiler" tinyconfig &&
			(cd "$cfg" && "$slot/src/scripts/kconfig/merge_config.sh" -m -O . \
				.config "${fragments[@]}") &&
			make -s -C "$slot/src" O="$cfg" ARCH=x86_64 CC="$compiler" HOSTCC="$compiler" olddefconfig
	} >"$cfg/config.log" 2>&1; then
		tail -n 20 "$cfg/config.log" >&2
		die "configuring $flavor failed"
	fi
	# Every =y must be there, every "is not set" must not be =y or =m.
	local missing
	missing=$(merged_fragments | while read -r line; do
			case $line in
			'# '*) opt=${line#\# }; opt=${opt%% *}
				! grep -qE "^$opt=[ym]$" "$cfg/.config" || echo "$line" ;;
			*) grep -qx "$line" "$cfg/.config" || echo "$line" ;;
			esac
		done)
	[ -z "$missing" ] || die "config fragment options did not survive olddefconfig:
$missing"
	cmp -s "$cfg/.config" "$slot/out/.config" || cp "$cfg/.config" "$slot/out/.config"
	merged_fragments | sort >"$slot/fragment-lines"
}

# How many objects a whole build of this source and config makes: the last
# such build's count, or the estimate measured here (kernel/objects.estimate).
objects_file=$cache/objects/$ver-$fragment_key
expected_objects() {
	local names
	cat "$objects_file" 2>/dev/null && return 0
	names=$(for f in "${fragments[@]}"; do basename "$f"; done | sort | tr '\n' ' ')
	awk -v s="$series" -v n="${names% }" -F'\t' '$1 == s && $2 == n { print $3 }' \
		"$here/objects.estimate"
}
objects_built() { find "$slot/out" -name '*.o' -newer "$1" 2>/dev/null | wc -l; }

# What this build took from the compiler cache: "H of N from the cache".
cache_share() {
	[ -n "${CCACHE_STATSLOG:-}" ] && [ -f "$CCACHE_STATSLOG" ] || return 0
	ccache --show-log-stats 2>/dev/null | awk '
		/^ *Hits:/ { hits = $2 } /^ *Misses:/ { misses = $2 }
		END { if (hits + misses) printf ", %d of %d from the cache", hits, hits + misses }'
}

compile() {
	local start=$SECONDS stamp=$slot/out/.sealjit-start total
	say "$flavor" "building bzImage (make -j$jobs, log in $home/out/build.log)"
	touch "$stamp"
	[ "$compiler" = gcc ] || export CCACHE_STATSLOG=$slot/out/ccache-stats.log
	rm -f "$slot/out/ccache-stats.log"
	# An incremental build makes fewer objects than a whole one: no total,
	# and nothing to learn about a whole build's count.
	local whole=1
	[ -f "$slot/out/vmlinux" ] && whole=
	total=
	[ -z "$whole" ] || total=$(expected_objects || true)
	progress_start "$flavor" "$total/objects" objects_built "$stamp"
	if ! kmake -j"$jobs" bzImage >"$slot/out/build.log" 2>&1; then
		progress_stop
		tail -n 40 "$slot/out/build.log" >&2
		die "kernel build failed for $flavor"
	fi
	kmake -j"$jobs" headers_install INSTALL_HDR_PATH="$slot/out/usr" >/dev/null
	progress_stop
	if [ -n "$whole" ]; then
		mkdir -p "$(dirname "$objects_file")"
		find "$slot/out" -name '*.o' | wc -l >"$objects_file"
	fi
	say "$flavor" "built in $((SECONDS - start)) s ($(objects_built "$stamp") objects compiled$(cache_share))"
}

# Trees of the first recipe, which built every flavor at its own path.
rm -rf "$root"/src-* "$root"/out-* "$root"/cfg-*
ensure_pristine_repo
commit=$(apply_series)
clear_slot
[ -d "$home" ] && move_tree "$home" "$slot"
mkdir -p "$slot"
echo "$flavor" >"$slot/flavor"
checkout_tree "$commit"
configure
compile
store_results "$slot"
install_results
echo "$key" >"$slot/out/.sealjit-key"
move_tree "$slot" "$home"
say "$flavor" "ready: $dest/bzImage ($(wc -l <"$dest/series.txt") patches, key $key)"
