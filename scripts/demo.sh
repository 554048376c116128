#!/usr/bin/env bash
# scripts/demo.sh KERNEL... - the threat model, live (make demo).
#
# For each kernel: boot it, let the JIT compile and run an example and show
# where its code lives and how it was sealed, then let an attacker with one
# corrupted pointer try every mm call on that code.  Finally run the whole
# matrix (every scenario x seal policy x privilege) on every kernel and show
# the side-by-side table, then write the page (report/report.sh) and name it.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
build=$top/build

bold() { if [ -t 1 ]; then printf '\033[1m%s\033[0m\n' "$*"; else printf '%s\n' "$*"; fi; }
# kernel/kernels.tsv says what each kernel is.
describe() { kernel/kernels get "$1" description 2>/dev/null || echo "kernel $1"; }

bold "sealjit: a JIT's code, sealed, under attack"
cat <<'TEXT'
The JIT maps its code arena read+write, emits x86-64 into it, flips it to
read+execute and seals it once with MM_SEAL_MPROTECT|MM_SEAL_MMAP|
MM_SEAL_MREMAP (--seal=card).  The attacker has corrupted one pointer or
length that the program later hands to one memory-management system call.
The question for each kernel: does that call change the code, its address
or its permissions?
TEXT

# One boot per kernel: the JIT at work, then the attacks, narrated.
for kernel in "$@"; do
	echo
	bold "== $kernel: $(describe "$kernel")"
	echo "-- jitdemo compiles examples/fib.jit, calls fib(25) and shows its arena in smaps:"
	guest/run --add "$build/jitdemo/jitdemo-static" --add jitdemo/examples \
		--add "$build/attacks/attacks" --add attacks/expected.tsv "$kernel" -- \
		sh -c 'jitdemo-static run --maps examples/fib.jit fib 25 2>&1 |
			sed "s/^/     /"
			echo "-- the attacker tries each call on the sealed code:"
			attacks --kernel "$1" --expect expected.tsv --narrate' \
		demo "$kernel"
done

echo
bold "== Side by side: every scenario x policy, as root and without capabilities,"
bold "   from the process and from a forked child"
for kernel in "$@"; do
	printf '   running the matrix on %s ...\n' "$kernel"
	tests/tap-run "$kernel-attacks" -- guest/run --add "$build/attacks/attacks" \
		--add attacks/expected.tsv "$kernel" -- \
		attacks --kernel "$kernel" --expect expected.tsv >/dev/null
done
echo
scripts/attack-table.sh "$@"

# A JIT nobody here wrote, where the series can show both answers: the
# first kernel shown with the series' semantics (its model, kernel/kernels.tsv).
series_kernels=" $(kernel/kernels names model=series) "
for kernel in "$@"; do
	[[ $series_kernels == *" $kernel "* ]] || continue
	echo
	bold "== A JIT nobody here wrote: Debian's LuaJIT, unmodified, on $kernel"
	realjit/luajit/demo.sh "$kernel"
	break
done

# The same run, on one page, with LuaJIT's matrix (make report draws every
# real JIT's): its fast subset is run here when a kernel has none yet (make
# attacks runs it all).
echo
for kernel in "$@"; do
	[ -f "$build/results/$kernel-luajit.tap" ] && continue
	echo "   running LuaJIT's matrix (the fast subset) on $* ..."
	realjit/matrix.sh --jit luajit --strict --fast "$@" >/dev/null 2>&1 ||
		echo "   (a LuaJIT case did not meet its expectation: the page marks it with !)"
	break
done
if report/report.sh --kernels "$*" --jits luajit "$build/results" "$build/report" >/dev/null 2>&1; then
	bold "The page: $build/report/index.html (open it in a browser; make report writes it again)"
else
	bold "The page: $build/report/index.html (incomplete: it names what is missing at the top)"
fi

# The ending: the production JITs that keep the seal, LuaJIT with
# realjit/luajit/series/ and V8 13.6 (Node.js 24) with its key, sealed, an attack
# refused, in one boot on the first kernel with the series' semantics
# (realjit/keep-demo.sh).
for kernel in "$@"; do
	[[ $series_kernels == *" $kernel "* ]] || continue
	echo
	realjit/keep-demo.sh "$kernel" || echo "   (a case missed its expectation: build/realjit/keep-demo/)"
	break
done
