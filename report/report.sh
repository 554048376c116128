#!/usr/bin/env bash
# report/report.sh [OPTIONS] RESULTS OUT - the threat model on one page.
#
# Writes OUT/index.html (one self-contained file: no network at view time)
# and OUT/attack-matrix.svg from the result files in RESULTS, never from
# numbers typed anywhere else:
#   KERNEL-attacks.tap   the attack matrix (make test-attacks)
#   KERNEL-NAME.tap      a real JIT's matrix (realjit/matrix.sh --jit NAME:
#                        make test the fast subset, make luajit-attacks,
#                        v8-attacks and node24-attacks all of it), for each
#                        JIT NAME of --jits
#   NAME-cost.md         what it costs, where its profile shows it
#                        (RJ_PAGE_COST: luajit-pkey, make luajit-pkey-cost)
#   bench-kernel.tsv     the cost of sealing (make bench-kernel)
#   jitdemo-bench.txt    the JIT's speed (make bench-jit)
#   provenance.tsv       the date, commit and command of each (tests/provenance)
# and from the repository: attacks/expected.tsv and each JIT's expected
# tables (each case's reason), the attacks program's --list (each
# scenario's words: make attacks-bin), each JIT's workloads (a first line
# "COMMENT NAME.EXT - what it does"), its profile (realjit/cases.sh: its
# words, its page intro), kernel/kernels.tsv (kernel names, cost bases),
# report/*.tsv (row groups, inputs), report/intro.html, md-table.awk,
# style.css, cell.js.
#
#   --kernels "K..."  the matrices' columns, in order (default: every
#                     RESULTS/*-attacks.tap, in kernel/kernels.tsv's order);
#                     a kernel named here without its attacks and real-JIT
#                     files fails the report, but for a real JIT's on a
#                     kernel without mseal() (kernel/kernels.tsv's abi
#                     none), which make test leaves to the whole matrix:
#                     its column says so
#   --jits "NAME..."  the real JITs drawn, in order (default: every profile
#                     with expected tables, by name: luajit luajit-pkey
#                     node24 node24-key v8)
#   --require PART    fail when PART's file is missing too (bench-kernel,
#                     bench-jit); otherwise the page names it missing
#   --top DIR         the repository (default: this script's parent)
#   --svg FILE        also copy the matrix SVG to FILE (docs/attack-matrix.svg)
#   --attacks BIN     the attacks program (default: build/attacks/attacks)
#
# Exit status: 0 when every file the page needs is there and well formed;
# 1 when one is missing or malformed: the page is still written, and names
# it at the top (so does stderr); 2 on misuse.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
kernels=
jits=
required=" "
svg_copy=
attacks_bin=
usage() { sed -n '2,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	--kernels) [ $# -ge 2 ] || usage; kernels=$2; shift 2 ;;
	--jits) [ $# -ge 2 ] || usage; jits=$2; shift 2 ;;
	--require) [ $# -ge 2 ] || usage; required+="$2 "; shift 2 ;;
	--top) [ $# -ge 2 ] || usage; top=$(cd "$2" && pwd); shift 2 ;;
	--svg) [ $# -ge 2 ] || usage; svg_copy=$2; shift 2 ;;
	--attacks) [ $# -ge 2 ] || usage; attacks_bin=$2; shift 2 ;;
	-h | --help) usage ;;
	-*) echo "report: unknown option $1" >&2; usage ;;
	*) break ;;
	esac
