#!/usr/bin/env bash
# luajit/package.sh OUTDIR - what every guest gets, as /sealjit/luajit-pkg/:
#   lj/                    Debian's luajit, its libraries and loader (guest/bundle.sh)
#   libsealjit-preload.so  the seal-on-exec library; icount-time (static)
#   run-cases.sh cost-run.sh demo.sh  the guest-side scripts; attack.lua; workloads/
# Builds the library and the timer first (make all).  Exits 1 when luajit is
# not installed (apt-get install luajit).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 1 ] || { echo "usage: package.sh OUTDIR" >&2; exit 2; }
out=$1
BUILD=${BUILD:-$(dirname "$here")/build/luajit}
make -s -C "$here" SEALJIT="${SEALJIT:-$(dirname "$here")}" BUILD="$BUILD" all >&2
rm -rf "$out"
mkdir -p "$out"
"$(dirname "$here")/guest/bundle.sh" luajit "$out/lj"
cp "$BUILD/libsealjit-preload.so" "$BUILD/icount-time" "$here/guest/run-cases.sh" \
	"$here/guest/cost-run.sh" "$here/guest/demo.sh" "$here/attack/attack.lua" "$out/"
cp -r "$here/workloads" "$out/"
