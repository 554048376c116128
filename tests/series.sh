#!/usr/bin/env bash
# tests/series.sh SERIES - TAP checks of kernel-series/SERIES/ (6.1 or 6.12,
# kernel/series-info.sh) as a maintainer receives it:
#   - every patch is checkpatch.pl --strict clean, but for the reports
#     listed (and justified in the cover letter) in tests/checkpatch-allow;
#   - every patch carries a Signed-off-by and a commit message;
#   - selftest changes come in patches of their own: no patch touches
#     tools/testing/selftests/ and any other path (a maintainer takes the
#     code, then the cases that test it);
#   - the series applies in order with `patch -p1` to the pristine files of
#     the kernel it is for;
#   - the cover letter has been written (no template left in it).
# Needs the pristine tree that `make kernel` leaves in the cache.
# checkpatch.pl's reports on a patch are kept in the cache, keyed by the
# patch and checkpatch's own files, so a warm run checks only what changed;
# the allow list is applied to them afresh every time.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/kernel/series-info.sh"
[ $# = 1 ] || { echo "usage: tests/series.sh SERIES (series: $series_names)" >&2; exit 2; }
series_info "$1" || exit 2
tree=$("$top/kernel/build.sh" --source "$series_source" --tree "$series_base") || exit 1
cache=${SEALJIT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sealjit}/checkpatch
cover=$(ls "$series_dir"/0000-*.patch 2>/dev/null)
mapfile -t patches < <(series_patches)
[ ${#patches[@]} -gt 0 ] || { echo "tests/series.sh: kernel-series/$1 has no patches" >&2; exit 1; }

. "$top/tests/tap.sh"
tap_start $((4 * ${#patches[@]} + 2))

# The allow list names patches by series and subject, not by number, so
# that a patch keeps its entry when the series is renumbered.
declare -A used=() # "SUBJECT<TAB>TEXT" of each entry a report matched
allowed() { # allowed SERIES PATCH-FILE REPORT-LINE
	local series subject text subject_now=${2#[0-9][0-9][0-9][0-9]-}
	while IFS=$'\t' read -r series subject text; do
		case $series in '#'* | '') continue ;; esac
		[ "$series" = "$1" ] && [ "$subject" = "$subject_now" ] &&
			[[ $3 == *"$text"* ]] || continue
		used["$subject"$'\t'"$text"]=1
		return 0
	done <"$top/tests/checkpatch-allow"
	return 1
}

# checkpatch's options and files: a new checkpatch gives new keys.
options=(--strict --terse --no-summary)
checker=$( (echo "${options[*]}" && cd "$tree" && cat scripts/checkpatch.pl \
	scripts/spelling.txt scripts/const_structs.checkpatch 2>/dev/null) |
	sha256sum | cut -c1-16)
mkdir -p "$cache"

checkpatch_reports() { # PATCH: checkpatch's report lines, from the cache when it has them
	local key
	key=$cache/$checker-$(sha256sum <"$1" | cut -c1-16)
	if [ ! -f "$key" ]; then
		(cd "$tree" && perl scripts/checkpatch.pl "${options[@]}" "$1" 2>&1) >"$key.tmp"
		# 0: clean, 1: reports; anything else: it did not check the patch.
		local rc=$?
		if [ "$rc" -gt 1 ]; then
			echo "$1:0: ERROR: checkpatch.pl failed (exit $rc): $(tail -n 1 "$key.tmp")"
			rm -f "$key.tmp"
			return
		fi
		mv "$key.tmp" "$key"
	fi
	grep -E ': (ERROR|WARNING|CHECK):' "$key"
}

for p in "${patches[@]}"; do
	reports=$(checkpatch_reports "$p")
	unexpected=
	while IFS= read -r line; do
		[ -z "$line" ] || allowed "$1" "$(basename "$p")" "$line" || unexpected+="$line"$'\n'
	done <<<"$reports"
	tap_result "$([ -z "$unexpected" ]; echo $?)" "checkpatch --strict: $1/$(basename "$p")" "$unexpected"
done

# An entry no report matched is stale: its patch was renamed or fixed.
stale=
while IFS=$'\t' read -r series subject text; do
	case $series in '#'* | '') continue ;; esac
	[ "$series" = "$1" ] && [ -z "${used["$subject"$'\t'"$text"]:-}" ] &&
		stale+="tests/checkpatch-allow: no report of $subject matches: $text"$'\n'
done <"$top/tests/checkpatch-allow"
tap_result "$([ -z "$stale" ]; echo $?)" "every entry of tests/checkpatch-allow for $1 matches a report" "$stale"

for p in "${patches[@]}"; do
	name=$(basename "$p")
	body=$(sed -n '/^Subject:/,/^---$/p' "$p" | sed '1d;$d' | grep -vc '^\(Signed-off-by:\|$\)')
	grep -q '^Signed-off-by: .* <.*@.*>' "$p" && [ "$body" -ge 3 ]
	tap_result $? "Signed-off-by and commit message: $name"
done

# The files a patch touches, from its diff headers (a rename: both names).
touched() { sed -n 's|^diff --git a/\([^ ]*\) b/\([^ ]*\)$|\1\n\2|p' "$1" | sort -u; }
for p in "${patches[@]}"; do
	files=$(touched "$p")
	tests=$(grep -c '^tools/testing/selftests/' <<<"$files")
	others=$(grep -vc '^tools/testing/selftests/' <<<"$files")
	[ "$tests" -eq 0 ] || [ "$others" -eq 0 ]
	tap_result $? "selftest changes in a patch of their own: $(basename "$p")" \
		"touches $tests file(s) under tools/testing/selftests/ and $others elsewhere"
done

# patch -p1 onto copies of the pristine files the series touches.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for f in $(grep -h '^+++ b/' "${patches[@]}" | sed 's|^+++ b/||' | sort -u); do
	[ -f "$tree/$f" ] || continue
	mkdir -p "$work/$(dirname "$f")"
	git -C "$tree" show "pristine:$f" >"$work/$f" 2>/dev/null || cp "$tree/$f" "$work/$f"
done
for p in "${patches[@]}"; do
	out=$(cd "$work" && patch -p1 --batch --forward <"$p" 2>&1)
	tap_result $? "applies with patch -p1: $(basename "$p")" "$out"
done

! grep -q '\*\*\* \(SUBJECT\|BLURB\) HERE \*\*\*' "$cover" 2>/dev/null && [ -n "$cover" ]
tap_result $? "cover letter written: $(basename "${cover:-missing}")"
tap_end
