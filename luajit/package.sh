#!/usr/bin/env bash
# luajit/package.sh [--jit debian|plain|pkey] OUTDIR - what every guest
# gets, as /sealjit/$(basename OUTDIR)/:
#   lj/                    the luajit, its libraries and loader (guest/bundle.sh):
#                          Debian's as installed (--jit debian, the default), or
#                          one luajit-series/build.sh built from Debian's source,
#                          without the series (plain) or with it (pkey)
#   jit                    which ("debian", "plain" or "pkey")
#   libsealjit-preload.so  the seal-on-exec library; icount-time (static)
#   run-cases.sh cost-run.sh demo.sh  the guest-side scripts; attack.lua;
#   mcodeinfo.lua          workloads/
# Builds the library and the timer first (make all).  Exits 1 when luajit is
# not installed (apt-get install luajit) or the series' build fails.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage() { echo "usage: package.sh [--jit debian|plain|pkey] OUTDIR" >&2; exit 2; }
jit=debian
if [ "${1:-}" = --jit ]; then [ $# -ge 2 ] || usage; jit=$2; shift 2; fi
[ $# -eq 1 ] || usage
out=$1
top=$(dirname "$here")
BUILD=${BUILD:-$top/build/luajit}
make -s -C "$here" SEALJIT="${SEALJIT:-$top}" BUILD="$BUILD" all >&2
case $jit in
debian) binary=luajit ;;
plain | pkey)
	"$top/luajit-series/build.sh" "$jit" >&2
	binary=$top/build/luajit-series/$jit/luajit ;;
*) echo "package.sh: unknown LuaJIT '$jit' (debian, plain or pkey)" >&2; exit 2 ;;
esac
rm -rf "$out"
mkdir -p "$out"
"$top/guest/bundle.sh" "$binary" "$out/lj"
echo "$jit" >"$out/jit"
cp "$BUILD/libsealjit-preload.so" "$BUILD/icount-time" "$here/guest/run-cases.sh" \
	"$here/guest/cost-run.sh" "$here/guest/demo.sh" "$here/guest/mcodeinfo.lua" \
	"$here/attack/attack.lua" "$out/"
cp -r "$here/workloads" "$out/"
