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

echo "TAP version 13"
echo "1..13"
n=0
check() { # check DESCRIPTION COMMAND... : ok when COMMAND succeeds
	local desc=$1
	shift
	n=$((n + 1))
	if "$@"; then echo "ok $n - $desc"; else echo "not ok $n - $desc"; fi
}
# expect_run STATUS PATTERN COMMAND...: COMMAND exits STATUS and its
# stdout+stderr matches the extended regexp PATTERN.
expect_run() {
	local want=$1 pattern=$2 got
	shift 2
	"$@" >"$work/out" 2>&1
	got=$?
	[ "$got" -eq "$want" ] && { [ -z "$pattern" ] || grep -qE "$pattern" "$work/out"; } &&
		return 0
	echo "# wanted status $want and /$pattern/, got $got:"
	sed 's/^/#   /' "$work/out" | tail -n 12
	return 1
}

check "status 0 comes back" expect_run 0 '' "$run" "$kernel" -- true
check "status 3 comes back" expect_run 3 '' "$run" "$kernel" -- sh -c 'exit 3'

printf 'first line\n\ttab, no newline at the end' >"$work/want"
"$run" "$kernel" -- printf 'first line\n\ttab, no newline at the end' >"$work/got" 2>/dev/null
check "output comes back byte for byte" cmp -s "$work/want" "$work/got"

printf '#!/bin/sh\nprintf "%%s|" "$@"\n' >"$work/args.sh"
check "--add files and quoted arguments reach the guest" \
	expect_run 0 "^a b\\|it's\\|\\\$HOME\\|$" "$run" --add "$work/args.sh" "$kernel" -- \
	sh args.sh "a b" "it's" '$HOME'

check "a hung guest times out with status 125" \
	expect_run 125 'timed out' "$run" --timeout 15 "$kernel" -- sleep 600

check "a guest that stops without the end marker fails" \
	expect_run 125 'no end marker' "$run" "$kernel" -- reboot -f

# A base initramfs whose /init exits at once: the kernel panics.
mkdir -p "$work/panic/bin"
cp /bin/busybox "$work/panic/bin/"
printf '#!/bin/busybox sh\nexit 0\n' >"$work/panic/init"
chmod +x "$work/panic/init"
(cd "$work/panic" && find . | cpio -o -H newc -R 0:0 --quiet | gzip) >"$work/panic.cpio.gz"
check "a kernel panic fails and shows the console" \
	expect_run 125 'Kernel panic' env GUEST_INITRAMFS="$work/panic.cpio.gz" \
	"$run" "$kernel" -- true

check "a command line without -- is a usage error" \
	expect_run 2 'usage' "$run" "$kernel" true
check "an unknown kernel is a clear error" \
	expect_run 2 'no kernel' "$run" no-such-kernel -- true
# A time that is no limit (timeout(1) takes 0 as "never"), or not a number
for bad in 0 -5 12s 99999999999999999999; do
	check "--timeout '$bad' is a usage error, not a boot" \
		expect_run 2 "timeout wants a whole number >= 1, not '$bad'" "$run" --timeout "$bad" "$kernel" -- true
done

