#!/usr/bin/env bash
# tests/install-deps.sh - TAP checks of scripts/install-deps.sh as a user
# who is not root: it installs nothing, names every missing package and
# fails.  dpkg-query and id are stand-ins on PATH, so nothing is installed
# or removed for real.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin"
# dpkg-query reports the packages in $MISSING as not installed.
cat >"$work/bin/dpkg-query" <<'SH'
#!/bin/sh
for p; do :; done
case " $MISSING " in *" $p "*) exit 1 ;; esac
printf 'install ok installed'
SH
printf '#!/bin/sh\necho 1000\n' >"$work/bin/id"
cat >"$work/bin/apt-get" <<'SH'
#!/bin/sh
if [ "$1" = indextargets ]; then
	[ -n "$NO_DEB_SRC" ] || sed -n 's/^VERSION_CODENAME=//p' /etc/os-release
	exit 0
fi
echo "apt-get must not run" >&2; exit 99
SH
chmod +x "$work/bin"/*

. "$top/tests/tap.sh"
tap_start 4
run() { MISSING=$1 PATH=$work/bin:$PATH "$top/scripts/install-deps.sh" >"$work/out" 2>&1; }

run "rsync patch qemu-system-x86"
status=$?
[ $status -ne 0 ]
tap_result $? "a user who is not root is refused" "exit $status"
grep -q 'rsync' "$work/out" && grep -q 'patch' "$work/out" &&
	grep -q 'qemu-system-x86' "$work/out" && ! grep -q 'apt-get must not run' "$work/out"
tap_result $? "the message names every missing package, rsync included" "$(cat "$work/out")"
run ""
status=$?
[ $status -eq 0 ] && [ ! -s "$work/out" ]
tap_result $? "nothing missing: silent success" "exit $status: $(cat "$work/out")"
NO_DEB_SRC=1 run ""
status=$?
[ $status -ne 0 ] && grep -q 'deb-src.sh add' "$work/out" && ! grep -q 'apt-get must not run' "$work/out"
tap_result $? "no deb-src entry: named, with the command that adds it, and refused" "exit $status: $(cat "$work/out")"
tap_end
