#!/usr/bin/env bash
# scripts/install-deps.sh - install the Debian packages sealjit needs.
# As root it installs what is missing; otherwise it names what is missing
# and fails.  Quiet and quick when everything is there.
set -euo pipefail

# kernels: linux-source-6.1 (the series), linux-source-6.12 (upstream anchor),
#   flex bison bc libelf-dev libssl-dev perl git, rsync (headers_install),
#   ccache (the flavors of a kernel share what they compile)
# tests: patch (the series applies with patch -p1)
# guest: qemu-system-x86 busybox-static cpio gzip xz-utils
# userspace: gcc make libc6-dev libcap-dev, and clang for the fuzz target
# benchmark: stress-ng (run in the guest), gnuplot-nox (the chart)
# a JIT nobody here wrote: luajit (run in the guest under every seal policy)
# the JIT the RFC was written for: Debian 12's node (v8/fetch-node.sh unpacks
#   it into the cache, whatever node the machine runs) needs the libraries
#   libnode108 links against and the JavaScript it loads from /usr/share/nodejs
#   at start-up (node-acorn, node-cjs-module-lexer, node-undici); strace
#   shows what V8 does to its code memory (v8/code-ops.sh)
# report: chromium (make test renders the page headless, report/tests/page.sh)
packages=(
	linux-source-6.1 linux-source-6.12 flex bison bc libelf-dev libssl-dev perl git rsync ccache
	patch
	qemu-system-x86 busybox-static cpio gzip xz-utils
	gcc make libc6-dev libcap-dev clang libclang-rt-14-dev
	stress-ng gnuplot-nox
	luajit
	libbrotli1 libc-ares2 libicu72 libnghttp2-14 libssl3 libuv1 zlib1g libstdc++6
	node-acorn node-cjs-module-lexer node-undici strace
	chromium
)

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "sealjit needs these Debian packages: ${missing[*]}" >&2
	echo "install them with: sudo apt-get install ${missing[*]}   (or: sudo make deps)" >&2
	exit 1
fi
echo "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
