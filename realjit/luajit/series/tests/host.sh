#!/usr/bin/env bash
# realjit/luajit/series/tests/host.sh - TAP: the series against Debian's luajit
# source on this host (no guest, no kernel of ours):
#   - build.sh refuses misuse, and without a deb-src entry says so in one
#     line and exits 1 (apt-get stands in on PATH: no hang, no network);
#   - every patch applies with `patch -p1`, in order, to the unpacked
#     source, and both flavors build (build.sh; cached);
#   - the tests Debian ships (debian/tests/control) pass with either build;
#   - every workload of realjit/luajit/ prints, with the patched build, what the
#     unpatched one prints with -joff;
#   - jit.util.mcodeinfo() decides nothing by asking: "undecided" before
#     any trace; after one, on this CPU: with PKU, "pkey"; without (this
#     project's development hosts), "mprotect" and why, which jit.status()
#     ("mcode=mprotect") and -jv (one line, with the reason) say too;
#   - without PKU the fallback is today's behaviour: under upstream's seal
#     (when this host's kernel has mseal(), with realjit/'s library) the
#     patched LuaJIT stops at its second trace as Debian's does.
# Environment: SEALJIT (the repository), BUILD (build/luajit-series),
# LJ_PRELOAD_BUILD (build/realjit: the seal-on-exec library).
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
SEALJIT=${SEALJIT:-$(dirname "$(dirname "$(dirname "$here")")")}
BUILD=${BUILD:-$SEALJIT/build/luajit-series}
LJ_PRELOAD_BUILD=${LJ_PRELOAD_BUILD:-$SEALJIT/build/realjit}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$SEALJIT/tests/tap.sh"
tap_start

"$here/build.sh" nonesuch >/dev/null 2>&1
[ $? = 2 ]
tap_result $? "build.sh with an unknown flavor is misuse, exit 2"

# apt-get that knows no Sources index: no deb-src entry
mkdir -p "$work/bin"
printf '#!/bin/sh\n[ "$1" = indextargets ] && exit 0\necho "apt-get must not run: $*" >&2; exit 99\n' >"$work/bin/apt-get"
chmod +x "$work/bin/apt-get"
PATH=$work/bin:$PATH timeout 60 "$here/build.sh" pkey >"$work/out" 2>"$work/err"
rc=$?
[ $rc = 1 ] && [ "$(grep -c . "$work/err")" = 1 ] && grep -q 'deb-src' "$work/err" && ! grep -q 'must not run' "$work/err"
tap_result $? "no deb-src entry: one line that says so, exit 1 (exit $rc: $(head -c 200 "$work/err"))"

src=$("$here/build.sh" --source-only 2>"$work/err")
rc=$?
[ $rc = 0 ] && [ -f "$src/src/lj_mcode.c" ]
tap_result $? "apt-get source luajit, unpacked in the cache ($(basename "$(dirname "$src")"); exit $rc $(tail -n 1 "$work/err"))"

cp -a "$src" "$work/tree"
ok=0 applied=()
set -- "$here"/0*.patch
tap_files "the patches of realjit/luajit/series/" "$@" || { ok=1; set --; }
for p; do
	case $p in */0000-*) continue ;; esac
	patch -d "$work/tree" -p1 --batch --quiet <"$p" >"$work/patch.log" 2>&1 ||
		{ ok=1; echo "# $(basename "$p"): $(tail -n 1 "$work/patch.log")"; break; }
	applied+=("$(basename "$p" | cut -c 1-4)")
