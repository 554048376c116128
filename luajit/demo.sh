#!/usr/bin/env bash
# luajit/demo.sh [KERNEL] - Debian's LuaJIT under pin and under card,
# narrated, in one guest boot (default kernel: mseal): pin runs it and
# leaves its permissions to the attacker; card stops it at its second
# trace and stops the attacker too.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
SEALJIT=${SEALJIT:-$(dirname "$here")}
BUILD=${BUILD:-$SEALJIT/build/luajit}
case $BUILD in /*) ;; *) BUILD=$here/$BUILD ;; esac
kernel=${1:-mseal}
pkg=$BUILD/demo/luajit-pkg
SEALJIT=$SEALJIT BUILD=$BUILD "$here/package.sh" "$pkg"
exec "$SEALJIT/guest/run" --timeout 600 --add "$pkg" "$kernel" -- sh luajit-pkg/demo.sh
