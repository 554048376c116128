#!/bin/sh
# tests/views.sh ATTACKS EXPECTED - TAP tests of the lines each case prints
# after its "# result" line: the arena's /proc/self/maps lines and its
# smaps "Seals:"/"VmFlags:" lines before and after the corrupted call, as
# the attacking process sees them (the report page's parser reads them).
# Policy none (LANDED) on any host; the BLOCKED checks need upstream's
# mseal on the host (its smaps marks a sealed mapping "sl") and skip
# without it.
attacks=$1 expected=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tap.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/attacks-$(basename "$0" .sh).XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# result_awk PROGRAM FILE [VAR=VALUE...]: PROGRAM with scripts/result.awk,
# the one reader of "# result" lines (fields by name), and is_case(), true
# for the result line of the case that scenario, policy, priv and from name.
result_awk() {
	file=$2
	{
		echo 'function is_case() {'
		echo '	return result("scenario") == scenario && result("policy") == policy &&'
		echo '		result("priv") == priv && result("from") == from'
		echo '}'
		printf '%s\n' "$1"
	} >"$tmp/program.awk"
	shift 2
	awk -f "$top/scripts/result.awk" -f "$tmp/program.awk" "$@" "$file"
}

# view FILE SCENARIO POLICY PRIV FROM KIND WHEN: the "# KIND WHEN: " lines
# of that case, without the prefix.
view() {
	result_awk '
		result_read($0) { inside = is_case(); next }
		/^(not )?ok / { inside = 0 }
		inside && index($0, want) == 1 { print substr($0, length(want) + 1) }' "$1" \
		-v scenario="$2" -v policy="$3" -v priv="$4" -v from="$5" -v want="# $6 $7: "
}

# Every case: maps before, smaps before, maps after, then smaps after
# (none when nothing holds the arena's first byte any more).
views_in_order() { # FILE
	awk '/^# result / { if (seq != "") print seq; seq = "|" }
		/^# maps before: / { seq = seq "M" } /^# smaps before: / { seq = seq "S" }
		/^# maps after: / { seq = seq "m" } /^# smaps after: / { seq = seq "s" }
		END { if (seq != "") print seq }' "$1" >"$tmp/seq"
	cases=$(grep -c '^# result ' "$1")
	[ "$cases" -gt 0 ] && [ "$(grep -c . "$tmp/seq")" -eq "$cases" ] &&
		! grep -qv '^|M\{1,\}S\{1,\}m\{1,\}s*$' "$tmp/seq"
}

no_tab_or_trailing_blank() { # FILE
	grep -E '^# s?maps (before|after): ' "$1" >"$tmp/views" &&
	! grep -q "$(printf '\t')\| \$" "$tmp/views"
}

# one_maps_line TEXT PERMS: TEXT is one maps line with PERMS; its range.
one_maps_line() {
	[ "$(printf '%s\n' "$1" | grep -c .)" -eq 1 ] || return 1
	perms=$2
	set -- $1
	[ "$2" = "$perms" ] && echo "$1"
}

# The arena's one line reads r-x before the call and rw- after, same range.
r_x_then_rw() { # FILE FROM
	was=$(one_maps_line "$(view "$1" mprotect-rw none root "$2" maps before)" r-xp) &&
	now=$(one_maps_line "$(view "$1" mprotect-rw none root "$2" maps after)" rw-p) &&
	[ "$was" = "$now" ]
}

# smaps follows: VmFlags has ex and no wr before, wr and no ex after.
vmflags_follow_rw() { # FILE
	before=$(view "$1" mprotect-rw none root self smaps before)
	after=$(view "$1" mprotect-rw none root self smaps after)
	case $before in "VmFlags:"*" ex"*) ;; *) return 1 ;; esac
	case $before in *" wr"*) return 1 ;; esac
	case $after in "VmFlags:"*" wr"*) ;; *) return 1 ;; esac
	case $after in *" ex"*) return 1 ;; esac
}

# straddle-mprotect maps a page below: its rw-p line comes first and ends
# where the arena's r-xp line begins.
page_below_shown() { # FILE
	view "$1" straddle-mprotect none root self maps before >"$tmp/below"
	[ "$(grep -c . "$tmp/below")" -eq 2 ] || return 1
	below=$(one_maps_line "$(sed -n 1p "$tmp/below")" rw-p) &&
	arena=$(one_maps_line "$(sed -n 2p "$tmp/below")" r-xp) &&
	[ "${below#*-}" = "${arena%-*}" ]
}

