#!/usr/bin/env bash
# kernel/check-series.sh SERIES... - TAP: every patch of kernel-series/SERIES/
# builds on its own, applied one at a time with the config of that series'
# kernels.  Each series has one check flavor (series_check in
# kernel/series-info.sh), rebuilt incrementally by kernel/build.sh after
# each patch, so the compiler cache serves every file a patch does not
# change.  A series that adds CONFIG_MSEAL also builds whole with
# CONFIG_MSEAL=n (flavor series_check-nomseal).  Where a patch's tree has
# the selftest, it must build too (-Werror).  `make check-series`, not part
# of `make test`.  Needs `make kernel`.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/kernel/series-info.sh"
[ $# -ge 1 ] || { echo "usage: kernel/check-series.sh SERIES... (series: $series_names)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

plan=0
for s in "$@"; do
	series_info "$s" || exit 2
	count=$(series_patches | wc -l)
	[ "$count" -gt 0 ] || { echo "kernel/check-series.sh: kernel-series/$s has no patches" >&2; exit 1; }
	plan=$((plan + count))
	[ "$series_nomseal" = yes ] && plan=$((plan + 1))
done
. "$top/tests/tap.sh"
tap_start "$plan"

build() { # build DESCRIPTION BUILD.SH-ARGS...
	local desc=$1
	shift
	if SEALJIT_BUILD=$work "$top/kernel/build.sh" --source "$series_source" "$@" >"$work/log" 2>&1; then
		ok "$desc ($(sed -n 's/.*built in \([0-9]* s\).*/\1/p' "$work/log"))"
	else
		not_ok "$desc" "$(tail -n 15 "$work/log")"
	fi
}

# introduced_by FRAGMENT: the index in patches[] of the last patch that adds
# (with a "+config NAME" line) an option FRAGMENT sets; -1 when the series
# adds none of them.  Until that patch is applied the option does not exist,
# and kernel/build.sh rightly refuses a fragment whose options do not
# survive olddefconfig.
introduced_by() {
	local opt i at=-1
	for opt in $(sed -n 's/^CONFIG_\([A-Za-z0-9_]*\)=.*/\1/p' "$1"); do
		for i in "${!patches[@]}"; do
			grep -qx "+config $opt" "${patches[$i]}" && [ "$i" -gt "$at" ] && at=$i
		done
	done
	echo "$at"
}

# fragments_after I: the series' --fragment arguments for the tree after
# patches 0..I: each fragment from the patch that adds its options on.
fragments_after() {
	local a
	for ((a = 0; a < ${#series_fragments[@]}; a += 2)); do
		[ "${fragment_from[$((a / 2))]}" -le "$1" ] &&
			printf '%s\n' --fragment "${series_fragments[$((a + 1))]}"
	done
}

for s in "$@"; do
	series_info "$s"
	mapfile -t patches < <(series_patches)
	fragment_from=()
	for ((a = 1; a < ${#series_fragments[@]}; a += 2)); do
		fragment_from+=("$(introduced_by "${series_fragments[$a]}")")
	done
	for i in "${!patches[@]}"; do
		mapfile -t fragments < <(fragments_after "$i")
		build "$s: builds after $(basename "${patches[$i]}")" \
			"${fragments[@]}" "$series_check" "${patches[@]:0:$((i + 1))}"
	done
	[ "$series_nomseal" = yes ] &&
		build "$s: the whole series builds with CONFIG_MSEAL=n" "$series_check-nomseal" "${patches[@]}"
done
exit 0
