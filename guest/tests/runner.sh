#!/usr/bin/env bash
# guest/tests/runner.sh KERNEL - TAP tests of guest/run itself: the guest
# command's status and output come back exactly, and every way a boot can
# go wrong (timeout, panic, no end marker, bad usage) is a failure with a
# message, never a silent pass.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
run=$top/guest/run
kernel=${1:?usage: guest/tests/runner.sh KERNEL}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

. "$top/tests/tap.sh"
tap_start 13

expect 0 '' "status 0 comes back" "$run" "$kernel" -- true
expect 3 '' "status 3 comes back" "$run" "$kernel" -- sh -c 'exit 3'

printf 'first line\n\ttab, no newline at the end' >"$work/want"
"$run" "$kernel" -- printf 'first line\n\ttab, no newline at the end' >"$work/got" 2>/dev/null
check "output comes back byte for byte" cmp -s "$work/want" "$work/got"

printf '#!/bin/sh\nprintf "%%s|" "$@"\n' >"$work/args.sh"
expect 0 "^a b\\|it's\\|\\\$HOME\\|$" "--add files and quoted arguments reach the guest" \
	"$run" --add "$work/args.sh" "$kernel" -- \
	sh args.sh "a b" "it's" '$HOME'

expect 125 'timed out' "a hung guest times out with status 125" \
	"$run" --timeout 15 "$kernel" -- sleep 600

expect 125 'no end marker' "a guest that stops without the end marker fails" \
	"$run" "$kernel" -- reboot -f

# A base initramfs whose /init exits at once: the kernel panics.
mkdir -p "$work/panic/bin"
cp /bin/busybox "$work/panic/bin/"
printf '#!/bin/busybox sh\nexit 0\n' >"$work/panic/init"
chmod +x "$work/panic/init"
(cd "$work/panic" && find . | cpio -o -H newc -R 0:0 --quiet | gzip) >"$work/panic.cpio.gz"
expect 125 'Kernel panic' "a kernel panic fails and shows the console" \
	env GUEST_INITRAMFS="$work/panic.cpio.gz" \
	"$run" "$kernel" -- true

expect 2 'usage' "a command line without -- is a usage error" \
	"$run" "$kernel" true
expect 2 'no kernel' "an unknown kernel is a clear error" \
	"$run" no-such-kernel -- true
# A time that is no limit (timeout(1) takes 0 as "never"), or not a number
for bad in 0 -5 12s 99999999999999999999; do
	expect 2 "timeout wants a whole number >= 1, not '$bad'" "--timeout '$bad' is a usage error, not a boot" \
		"$run" --timeout "$bad" "$kernel" -- true
done
tap_end
