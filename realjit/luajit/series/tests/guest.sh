#!/usr/bin/env bash
# realjit/luajit/series/tests/guest.sh KERNEL - the patched LuaJIT where the key is
# real: lays out a package (the pkey build bundled, Debian's
# debian/tests/control, lua-moses' moses.lua, the seal-on-exec library,
# flush.lua) and runs in-guest.sh in one boot of KERNEL (guest/run: TCG
# guests have PKU).  Prints in-guest.sh's TAP; exits as guest/run does.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
SEALJIT=${SEALJIT:-$(dirname "$(dirname "$(dirname "$here")")")}
BUILD=${BUILD:-$SEALJIT/build/luajit-series}
[ $# -eq 1 ] || { echo "usage: realjit/luajit/series/tests/guest.sh KERNEL" >&2; exit 2; }
pkg=$BUILD/guest/luajit-series-pkg
src=$("$here/build.sh" --source-only)
"$here/build.sh" pkey >&2
make -s -C "$SEALJIT/realjit" BUILD="$SEALJIT/build/realjit" all >&2
rm -rf "$pkg"
mkdir -p "$pkg"
"$SEALJIT/guest/bundle.sh" "$BUILD/pkey/luajit" "$pkg/lj"
cp "$src/debian/tests/control" "$here/debian-tests.sh" "$here/tests/in-guest.sh" "$SEALJIT/tests/tap.sh" \
	"$SEALJIT/realjit/luajit/guest/mcodeinfo.lua" "$SEALJIT/realjit/luajit/workloads/flush.lua" \
	"$SEALJIT/build/realjit/libsealjit-preload.so" /usr/share/lua/5.1/moses.lua "$pkg/"
cp -r "$BUILD/pkey/jit" "$pkg/jit"
exec "$SEALJIT/guest/run" --timeout 600 --add "$pkg" "$1" -- sh luajit-series-pkg/in-guest.sh
