#!/usr/bin/env bash
# tests/upstream-mseal-selftest.sh - upstream's own mseal selftest as a peer
# suite for our mseal().
#
#   tests/upstream-mseal-selftest.sh build [DIR]
#   tests/upstream-mseal-selftest.sh run KERNEL VARIANT [DIR]
#
# build: extract tools/testing/selftests/mm/mseal_test.c, mseal_helpers.h
# and kselftest.h from $UPSTREAM_SOURCE (default: the source tarball of the
# registry's upstream kernel, the one with upstream's mseal() and no
# series, kernel/kernels.tsv) into DIR/src (default build/peer; the
# extraction is kept, the sources are never committed) and build two
# static binaries in DIR, each with upstream's own flags (-Wall; it is not
# our code, so not our -Wextra -Werror):
#
#   mseal_test-unchanged  upstream's program as it is: the 3-argument call
#                         syscall(__NR_mseal, start, len, 0), refusals
#                         expected with EPERM.  Every kernel with an
#                         mseal() runs it: upstream's and the 6.1 series,
#                         which refuses with EPERM what upstream's call
#                         sealed (6.1 series, patch 46)
#   mseal_test-types      the one sealing call, in sys_mseal(), seals with
#                         all five types of the RFC's ABI:
#                         syscall(__NR_mseal, start, len, MM_SEAL_ALL, 0),
#                         and every `FAIL_TEST_IF_FALSE(errno == EPERM);`
#                         becomes EACCES, the error of memory sealed with
#                         types (the 6.1 series only)
#
# Those are the ONLY transforms.  Each must match exactly as often as
# counted here, or the build fails: a changed upstream file is never ported
# silently.  __NR_mseal and MM_SEAL_ALL are read from
# include/sealjit/mseal.h (the host's 6.1 uapi headers predate mseal).
#
# run: boot KERNEL (guest/run) and run DIR/mseal_test-VARIANT, printing its
# TAP.  A whole-file skip ("1..0 # SKIP sealing not supported": the kernel
# refused the selftest's own seal call) is turned into one failing result:
# upstream's program must be able to seal on the kernels we run it on.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
CC=${CC:-gcc}
EPERM_CHECKS=12		# FAIL_TEST_IF_FALSE(errno == EPERM); in 6.12's file
SELFTEST=tools/testing/selftests

die() { echo "upstream-mseal-selftest: $*" >&2; exit 2; }

# The value of a macro of include/sealjit/mseal.h, as the compiler sees it.
abi_value() {
	printf '%s\n' "$1" | "$CC" -E -P -I "$top/include" \
		-include sealjit/mseal.h -x c - | tail -n 1
}
upstream_tarball() {
	local k
	k=$("$top/kernel/kernels" names abi=upstream series=-) || exit 2
	[ -n "$k" ] || die "kernel/kernels.tsv has no kernel with upstream's mseal() and no series"
	"$top/kernel/kernels" tarball "${k%% *}"
}
tarball=${UPSTREAM_SOURCE:-$(upstream_tarball)}

extract() {
	local src=$1 top_dir
	[ -f "$src/$SELFTEST/mm/mseal_test.c" ] && return 0
	[ -r "$tarball" ] || die "cannot read $tarball"
	top_dir=$(basename "$tarball" .tar.xz)	# Debian: linux-source-6.12/
	rm -rf "$src.tmp" && mkdir -p "$src.tmp"
	tar -xJf "$tarball" -C "$src.tmp" --strip-components=1 \
		"$top_dir/$SELFTEST/kselftest.h" \
		"$top_dir/$SELFTEST/mm/mseal_test.c" \
		"$top_dir/$SELFTEST/mm/mseal_helpers.h" ||
		die "extracting the selftest from $tarball failed"
	rm -rf "$src" && mv "$src.tmp" "$src"
}

# sed -e EXPR IN OUT, failing unless EXPR's pattern matched exactly N lines.
transform() {
	local pattern=$1 replacement=$2 want=$3 in=$4 out=$5 got
	got=$(grep -cF -- "$pattern" "$in" || true)
	[ "$got" -eq "$want" ] ||
		die "'$pattern' occurs $got times in $in, expected $want: upstream changed, port again"
	awk -v p="$pattern" -v r="$replacement" '
		{ while ((i = index($0, p)) > 0) $0 = substr($0, 1, i - 1) r substr($0, i + length(p)) }
		{ print }' "$in" >"$out"
}

compile() {
	local src=$1 out=$2 nr
	nr=$(abi_value __NR_mseal)
	"$CC" -Wall -O2 -static -D__NR_mseal="$nr" -I "$(dirname "$src")" \
		"$src" -o "$out"
}

build() {
	local dir=$1 src mm all
	src=$dir/src
	extract "$src"
	mm=$src/$SELFTEST/mm
	all=$(abi_value MM_SEAL_ALL)
	cp "$mm/mseal_test.c" "$mm/mseal_test-unchanged.c"
	transform 'FAIL_TEST_IF_FALSE(errno == EPERM);' \
		'FAIL_TEST_IF_FALSE(errno == EACCES);' "$EPERM_CHECKS" \
		"$mm/mseal_test.c" "$mm/mseal_test-eacces.c"
	transform 'sret = syscall(__NR_mseal, start, len, 0);' \
		"sret = syscall(__NR_mseal, start, len, $all, 0);" 1 \
		"$mm/mseal_test-eacces.c" "$mm/mseal_test-types.c"
	rm -f "$mm/mseal_test-eacces.c"
	for variant in unchanged types; do
		compile "$mm/mseal_test-$variant.c" "$dir/mseal_test-$variant"
	done
	echo "upstream-mseal-selftest: built $dir/mseal_test-{unchanged,types}"
}

run() {
	local kernel=$1 variant=$2 dir=$3 bin out status=0
	bin=$dir/mseal_test-$variant
	[ -x "$bin" ] || die "no $bin; run: $0 build $dir"
	out=$("$top/guest/run" --timeout 300 --add "$bin" "$kernel" -- \
		"mseal_test-$variant") || status=$?
	if grep -q '^1\.\.0 # SKIP' <<<"$out"; then
		sed 's/^1\.\.0 # SKIP \(.*\)/1..1\nnot ok 1 - the whole selftest skipped: \1/' <<<"$out"
		exit 1
	fi
	printf '%s\n' "$out"
	exit "$status"
}

case ${1:-} in
build) [ $# -le 2 ] || die "usage: $0 build [DIR]"
	build "${2:-$top/build/peer}" ;;
run) [ $# -ge 3 ] && [ $# -le 4 ] || die "usage: $0 run KERNEL VARIANT [DIR]"
	case $3 in unchanged | types) ;; *) die "VARIANT is unchanged or types" ;; esac
	run "$2" "$3" "${4:-$top/build/peer}" ;;
*) die "usage: $0 build [DIR] | run KERNEL unchanged|types [DIR]" ;;
esac
