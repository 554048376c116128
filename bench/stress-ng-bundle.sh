#!/usr/bin/env bash
# bench/stress-ng-bundle.sh OUTDIR - Debian's stress-ng and the shared
# libraries ldd names, copied flat into OUTDIR (with the loader as
# ld-linux-x86-64.so.2), for the guest to run as
#   OUTDIR/ld-linux-x86-64.so.2 --library-path OUTDIR OUTDIR/stress-ng ...
set -euo pipefail
out=${1:?usage: bench/stress-ng-bundle.sh OUTDIR}
bin=$(command -v stress-ng) || {
	echo "stress-ng-bundle: stress-ng is not installed (apt-get install stress-ng)" >&2
	exit 1
}
libs=$(ldd "$bin" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }')
[ -n "$libs" ] || { echo "stress-ng-bundle: ldd named no libraries for $bin" >&2; exit 1; }
rm -rf "$out.tmp"
mkdir -p "$out.tmp"
cp -L "$bin" "$out.tmp/stress-ng"
for lib in $libs; do
	case $lib in
	*/ld-linux-x86-64.so.2) cp -L "$lib" "$out.tmp/ld-linux-x86-64.so.2" ;;
	*) cp -L "$lib" "$out.tmp/" ;;
	esac
done
[ -f "$out.tmp/ld-linux-x86-64.so.2" ] ||
	{ echo "stress-ng-bundle: ldd named no ld-linux-x86-64.so.2" >&2; exit 1; }
rm -rf "$out"
mv "$out.tmp" "$out"
