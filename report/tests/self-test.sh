#!/usr/bin/env bash
# report/tests/self-test.sh [--no-browser] [--kernels "K..."] [--jits "NAME..."] [--top DIR]
#                           RESULTS OUT
#
# TAP: report/tests/page.sh fails when it should, and passes when it should.
# From the good results in RESULTS it makes, under OUT/report-self-test/:
#   missing/     one kernel's attacks TAP removed
#   truncated/   one kernel's attacks TAP cut in the middle of its run
#   corrupt/     one "# result" line's outcome made BANANA
#   badbench/    bench-kernel.tsv with a row whose status is not a status
#   zerojit/     jitdemo-bench.txt with a time of 0
#   realjit/     one kernel's TAP of the first real JIT (of --jits, as
#                page.sh takes them) with an outcome made BANANA
#   realjit-missing/  that TAP removed: a failure, as the victim has an
#                mseal() (only a kernel without one may lack a real JIT's
#                TAP: make test leaves it to the whole matrix)
#   realjit-error/  that TAP with WRONG, NOJIT and ERROR
#                outcomes, a case without a result and a test point about
#                the guest (page.sh must pass it, counting ERROR cells)
# and from the good page: one whose cell counts disagree with the TAP (a
# BLOCKED attack cell turned LANDED, a RAN cell of the first real JIT turned ABORTED), one
# whose cells lost a maps line, one that loads an image from the network
# (and has no Content-Security-Policy to stop it), one that logs a console
# error.  Then checks that page.sh passes the good ones, fails each bad one
# at the right test point, and that report.sh exits 1 naming the file.
# Then pages whose matrix box does not scroll (the page scrolls sideways at
# 1440 px), whose heads scroll away with the cells, whose answer comes after
# the matrices, and whose answer's counts disagree with the TAP.
# Last, page.sh with a fake chromium first in PATH: one that dies after two
# answers, one that hangs (PAGE_TIMEOUT=5): a failed test point that says
# so, the whole plan, a bounded time, no temporary directory left.
#
# --no-browser: report.sh alone on the good results and each bad set (its
# exit status, its error, the page naming the file; the ERROR cells drawn),
# no page.sh run: 9 points, about 35 s of CPU against 300 (make test; the whole
# self-test, 22 points and 20 chromium runs, is make test-full's).
#
# A bad result set goes through page.sh alone: its point 1 is report.sh's
# exit status, with report.sh's errors below it, and the page it wrote is
# OUT/NAME/report/index.html (report.sh runs alone only where no page.sh
# does).
# Every page.sh and report.sh run starts as soon as its input is made,
# SELF_TEST_JOBS (default 2) at a time in the background; the test points
# are judged, in order, once all have ended, so that each failure is still
# reported.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
page=$here/page.sh
report=$here/../report.sh
kernels=
jits=
top=()
browser=1
while [ $# -gt 0 ]; do
	case $1 in
	--no-browser) browser=; shift ;;
	--kernels) kernels=$2; shift 2 ;;
	--jits) jits=$2; shift 2 ;;
	--top) top=(--top "$2"); shift 2 ;;
	*) break ;;
	esac
