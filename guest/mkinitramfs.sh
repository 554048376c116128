#!/usr/bin/env bash
# guest/mkinitramfs.sh OUT.cpio.gz - the guest's base initramfs:
# busybox-static, guest/init and guest/settle (as /bin/settle).  guest/run appends the command and the
# programs to run as a second archive at boot.
set -euo pipefail
out=${1:?usage: guest/mkinitramfs.sh OUT.cpio.gz}
busybox=${BUSYBOX:-/bin/busybox}
here=$(cd "$(dirname "$0")" && pwd)

[ -x "$busybox" ] && ! grep -q INTERP <<<"$(readelf -l "$busybox" 2>/dev/null)" || {
	echo "guest/mkinitramfs.sh: $busybox is not a static busybox" \
		"(apt-get install busybox-static)" >&2
	exit 1
}
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/{bin,dev,proc,sys,tmp,sealjit/bin}
cp "$busybox" "$root/bin/busybox"
cp "$here/init" "$root/init"
cp "$here/settle" "$root/bin/settle"
chmod 755 "$root/init" "$root/bin/busybox" "$root/bin/settle"
mkdir -p "$(dirname "$out")"
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
	gzip -9n >"$out.tmp"
mv "$out.tmp" "$out"
