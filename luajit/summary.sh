#!/usr/bin/env bash
# luajit/summary.sh [--jit debian|pkey] [--section] KERNEL... - the Markdown
# summary of a matrix run, from $RESULTS/KERNEL-luajit.out (Debian's LuaJIT)
# or KERNEL-luajit-pkey.out (luajit-series/', --jit pkey) (matrix.sh): the workloads table, what pin
# sealed and could never free, the attacks table, and the answer: per
# kernel, the strongest policy under which LuaJIT ran every workload, and
# which attacks that policy leaves open (with expected-attacks.tsv's
# reasons).  Policies from strongest: all, upstream, card, pin, none; the
# answer is luajit/answer.awk's, and counts the attacks the run tried under
# the policy, not every attack of the run.  The mode of the run (each .out's
# "# luajit-matrix mode=" line, matrix.sh) is said first.
# --section: as docs/threat-model.md's section "A JIT nobody here wrote"
# (a heading and what was measured, then the same tables; with
# $RESULTS/luajit-cost.md, the cost too), or for --jit pkey its part of
# "The seal a production JIT can keep" (with luajit-pkey-cost.md); only
# from a full run.
# Exits 1 when a kernel has no results, a file names no mode, the files
# are of different modes, or --section is asked of a fast run; 2 on misuse.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
SEALJIT=${SEALJIT:-$(dirname "$here")}
RESULTS=${RESULTS:-$SEALJIT/build/results}
section= jit=debian
if [ "${1:-}" = --jit ]; then [ $# -ge 2 ] || set -- ""; jit=$2; shift 2; fi
[ "${1:-}" = --section ] && { section=1; shift; }
[ $# -gt 0 ] || { echo "usage: summary.sh [--jit debian|pkey] [--section] KERNEL..." >&2; exit 2; }
LJ_WHO=summary
. "$here/cases.sh"
lj_use_jit "$jit" || exit 2
files=() mode=
for k in "$@"; do
	f=$RESULTS/$k-$LJ_RESULT.out
	[ -f "$f" ] || { echo "summary: no results for $k ($f)" >&2; exit 1; }
	m=$(sed -n 's/^# luajit-matrix mode=\([a-z]*\).*/\1/p' "$f" | head -n 1)
	[ -n "$m" ] || { echo "summary: $f names no mode (no \"# luajit-matrix mode=\" line): run luajit/matrix.sh again" >&2; exit 1; }
	[ -z "$mode" ] || [ "$m" = "$mode" ] ||
		{ echo "summary: $f is from a $m run, the files before it from a $mode run" >&2; exit 1; }
	mode=$m
	files+=("$f")
done
if [ -n "$section" ] && [ "$mode" != full ]; then
	echo "summary: --section needs the full matrix (make luajit-attacks); $RESULTS holds a $mode run (make test-luajit runs the fast subset)" >&2
	exit 1
fi

if [ -n "$section" ] && [ "$jit" = pkey ]; then
	cat <<'INTRO'
### The patched LuaJIT, measured

The same guests, workloads, attacks, policies and seal-on-exec library as
Debian's LuaJIT above, with LuaJIT built from Debian's source package and
luajit-series/ (`luajit/matrix.sh --jit pkey`; `make luajit-attacks`).
Every RAN workload also kept its code W^X by the key
(`jit.util.mcodeinfo()` at `lua_close()`), and every attacked area was
under a key (smaps' `ProtectionKey`).  SIGSEGV: the attacker's store into
the code faulted on the key (tried in a forked child with the attacker's
rights, PKRU included).

INTRO
elif [ -n "$section" ]; then
	cat <<'INTRO'
## A JIT nobody here wrote

jitdemo was written to fit the seal.  Debian's `luajit` (2.1.0-beta3) was
not: here it runs unmodified, with `libsealjit-preload.so` (luajit/)
loaded before it, which seals each machine-code area the first time
LuaJIT makes it executable, under `SEALJIT_SEAL_POLICY`: `none`, `pin`
(`MM_SEAL_MUNMAP|MM_SEAL_MMAP|MM_SEAL_MREMAP`: the area stays put, its
permissions stay free), `card`, `all`, or `upstream` (`types == 0`).
LuaJIT maps each area read-write, makes the whole area read-write again
before every trace it adds (and an older area, to patch a parent trace's
exit), read-execute after it, and munmaps every area on `jit.flush()`,
when its areas reach `-Omaxmcode`, and at exit.  The tables are generated
from a run of `make -C luajit attacks` (luajit/matrix.sh).

INTRO
fi

if [ -z "$section" ]; then
	lj_read_workloads && lj_table_attack_names || exit 2
	case $mode in
	fast) printf 'From a **fast** run (make test-luajit, the subset luajit/cases.sh names: %s); `-` marks a case it does not run.\n\n' "$(lj_mode_words fast)" ;;
	*) printf 'From a **%s** run (make luajit-attacks: %s).\n\n' "$mode" "$(lj_mode_words "$mode")" ;;
	esac
fi

top=$(dirname "$here")
awk -v kernels="$*" -v atsv="$LJ_TABLE_A" -v jit="$jit" -v registry="$top/kernel/kernels.tsv" \
	-f "$top/kernel/kernels.awk" -f "$top/scripts/result.awk" -f "$top/scripts/expect.awk" \
	-f "$here/answer.awk" -f "$here/summary.awk" "${files[@]}"
if [ -n "$section" ] && [ "$jit" = pkey ] && [ -f "$RESULTS/luajit-pkey-cost.md" ]; then
	printf '\n### What the series costs, in guest instructions (make luajit-pkey-cost)\n\n'
	cat "$RESULTS/luajit-pkey-cost.md"
elif [ -n "$section" ] && [ "$jit" = debian ] && [ -f "$RESULTS/luajit-cost.md" ]; then
	printf '\n### What pin costs, in guest instructions\n\n'
	cat "$RESULTS/luajit-cost.md"
fi