done
[ $# -eq 2 ] || { echo "usage: report/tests/self-test.sh [--no-browser] [--kernels \"K...\"] [--jits \"NAME...\"] [--top DIR] RESULTS OUT" >&2; exit 2; }
results=$(cd "$1" && pwd)
out=$(mkdir -p "$2" && cd "$2" && pwd)/report-self-test
rm -rf "$out"
mkdir -p "$out"
[ -n "$kernels" ] || kernels=$(find "$results" -maxdepth 1 -name '*-attacks.tap' -printf '%f\n' | sed 's/-attacks\.tap$//' | sort | paste -sd' ')
set -- $kernels
victim=${2:-$1} # the second kernel (v1 in the usual order): it has every outcome
# page.sh's and report.sh's default: every real JIT with expected tables
if [ -z "$jits" ]; then
	. "$here/../../realjit/cases.sh"
	jits=$(rj_matrix_jits)
fi
lj=${jits%% *} # the first real JIT: its TAP is made bad below
. "$here/../../tests/tap.sh"
jobs_at_once=${SELF_TEST_JOBS:-2}
. "$here/../../scripts/whole-number.sh"
whole_number self-test.sh SELF_TEST_JOBS "$jobs_at_once"
tap_start $([ -n "$browser" ] && echo 22 || echo 9)
# what the points say page.sh did too (nothing, without a browser)
and_page=${browser:+ and page.sh}
# COMMAND in the background, at most $jobs_at_once at a time: its output in
# $out/NAME.tap, its exit status in $out/NAME.rc, its seconds in $out/NAME.secs
start() { # NAME COMMAND...
	local name=$1
	shift
	while [ "$(jobs -pr | wc -l)" -ge "$jobs_at_once" ]; do wait -n; done
	( t=$SECONDS; "$@" >"$out/$name.tap" 2>&1; echo $? >"$out/$name.rc"; echo $((SECONDS - t)) >"$out/$name.secs" ) &
}
# page.sh on ARGS, started
start_page() { # NAME ARGS...
	local name=$1
	shift
	start "$name" "$page" ${top[@]+"${top[@]}"} --kernels "$kernels" --jits "$jits" "$@"
}
# a started run's exit status, in $rc ("none" when it left none)
ended() { rc=$(cat "$out/$1.rc" 2>/dev/null) || rc=none; }
# What report.sh did in page.sh run NAME (its point 1): its exit status in
# $grc ("none" when the point is missing), its errors in OUT/NAME/gen.err,
# and its page is OUT/NAME/report/index.html.
# gen_of NAME: what report.sh did with bad result set NAME, in $grc, with
# its errors in OUT/NAME/gen.err and its page in $gen_page: page.sh's run,
# or (--no-browser) report.sh's own.
gen_of() {
	if [ -n "$browser" ]; then
		page_gen "$1"
		gen_page=$out/$1/report/index.html
	else
		grc=$(cat "$out/$1/gen.rc" 2>/dev/null) || grc=none
		gen_page=$out/$1/gen/index.html
	fi
}
page_gen() { # NAME
	local point
	point=$(grep -E '^(not )?ok 1 - report\.sh found every result file' "$out/$1.tap")
	case $point in
	ok*) grc=0 ;;
	not*) grc=$(sed -n 's/.*(exit \([0-9]*\))$/\1/p' <<<"$point") ;;
	*) grc=none ;;
	esac
	awk '/^(not )?ok 1 - / { on = 1; next } /^(not )?ok / { on = 0 } on && sub(/^#   /, "")' "$out/$1.tap" >"$out/$1/gen.err"
}
failed_points() { grep '^not ok' "$1" | sed 's/^not ok [0-9]* - //; s/ (.*//; s/\(: [^:]*\):.*/\1/' | paste -sd'|'; }
copy_results() {
	local j
	mkdir -p "$out/$1/results"
	cp "$results"/*-attacks.tap "$out/$1/results/"
	for j in $jits; do cp "$results"/*-"$j".tap "$out/$1/results/"; done
	cp "$results"/bench-kernel.tsv "$results"/jitdemo-bench.txt "$out/$1/results/" 2>/dev/null || true
}
# report.sh drawing the real JITs JITS
report() { # JITS RESULTS OUT
	local draw=$1
	shift
	"$report" ${top[@]+"${top[@]}"} --kernels "$kernels" --jits "$draw" "$@"
}


# report.sh on DIR/results into DIR/gen, its output, errors and exit status
# beside (DIR/gen.out, gen.err, gen.rc).  It draws the first real JIT only
# (the one made bad): no bad set touches the others, the good run draws
# them, and they were two thirds of each run's time.
gen() { # DIR
	report "$lj" "$1/results" "$1/gen" >"$1/gen.out" 2>"$1/gen.err"
	echo $? >"$1/gen.rc"
}

# The runs, each started as soon as its input is there.
# 1: the good results, made into the page the bad pages are made from
# (report.sh's exit status kept), and that page under page.sh
goodpage=$out/page/index.html
report "$jits" "$results" "$out/page" >"$out/page.out" 2>&1
good_gen=$?
[ -z "$browser" ] || start_page good --page "$goodpage" "$results" "$out/good"
# A bad result set, started: through page.sh, or without a browser,
# report.sh alone.
start_bad_results() { # NAME
	if [ -n "$browser" ]; then start_page "$1" "$out/$1/results" "$out/$1"
	else start "$1-gen" gen "$out/$1"; fi
}

# 2-4: a missing, a truncated and a corrupt TAP file
copy_results missing; rm "$out/missing/results/$victim-attacks.tap"
copy_results truncated
head -n 300 "$results/$victim-attacks.tap" >"$out/truncated/results/$victim-attacks.tap"
copy_results corrupt
awk '!done && /^# result / && sub(/outcome=[A-Z]+/, "outcome=BANANA") { done = 1 } { print }' \
	"$results/$victim-attacks.tap" >"$out/corrupt/results/$victim-attacks.tap"
for bad in missing truncated corrupt; do
	start_bad_results "$bad"
done

# A page made from the good one (OUT/NAME/index.html, written by the
# caller), started under page.sh; bad_page judges it.
start_bad() { [ -z "$browser" ] || start_page "$1" --page "$out/$1/index.html" "$results" "$out/$1"; }
# The good page through sed SCRIPT, as OUT/NAME/index.html, started.
edit_page() { mkdir -p "$out/$1"; sed -e "$2" "$goodpage" >"$out/$1/index.html"; start_bad "$1"; }

# 5: counts that disagree: the first BLOCKED cell of the victim in the attack
# matrix turned LANDED, and its first RAN cell in the first real JIT's
# matrix turned ABORTED (each searched in its own matrix: the real JITs'
# matrices have BLOCKED cells too)
mkdir -p "$out/disagree"
awk -v k="$victim" -v lj="$lj" -v RS="\001" '{
	for (t = 1; t <= 2; t++) {
		c = t == 1 ? "blocked" : "ran"
		from = index($0, t == 1 ? "id=\"attacks-matrix\"" : "id=\"" lj "-matrix\"")
		to = from ? from + index(substr($0, from), "</table>") : 0
		if (!from || to <= from) continue
		seg = substr($0, from, to - from)
		i = index(seg, "<td class=\"c " c " first\" data-run=\"" k "\"")
		if (!i) i = index(seg, "<td class=\"c " c "\" data-run=\"" k "\"")
		if (!i) continue
		i += from - 1
		head = substr($0, 1, i - 1); rest = substr($0, i)
		if (t == 1) {
			sub(/class="c blocked/, "class=\"c landed", rest)
			sub(/<span class="o">[A-Z]+/, "<span class=\"o\">LANDED", rest)
			sub(/<i class="run blocked"><\/i>/, "<i class=\"run landed\"></i>", rest)
		} else {
			sub(/class="c ran/, "class=\"c aborted", rest)
			sub(/<span class="o">RAN/, "<span class=\"o\">ABORTED", rest)
		}
		$0 = head rest
	}
} { printf "%s", $0 }' "$goodpage" >"$out/disagree/index.html"
start_bad disagree

# 6: a page that reaches for the network (no CSP to stop it first)
leak='s|</body>|<img alt="" src="http://report-self-test.invalid/leak.png"></body>|'
edit_page network "/http-equiv=\"Content-Security-Policy\"/d; $leak"
# 7: the same image with the page's CSP in place: blocked, and still a failure
edit_page csp "$leak"
# 8: a console error
edit_page console 's|</body>|<script>console.error("report self-test")</script></body>|'
# 9: a matrix too big for the screen: every row head holds a box 2500 px
# wide.  A width set in pixels, not a long label, so the mutation does not
# depend on the fonts the browser has (on a fresh root a long label did not
# reach 1920 px).
edit_page toobig 's|\(<th scope="row"[^>]*>\)|\1<b style="display:inline-block;width:2500px"></b>|g'
# 10: a page whose cells lost a maps line (the first "maps after:" of the victim's cells)
mkdir -p "$out/nomaps"
awk -v k="$victim" -v RS="\001" '{
	i = index($0, "data-run=\"" k "\" data-policy")
	rest = substr($0, i); p = index(rest, "<pre>"); j = index(substr(rest, p + 1), "maps after: ")
	if (i && p && j) { j += p; $0 = substr($0, 1, i - 1) substr(rest, 1, j - 1) "lost: " substr(rest, j + 12) }
} { printf "%s", $0 }' "$goodpage" >"$out/nomaps/index.html"
start_bad nomaps

# 11: a malformed cost file fails report.sh too, named on the page.  The
# run's own bench-kernel.tsv when it has one (make bench-kernel); else (make
# test runs no benchmark) two rows in its format, so the check always runs.
copy_results badbench
bench=$results/bench-kernel.tsv
if [ ! -f "$bench" ]; then
	bench=$out/badbench/bench-fixture.tsv
	printf 'kernel\tcase\tboot\tvalue\tunit\tstatus\tnote\n%s\t%s\t%d\t%d\tns\tok\t-\n' \
		"$1" mmap-munmap 1 1000 "$1" mmap-munmap 2 1000 >"$bench"
fi
awk -F'\t' -v OFS='\t' 'NR == 3 { $6 = "okay" } { print }' "$bench" >"$out/badbench/results/bench-kernel.tsv"
start badbench-gen gen "$out/badbench"

# 12: a corrupt TAP of the first real JIT
copy_results realjit
awk '!done && /^# result / && sub(/ outcome=[A-Z]+/, " outcome=BANANA") { done = 1 } { print }' \
	"$results/$victim-$lj.tap" >"$out/realjit/results/$victim-$lj.tap"
start_bad_results realjit

# 22: no TAP of the first real JIT for the victim, a kernel with an mseal()
copy_results realjit-missing
rm "$out/realjit-missing/results/$victim-$lj.tap"
start_bad_results realjit-missing

# 13: cells that ignore the mouse and the keyboard (a listener that swallows
# every click and key before report/cell.js sees it)
edit_page deaf 's|</body>|<script>["click", "keydown"].forEach(function (t) { document.addEventListener(t, function (e) { e.stopImmediatePropagation(); }, true); });</script></body>|'

# 14: a TAP of the first real JIT with every outcome guest/run-cases.sh can give and judge.sh
# can write: a workload WRONG, one NOJIT, an attack ERROR, a failed case with
# no result line after it (whatever its text), and a field the cells do not
# know on every result line.  report.sh draws them (exit 0), the page shows
# four ERROR cells, two labelled with their words, and page.sh agrees with
# the TAP's count.
copy_results realjit-error
awk -v k="$victim" '
function flush() { if (tp != "") print tp; tp = "" }
function fail() { sub(/^ok/, "not ok", tp) }
/^1\.\.[0-9]+$/ { print; next }
/^(not )?ok / { flush(); tp = $0; next }
/^# result / {
	sub(/ detail=/, " refused_mseal=0 detail=")
	if (!w && / outcome=RAN /) { w = 1; sub(/ outcome=RAN /, " outcome=WRONG "); fail() }
	else if (!nj && / outcome=RAN /) { nj = 1; sub(/ outcome=RAN /, " outcome=NOJIT "); fail() }
	else if (!er && /kind=attack/ && / outcome=LANDED /) { er = 1; sub(/ outcome=LANDED /, " outcome=ERROR "); fail() }
	else if (!gone && /kind=attack/ && / outcome=BLOCKED /) {
		gone = 1; fail(); flush(); next
	}
	flush(); print; next
}
{ flush(); print }
END { flush() }' \
	"$results/$victim-$lj.tap" >"$out/realjit-error/results/$victim-$lj.tap"
start_bad_results realjit-error

# 15, 16: a browser that dies after its first two answers, and one that
# hangs (PAGE_TIMEOUT=5), each page.sh bounded by timeout
start_dead() { # NAME SCRIPT
	[ -n "$browser" ] || return 0
	local d=$out/$1
	mkdir -p "$d/bin" "$d/tmp"
	printf '#!/bin/bash\n%s\n' "$2" >"$d/bin/chromium"
	chmod +x "$d/bin/chromium"
	start "$1" env PATH="$d/bin:$PATH" TMPDIR="$d/tmp" PAGE_TIMEOUT=5 timeout -k 5 120 "$page" ${top[@]+"${top[@]}"} \
		--kernels "$kernels" --page "$goodpage" "$results" "$d"
}
start_dead dying 'read -r -d "" c <&3; printf "{\"id\":1,\"result\":{\"targetId\":\"T\"}}\0" >&4
read -r -d "" c <&3; printf "{\"id\":2,\"result\":{\"sessionId\":\"S\"}}\0" >&4
exit 1'
start_dead hanging 'exec sleep 600'

# 17: a JIT speed table with a time of 0 (bench.sh prints a time under 5 us
# as 0.00; the table divides by it).  The run's own table when it has one
# (make bench-jit), its first row's JIT time made 0.00; else a table in
# bench.sh's format.
copy_results zerojit
jb=$out/zerojit/results/jitdemo-bench.txt
if [ -f "$results/jitdemo-bench.txt" ]; then
	awk 'FNR == 2 { sub(/^[^ ]+ +[^ ]+ +[^ ]+/, $1 " " $2 " 0.00") } { print }' "$results/jitdemo-bench.txt" >"$jb"
else
	printf '%s\n' 'example     interp_ms     jit_ms  gcc-O0_ms  gcc-O2_ms interp/jit   jit/O0   jit/O2 jit/O0/O2±  verdict' \
		'fib             100.00       0.00      20.00       5.00     10.0x    0.50x    2.00x     3%/2%/1%  ok (calls)' \
		'(medians of 5 rounds; call time only; ± is (max - min) / median of the rounds;' ' targets missed: 0)' >"$jb"
fi
start zerojit-gen gen "$out/zerojit"

# 18: matrix boxes that do not scroll: the page scrolls sideways at 1440 px
edit_page unboxed 's|<div class="matrix-box"|<div style="overflow: visible; max-height: none" class="matrix-box"|'
# 19: heads that scroll away with the cells
edit_page unstuck 's|</head>|<style>.matrix-box .matrix thead, .matrix-box .matrix th, .matrix-box .gt { position: static !important; }</style></head>|'
# 20: the answer after the matrices (moved to the end of the page)
mkdir -p "$out/lateanswer"
awk '/^<section id="answer">/ { moving = 1 } moving { held = held $0 "\n"; if ($0 == "</section>") moving = 0; next }
	/^<script>/ && !done { printf "%s", held; done = 1 } { print }' "$goodpage" >"$out/lateanswer/index.html"
start_bad lateanswer
# 21: an answer whose count for the victim is one more than the TAP makes
mkdir -p "$out/wronganswer"
awk -v k="$victim" 'index($0, "<tr data-run=\"" k "\">") && match($0, /data-blocked="[0-9]+"/) {
	n = substr($0, RSTART + 14, RLENGTH - 15) + 1
	$0 = substr($0, 1, RSTART - 1) "data-blocked=\"" n "\"" substr($0, RSTART + RLENGTH)
} { print }' "$goodpage" >"$out/wronganswer/index.html"
start_bad wronganswer

wait

# The points, in order.
# 1: the good results pass
if [ -z "$browser" ]; then
	if [ "$good_gen" = 0 ]; then ok "report.sh draws the good results (exit 0)"
	else not_ok "report.sh draws the good results (exit 0)" "exit $good_gen: $(head -n 3 "$out/page.out" | paste -sd' ')"; fi
elif ended good && [ "$good_gen" = 0 ] && [ "$rc" = 0 ] && ! grep -q '^not ok' "$out/good.tap"; then ok "report.sh draws the good results, and page.sh passes their page"
else not_ok "report.sh draws the good results, and page.sh passes their page" "report.sh: exit $good_gen ($(head -n 2 "$out/page.out" | paste -sd' '))" \
	"page.sh: exit $rc" "$(failed_points "$out/good.tap")"; fi

# 2-4
for bad in missing truncated corrupt; do
	why=()
	gen_of "$bad"
	[ "$grc" = 1 ] || why+=("report.sh exited $grc, not 1")
	grep -q "$victim-attacks.tap" "$out/$bad/gen.err" || why+=("report.sh's error does not name $victim-attacks.tap")
	grep -q "class=\"problem\"><code>[^<]*$victim-attacks.tap" "$gen_page" || why+=("the page does not name $victim-attacks.tap")
	if [ -n "$browser" ]; then
		ended "$bad"
		[ "$rc" != 0 ] || why+=("page.sh exited 0")
		grep -q '^not ok 1 - report.sh found every result file' "$out/$bad.tap" || why+=("page.sh's test 1 did not fail")
		grep -qE "^not ok [0-9]+ - $victim: cells" "$out/$bad.tap" || why+=("page.sh did not fail $victim's cells")
	fi
	if [ ${#why[@]} -eq 0 ]; then ok "a $bad $victim-attacks.tap fails report.sh (exit 1)$and_page, and the page names it"
	else not_ok "a $bad $victim-attacks.tap fails report.sh (exit 1)$and_page, and the page names it" "${why[@]}"; fi
done

# A page made from the good one must have failed page.sh at each test point
# POINT (an extended regex) names.
bad_page() { # NAME WHAT POINT...
	[ -n "$browser" ] || return 0
	local name=$1 what=$2 p why=()
	shift 2
	ended "$name"
	[ "$rc" != 0 ] || why+=("page.sh exited 0")
	for p; do grep -qE "^not ok [0-9]+ - $p" "$out/$name.tap" || why+=("did not fail: $p"); done
	if [ ${#why[@]} -eq 0 ]; then ok "$what fails page.sh ($(failed_points "$out/$name.tap"))"
	else not_ok "$what fails page.sh" "${why[@]}"; fi
}
bad_page disagree "a page whose $victim cells disagree with the TAP" \
	"$victim: cells as the TAP" "$victim: one mark per case" "$victim: $lj cells as the TAP"
bad_page network "a page that loads http://report-self-test.invalid/leak.png" \
	"no request leaves the page" "the page refers to nothing outside itself"
bad_page csp "the same image under the page's Content-Security-Policy" "the page refers to nothing outside itself"
bad_page console "a page that logs a console error" "no console message"
bad_page toobig "a matrix wider than 1920 px" "the whole attack matrix fits"
bad_page nomaps "a page whose $victim cells lost a maps line" "$victim: every maps/smaps line"

# 11
grc=$(cat "$out/badbench/gen.rc")
if [ "$grc" -eq 1 ] && grep -q 'bench-kernel.tsv: line 3: status "okay"' "$out/badbench/gen.err" &&
	grep -q 'class="problem"><code>[^<]*bench-kernel.tsv</code>: line 3' "$out/badbench/gen/index.html"; then
	ok "a malformed bench-kernel.tsv fails report.sh (exit 1), and the page names it"
else not_ok "a malformed bench-kernel.tsv fails report.sh (exit 1), and the page names it" "exit $grc: $(head -n 3 "$out/badbench/gen.err")"; fi

# 12: report.sh exits 1 naming the corrupt real-JIT TAP, page.sh fails
gen_of realjit
why=()
[ "$grc" = 1 ] || why+=("report.sh exited $grc, not 1")
grep -q "$victim-$lj.tap: line [0-9]*: outcome=BANANA" "$out/realjit/gen.err" || why+=("report.sh's error does not name $victim-$lj.tap's line")
grep -q "class=\"problem\"><code>[^<]*$victim-$lj.tap" "$gen_page" || why+=("the page does not name $victim-$lj.tap")
[ -z "$browser" ] || grep -qE "^not ok [0-9]+ - $victim: $lj cells" "$out/realjit.tap" || why+=("page.sh did not fail $victim's $lj cells")
if [ ${#why[@]} -eq 0 ]; then ok "a corrupt $victim-$lj.tap fails report.sh (exit 1)$and_page, and the page names it"
else not_ok "a corrupt $victim-$lj.tap fails report.sh (exit 1)$and_page, and the page names it" "${why[@]}"; fi

# 13
bad_page deaf "a page whose cells ignore clicks and keys" "a click \\(or Enter\\) on a cell shows its detail"

# 14: drawn (exit 0), four ERROR cells, two with their words, page.sh agrees
gen_of realjit-error
why=()
[ "$grc" = 0 ] || why+=("report.sh exited $grc: $(head -n 3 "$out/realjit-error/gen.err")")
for word in WRONG NOJIT; do
	grep -q "<td class=\"c error[^\"]*\" data-run=\"$victim\"[^>]*><span class=\"o\">ERROR<small>$word</small>" \
		<<<"$(sed -n '/id="'"$lj"'-matrix"/,/<\/table>/p' "$gen_page" | tr '\n' ' ')" ||
		why+=("no $victim $lj cell says ERROR $word")
done
if [ -n "$browser" ]; then
	ended realjit-error
	[ "$rc" = 0 ] || why+=("page.sh failed: $(failed_points "$out/realjit-error.tap")")
	grep -qE "^ok [0-9]+ - $victim: $lj cells as the TAP results say: .* 4 ERROR," "$out/realjit-error.tap" ||
		why+=("page.sh did not count 4 ERROR cells for $victim")
fi
what="WRONG, NOJIT and ERROR outcomes, a case without a result and a point about the guest in $victim-$lj.tap: ERROR cells${browser:+, as page.sh counts them}"
if [ ${#why[@]} -eq 0 ]; then ok "$what"
else not_ok "$what" "${why[@]}"; fi

# 15, 16: page.sh fails "chromium rendered the page" saying what happened,
# prints every test point of its plan, ends and leaves no temporary
# directory behind
dead_browser() { # NAME WHAT WORDS
	[ -n "$browser" ] || return 0
	local name=$1 what=$2 words=$3 d=$out/$1 why=() planned points
	ended "$name"
	[ "$rc" = 1 ] || why+=("page.sh exited $rc, not 1 (124: still running after 120 s; over 128: killed by a signal)")
	grep -qE "^#   .*($words)" <<<"$(grep -A1 -E '^not ok [0-9]+ - chromium rendered the page$' "$out/$name.tap")" ||
		why+=("no failed \"chromium rendered the page\" saying: $words")
	planned=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$out/$name.tap")
	points=$(grep -cE '^(not )?ok [0-9]+ - ' "$out/$name.tap")
	[ "${planned:-none}" = "$points" ] || why+=("the plan says ${planned:-nothing}, page.sh printed $points test points")
	[ -z "$(ls -A "$d/tmp")" ] || why+=("left behind in TMPDIR: $(ls -A "$d/tmp" | head -n 3 | paste -sd' ')")
	if [ ${#why[@]} -eq 0 ]; then ok "$what: page.sh fails in $(cat "$out/$name.secs") s, saying so, and cleans up"
	else not_ok "$what: page.sh fails, saying so, and cleans up" "${why[@]}"; fi
}
dead_browser dying "a browser that dies after two answers" "stopped reading|exited before"
dead_browser hanging "a browser that hangs" "after PAGE_TIMEOUT=5 s: killed"

# 17: report.sh exits 1 naming the line; the page names it, shows no inf or nan
grc=$(cat "$out/zerojit/gen.rc")
if [ "$grc" -eq 1 ] && grep -q 'jitdemo-bench.txt: line 2: a time of [^ ]* is 0' "$out/zerojit/gen.err" &&
	grep -q 'class="problem"><code>[^<]*jitdemo-bench.txt</code>: line 2' "$out/zerojit/gen/index.html" &&
	! grep -qiE '>-?(inf|nan)&times;' "$out/zerojit/gen/index.html"; then
	ok "a JIT speed table with a time of 0 fails report.sh (exit 1), and the page names it"
else not_ok "a JIT speed table with a time of 0 fails report.sh (exit 1), and the page names it" "exit $grc: $(head -n 3 "$out/zerojit/gen.err")"; fi

# 18-21
bad_page unboxed "a page whose matrix boxes do not scroll" "no sideways page scroll at 1440x900"
bad_page unstuck "a page whose matrix heads scroll away" "no sideways page scroll at 1440x900; each matrix scrolls in its box, its heads in view"
bad_page lateanswer "a page whose answer comes after the matrices" "the page opens with its answer"
bad_page wronganswer "a page whose answer for $victim disagrees with the TAP" "the answer's blocked scenarios per kernel"

# 22: report.sh exits 1 naming the missing real-JIT TAP (page.sh's point 1)
gen_of realjit-missing
if [ "$grc" = 1 ] && grep -q "$victim-$lj.tap: missing" "$out/realjit-missing/gen.err"; then
	ok "a missing $victim-$lj.tap ($victim has an mseal()) fails report.sh (exit 1)"
else not_ok "a missing $victim-$lj.tap ($victim has an mseal()) fails report.sh (exit 1)" "exit $grc: $(head -n 3 "$out/realjit-missing/gen.err")"; fi
echo "# the runs: $out"
tap_end
