#!/bin/sh
# tests/host-run.sh ATTACKS EXPECTED KERNEL
#
# Run the whole attack matrix on this host and judge it against the KERNEL
# column of EXPECTED (upstream: the host kernel is Linux >= 6.10 with
# upstream's mseal).  Prints TAP; a host without mseal skips the whole file.
attacks=$1 expected=$2 kernel=$3
seal=$("$attacks" --kernel "$kernel" --expect "$expected" --narrate \
	--policy card --scenario mprotect-rwx 2>&1 | head -n 1)
case $seal in
*"upstream mseal"*) ;;
*)
	echo "1..0 # SKIP host kernel $(uname -r) has no upstream mseal: $seal"
	exit 0
	;;
esac
exec "$attacks" --kernel "$kernel" --expect "$expected"
