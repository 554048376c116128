#!/usr/bin/env bash
# bundle.sh BINARY OUTDIR - a dynamically linked host binary, ready to run
# in the guest: BINARY (a path, or a name looked up on PATH), every
# library ldd names and the loader, copied flat into OUTDIR (the loader as
# ld-linux-x86-64.so.2).  In the guest, with OUTDIR at /sealjit/NAME:
#   /sealjit/NAME/ld-linux-x86-64.so.2 --library-path /sealjit/NAME \
#       [--preload LIB] /sealjit/NAME/BINARY ARG...
# (glibc's loader: --preload is LD_PRELOAD for that one program).
# Writes OUTDIR.tmp first and replaces OUTDIR only when it is complete.
# Exits 1 when BINARY is missing, when ldd cannot list its libraries (a
# static binary, or one for another machine), when ldd finds no file for a
# library it needs ("not found": the bundle would not run) or names no
# loader; 2 on misuse.  Each says which.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: bundle.sh BINARY OUTDIR" >&2; exit 2; }
bin=$1 out=$2
case $bin in
*/*) [ -x "$bin" ] || { echo "bundle: $bin is not an executable" >&2; exit 1; } ;;
*) bin=$(command -v "$bin") || { echo "bundle: $1 is not installed" >&2; exit 1; } ;;
esac
# ldd lines: "libc.so.6 => /lib/.../libc.so.6 (0x...)" and "/lib64/ld-linux-x86-64.so.2 (0x...)"
lddout=$(ldd "$bin" 2>&1) ||
	{ echo "bundle: ldd cannot list the libraries of $bin (static, or not for this machine?): $(tr -s '\t\n' '  ' <<<"$lddout")" >&2; exit 1; }
# "libfoo.so => not found": the bundle would miss it, and the guest's loader would refuse
missing=$(awk '$2 == "=>" && $3 == "not" && $4 == "found" { print $1 }' <<<"$lddout" | paste -sd' ')
[ -z "$missing" ] || { echo "bundle: ldd finds no file for what $bin needs: $missing" >&2; exit 1; }
libs=$(awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' <<<"$lddout")
grep -q 'ld-linux-x86-64\.so\.2$' <<<"$libs" ||
	{ echo "bundle: ldd names no ld-linux-x86-64.so.2 for $bin (static, or not x86_64?)" >&2; exit 1; }
rm -rf "$out.tmp"
mkdir -p "$out.tmp"
cp -L "$bin" "$out.tmp/$(basename "$bin")"
for lib in $libs; do
	cp -L "$lib" "$out.tmp/$(basename "$lib")"
done
rm -rf "$out"
mv "$out.tmp" "$out"
