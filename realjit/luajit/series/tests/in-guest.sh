#!/bin/sh
# realjit/luajit/series/tests/in-guest.sh - run in a guest with PKU (busybox sh),
# from the package guest.sh lays out beside it: the patched LuaJIT where
# the key is real.  TAP:
#   - jit.util.mcodeinfo() decides nothing by asking ("undecided" before
#     the first trace), then says pkey, with a key other than 0, and
#     jit.status() ends with mcode=pkey;
#   - the tests Debian ships pass (debian-tests.sh), now with the key;
#   - a process with a second thread running before its first trace keeps
#     today's mprotect() and says why (the cover letter's thread rule), in
#     mcodeinfo(), jit.status() and one line of -jv;
#   - under a seal of munmap (the all policy, or upstream's call where the
#     kernel takes no seal types) flush.lua reuses the areas its flushes
#     could not unmap: at least 24 of its 25 areas' bytes reused, at most
#     one area's never reused.
pkg=$(cd "$(dirname "$0")" && pwd)
LJ="$pkg/lj/ld-linux-x86-64.so.2 --library-path $pkg/lj $pkg/lj/luajit"
LUA_PATH="$pkg/?.lua;;"
export LUA_PATH
. "$pkg/tap.sh"
tap_start

# shellcheck disable=SC2086 # $LJ is the loader and its arguments
HOT='local s = 0 for i = 1, 1000 do s = s + i end'
info=$($LJ -e 'local i = require("jit.util").mcodeinfo() io.write(i.mode, " ")' \
	-e "$HOT" -e 'local i = require("jit.util").mcodeinfo() print(i.mode, i.pkey, i.why, select(-1, jit.status()))' 2>&1)
[ -n "$(echo "$info" | grep -E '^undecided pkey	[1-9][0-9]*	nil	mcode=pkey$')" ]
tap_result $? "jit.util.mcodeinfo() decides nothing before a trace, then says pkey, with a key of its own; jit.status() says mcode=pkey ($info)"

out=$(sh "$pkg/debian-tests.sh" "$pkg/control" 1 $LJ)
rc=$?
echo "$out" | sed 's/^/# /'
[ $rc = 0 ]
tap_result $? "the tests Debian ships pass with the key ($(echo "$out" | grep -c '^ok ') of $(echo "$out" | grep -c 'ok '))"

# A thread of libc's sleep(1000), started through FFI before any trace.
# shellcheck disable=SC2086
info=$($LJ -jv -e '
local ffi = require("ffi")
ffi.cdef[[int pthread_create(unsigned long *t, void *attr, void *(*start)(void *), void *arg);
unsigned int sleep(unsigned int s);]]
local t = ffi.new("unsigned long[1]")
assert(ffi.C.pthread_create(t, nil, ffi.cast("void *(*)(void *)", ffi.C.sleep), ffi.cast("void *", 1000)) == 0)
local s = 0 for i = 1, 1000 do s = s + i end
local i = require("jit.util").mcodeinfo()
io.write(i.mode, " ", tostring(i.why), " ", select(-1, jit.status()), "\n")
os.exit(0)' 2>/tmp/thread.jv)
[ "$info" = "mprotect other threads were running (or no /proc/self/task) mcode=mprotect" ] &&
	[ "$(grep -c 'not a protection key: other threads were running' /tmp/thread.jv)" = 1 ]
tap_result $? "a second thread running before the first trace: mprotect(), and why, in mcodeinfo(), jit.status() and one -jv line ($info; $(grep -m 1 'protection key' /tmp/thread.jv))"

flush() { # POLICY
	# shellcheck disable=SC2086
	SEALJIT_SEAL_POLICY=$1 SEALJIT_SEAL_REPORT=/tmp/flush.report $LJ_SEALED -l mcodeinfo \
		"$pkg/flush.lua" >/dev/null 2>/tmp/flush.err
}
LJ_SEALED="$pkg/lj/ld-linux-x86-64.so.2 --library-path $pkg/lj --preload $pkg/libsealjit-preload.so $pkg/lj/luajit"
policy=all
rm -f /tmp/flush.report
flush all
rc=$?
if [ $rc = 3 ]; then policy=upstream; rm -f /tmp/flush.report; flush upstream; rc=$?; fi
line=$(grep '^mcodeinfo ' /tmp/flush.err)
reused=$(echo "$line" | sed -n 's/.* reused=\([0-9]*\).*/\1/p')
retired=$(echo "$line" | sed -n 's/.* retired=\([0-9]*\).*/\1/p')
[ $rc = 0 ] && [ "${reused:-0}" -ge $((24 * 65536)) ] && [ "${retired:-999999999}" -le 65536 ] &&
	grep -q '^sealjit-preload: summary .* areas=1 sealed=1 ' /tmp/flush.report
tap_result $? "flush.lua under $policy: one area made and sealed, the flushed ones reused (exit $rc; $line)"

tap_end
