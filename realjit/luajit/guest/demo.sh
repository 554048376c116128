#!/bin/sh
# guest/demo.sh - in the guest: Debian's LuaJIT under pin and under card,
# told step by step (realjit/luajit/demo.sh boots it).
pkg=$(cd "$(dirname "$0")" && pwd)
LJ="$pkg/jit/ld-linux-x86-64.so.2 --library-path $pkg/jit"

say() { printf '\n== %s\n' "$*"; }
run() { # run POLICY ARG...: luajit under the library, its report after it
	policy=$1
	shift
	rm -f /tmp/report
	SEALJIT_SEAL_POLICY=$policy SEALJIT_SEAL_REPORT=/tmp/report \
		$LJ --preload "$pkg/libsealjit-preload.so" "$pkg/jit/luajit" "$@" >/tmp/out 2>&1
	status=$?
	sed 's/^/   luajit: /' /tmp/out
	echo "   exit status: $status"
	[ -f /tmp/report ] || return 0
	grep '^sealjit-preload: refused ' /tmp/report | head -n 3 | sed 's/^sealjit-preload: /   library: /'
	more=$(($(grep -c '^sealjit-preload: refused ' /tmp/report) - 3))
	[ $more -gt 0 ] && echo "   library: ... and $more more refused"
	sed -n 's/^sealjit-preload: summary /   library: summary /p' /tmp/report | sed 's/ refused_mremap=.*//'
}

echo "Kernel $(uname -r).  Debian's luajit, unmodified, with libsealjit-preload.so:"
echo "it seals each machine-code area the first time LuaJIT makes it executable."
say "pin (MUNMAP|MMAP|MREMAP): the area stays put, LuaJIT may still re-protect it"
run pin "$pkg/workloads/hotloop.lua"
say "card (MPROTECT|MMAP|MREMAP): the second trace needs mprotect(area, RW)"
run card "$pkg/workloads/hotloop.lua"
say "pin and jit.flush() 25 times: every munmap of an area is refused, LuaJIT goes on"
run pin "$pkg/workloads/flush.lua"
say "the attacker under pin: mprotect(code, RW), its bytes, mprotect(code, RX), run the trace"
run pin "$pkg/attack.lua" mprotect-rw
echo "   (exit status 65: LuaJIT ran the attacker's exit_group(65))"
say "the attacker under card: the same call"
run card "$pkg/attack.lua" mprotect-rw
say "the attacker under pin: /proc/self/mem (a FOLL_FORCE write; only MM_SEAL_MPROTECT refuses it)"
run pin "$pkg/attack.lua" proc-mem-write
say "the attacker under pin: munmap(code), then its own mapping there"
run pin "$pkg/attack.lua" munmap-mmap
