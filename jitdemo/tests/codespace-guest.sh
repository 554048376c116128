#!/bin/sh
# codespace-guest.sh TEST_CODESPACE KERNEL [N] - in the guest: compile N
# (default 10000) modules into the code space and report VMA count and
# memory as TAP.  Whether the VMA count is asserted depends on the kernel:
#   upstream, upstream-fixes  merge identically sealed neighbours: asserted
#   vanilla   no mseal (ENOSYS); unsealed RX neighbours merge: bound asserted
#   mseal     seals are vm_flags bits, so sealed neighbours merge: asserted
#   v1        the RFC never merges sealed VMAs (a known cost): reported only
# POSIX sh, busybox-compatible.
if [ $# -lt 2 ]; then
	echo "usage: $0 TEST_CODESPACE upstream|upstream-fixes|vanilla|mseal|v1 [N]" >&2
	exit 2
fi
case $2 in
upstream|upstream-fixes|vanilla|mseal) mode=merge ;;
v1) mode=report ;;
*) echo "$0: unknown kernel '$2'" >&2; exit 2 ;;
esac
exec "$1" "${3:-10000}" "$mode"
