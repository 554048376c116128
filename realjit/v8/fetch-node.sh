#!/usr/bin/env bash
# realjit/v8/fetch-node.sh - Debian 12's Node.js 18 (V8 10.2), unpacked into the
# keyed cache, whatever node this machine runs: prints the directory that
# holds usr/bin/node, usr/lib/x86_64-linux-gnu/libnode.so.108 and
# usr/include/node (N-API, for the attacker's addon).
#
# The packages are bookworm's nodejs, libnode108 and libnode-dev at the
# newest 18.x version the machine's apt sources offer (Debian's, not a
# third party's nodejs 20: `apt-cache madison nodejs`), fetched with
# apt-get download and unpacked with dpkg -x into
#   $SEALJIT_CACHE/nodejs-VERSION/     (default ~/.cache/sealjit)
# written beside it first and renamed when complete, so a key names one
# whole unpacked version.  Nothing is installed: the machine's own node,
# if any, stays as it is.  What the unpacked node needs at run time comes
# from scripts/install-deps.sh: the libraries libnode108 links against and
# the JavaScript it loads from /usr/share/nodejs at start-up (node-acorn,
# node-cjs-module-lexer, node-undici).
#
# Exits 1 when no 18.x nodejs is offered (no Debian 12 apt source), when a
# download fails, or when the unpacked node is not V8 10.2 (the
# expectations in realjit/v8/ are that version's); 2 on misuse.
set -euo pipefail
[ $# -eq 0 ] || { echo "usage: fetch-node.sh" >&2; exit 2; }
cache=${SEALJIT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sealjit}
fail() { echo "fetch-node: $*" >&2; exit 1; }

# madison lists versions newest first; Debian's are 18.x+dfsg in bookworm.
version=$(apt-cache madison nodejs 2>/dev/null | awk -F' *[|] *' '$2 ~ /^18\./ { print $2; exit }')
[ -n "$version" ] || fail "apt offers no nodejs 18.x (Debian 12's): add a bookworm source and run apt-get update"
root=$cache/nodejs-$version
mkdir -p "$cache"
exec 9>"$cache/nodejs.lock"
flock 9 # one fetch at a time; a second caller finds it done
if [ ! -x "$root/usr/bin/node" ]; then
	tmp=$(mktemp -d "$cache/nodejs-$version.tmp.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	(cd "$tmp" && apt-get download -q -o APT::Sandbox::User=root \
		"nodejs=$version" "libnode108=$version" "libnode-dev=$version" >/dev/null) ||
		fail "apt-get download of nodejs, libnode108, libnode-dev $version failed"
	for deb in "$tmp"/*.deb; do dpkg -x "$deb" "$tmp/root"; done
	[ -x "$tmp/root/usr/bin/node" ] && [ -f "$tmp/root/usr/include/node/node_api.h" ] ||
		fail "the packages of $version hold no usr/bin/node or no node_api.h"
	rm -rf "$root"
	mv "$tmp/root" "$root"
fi
v8=$(LD_LIBRARY_PATH=$root/usr/lib/x86_64-linux-gnu "$root/usr/bin/node" -p process.versions.v8 2>&1) ||
	fail "$root/usr/bin/node does not run: $(echo "$v8" | head -n 3 | tr '\n' ' ')(scripts/install-deps.sh installs what it needs)"
case $v8 in 10.2.*) ;; *) fail "$root/usr/bin/node is V8 $v8, not 10.2: realjit/v8/'s expectations are 10.2's" ;; esac
echo "$root"
