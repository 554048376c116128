#!/usr/bin/env bash
# v8/package.sh OUTDIR - what every guest gets, as /sealjit/v8-pkg/:
#   node/                  Debian 12's node, libnode and every library, with
#                          the loader (guest/bundle.sh; fetch-node.sh)
#   share-nodejs/          the JavaScript Debian's node reads at start-up from
#                          /usr/share/nodejs (the guest links it there)
#   libsealjit-preload.so  the seal-on-exec library; icount-time (static)
#   sealjit-attack.node attack.js   the attacker
#   run-cases.sh cost-run.sh        the guest-side scripts; workloads/
# Builds what it needs first (make all).  Exits 1 when Debian's node cannot
# be fetched or a file node reads at start-up is missing
# (scripts/install-deps.sh installs them); 2 on misuse.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 1 ] || { echo "usage: package.sh OUTDIR" >&2; exit 2; }
out=$1
SEALJIT=${SEALJIT:-$(dirname "$here")}
BUILD=${BUILD:-$SEALJIT/build/v8}
make -s -C "$here" SEALJIT="$SEALJIT" BUILD="$BUILD" all >&2
root=$("$here/fetch-node.sh") || exit 1
# The files Debian's libnode names by absolute path (strings libnode.so.108).
builtins=(acorn/dist/acorn.js acorn-walk/dist/walk.js cjs-module-lexer/lexer.js
	cjs-module-lexer/dist/lexer.js undici/undici-fetch.js)
rm -rf "$out"
mkdir -p "$out/share-nodejs"
for f in "${builtins[@]}"; do
	[ -f "/usr/share/nodejs/$f" ] ||
		{ echo "package: no /usr/share/nodejs/$f (scripts/install-deps.sh)" >&2; exit 1; }
	(cd /usr/share/nodejs && cp -L --parents "$f" "$out/share-nodejs/")
done
LD_LIBRARY_PATH=$root/usr/lib/x86_64-linux-gnu "$SEALJIT/guest/bundle.sh" "$root/usr/bin/node" "$out/node"
cp "$BUILD/libsealjit-preload.so" "$BUILD/icount-time" "$BUILD/sealjit-attack.node" \
	"$here/attack/attack.js" "$here/guest/run-cases.sh" "$here/guest/cost-run.sh" "$out/"
cp -r "$here/workloads" "$out/"