done
[ ${#applied[@]} -gt 0 ] || ok=1
tap_result $ok "the series applies with patch -p1 to Debian's source, in order (${applied[*]})"

"$here/build.sh" plain pkey >"$work/out" 2>"$work/err"
rc=$?
plain=$BUILD/plain/luajit pkey=$BUILD/pkey/luajit
[ $rc = 0 ] && [ -x "$plain" ] && [ -x "$pkey" ] && grep -q 'with realjit/luajit/series/' "$BUILD/pkey/version"
tap_result $? "build.sh builds both flavors (exit $rc $(tail -n 1 "$work/err"))"

for flavor in plain pkey; do
	out=$("$here/debian-tests.sh" "$src/debian/tests/control" 1 "$BUILD/$flavor/luajit")
	rc=$?
	echo "$out" | sed 's/^/# /'
	[ $rc = 0 ] && grep -q '^ok ' <<<"$out"
	tap_result $? "$flavor build: the tests Debian ships pass ($(grep -c '^ok ' <<<"$out") of $(grep -c 'ok ' <<<"$out"))"
done

set -- "$SEALJIT"/realjit/luajit/workloads/*.lua
tap_files "the workloads of realjit/luajit/" "$@" &&
for w; do
	flags=$(sed -n 's/^-- luajit-flags: //p' "$w")
	# shellcheck disable=SC2086 # the flags are words
	"$plain" $flags -joff "$w" >"$work/ref" 2>&1 &&
		"$pkey" $flags "$w" >"$work/jit" 2>&1 && cmp -s "$work/ref" "$work/jit"
	tap_result $? "workload $(basename "$w" .lua): the patched build prints what the unpatched prints with -joff"
done

# Asking decides nothing: no trace yet, so no key and no fallback either.
info=$("$pkey" -e 'local u = require("jit.util") local a, b = u.mcodeinfo(), u.mcodeinfo()
	print(a.mode .. " " .. b.mode .. " " .. tostring(b.pkey) .. " " .. tostring(b.why) .. " " .. select("#", jit.status()))')
base=$("$pkey" -e 'print(select("#", jit.status()))')
[ "$info" = "undecided undecided nil no machine code yet: the first trace decides $base" ]
tap_result $? "jit.util.mcodeinfo() before any trace decides nothing: undecided, twice, and jit.status() adds nothing ($info)"

# After a trace: what it decided, in mcodeinfo(), jit.status() and -jv.
hot='local s = 0 for i = 1, 1000 do s = s + i end'
info=$("$pkey" -e "$hot"' local i = require("jit.util").mcodeinfo()
	print(i.mode .. " " .. tostring(i.pkey) .. " " .. tostring(i.why) .. " " .. select(-1, jit.status()))')
LUA_PATH="$BUILD/pkey/?.lua;;" "$pkey" -jv -e "$hot" >"$work/jv" 2>&1
jv_lines=$(grep -c 'not a protection key' "$work/jv")
if grep -qw pku /proc/cpuinfo; then
	[ "${info%% *}" = pkey ] && [ "${info##* }" = mcode=pkey ] && [ "$jv_lines" = 0 ]
	tap_result $? "this CPU has PKU: after a trace jit.util.mcodeinfo() says pkey, jit.status() mcode=pkey, -jv no warning ($info)"
else
	echo "# this CPU has no PKU: the patched LuaJIT falls back to mprotect() here; the guests have PKU (realjit/matrix.sh --jit luajit-pkey)"
	[ "$info" = "mprotect nil no protection keys (CPU or kernel without PKU) mcode=mprotect" ]
	tap_result $? "no PKU on this CPU: after a trace jit.util.mcodeinfo() says mprotect and why, jit.status() ends mcode=mprotect ($info)"
	[ "$jv_lines" = 1 ] &&
		grep -qx '\[TRACE --- machine code W^X by mprotect, not a protection key: no protection keys (CPU or kernel without PKU)\]' "$work/jv"
	tap_result $? "no PKU on this CPU: -jv says the fallback and why, in one line ($(grep -m 1 'protection key' "$work/jv"))"
fi
"$plain" -e "$hot"' print(select(-1, jit.status()))' >"$work/plain-status" 2>&1
! grep -q mcode= "$work/plain-status"
tap_result $? "the unpatched build's jit.status() is unchanged ($(cat "$work/plain-status"))"

# the fallback under a seal, when this kernel has mseal() and the CPU no PKU
preload=$LJ_PRELOAD_BUILD/libsealjit-preload.so
make -s -C "$SEALJIT/realjit" BUILD="$LJ_PRELOAD_BUILD" all >/dev/null 2>&1
lj_sealed() { SEALJIT_SEAL_POLICY=upstream LD_PRELOAD=$preload "$@" "$SEALJIT/realjit/luajit/workloads/hotloop.lua"; }
if grep -qw pku /proc/cpuinfo; then
	skip "no PKU: the fallback under upstream's seal" "this CPU has PKU: the fallback is tried in no guest either"
elif ! lj_sealed "$plain" >/dev/null 2>"$work/err" && grep -q 'cannot be expressed' "$work/err"; then
	skip "no PKU: the fallback under upstream's seal" "this kernel cannot seal with upstream's call: $(tail -n 1 "$work/err")"
else
	lj_sealed "$plain" >/dev/null 2>"$work/err.plain"
	r1=$?
	lj_sealed "$pkey" >/dev/null 2>"$work/err.pkey"
	r2=$?
	[ $r1 = 1 ] && [ $r2 = 1 ] && grep -q 'runtime code generation failed' "$work/err.pkey"
	tap_result $? "no PKU: under upstream's seal the patched build stops at its second trace as the unpatched does (exit $r1, $r2)"
fi

tap_end
