#!/usr/bin/env bash
# guest/tests/runner.sh KERNEL - TAP tests of guest/run itself: the guest
# command's status and output come back exactly, and every way a boot can
# go wrong (timeout, panic, no end marker, bad usage, a step on the host)
# is a failure with a message, never a silent pass; a guest on a starved
# host still boots and runs (the kernel command line guest/run owns), a
# boot that dies before the guest's /init is retried once, printed and
# counted, and nothing after /init is.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
run=$top/guest/run
kernel=${1:?usage: guest/tests/runner.sh KERNEL}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

. "$top/tests/tap.sh"
export GUEST_RETRY_LOG=$work/retries.log
retries() { cat "$work/retries.log" 2>/dev/null | wc -l; }
tap_start 30

expect 0 '' "status 0 comes back" "$run" "$kernel" -- true
expect 3 '' "status 3 comes back" "$run" "$kernel" -- sh -c 'exit 3'

printf 'first line\n\ttab, no newline at the end' >"$work/want"
"$run" "$kernel" -- printf 'first line\n\ttab, no newline at the end' >"$work/got" 2>/dev/null
check "output comes back byte for byte" cmp -s "$work/want" "$work/got"

printf '#!/bin/sh\nprintf "%%s|" "$@"\n' >"$work/args.sh"
expect 0 "^a b\\|it's\\|\\\$HOME\\|$" "--add files and quoted arguments reach the guest" \
	"$run" --add "$work/args.sh" "$kernel" -- \
	sh args.sh "a b" "it's" '$HOME'

# The --add files travel uncompressed after the compressed base, which
# the kernel finds only on a 4-byte boundary: a base of every length mod 4
# (zeros after its gzip stream, which the kernel skips).
base=$top/build/guest/base.cpio.gz
aligned=
for pad in 1 2 3 4; do
	{ cat "$base" && head -c "$pad" /dev/zero; } >"$work/base-$pad.cpio.gz"
	got=$(GUEST_INITRAMFS=$work/base-$pad.cpio.gz "$run" --add "$work/args.sh" "$kernel" -- sh args.sh pad 2>&1)
	[ "$got" = "pad|" ] || aligned+="base + $pad zero bytes: $got"$'\n'
done
tap_result "$([ -z "$aligned" ]; echo $?)" "--add files reach the guest after a base of any length (mod 4: 0, 1, 2, 3)" "$aligned"

# The limits: CPU time for a guest that spins, wall-clock time (a multiple
# of it) for one that sleeps.  The CPU-time cases give the wall clock room
# (GUEST_WALL_FACTOR=40): on a host loaded past five processes a core, 5
# times 4 s of wall clock gave QEMU 3 s of CPU, and the wall limit, not
# the one under test, stopped the guest.
roomy_wall=40
expect 125 'timed out: [0-9]+ s of CPU time' "a spinning guest is stopped at its CPU-time limit, status 125" \
	env GUEST_WALL_FACTOR=$roomy_wall "$run" --timeout 4 "$kernel" -- sh -c 'while :; do :; done'
expect 125 'timed out: 8 s of wall-clock time' "a hung guest times out (wall clock) with status 125" \
	env GUEST_WALL_FACTOR=2 "$run" --timeout 4 "$kernel" -- sleep 600
before=$(retries)
# (1 s of CPU ends most boots before /init, the rest in the loop.)
expect 125 'CPU time' "a boot that uses up its CPU time (1 s) fails" \
	env GUEST_WALL_FACTOR=$roomy_wall "$run" --timeout 1 "$kernel" -- sh -c 'while :; do :; done'
check "... and is not booted again (load does not use up CPU time)" test "$(retries)" -eq "$before"

# A boot that fails after /init ran is never retried.
before=$(retries)
expect 125 'no end marker' "a guest that stops without the end marker fails" \
	"$run" "$kernel" -- reboot -f
check "... and is not booted again (its /init ran)" test "$(retries)" -eq "$before"

