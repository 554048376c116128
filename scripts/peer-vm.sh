#!/usr/bin/env bash
# scripts/peer-vm.sh [--tap NAME] [--slow N] KERNEL... - Linux 6.1's own
# tools/testing/selftests/vm programs, built statically from the kernels'
# source at test time (make test-peer-vm: the series' kernel and its base),
# run on each KERNEL in one guest boot each, then a table (test | KERNEL |
# ...) and TAP in
# build/results/NAME.tap (default peer-vm): ok when every kernel gave the
# same result, a skip when that result is kselftest's skip (exit 4) with
# nothing passed or failed, not ok when the test did not build; and, per
# kernel, ok when its guest ended cleanly (no splat, panic or timeout:
# guest/run exit 0).  --slow N multiplies each test's timeout by N (the
# debug kernels run several times slower under KASAN and lockdep).
#
# Sources: the kernels' Debian source tarball (kernel/kernels.tsv; every
# KERNEL must share it; only the selftests are extracted, into
# build/peer-vm/src; nothing is committed).  Headers: the system's
# linux-libc-dev, which on Debian 12 is 6.1's own uapi.
#
# Not run, and why (each also listed in the table as "not built"):
#   compaction_test, hugepage-*, hugetlb-madvise, map_hugetlb, thuge-gen,
#   write_to_hugetlbfs, charge_reserved_hugetlb: need reserved hugetlb pages;
#   gup_test, split_huge_page_test: need debugfs test hooks (CONFIG_GUP_TEST);
#   hmm-tests: needs the test_hmm module; migration: needs two NUMA nodes;
#   ksm_tests: needs ksmd tuning as a script; transhuge-stress: runs until
#   killed; khugepaged: minutes per run under TCG; protection_keys_32:
#   no 32-bit libc for a static build.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/tap.sh"
. "$top/scripts/guest-suite.sh"
out=$top/build/peer-vm
bin=$out/bin
tap_name=peer-vm slow=1
while [ $# -gt 0 ]; do
	case $1 in
	--tap) tap_name=$2; shift 2 ;;
	--slow) slow=$2; shift 2 ;;
	-*) echo "usage: scripts/peer-vm.sh [--tap NAME] [--slow N] [KERNEL...]" >&2; exit 2 ;;
	*) break ;;
	esac
done
case $slow in [1-9] | [1-9][0-9]) ;; *) echo "peer-vm: --slow takes 1..99, not '$slow'" >&2; exit 2 ;; esac
kernels=("$@")
[ ${#kernels[@]} -gt 0 ] || { echo "usage: scripts/peer-vm.sh [--tap NAME] [--slow N] KERNEL..." >&2; exit 2; }
version=
for k in "${kernels[@]}"; do
	v=$("$top/kernel/kernels" get "$k" source) || exit 2
	[ -z "$version" ] || [ "$v" = "$version" ] ||
		{ echo "peer-vm: $k is built from linux-source-$v, ${kernels[0]} from $version: one source at a time" >&2; exit 2; }
	version=$v
done
tarball=$("$top/kernel/kernels" tarball "$version")
src=$out/src/linux-source-$version
vm=$src/tools/testing/selftests/vm

# name|sources (besides name.c)|extra flags|command line in the guest|seconds
TESTS=(
	"mremap_dontunmap|||mremap_dontunmap|60"
	"mremap_test|||mremap_test|120"
	"map_fixed_noreplace|||map_fixed_noreplace|30"
	"map_populate|||map_populate|30"
	"mlock2-tests|||mlock2-tests|60"
	"mlock-random-test||-lcap|mlock-random-test|60"
	"madv_populate|vm_util.c||madv_populate|60"
	"mrelease_test|||mrelease_test|60"
	"memfd_secret||-lcap|memfd_secret|30"
	"on-fault-limit|||on-fault-limit|30"
	"soft-dirty|vm_util.c||soft-dirty|60"
	"protection_keys|pkey|-mxsave|protection_keys|180"
	"userfaultfd|vm_util.c||userfaultfd anon 8 8|120"
	"userfaultfd-shmem|vm_util.c||userfaultfd shmem 8 8|120"
	"userfaultfd-dev|vm_util.c||userfaultfd anon:dev 8 8|120"
	"va_128TBswitch|||va_128TBswitch|60"
	"virtual_address_range|||virtual_address_range|120"
)

extract() {
	[ -f "$vm/mremap_test.c" ] && return 0
	[ -f "$tarball" ] || { echo "peer-vm: no $tarball (apt-get install linux-source-$version)" >&2; return 1; }
	mkdir -p "$out/src"
	tar -xJf "$tarball" -C "$out/src" \
		"linux-source-$version/tools/testing/selftests/vm" \
		"linux-source-$version/tools/testing/selftests/kselftest.h" \
		"linux-source-$version/tools/testing/selftests/kselftest_harness.h" \
		"linux-source-$version/mm/gup_test.h"
}

# source_of NAME: the program a TESTS entry runs (the userfaultfd modes share one)
source_of() { case $1 in userfaultfd-*) echo userfaultfd ;; *) echo "$1" ;; esac; }
build_one() {
	local name=$1 extra_src=$2 flags=$3 file srcs=()
	file=$(source_of "$name")
	[ -x "$bin/$file" ] && return 0
	srcs=("$vm/$file.c")
	[ "$extra_src" = vm_util.c ] && srcs+=("$vm/vm_util.c")
	# shellcheck disable=SC2086
	gcc -static -O2 -w -I"$vm/.." -I"$src" -o "$bin/$file" "${srcs[@]}" \
		$flags -lrt -lpthread -lm >"$out/build-$file.log" 2>&1
}

