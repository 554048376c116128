#!/usr/bin/env bash
# scripts/deb-src.sh check|add - `apt-get source` for this machine's own
# Debian release.
#
#   check  exit 0 when apt knows a deb-src entry of this release
#          (VERSION_CODENAME of /etc/os-release: bookworm, bookworm-updates,
#          bookworm-security...), 1 with one line saying what to do
#   add    (root) when check fails: write the deb-src twin of every enabled
#          `deb` entry of this release, same mirror, suites, components and
#          key, to /etc/apt/sources.list.d/sealjit-deb-src.sources (deb822
#          stanzas) or sealjit-deb-src.list (one-line entries), then
#          `apt-get update`; exit 1 with one line when there is no such
#          entry to copy or the update fails
#
# Only entries of the running release are copied: third-party archives
# (other suites) are left alone.  SEALJIT_APT_DIR (default /etc/apt) is for
# tests.
set -euo pipefail
apt_dir=${SEALJIT_APT_DIR:-/etc/apt}
out=$apt_dir/sources.list.d/sealjit-deb-src

die() { echo "deb-src: $*" >&2; exit 1; }

codename() {
	local c
	c=$(sed -n 's/^VERSION_CODENAME=//p' /etc/os-release 2>/dev/null | tr -d '"')
	[ -n "$c" ] || die "no VERSION_CODENAME in /etc/os-release: not a Debian release apt-get source can name"
	echo "$c"
}

has_deb_src() {
	grep -q "^$1\(-.*\)\{0,1\}$" <<<"$(apt-get indextargets 'Created-By: Sources' --format '$(RELEASE)' 2>/dev/null)"
}

# deb822 stanzas of this release with Types: deb, as Types: deb-src.
deb822_twins() {
	local f
	for f in "$apt_dir"/sources.list.d/*.sources; do
		[ -f "$f" ] && [ "$f" != "$out.sources" ] || continue
		awk -v code="$1" '
		function flush(   i, n, s, ok) {
			if (!types_deb || enabled == "no") { reset(); return }
			n = split(suites, s, " "); ok = 0
			for (i = 1; i <= n; i++) if (s[i] == code || index(s[i], code "-") == 1) ok = 1
			if (ok) { print "Types: deb-src"; printf "%s", body; print "" }
			reset()
		}
		function reset() { types_deb = 0; enabled = ""; suites = ""; body = "" }
		/^[ \t]*#/ { next }
		/^[ \t]*$/ { flush(); next }
		/^Types:/ { types_deb = ($0 ~ /[ \t]deb([ \t]|$)/); next }
		/^Enabled:/ { enabled = $2 }
		/^Suites:/ { suites = $0; sub(/^Suites:[ \t]*/, "", suites) }
		{ body = body $0 "\n" }
		END { flush() }' "$f"
	done
}

# one-line entries of this release: "deb [opts] URI SUITE COMP..." as deb-src.
list_twins() {
	local f
	for f in "$apt_dir"/sources.list "$apt_dir"/sources.list.d/*.list; do
		[ -f "$f" ] && [ "$f" != "$out.list" ] || continue
		awk -v code="$1" '
		$1 != "deb" { next }
		{ i = 2; if ($2 ~ /^\[/) while ($i !~ /\]$/) i++; else i = 1
		  suite = $(i + 2)
		  if (suite == code || index(suite, code "-") == 1) { $1 = "deb-src"; print } }' "$f"
	done
}

add() {
	local code stanzas lines
	code=$(codename)
	has_deb_src "$code" && return 0
	[ "$(id -u)" -eq 0 ] || die "apt has no deb-src entry for $code; as root: scripts/deb-src.sh add (or sudo make deps)"
	stanzas=$(deb822_twins "$code")
	lines=$(list_twins "$code")
	[ -n "$stanzas$lines" ] || die "no enabled deb entry of $code in $apt_dir to copy as deb-src"
	[ -z "$stanzas" ] || printf '# written by sealjit scripts/deb-src.sh: apt-get source for %s\n%s\n' \
		"$code" "$stanzas" >"$out.sources"
	[ -z "$lines" ] || printf '# written by sealjit scripts/deb-src.sh: apt-get source for %s\n%s\n' \
		"$code" "$lines" >"$out.list"
	echo "deb-src: added the deb-src entries of $code ($out.*); apt-get update"
	apt-get update -qq >/dev/null || die "apt-get update failed after adding $out.*"
	has_deb_src "$code" || die "apt still lists no Sources index for $code after apt-get update"
}

case ${1:-} in
check)
	code=$(codename)
	has_deb_src "$code" ||
		die "apt has no deb-src entry for $code: apt-get source cannot fetch Debian's sources (as root: scripts/deb-src.sh add, or make deps)" ;;
add) add ;;
*) echo "usage: scripts/deb-src.sh check|add" >&2; exit 2 ;;
esac
