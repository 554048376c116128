#!/usr/bin/env bash
# realjit/package.sh --jit NAME OUTDIR - what every guest of a real-JIT run
# gets, as /sealjit/$(basename OUTDIR)/:
#   libsealjit-preload.so icount-time   realjit/'s library and timer, and
#   libsealjit-attack.so                its attacker (attack/live-code.c,
#                                       for a JIT that loads it: LuaJIT's
#                                       FFI) (make -C realjit, into $BUILD)
#   run-cases.sh report.awk cost-run.sh  the guest side of matrix.sh (and its
#                                       reader of a case's files), cost.sh
#   name                                NAME
#   jit/ jit.sh workloads/ ...          the JIT's own part (its profile's
#                                       rj_package: its bundle, its guest
#                                       functions, workloads, attacker)
# Exits 1 when the JIT's part cannot be made (the profile says why), 2 on
# misuse or an unknown JIT.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
SEALJIT=${SEALJIT:-$(dirname "$here")}
BUILD=${BUILD:-$SEALJIT/build/realjit}
usage() { echo "usage: package.sh --jit NAME OUTDIR" >&2; exit 2; }
RJ_WHO=package
# shellcheck source=realjit/cases.sh
. "$here/cases.sh"
jit=''
rj_options '--jit=jit' "$@"
[ -n "$jit" ] && [ ${#rj_args[@]} -eq 1 ] || usage
rj_use_jit "$jit" || exit 2
out=${rj_args[0]}
# A make of its own: the caller (matrix.sh, cost.sh, run from a recipe)
# passes no jobserver down, so none is named to it.
MAKEFLAGS= make -s -C "$here" SEALJIT="$SEALJIT" BUILD="$BUILD" all >&2
rm -rf "$out"
mkdir -p "$out"
cp "$BUILD/libsealjit-preload.so" "$BUILD/icount-time" "$BUILD/libsealjit-attack.so" "$here/guest/run-cases.sh" \
	"$here/guest/report.awk" "$here/guest/cost-run.sh" "$out/"
echo "$RJ_JIT" >"$out/name"
rj_package "$out" || { echo "package: $RJ_JIT's part of $out could not be made (above)" >&2; exit 1; }
