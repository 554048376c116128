#!/usr/bin/env bash
# tests/tap-summary-test.sh - TAP tests of tests/tap-summary and
# tests/tap-run: the count must never read green when a suite did not run,
# stopped early or failed behind an "ok"; and the commit tests/provenance
# records for a result (scripts/tree-state.sh).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

. "$top/tests/tap.sh"
tap_start 14

# summary WANT PATTERN NAME...: tap-summary over $work/d exits WANT and
# its output matches PATTERN.
summary() {
	local want=$1 pattern=$2
	shift 2
	expect "$want" "$pattern" "$desc" env RESULTS="$work/d" "$top/tests/tap-summary" "$@"
}
fresh() { rm -rf "$work/d"; mkdir -p "$work/d"; printf '1..1\nok 1\n' >"$work/d/other.tap"; }

fresh
desc="every expected suite present and passing: exit 0"
summary 0 '^1 passed, 0 failed, 0 skipped$' other

fresh
desc="a missing literal name fails and is named (the newcomer's rsync run)"
summary nonzero 'FAILED: no results from series' series other
desc="a missing literal name is counted in N failed"
summary nonzero '^1 passed, 1 failed' series other

fresh
desc="a glob that matches nothing fails and is named"
summary nonzero "FAILED: no results from jitdemo-\\*" 'jitdemo-*' other

fresh
: >"$work/d/series.tap"
desc="an empty TAP file fails"
summary nonzero 'series.tap: no TAP plan' series other

fresh
printf '1..3\nok 1\nok 2\n' >"$work/d/series.tap"
desc="a plan larger than the results fails"
summary nonzero 'plan says 3 results, got 2' series other

fresh
printf '1..2\nok 1\nBail out! the guest died\n' >"$work/d/series.tap"
desc="a bail-out fails"
summary nonzero 'Bail out! the guest died' series other

fresh
printf '1..0 # SKIP mseal not supported\n' >"$work/d/vanilla.tap"
desc="a whole-suite skip is a skip, not a failure"
summary 0 '^1 passed, 0 failed, 1 skipped$' vanilla other

fresh
RESULTS=$work/d "$top/tests/tap-run" crashed -- \
	sh -c 'printf "1..1\nok 1 - looked fine\n"; exit 139' >/dev/null 2>&1
desc="a suite that exits non-zero with an all-ok TAP fails (through tap-run)"
summary nonzero 'exited with status 139' crashed other

rm -rf "$work/d"
mkdir -p "$work/d"
desc="no results at all fail"
summary nonzero '^0 passed, 1 failed' 'series'

# Where a result came from (tests/tap-run -> tests/provenance): a copy of
# the scripts in a scratch git tree, its commit column read back.  A file
# that is not tracked and not ignored is an uncommitted change, as for
# report/report.sh (both use scripts/tree-state.sh).
scratch=$work/tree
mkdir -p "$scratch/tests" "$scratch/scripts"
cp "$top/tests/provenance" "$scratch/tests/"
cp "$top/scripts/tree-state.sh" "$scratch/scripts/"
printf 'results/\n' >"$scratch/.gitignore"
git -C "$scratch" init -q
git -C "$scratch" add -A
git -C "$scratch" -c user.name=t -c user.email=t@localhost -c commit.gpgsign=false commit -q -m scratch
recorded() { # the commit column tests/provenance writes in $1 now
	rm -rf "$1/results"
	GIT_CEILING_DIRECTORIES=$work RESULTS=$1/results "$1/tests/provenance" x.tap true
	cut -f3 "$1/results/provenance.tsv"
}
commit=$(git -C "$scratch" rev-parse --short=12 HEAD)
desc="provenance: a clean tree is its commit, unmarked"
expect 0 "^$commit\$" "$desc" recorded "$scratch"
echo new >"$scratch/new-script.sh"
desc="provenance: a file neither tracked nor ignored marks it"
expect 0 "^$commit \\(with uncommitted changes\\)\$" "$desc" recorded "$scratch"
rm "$scratch/new-script.sh"
echo '# staged' >>"$scratch/scripts/tree-state.sh"
git -C "$scratch" add scripts/tree-state.sh
desc="provenance: a staged change marks it"
expect 0 "^$commit \\(with uncommitted changes\\)\$" "$desc" recorded "$scratch"
rm -rf "$scratch/.git"
desc="provenance: not a git checkout says so (not a dirty 'unknown')"
expect 0 '^not a git checkout$' "$desc" recorded "$scratch"
tap_end
