#!/usr/bin/env bash
# jitdemo/tests/guest.sh [--examples sealed|enosys] --codespace merge|report
#                        --keyspace sealed|upstream|enosys KERNEL
#
# jitdemo's suites in one boot of KERNEL (scripts/guest-parts.sh), each its
# own result in build/results/:
#   KERNEL-jitdemo        every example JIT'd, its seal report as --examples
#                         says the kernel seals (guest-examples.sh; only
#                         with --examples: a kernel with upstream's call
#                         takes no 4-argument seal)
#   KERNEL-codespace      10000 modules in the code space, the VMA count
#                         bounded (merge) or reported (codespace-guest.sh)
#   KERNEL-keyspace       the key space, sealed when made, written through
#                         the key (test_keyspace), as --keyspace says
#   KERNEL-jitdemo-pkey   the examples again under --seal=pkey (with
#                         --examples)
# Needs make jitdemo (build/jitdemo/*-static).  Exits 0 once each part's
# result is written, whatever it counts (as tests/tap-run: make test counts
# the failures, and a part the boot never ended fails), 2 on misuse.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
usage() { sed -n '2,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0" >&2; exit 2; }
examples= codespace= keyspace=
while [ $# -gt 0 ]; do
	case $1 in
	--examples) [ $# -ge 2 ] || usage; examples=$2; shift 2 ;;
	--codespace) [ $# -ge 2 ] || usage; codespace=$2; shift 2 ;;
	--keyspace) [ $# -ge 2 ] || usage; keyspace=$2; shift 2 ;;
	-*) echo "jitdemo/tests/guest.sh: unknown option $1" >&2; usage ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] || usage
kernel=$1
case $examples in '' | sealed | enosys) ;; *) echo "jitdemo/tests/guest.sh: --examples $examples: sealed or enosys" >&2; exit 2 ;; esac
case $codespace in merge | report) ;; *) echo "jitdemo/tests/guest.sh: --codespace merge or report" >&2; exit 2 ;; esac
case $keyspace in sealed | upstream | enosys) ;; *) echo "jitdemo/tests/guest.sh: --keyspace sealed, upstream or enosys" >&2; exit 2 ;; esac

bin=$top/build/jitdemo
runs=$bin/guest-runs
mkdir -p "$runs"
. "$top/scripts/guest-parts.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The guest's script: the parts in order, each its own TAP.
parts=(codespace keyspace)
{
	if [ -n "$examples" ]; then
		part jitdemo "sh guest-examples.sh jitdemo-static examples $examples"
		parts=(jitdemo "${parts[@]}")
	fi
	part codespace "sh codespace-guest.sh test_codespace-static $codespace"
	part keyspace "test_keyspace-static $keyspace"
	if [ -n "$examples" ]; then
		part jitdemo-pkey "sh guest-examples.sh jitdemo-static examples $examples pkey"
		parts+=(jitdemo-pkey)
	fi
} >"$work/jitdemo-guest.sh"

out=$runs/$kernel.out
"$top/guest/run" --timeout 900 --progress "$kernel: jitdemo" \
	--add "$bin/jitdemo-static" --add "$bin/test_codespace-static" --add "$bin/test_keyspace-static" \
	--add "$top/jitdemo/examples" --add "$top/jitdemo/tests/guest-examples.sh" \
	--add "$top/jitdemo/tests/codespace-guest.sh" --add "$top/tests/tap.sh" \
	--add "$work/jitdemo-guest.sh" "$kernel" -- sh jitdemo-guest.sh >"$out" 2>&1
parts_end "$out" $?
for p in "${parts[@]}"; do collect "$out" "$kernel-$p" "$p"; done