extract || exit 1
mkdir -p "$bin" "$top/build/results"
declare -A built
for t in "${TESTS[@]}"; do
	IFS='|' read -r name extra flags cmd secs <<<"$t"
	if build_one "$name" "$extra" "$flags"; then built[$name]=1; fi
done

# The guest script: each test under its own timeout, one RESULT line each.
guest_script=$out/run-peer.sh
{
	echo 'cd /tmp'
	i=0
	for t in "${TESTS[@]}"; do
		IFS='|' read -r name extra flags cmd secs <<<"$t"
		[ -n "${built[$name]:-}" ] || continue
		printf 'echo "# progress %s/%s tests"\n' "$i" "${#built[@]}"
		i=$((i + 1))
		printf 'timeout %s /sealjit/bin/%s >/tmp/%s.log 2>&1; rc=$?\n' "$((secs * slow))" "$cmd" "$name"
		printf 'p=$(grep -ciE "^(ok|\\[ok\\]|\\[pass\\]|pass)|: PASS|\\[PASS\\]| pass$" /tmp/%s.log)\n' "$name"
		printf 'f=$(grep -ciE "^not ok|\\[fail\\]|: FAIL|\\[FAIL\\]| fail$" /tmp/%s.log)\n' "$name"
		printf 'echo "RESULT %s rc=$rc pass=$p fail=$f"\n' "$name"
		printf 'tail -n 3 /tmp/%s.log | sed "s/^/LOG %s: /"\n' "$name" "$name"
	done
	printf 'echo "# progress %s/%s tests"\n' "$i" "$i"
} >"$guest_script"

total=0
for t in "${TESTS[@]}"; do IFS='|' read -r _ _ _ _ secs <<<"$t"; total=$((total + secs * slow)); done
boot_all $((total + 120)) "vm selftests" "$guest_script" "$bin"

# Table and TAP.
tap=$top/build/results/$tap_name.tap
{
	n=0
	declare -a results
	printf '# %-24s' test; for k in "${kernels[@]}"; do printf ' | %-26s' "$k"; done; echo
	for t in "${TESTS[@]}"; do
		IFS='|' read -r name _ _ _ _ <<<"$t"
		n=$((n + 1))
		printf '# %-24s' "$name"
		first='' same=1
		for k in "${kernels[@]}"; do
			r=$(result "$k" "$name"); [ -n "${built[$name]:-}" ] || r="not built"
			[ -n "$r" ] || r="no result (guest failed?)"
			printf ' | %-26s' "$r"
			if [ -z "$first" ]; then first=$r; elif [ "$r" != "$first" ]; then same=; fi
		done
		echo
		results[$n]="$name|$same|$first"
	done
	tap_plan $((n + ${#kernels[@]}))
	for i in $(seq 1 "$n"); do
		IFS='|' read -r name same first <<<"${results[$i]}"
		if [ "$first" = "not built" ]; then
			not_ok "$name: did not build (build/peer-vm/build-$(source_of "$name").log)"
		elif [ -n "$same" ] && [ "$first" = "rc=4 pass=0 fail=0" ]; then
			skip "$name" "kselftest skipped it on ${kernels[*]}"
		elif [ -n "$same" ]; then
			ok "$name: same result on ${kernels[*]} ($first)"
		else
			not_ok "$name: results differ between ${kernels[*]}"
		fi
	done
	for k in "${kernels[@]}"; do
		if grep -q '^guest/run exit 0$' "$out/$k.out"; then ok "$k: guest clean (no splat, no timeout)"
		else not_ok "$k: $(grep -a '^guest/run exit' "$out/$k.out")"; fi
	done
} | tee "$tap"
