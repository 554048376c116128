#!/usr/bin/env bash
# realjit/luajit/demo.sh [KERNEL] - Debian's LuaJIT under pin and under card,
# narrated, in one guest boot (default: the first kernel of
# kernel/kernels.tsv with the series' semantics, its model): pin runs it and
# leaves its permissions to the attacker; card stops it at its second
# trace and stops the attacker too.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
SEALJIT=${SEALJIT:-$(dirname "$(dirname "$here")")}
BUILD=${BUILD:-$SEALJIT/build/realjit}
case $BUILD in /*) ;; *) BUILD=$here/$BUILD ;; esac
kernel=${1:-}
if [ -z "$kernel" ]; then
	kernel=$("$SEALJIT/kernel/kernels" names model=series) || exit 2
	kernel=${kernel%% *}
fi
pkg=$BUILD/luajit/demo/luajit-pkg
SEALJIT=$SEALJIT BUILD=$BUILD "$SEALJIT/realjit/package.sh" --jit luajit "$pkg"
exec "$SEALJIT/guest/run" --timeout 600 --add "$pkg" "$kernel" -- sh luajit-pkg/demo.sh