done
[ $# -eq 2 ] || usage
results=$(cd "$1" 2>/dev/null && pwd) || { echo "report: no results directory $1" >&2; exit 2; }
out=$2
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
problems=$work/problems
absent_why=$work/absent-why
missing=$work/missing
: >"$problems"
: >"$absent_why"
: >"$missing"

# esc TEXT: TEXT with HTML's four special characters escaped (in bash: it
# runs for every file the page names, and a sed each was a third of the
# report's time)
esc() {
	local s=$1
	s=${s//&/\&amp;}
	s=${s//</\&lt;}
	s=${s//>/\&gt;}
	s=${s//\"/\&quot;}
	printf '%s' "$s"
}
kernels_tsv=$top/kernel/kernels.tsv
# The command that writes PART's file (report/inputs.tsv; a real JIT's, its
# profile's make targets).
cmd_of() {
	local c
	c=$(awk -F'\t' -v p="$1" '!/^#/ && $1 == p { print $3; exit }' "$here/inputs.tsv")
	[ -n "$c" ] || [ "$1" != "${RJ_JIT:-}" ] ||
		c="$RJ_TEST_TARGET (the fast subset) or $RJ_FULL_TARGET (every case): realjit/matrix.sh --jit $1"
	echo "$c"
}
need() { [ -f "$1" ] || { printf '%s\tmissing (the report needs it)\n' "$1" >>"$problems"; return 1; }; }

# Where a part came from: the file, when it was written, the commit and the
# command.  RESULTS/provenance.tsv (FILE DATE COMMIT COMMAND, when the run
# records it) wins; else the file's time, the command that writes such a
# file (report/inputs.tsv), and "commit not recorded".
provenance() { # PART FILE...
	local part=$1 f line date commit command
	shift
	for f in "$@"; do
		line=$(awk -F'\t' -v f="${f##*/}" '$1 == f { l = $0 } END { if (l != "") print l }' "$results/provenance.tsv" 2>/dev/null || true)
		if [ -n "$line" ]; then
			IFS=$'\t' read -r _ date commit command <<<"$line"
		else
			date=$(date -u -r "$f" '+%Y-%m-%d %H:%M UTC')
			commit="not recorded by the run"
			command=$(cmd_of "$part" | sed "s/KERNEL/$(basename "$f" "-$part.tap")/g")
		fi
		printf '<code>%s</code>: written %s; commit %s; by <code>%s</code><br>\n' \
			"$(esc "${f##*/}")" "$date" "$(esc "$commit")" "$(esc "$command")"
	done
}

# A part whose file is not there: named on the page, and a failure when the
# caller requires it.
absent() { # PART FILE-NAME
	local how
	how=$(cmd_of "$1")
	printf '<div class="missing"><b>Missing from this run:</b> <code>%s</code> in <code>%s</code>, so nothing is drawn for it. What writes it: %s.</div>\n' \
		"$(esc "$2")" "$(esc "$results")" "$(esc "$how")"
	printf '%s\t%s\n' "$2" "$how" >>"$missing"
	case $required in *" $1 "*) printf '%s\tmissing (required: --require %s)\n' "$results/$2" "$1" >>"$problems" ;; esac
}

for f in scenario-groups.tsv inputs.tsv intro.html md-table.awk style.css cell.js; do need "$here/$f" || true; done
for f in attacks/expected.tsv kernel/kernels.tsv realjit/cases.sh scripts/page.awk scripts/answer.awk; do
	need "$top/$f" || true
done
# The real JITs: their profiles (realjit/cases.sh), each with its tables
# and its page's words.
RJ_WHO=report
if [ -f "$top/realjit/cases.sh" ]; then
	. "$top/realjit/cases.sh"
	[ -n "$jits" ] || jits=$(rj_matrix_jits)
	for j in $jits; do
		(rj_use_jit "$j" && rj_need_tables && need "$RJ_PAGE_INTRO") 2>>"$work/jits.err" ||
			printf '%s\t%s\n' "realjit/$j" "no usable profile: $(tail -n 1 "$work/jits.err")" >>"$problems"
	done
fi
if [ -s "$problems" ]; then cat "$problems" >&2; echo "report: the repository's own files are missing (--top $top?)" >&2; exit 2; fi
# (the registry read, every row well formed; whether each kernel could be
# built, kernel/kernels check, is no question for a page and took 2 s)
"$top/kernel/kernels" names --every >/dev/null || { echo "report: kernel/kernels.tsv does not read (above)" >&2; exit 2; }
attacks_bin=${attacks_bin:-$top/build/attacks/attacks}
# Each scenario's words, as the attacks program lists them.
if [ -x "$attacks_bin" ] && "$attacks_bin" --list >"$work/text" 2>"$work/list.err" && [ -s "$work/text" ]; then :
else
	printf '%s	no scenario list from it (make attacks-bin): %s
' "$attacks_bin" "$(head -n 1 "$work/list.err" 2>/dev/null)" >>"$problems"
	: >"$work/text"
fi
lib=(-f "$top/scripts/kernels.awk" -f "$top/scripts/result.awk" -f "$top/scripts/tap.awk" -f "$top/scripts/expect.awk"
	-f "$top/scripts/page.awk" -v registry="$kernels_tsv")

# The matrices' columns: asked for, or every KERNEL-attacks.tap there,
# in kernels.tsv's order, then the others by name.
if [ -z "$kernels" ]; then
	kernels=$(
		{ "$top/kernel/kernels" names --every | tr ' ' '\n'
		  find "$results" -maxdepth 1 -name '*-attacks.tap' -printf '%f\n' | sed 's/-attacks\.tap$//' | sort; } |
		awk '!seen[$0]++' | while read -r k; do if [ -f "$results/$k-attacks.tap" ]; then echo "$k"; fi; done | paste -sd' ')
fi
# Each kernel's file of a matrix (SUFFIX: attacks or a JIT's name), as awk's
# "run=KERNEL FILE" arguments in $args; a missing one is a problem, but a
# real JIT's (FULL-TARGET given) on a kernel without mseal(), which make
# test leaves to the whole matrix: its column says why ($absent_why).
runs_of() { # SUFFIX MAKE-TARGET [FULL-TARGET]
	local k f
	args=()
	want_runs=
	for k in $kernels; do
		f=$results/$k-$1.tap
		want_runs+=" $k=$f"
		if [ -f "$f" ]; then args+=("run=$k" "$f")
		elif [ -n "${3:-}" ] && [ "$("$top/kernel/kernels" get "$k" abi)" = none ]; then
			printf '%s\tnot in make test, which runs the real JITs on the kernels with an mseal() (every sealing policy is UNAVAILABLE here): %s runs it\n' \
				"$f" "$3" >>"$absent_why"
		else printf '%s\tmissing: no %s results for kernel %s (%s)\n' "$f" "$1" "$k" "$2" >>"$problems"; fi
	done
}

# One matrix into $work/NAME.{cells,html}: NAME's cells from its TAP files
# (CELLS-AWK and the tables it reads), drawn by matrix-html.awk (OPTIONS).
matrix() { # NAME ROW-TEXT "OPTION..." CELLS-AWK TABLE...
	local name=$1 text=$2 opts=$3 cells=$4
	shift 4
	local a run f why absent=
	awk "${lib[@]}" -f "$here/$cells" -v problems="$problems" "$@" "${args[@]}" >"$work/$name.cells"
	# the runs asked for that have no cells: a column that says why
	for a in $want_runs; do
		run=${a%%=*}; f=${a#*=}
		awk -F'\t' -v r="$run" '$1 == "K" && $2 == r { found = 1 } END { exit !found }' "$work/$name.cells" && continue
		why=$(awk -F'\t' -v f="$f" '$1 == f { print $2 }' "$problems" "$absent_why" | head -n 2 | paste -sd';' | sed 's/;/; /g')
		absent+="${absent:+$'\036'}$run"$'\t'"${f##*/}: ${why:-no results}"
	done
	if grep -q '^C' "$work/$name.cells"; then
		# shellcheck disable=SC2086 # OPTIONS are words
		awk "${lib[@]}" -f "$here/matrix-html.awk" -v id="$name-matrix" $opts -v absent="$absent" \
			"$text" "$work/$name.cells" >"$work/$name.html"
	else
		echo "<p class=\"missing\"><b>No matrix:</b> none of its result files is usable (see the problems above).</p>" >"$work/$name.html"
	fi
}
runs_of attacks "make test-attacks"
if [ ${#args[@]} -gt 0 ]; then
	matrix attacks "$work/text" "" attack-cells.awk "$here/scenario-groups.tsv" "$top/attacks/expected.tsv"
else
	echo "<p class=\"missing\"><b>No attack results</b> in $(esc "$results"): run <code>make test-attacks</code>.</p>" >"$work/attacks.html"
	: >"$work/attacks.cells"
	[ -n "$kernels" ] || printf '%s\tno KERNEL-attacks.tap at all (make test-attacks)\n' "$results" >>"$problems"
fi
attack_files=("${args[@]}")

# Each real JIT (--jits): KERNEL-NAME.tap (realjit/judge.sh's TAP), one
# case per cell, and its answer, into $work/NAME-section.html.  Its rows'
# words: each workload's first line ("-- NAME.lua - what it does") and
# the attacks program's words for its scenarios.
jit_section() { # NAME
	local jit=$1 files f
	rj_use_jit "$jit" && rj_need_tables || return 0
	{ for f in "$RJ_WORKLOADS"/*."$RJ_EXT"; do
		[ -f "$f" ] && sed -n "1,5s|^[-/]* [^ ]*\.$RJ_EXT - \(.*\)\$|\1|p" "$f" | head -n 1 |
			sed "s|^|$(basename "$f" ".$RJ_EXT")\t\t|"
	done; cat "$work/text"; } >"$work/$jit-text"
	runs_of "$jit" "$RJ_TEST_TARGET or $RJ_FULL_TARGET" "$RJ_FULL_TARGET"
	mapfile -t files < <(files_of ${args[@]+"${args[@]}"})
	{
		echo "<section id=\"$jit\">"
		cat "$RJ_PAGE_INTRO"
		if [ ${#args[@]} -gt 0 ]; then
			matrix "$jit" "$work/$jit-text" "-v cases=0 -v sealrow=0 -v foot=0" realjit-cells.awk \
				-v check="$RJ_TABLE_CHECK" -v title="$RJ_TITLE" -v reference="$RJ_REFERENCE" \
				-v target="$RJ_ATTACK_TARGET" -v program="$RJ_PROGRAM" "$RJ_TABLE_W" "$RJ_TABLE_A"
			awk "${lib[@]}" -v id="$jit-answer" -v program="$RJ_PROGRAM" -v tsv="$work/$jit.answer" \
				-f "$top/scripts/answer.awk" -f "$here/realjit-answer.awk" "$work/$jit.cells"
			answer_args+=("jit=$jit" "title=$RJ_TITLE" "$work/$jit.answer")
		else
			printf '<p class="missing"><b>No results of %s</b> in %s: run <code>%s</code> or <code>%s</code>.</p>\n' \
				"$RJ_TITLE" "$(esc "$results")" "$RJ_TEST_TARGET" "$RJ_FULL_TARGET" >"$work/$jit.html"
			: >"$work/$jit.cells"
		fi
		sed '/<ol class="reasons"/,$d' "$work/$jit.html"
		jit_legend "$jit"
		echo "<div class=\"detail noprint\">Click a cell for the reason ${RJ_TABLE_W#"$top/"} or ${RJ_TABLE_A##*/} gives and the case's result line.</div>"
		reasons_of "$jit" "${RJ_TABLE_W#"$top/"} and ${RJ_TABLE_A##*/}'s"
		[ ${#files[@]} -eq 0 ] || echo "<p class=\"prov\">$(provenance "$jit" "${files[@]}")</p>"
		if [ "${RJ_PAGE_COST:-}" = yes ]; then
			echo "<h3>What it costs: guest instructions, $RJ_TITLE against its control</h3>"
			if [ -f "$results/$RJ_COST_MD" ]; then
				awk -f "$here/md-table.awk" "$results/$RJ_COST_MD"
				echo "<p class=\"prov\">$(provenance "${RJ_COST_MD%.md}" "$results/$RJ_COST_MD")</p>"
			else absent "${RJ_COST_MD%.md}" "$RJ_COST_MD"; fi
		fi
		echo "</section>"
	} >"$work/$jit-section.html"
}
# A real JIT's legend, in its profile's words.
jit_legend() { # NAME
	local errno_words="the first call refused it"
	[ "$RJ_ABORT_ERRNO" = first ] || errno_words="the last call refused it"
	cat <<HTML
<div class="legend"><span><span class="sw ran">RAN</span>exit 0, code made executable, output that of <code>$RJ_REFERENCE</code></span>
<span><span class="sw aborted">ABORTED</span>$RJ_PROGRAM stopped itself; the errno of $errno_words</span>
<span><span class="sw landed">LANDED</span>the attack changed the code, its place, permissions or pages (LANDED*: and $RJ_PROGRAM then ran the attacker's bytes)</span>
<span><span class="sw blocked">EACCES</span>BLOCKED: refused with that errno, nothing changed, the attacked code still right</span>
<span><span class="sw unavailable">n/a</span>the kernel cannot express the policy (the library's probe got the errno shown)</span>
HTML
	grep -q '	UNSEALED	' "$work/$1.cells" &&
		echo "<span><span class=\"sw unsealed\">unsealed</span>the kernel refused to seal $RJ_PROGRAM's code (the errno of its mseal shown): the policy was not applied, $RJ_PROGRAM ran and was attacked unsealed</span>"
	cat <<HTML
<span><span class="sw error">ERROR</span>no usable answer: WRONG ($RJ_PROGRAM ran, its output not that of <code>$RJ_REFERENCE</code>), NOJIT (it ran but made no code executable), ERROR (no result: the case or the guest failed)</span>
<span><span class="sw none">not run</span>not in this run: make test runs a fast subset (realjit/matrix.sh --fast), $RJ_FULL_TARGET every case</span>
${RJ_PAGE_LEGEND:-}</div>
HTML
}
files_of() { local a; for a in "$@"; do case $a in run=*) ;; *) echo "$a" ;; esac; done; }
# A matrix's numbered cells and their reasons, when it has any.
reasons_of() { # NAME TABLES-IN-WORDS
	if grep -q '<ol class="reasons"' "$work/$1.html"; then
		echo "<h3>Why: $2 reason for each numbered cell</h3>"
		sed -n '/<ol class="reasons"/,$p' "$work/$1.html"
	fi
}
# the opening answer's inputs: each real JIT's answer, as jit_section writes it
answer_args=()
for jit in $jits; do jit_section "$jit"; done

# Cost and speed.
if [ -f "$results/bench-kernel.tsv" ]; then
	if awk "${lib[@]}" -f "$top/scripts/bench-summary.awk" -v problems="$problems" \
		"$results/bench-kernel.tsv" >"$work/bench-summary" &&
		awk "${lib[@]}" -f "$here/cost-svg.awk" -v problems="$problems" "$work/bench-summary" >"$work/cost.svg"; then
		cp "$work/cost.svg" "$out/cost.svg"
	else
		echo "<p class=\"missing\"><b>No chart:</b> bench-kernel.tsv is malformed (see the problems above).</p>" >"$work/cost.svg"
	fi
else absent bench-kernel bench-kernel.tsv >"$work/cost.svg"; fi
if [ -f "$results/jitdemo-bench.txt" ]; then
	awk "${lib[@]}" -f "$here/jit-speed.awk" -v problems="$problems" "$results/jitdemo-bench.txt" >"$work/jit.html" ||
		echo "<p class=\"missing\"><b>No table:</b> jitdemo-bench.txt is malformed (see the problems above).</p>" >"$work/jit.html"
else absent bench-jit jitdemo-bench.txt >"$work/jit.html"; fi

# Where each part came from.
mapfile -t attack_files < <(files_of ${attack_files[@]+"${attack_files[@]}"})
prov_attacks=$( [ ${#attack_files[@]} -eq 0 ] || provenance attacks "${attack_files[@]}")
prov_cost=$( [ ! -f "$results/bench-kernel.tsv" ] || provenance bench-kernel "$results/bench-kernel.tsv")
prov_jit=$( [ ! -f "$results/jitdemo-bench.txt" ] || provenance bench-jit "$results/jitdemo-bench.txt")
. "$here/../scripts/tree-state.sh"
head=$(tree_state "$top")
now=$(date -u '+%Y-%m-%d %H:%M UTC')
source_line="From $(esc "$results"), $now; the repository at $head; report/report.sh."

# The SVG for docs/.
if [ -s "$work/attacks.cells" ] && grep -q '^C' "$work/attacks.cells"; then
	# the run, as its files recorded it (the SVG is committed: not the
	# time it was drawn, nor the tree's state then)
	run_of=$(for f in "${attack_files[@]}"; do
		awk -F'\t' -v f="${f##*/}" '$1 == f { l = $2 " at commit " $3 } END { print (l == "" ? "unrecorded" : l) }' \
			"$results/provenance.tsv" 2>/dev/null || echo unrecorded
	done | sort -u | paste -sd';' | sed 's/;/; /g')
	awk "${lib[@]}" -f "$here/matrix-svg.awk" -v source="Drawn by report/report.sh from the attack results of a run (${run_of:-unrecorded})." \
		"$work/text" "$work/attacks.cells" >"$out/attack-matrix.svg"
	[ -z "$svg_copy" ] || cp "$out/attack-matrix.svg" "$svg_copy"
	awk "${lib[@]}" -f "$here/summary-html.awk" "$work/attacks.cells" >"$work/summary.html"
	awk "${lib[@]}" -f "$here/answer-html.awk" "$work/attacks.cells" ${answer_args[@]+"${answer_args[@]}"} >"$work/answer.html"
else
	rm -f "$out/attack-matrix.svg"
	echo "<p class=\"missing\">No summary: no usable attack results.</p>" >"$work/summary.html"
	echo "<section id=\"answer\"><p class=\"missing\">No answer: no usable attack results.</p></section>" >"$work/answer.html"
fi

# The problems, at the top of the page.
problems_html=
if [ -s "$problems" ]; then
	problems_html=$(
		echo '<div class="problems" id="problems"><h2>This page is incomplete: result files missing or malformed</h2><ul>'
		sort -u "$problems" | while IFS=$'\t' read -r f what; do
			printf '<li class="problem"><code>%s</code>: %s</li>\n' "$(esc "$f")" "$(esc "$what")"
		done
		echo '</ul></div>')
fi
missing_list=$(cut -f1 "$missing" | paste -sd, | sed 's/,/, /g')

{
	cat <<HTML
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>sealjit: sealed JIT code under attack</title>
<style>
$(cat "$here/style.css")
</style></head><body>
<header>
<h1>sealjit: a JIT's code, sealed, under attack</h1>
<p class="prov">$source_line Missing from this run: ${missing_list:-nothing}.</p>
</header>
$problems_html
$(cat "$work/answer.html")
<section id="attacks">
<h2>What the attacker tries, and where it lands</h2>
HTML
	sed '/<ol class="reasons"/,$d' "$work/attacks.html"
	cat <<HTML
<div class="legend"><span><span class="sw blocked">EACCES</span>BLOCKED: the call failed with that errno, nothing changed</span>
<span><span class="sw landed">LANDED</span>the code, its address or its permissions changed</span>
<span><span class="sw mixed">mixed</span>the cases of a cell differ</span><span><span class="sw error">ERROR</span>the case proved nothing</span>
<span>one small mark per case: root or no capabilities, in the process or a forked child</span></div>
<div class="detail noprint">Click a cell (or Tab to it and press Enter) for the reason attacks/expected.tsv gives and each case's detail: what the attacking process saw of the arena in <code>/proc/self/maps</code> and <code>smaps</code> right before and after the call.</div>
HTML
	if grep -q '<ol class="reasons"' "$work/attacks.html"; then
		echo "<h3>Why it landed: attacks/expected.tsv's reason for each numbered cell</h3>"
		sed -n '/<ol class="reasons"/,$p' "$work/attacks.html"
	fi
	cat <<HTML
<p class="prov">$prov_attacks</p>
</section>
<section id="model">
<h2>The attacker, the asset, the seals</h2>
HTML
	cat "$here/intro.html"
	echo '<h3>What each seal policy stopped on each kernel, in this run</h3>'
	cat "$work/summary.html"
	cat <<HTML
<p>The arena's <code>/proc/self/maps</code> and <code>smaps</code> lines before and after each attack appear in a cell's detail when the attacks program prints them (<code># maps before:</code>, <code># maps after:</code>, <code># smaps before:</code>, <code># smaps after:</code> after each <code># result</code> line); the row of seals under the policies is what smaps showed (P mprotect, U munmap, M mmap, R mremap, S mseal; sl: upstream's VmFlags mark).</p>
</section>
HTML
	for jit in $jits; do cat "$work/$jit-section.html"; done
	cat <<HTML
<section id="cost">
<h2>What sealing costs</h2>
<p>Measured in QEMU under <code>--icount</code>: guest instructions per operation, the median of several boots per kernel. Each kernel against its own base (kernel/kernels.tsv's: the same kernel without this project's mm changes), a sealed case against its unsealed twin, a refused call against the call performed; a kernel against a different kernel version is not the cost of sealing and is not drawn (docs/performance.md has it, the method, every table and the goals).</p>
HTML
	cat "$work/cost.svg"
	[ -z "$prov_cost" ] || echo "<p class=\"prov\">$prov_cost</p>"
	cat <<HTML
</section>
<section id="speed">
<h2>How fast the JIT is</h2>
<p>jitdemo's examples: the call alone, median of the rounds, on the machine that ran <code>make bench-jit</code>.</p>
HTML
	cat "$work/jit.html"
	[ -z "$prov_jit" ] || echo "<p class=\"prov\">$prov_jit</p>"
	cat <<HTML
</section>
<script>
$(cat "$here/cell.js")
</script>
</body></html>
HTML
} >"$out/index.html.tmp"
mv "$out/index.html.tmp" "$out/index.html"

if [ -s "$problems" ]; then
	echo "report: wrote $out/index.html, INCOMPLETE:" >&2
	sort -u "$problems" | sed 's/^/report:   /; s/\t/: /' >&2
	exit 1
fi
[ ! -s "$missing" ] || cut -f1 "$missing" | sed 's/^/report: note: not in this run: /' >&2
echo "report: wrote $out/index.html and $out/attack-matrix.svg"