# A starved host: QEMU stopped 90% of the time (90 ms of every 100), as a
# guest sharing two cores with many busy processes is.  The 8254 check at
# boot and the TSC's calibration lose their ticks, the clocksource watchdog
# its read-backs: the kernel
# command line guest/run writes must carry the guest through both.
starved() { # starved COMMAND... : run COMMAND, stopping its QEMU 90% of the time
	"$@" &
	local pid=$! qemu
	while kill -0 "$pid" 2>/dev/null; do
		qemu=$(pgrep -P "$pid" -x qemu-system-x86 || pgrep -P "$pid" -f qemu-system-x86_64 || true)
		if [ -n "$qemu" ]; then
			kill -STOP $qemu 2>/dev/null
			sleep 0.09
			kill -CONT $qemu 2>/dev/null
		fi
		sleep 0.01
	done
	wait "$pid"
}
before=$(retries)
starved "$run" --console "$work/starved.console" "$kernel" -- \
	sh -c 'settle >/dev/null; cat /proc/cmdline /sys/devices/system/clocksource/clocksource0/current_clocksource' \
	>"$work/starved" 2>&1
starved_rc=$?
check "a guest on a starved host boots and runs its command" test "$starved_rc" -eq 0
check "... with no boot retried" test "$(retries)" -eq "$before"
check "... on its TSC (not calibrated against dropped PIT ticks, nor dropped by the watchdog)" \
	grep -qx tsc "$work/starved"
# Each flag is on the command line and the kernel took it: one it does not
# know is listed as unknown (and so is a misspelt one).  nowatchdog is
# known only to a kernel with the lockup detectors (none here builds them).
known_flag() {
	local unknown
	unknown=$(tr -d '\r' <"$work/starved.console" | grep -a 'Unknown kernel command line parameters')
	grep -qw -- "$1" "$work/starved" && ! grep -qw -- "$1" <<<"$unknown"
}
check "no_timer_check is on the command line, and taken" known_flag no_timer_check
check "tsc=reliable is on the command line, and taken" known_flag tsc=reliable
check "tsc_early_khz (the host's TSC) is on the command line, and taken" known_flag tsc_early_khz
check "nowatchdog is on the command line" grep -qw nowatchdog "$work/starved"

# A base initramfs whose /init exits at once: the kernel panics.
mkdir -p "$work/panic/bin"
cp /bin/busybox "$work/panic/bin/"
printf '#!/bin/busybox sh\nexit 0\n' >"$work/panic/init"
chmod +x "$work/panic/init"
(cd "$work/panic" && find . | cpio -o -H newc -R 0:0 --quiet | gzip) >"$work/panic.cpio.gz"
expect 125 'Kernel panic' "a kernel panic fails and shows the console" \
	env GUEST_INITRAMFS="$work/panic.cpio.gz" GUEST_RETRIES=0 \
	"$run" "$kernel" -- true

# No /init at all: the kernel panics before any init runs (as one under
# test that cannot boot): booted once more, said and counted, then failed.
mkdir -p "$work/noinit"
echo nothing >"$work/noinit/README"
(cd "$work/noinit" && find . | cpio -o -H newc -R 0:0 --quiet | gzip) >"$work/noinit.cpio.gz"
before=$(retries)
expect 125 'RETRY: the boot failed before the guest.s /init ran .*retry 1 of 1' \
	"a boot that panics before /init is retried once, and said" \
	env GUEST_INITRAMFS="$work/noinit.cpio.gz" "$run" "$kernel" -- true
check "... counted once, and its second failure fails the run (status 125 above)" \
	test "$(retries)" -eq $((before + 1))

# A step on the host that fails: a file of an --add folder gone while it
# is copied (here a link to nothing), as when another step rewrites it.
mkdir "$work/vanishing" && ln -s "$work/gone" "$work/vanishing/file"
expect 125 "guest/run: on the host, line [0-9]+: 'cp -rL .*' failed \\(exit 1\\); no guest ran" \
	"a host step that fails (a copy) is named, with its line and command, status 125" \
	"$run" --add "$work/vanishing" "$kernel" -- true

expect 2 'usage' "a command line without -- is a usage error" \
	"$run" "$kernel" true
expect 2 'no kernel' "an unknown kernel is a clear error" \
	"$run" no-such-kernel -- true
: >"$work/empty-bzImage"
expect 2 'is empty' "an empty kernel file is a clear error, not a boot" \
	"$run" "$work/empty-bzImage" -- true
# A time that is no limit (timeout(1) takes 0 as "never"), or not a number
expect 2 "GUEST_WALL_FACTOR wants a whole number" "a bad GUEST_WALL_FACTOR is a usage error, not a boot" \
	env GUEST_WALL_FACTOR=x "$run" "$kernel" -- true
for bad in 0 -5 12s 99999999999999999999; do
	expect 2 "timeout wants a whole number >= 1, not '$bad'" "--timeout '$bad' is a usage error, not a boot" \
		"$run" --timeout "$bad" "$kernel" -- true
done
tap_end
