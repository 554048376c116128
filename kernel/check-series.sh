#!/usr/bin/env bash
# kernel/check-series.sh SERIES[:N-M]... - TAP: every patch of
# kernel-series/SERIES/ builds on its own, applied one at a time with the
# config of that series' kernels.  Each series has one check flavor
# (series_check in kernel/series-info.sh), rebuilt incrementally by
# kernel/build.sh after each patch, so the compiler cache serves every file
# a patch does not change.  A series that adds CONFIG_MSEAL also builds
# whole with CONFIG_MSEAL=n (flavor series_check-nomseal).  Where a patch's
# tree has the selftest, it must build too (-Werror).  `make check-series`,
# not part of `make test`.  Needs `make kernel`.
#
# SERIES:N-M (the registry's way of naming part of a series) checks only
# the trees after patches N to M: each still with every patch before it,
# and the CONFIG_MSEAL=n build only when M is the last patch.  After a
# change to patch N, SERIES:N-LAST is what can have broken.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/kernel/series-info.sh"
. "$top/scripts/whole-number.sh"
[ $# -ge 1 ] || { echo "usage: kernel/check-series.sh SERIES[:N-M]... (series: $series_names)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# select_series ARG: series_info for ARG's series, patches[] its patches,
# first and last the indexes (from 0) of the trees ARG asks to check, and
# nomseal_build "yes" when the series also builds whole with CONFIG_MSEAL=n
# (it adds mseal() and the range reaches its last patch).
select_series() {
	local name=${1%%:*} range n m
	series_info "$name" || exit 2
	mapfile -t patches < <(series_patches)
	[ ${#patches[@]} -gt 0 ] || { echo "kernel/check-series.sh: kernel-series/$name has no patches" >&2; exit 1; }
	first=0 last=$((${#patches[@]} - 1)) nomseal_build=$series_nomseal
	[ "$name" != "$1" ] || return 0
	range=${1#*:}
	[[ $range == *-* ]] || { echo "kernel/check-series.sh: '$1': a range is N-M" >&2; exit 2; }
	n=${range%%-*} m=${range#*-}
	whole_number kernel/check-series.sh "$name:N" "$n"
	whole_number kernel/check-series.sh "$name:M" "$m" "$((10#$n))"
	((10#$m <= ${#patches[@]})) ||
		{ echo "kernel/check-series.sh: '$1': kernel-series/$name has ${#patches[@]} patches" >&2; exit 2; }
	first=$((10#$n - 1)) last=$((10#$m - 1))
	[ "$last" -eq $((${#patches[@]} - 1)) ] || nomseal_build=no
}

plan=0
for s in "$@"; do
	select_series "$s"
	plan=$((plan + last - first + 1))
	[ "$nomseal_build" = yes ] && plan=$((plan + 1))
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
	select_series "$s"
	fragment_from=()
	for ((a = 1; a < ${#series_fragments[@]}; a += 2)); do
		fragment_from+=("$(introduced_by "${series_fragments[$a]}")")
	done
	for ((i = first; i <= last; i++)); do
		mapfile -t fragments < <(fragments_after "$i")
		build "${s%%:*}: builds after $(basename "${patches[$i]}")" \
			"${fragments[@]}" "$series_check" "${patches[@]:0:$((i + 1))}"
	done
	[ "$nomseal_build" = yes ] &&
		build "${s%%:*}: the whole series builds with CONFIG_MSEAL=n" "$series_check-nomseal" "${patches[@]}"
done
exit 0
