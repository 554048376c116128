#!/bin/sh
# codespace-guest.sh TEST_CODESPACE merge|report [N] - in the guest: compile
# N (default 10000) modules into the code space and report VMA count and
# memory as TAP.  Whether the VMA count is asserted depends on the kernel
# (kernel/kernels.tsv's merge column; the Makefile passes the word):
#   merge   identically sealed neighbours merge (the series keeps seals in
#           vm_flags, upstream too), or nothing is sealed and the unsealed
#           RX neighbours merge: the bound is asserted
#   report  sealed VMAs never merge (the RFC: a known cost): reported only
# POSIX sh, busybox-compatible.
if [ $# -lt 2 ]; then
	echo "usage: $0 TEST_CODESPACE merge|report [N]" >&2
	exit 2
fi
case $2 in
merge | report) ;;
*) echo "$0: '$2' is neither merge nor report" >&2; exit 2 ;;
esac
exec "$1" "${3:-10000}" "$2"