moved_away() { # FILE
	[ "$(view "$1" mremap-move none root self maps after)" = "(nothing mapped)" ] &&
	[ -z "$(view "$1" mremap-move none root self smaps after)" ]
}

# A BLOCKED case: the same lines after as before, and the seal's mark.
unchanged_and_sealed() { # FILE SCENARIO FROM
	result_awk 'result_read($0) && is_case() && result("outcome") == "BLOCKED" &&
		result("seals") == "sl" { found = 1 } END { exit !found }' "$1" \
		-v scenario="$2" -v policy=card -v priv=root -v from="$3" &&
	[ -n "$(view "$1" "$2" card root "$3" maps before)" ] &&
	[ "$(view "$1" "$2" card root "$3" maps before)" = "$(view "$1" "$2" card root "$3" maps after)" ] &&
	[ "$(view "$1" "$2" card root "$3" smaps before)" = "$(view "$1" "$2" card root "$3" smaps after)" ] &&
	[ -n "$(view "$1" "$2" card root "$3" smaps after | grep '^VmFlags:.* sl\( \|$\)')" ]
}

# Upstream refuses at the seal, after changing the unsealed page below.
partial_apply_shown() { # FILE
	after=$(view "$1" straddle-mprotect card root self maps after)
	before=$(view "$1" straddle-mprotect card root self maps before)
	[ "$(printf '%s\n' "$after" | sed -n 2p)" = "$(printf '%s\n' "$before" | sed -n 2p)" ] &&
	one_maps_line "$(printf '%s\n' "$after" | sed -n 1p)" rwxp
}

tap_start
"$attacks" --kernel vanilla --expect "$expected" --policy none --scenario mprotect-rw \
	--scenario straddle-mprotect --scenario mremap-move >"$tmp/none.tap" 2>&1
check "policy none: the run meets its expectations" test $? -eq 0
check "every case prints maps before, smaps before, maps after, smaps after" \
	views_in_order "$tmp/none.tap"
check "no view line holds a tab or ends in a blank" no_tab_or_trailing_blank "$tmp/none.tap"
check "LANDED mprotect-rw: the arena reads r-xp before and rw-p after" \
	r_x_then_rw "$tmp/none.tap" self
check "from a forked child too: the child's copy, rw-p after (its parent's stays r-xp)" \
	r_x_then_rw "$tmp/none.tap" child
check "LANDED mprotect-rw: VmFlags go from ex to wr" vmflags_follow_rw "$tmp/none.tap"
check "straddle-mprotect shows the page below, then the arena" page_below_shown "$tmp/none.tap"
check "LANDED mremap-move: (nothing mapped) after, and no smaps line" moved_away "$tmp/none.tap"

"$attacks" --kernel vanilla --expect "$expected" --policy none --narrate \
	--scenario mprotect-rw >"$tmp/narrate" 2>&1
check "--narrate tells the case and prints no view lines" sh -c \
	"grep -q 'LANDED' '$tmp/narrate' && ! grep -q '^# s\\{0,1\\}maps ' '$tmp/narrate'"

seal=$("$attacks" --kernel upstream --expect "$expected" --narrate \
	--policy card --scenario mprotect-rw 2>&1 | head -n 1)
blocked="BLOCKED mprotect-rw (self): maps and smaps the same after as before, VmFlags sl"
blocked_child="BLOCKED mprotect-rw (child): the same, as the child sees its inherited seal"
partial="BLOCKED straddle-mprotect: the arena unchanged, the page below rwxp after"
case $seal in
*"upstream mseal"*)
	"$attacks" --kernel upstream --expect "$expected" --policy card \
		--scenario mprotect-rw --scenario straddle-mprotect >"$tmp/card.tap" 2>&1
	check "policy card on this host: the run meets the upstream column" test $? -eq 0
	check "$blocked" unchanged_and_sealed "$tmp/card.tap" mprotect-rw self
	check "$blocked_child" unchanged_and_sealed "$tmp/card.tap" mprotect-rw child
	check "$partial" partial_apply_shown "$tmp/card.tap"
	;;
*)
	why="host kernel $(uname -r) has no upstream mseal"
	for what in "policy card on this host" "$blocked" "$blocked_child" "$partial"; do
		skip "$what" "$why"
	done
	;;
esac

tap_end
