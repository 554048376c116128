#!/usr/bin/env bash
# report/tests/page.sh [--kernels "K..."] [--jits "NAME..."] [--page FILE] [--top DIR] RESULTS OUT
#
# TAP: the report page as a real browser shows it.  Writes the page with
# report/report.sh from RESULTS into OUT/report/ (or takes --page FILE as it
# is), renders it in Debian's chromium, headless, and checks:
#   - the generator found every file it needs, well formed (its exit 0), and
#     the page names every problem it reported;
#   - the file refers to nothing outside itself (no src, href, url() or
#     @import but "#..." and "data:");
#   - no console message, no page error, no uncaught exception;
#   - no request leaves the page: every request the page makes (the DevTools
#     protocol's Network.requestWillBeSent, on the page's own session) is the
#     page's own file;
#   - the whole attack matrix fits a 1920x1080 screen, and a screenshot of it
#     is kept as OUT/report-page.png;
#   - at 1920x1080 and at 1440x900 (a laptop) the page never scrolls
#     sideways: each matrix stays within the window in its box, which
#     scrolls instead, keeping its row names at its left and its head rows
#     at its top, its last cell reachable (report/tests/fit.js);
#   - the page opens with its answer: before the first matrix, its table
#     within the first 1440x900 screen (OUT/report-page-1440.png), and per
#     kernel the scenarios blocked under the policy that blocks most, and
#     of how many, are what the TAP results make (counted here);
#     the first real JIT's matrix (of --jits, report.sh's) is no wider
#     (OUT/report-page-realjit.png);
#   - every matrix, the attacks' and each real JIT's (luajit, luajit-pkey,
#     v8), has a column group for each kernel;
#   - per kernel, the attack matrix's LANDED, BLOCKED, mixed and ERROR cells
#     equal the cells the TAP results make (counted here, by this script's own
#     awk, not the generator's), no cell's colour disagrees with its words,
#     its per-case marks equal the TAP's case counts and closing line, and
#     its cells' details carry every maps/smaps line of the TAP;
#   - per kernel, each real JIT's matrix's cells (one case each) equal the
#     outcomes of KERNEL-NAME.tap (UNSEALED counted apart), an ERROR, WRONG
#     or NOJIT outcome and a failed case without a result being ERROR cells
#     (on a kernel without mseal(), which make test leaves to the whole
#     matrix, no file and a column that says so);
#   - a mouse click on an attack cell (a real one: the DevTools protocol's
#     Input.dispatchMouseEvent at the cell's centre), and Enter on a cell of
#     the first real JIT, show that cell's reason and maps/smaps lines in the panel under
#     its matrix (a screenshot of the first is OUT/report-page-detail.png).
# A missing or malformed result file fails a test point and is named.
# chromium may run PAGE_TIMEOUT seconds (default 300), then it is killed; a
# browser that dies, hangs or stops answering fails "chromium rendered the
# page" with what happened, and the points after it: nothing here waits on
# the browser unbounded.
#
# How nothing can leave: chromium runs in a network namespace of its own
# (unshare -n: no interface but a down loopback), with a dead proxy and every
# host name unresolvable besides, and background networking off; the page
# carries a Content-Security-Policy of default-src 'none'.  How a request is
# still seen: the test drives chromium over --remote-debugging-pipe (the
# DevTools protocol, NUL-separated JSON on fds 3 and 4) with the Network,
# Runtime and Log domains on before the page loads, so a request that fails
# (or would fail) is reported all the same, and so is every console message.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
report=$here/../report.sh
kernels=
jits=
page=
topargs=()
while [ $# -gt 0 ]; do
	case $1 in
	--kernels) kernels=$2; shift 2 ;;
	--jits) jits=$2; shift 2 ;;
	--page) page=$2; shift 2 ;;
	--top) topargs=(--top "$2"); shift 2 ;;
	*) break ;;
	esac
done
[ $# -eq 2 ] || { echo "usage: report/tests/page.sh [--kernels \"K...\"] [--jits \"NAME...\"] [--page FILE] [--top DIR] RESULTS OUT" >&2; exit 2; }
results=$1
out=$2
mkdir -p "$out"
out=$(cd "$out" && pwd)
limit=${PAGE_TIMEOUT:-300}
. "$here/../../scripts/whole-number.sh"
whole_number page.sh PAGE_TIMEOUT "$limit"
w=$(mktemp -d)
cpid=
# chromium (under timeout: bounded) is gone before its profile goes
cleanup() { [ -z "$cpid" ] || { kill "$cpid" 2>/dev/null; wait "$cpid" 2>/dev/null; }; rm -rf "$w"; }
trap cleanup EXIT
[ -n "$kernels" ] || kernels=$(find "$results" -maxdepth 1 -name '*-attacks.tap' -printf '%f\n' 2>/dev/null | sed 's/-attacks\.tap$//' | sort | paste -sd' ')
# report.sh's default: every real JIT with expected tables
if [ -z "$jits" ]; then
	. "$here/../../realjit/cases.sh"
	jits=$(rj_matrix_jits)
fi
first_jit=${jits%% *}

# ok_unless DESCRIPTION [WHY...]: ok when there is no WHY
ok_unless() { local name=$1; shift; if [ $# -eq 0 ]; then ok "$name"; else not_ok "$name" "$@"; fi; }
plan=$((13 + (3 + $(wc -w <<<"$jits")) * $(wc -w <<<"$kernels")))
. "$here/../../tests/tap.sh"
tap_start "$plan"

# 1: the page, and what the generator said about the results
if [ -z "$page" ]; then
	page=$out/report/index.html
	"$report" ${topargs[@]+"${topargs[@]}"} ${kernels:+--kernels "$kernels"} --jits "$jits" "$results" "$out/report" >"$w/gen.out" 2>"$w/gen.err"
	grc=$?
	if [ $grc -eq 0 ]; then
		ok "report.sh found every result file it needs, well formed"
	else
		mapfile -t lines <"$w/gen.err"
		not_ok "report.sh found every result file it needs, well formed (exit $grc)" "${lines[@]}"
	fi
else
	: >"$w/gen.err"
	ok "# SKIP the page is given (--page $page)"
fi
if [ ! -s "$page" ]; then
	for ((i = tap_n; i < plan; i++)); do not_ok "no page at $page"; done
	exit 1
fi

# 2: nothing outside the file
ext=$(grep -oiE '(src|href|action|srcset|poster|data)[[:space:]]*=[[:space:]]*"[^"#][^"]*"|url\([^)]*\)|@import[^;]*' "$page" |
	grep -viE '"data:|url\((["'\'']?)(data:|#)' | sort -u | head -n 5)
ok_unless "the page refers to nothing outside itself" ${ext:+"refers to: $ext"}

# Render: chromium over the DevTools pipe, in a network namespace of its own.
netns=(unshare -n)
unshare -n true 2>/dev/null || { netns=(); echo "# unshare -n unavailable (not root?): relying on the dead proxy and resolver rules"; }
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
	for ((i = tap_n; i < plan; i++)); do not_ok "chromium is not installed (scripts/install-deps.sh installs it)"; done
	exit 1
fi
flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --no-default-browser-check
	--disable-background-networking --disable-component-update --disable-sync --disable-default-apps
	--disable-extensions --disable-breakpad --disable-domain-reliability --no-pings
	--proxy-server=http://127.0.0.1:9 --proxy-bypass-list='<-loopback>'
	--host-resolver-rules='MAP * ~NOTFOUND' --window-size=1920,1080 --user-data-dir="$w/profile")
url="file://$(cd "$(dirname "$page")" && pwd)/$(basename "$page")"
mkfifo "$w/in"
timeout -k 5 "$limit" "${netns[@]}" "$browser" "${flags[@]}" --remote-debugging-pipe about:blank \
	3<"$w/in" 4>"$w/events" 2>"$out/report-chromium.log" &
cpid=$!
exec 5>"$w/in"
# What went wrong with the browser, the first thing only (callers run in
# $(...): a file).  A browser that died has closed its end of the pipe: the
# write fails (SIGPIPE ignored, in a subshell so that nothing else ignores
# it) instead of killing this script before its EXIT trap.
: >"$w/dead"
died() { [ -s "$w/dead" ] || echo "$1" >"$w/dead"; }
send() { # JSON [WHAT]
	( trap '' PIPE; printf '%s\0' "$1" >&5 ) 2>/dev/null && return 0
	died "chromium stopped reading its DevTools pipe (it died?) at ${2:-a command}"
	return 1
}
# (Polled every 50 ms: most answers take less, and a page.sh run asks
# about thirty times.)
answer() { # ID: the response to command ID, waiting up to 30 s
	local i
	for ((i = 0; i < 600; i++)); do
		grep -a -z -m1 "^{\"id\":$1," "$w/events" | tr -d '\0' | grep . && return 0
		kill -0 "$cpid" 2>/dev/null || { died "chromium exited before it answered command $1"; return 1; }
		sleep 0.05
	done
	died "no answer to command $1 within 30 s"
	return 1
}
field() { sed -n "s/.*\"$1\":\"\\([^\"]*\\)\".*/\\1/p"; }
# (a script file: no comment at the end of a line; whole comment lines go)
js() { sed -e '/^[[:space:]]*\/\//d' -e 's/\\/\\\\/g' -e 's/"/\\"/g' "$1" | tr '\n\t' '  '; }
# On the page's session ($sid): a command and its answer, a script's value
# (EXPRESSION, escaped for JSON: js FILE does it for a file), a screenshot.
# The last command's id is kept in a file: callers run these in $(...).
echo 2 >"$w/id"
call() { # METHOD [PARAMS-JSON]
	local id=$(($(cat "$w/id") + 1))
	echo $id >"$w/id"
	send "{\"id\":$id,\"sessionId\":\"$sid\",\"method\":\"$1\"${2:+,\"params\":$2}}" "$1" && answer $id
}
value_of() { call Runtime.evaluate "{\"expression\":\"$1\",\"returnByValue\":true}" | field value; }
screenshot() { # FILE
	sleep 0.1
	call Page.captureScreenshot '{"format":"png"}' | field data | base64 -d >"$1" 2>/dev/null
}
rendered=
sid=
# what the session finds; nothing when it fails, and no screenshot of a run before
counts='' jit_right='' clicked='' entered='' cx='' cy='' fit_1920='' fit_1440='' opening=''
rm -f "$out/report-page.png" "$out/report-page-realjit.png" "$out/report-page-detail.png" "$out/report-page-1440.png"
if send '{"id":1,"method":"Target.createTarget","params":{"url":"about:blank"}}' Target.createTarget &&
	tid=$(answer 1 | field targetId) && [ -n "$tid" ] &&
	send "{\"id\":2,\"method\":\"Target.attachToTarget\",\"params\":{\"targetId\":\"$tid\",\"flatten\":true}}" Target.attachToTarget &&
	sid=$(answer 2 | field sessionId) && [ -n "$sid" ]; then
	for m in Runtime.enable Log.enable Network.enable Page.enable; do call $m >/dev/null; done
	call Emulation.setDeviceMetricsOverride '{"width":1920,"height":1080,"deviceScaleFactor":1,"mobile":false}' >/dev/null
	call Page.navigate "{\"url\":\"$url\"}" >/dev/null
	for ((i = 0; i < 600; i++)); do
		grep -a -q '"method":"Page.loadEventFired"' "$w/events" && break
		kill -0 "$cpid" 2>/dev/null || break
		sleep 0.05
	done
	# late requests and messages (an image's request and a script's
	# message come before the load event; this is for anything after)
	sleep 0.3
	counts=$(value_of "$(js "$here/count-cells.js")")
	screenshot "$out/report-page.png"
	# the first real JIT's matrix, at the top of the screen: a second screenshot, and its right edge
	jit_right=$(value_of "(function () { var m = document.getElementById('$first_jit-matrix'); if (!m) return 'none'; m.scrollIntoView(); return '' + Math.ceil(m.getBoundingClientRect().right); })()")
	# the problems the rendered page names (its box at the top)
	call Runtime.evaluate "{\"expression\":\"(function () { var p = document.getElementById('problems'); return p ? p.textContent : ''; })()\",\"returnByValue\":true}" >"$w/problems"
	screenshot "$out/report-page-realjit.png"
	# a click on the first attack cell with maps lines, at its centre, as a mouse does
	read -r cx cy <<<"$(value_of "$(js "$here/pick-cell.js")")"
	if [ -n "${cy:-}" ]; then
		for t in mousePressed mouseReleased; do
			call Input.dispatchMouseEvent "{\"type\":\"$t\",\"x\":$cx,\"y\":$cy,\"button\":\"left\",\"clickCount\":1}" >/dev/null
		done
	fi
	clicked=$(value_of "$(js "$here/shown-detail.js")")
	screenshot "$out/report-page-detail.png"
	# Enter on the first real JIT's first cell that has a detail, focused as Tab would
	value_of "(function () { var td = Array.prototype.find.call(document.querySelectorAll('#$first_jit-matrix td.c'), function (c) { return c.querySelector('.why'); }); if (!td) return 'none'; td.focus(); td.setAttribute('data-probe', '1'); return 'focused'; })()" >/dev/null
	for t in keyDown keyUp; do
		call Input.dispatchKeyEvent "{\"type\":\"$t\",\"key\":\"Enter\",\"code\":\"Enter\",\"windowsVirtualKeyCode\":13}" >/dev/null
	done
	entered=$(value_of "$(js "$here/shown-detail.js")")
	# the page's width and each matrix's box, at 1920x1080 and at 1440x900,
	# and the answer it opens with (a screenshot of the laptop's first screen)
	fit_1920=$(value_of "$(js "$here/fit.js")")
	call Emulation.setDeviceMetricsOverride '{"width":1440,"height":900,"deviceScaleFactor":1,"mobile":false}' >/dev/null
	fit_1440=$(value_of "$(js "$here/fit.js")")
	opening=$(value_of "$(js "$here/answer.js")")
	screenshot "$out/report-page-1440.png"
	# every answer came, or the page was not (wholly) rendered
	[ -s "$w/dead" ] || rendered=1
	send '{"id":0,"method":"Browser.close"}' Browser.close && answer 0 >/dev/null
	# (a browser that closes before it answers has done as asked)
	[ -z "$rendered" ] || : >"$w/dead"
else
	died "no DevTools session: Target.createTarget or Target.attachToTarget gave no id"
fi
exec 5>&-
wait "$cpid" 2>/dev/null
crc=$?
cpid=
# killed: that is the cause, whatever a command saw of it first
if [ "$crc" -eq 124 ] || [ "$crc" -eq 137 ]; then echo "chromium still ran after PAGE_TIMEOUT=$limit s: killed" >"$w/dead"; rendered=; fi
tr '\0' '\n' <"$w/events" >"$out/report-devtools.log"

# 3: console and errors
msgs=$(grep -E '"method":"(Runtime.consoleAPICalled|Runtime.exceptionThrown)"|"method":"Log.entryAdded".*"level":"(error|warning)"' "$out/report-devtools.log" | cut -c1-300 | head -n 5)
if [ -z "$rendered" ]; then not_ok "chromium rendered the page" "$(cat "$w/dead")" "see $out/report-chromium.log"
else ok_unless "no console message, page error or uncaught exception" ${msgs:+"$msgs"}; fi

# 4: requests
reqs=$(grep '"method":"Network.requestWillBeSent"' "$out/report-devtools.log" | sed -n 's/.*"request":{"url":"\([^"]*\)".*/\1/p' | grep -vxF "$url" | sort -u | head -n 5)
if [ -z "$rendered" ]; then not_ok "no request leaves the page (not rendered)"
else ok_unless "no request leaves the page" ${reqs:+"requests: $reqs"}; fi

# 5: screenshot and fit
dims=$(od -An -tu1 -j16 -N8 "$out/report-page.png" 2>/dev/null | awk '{ printf "%d %d", $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8 }')
fits=${counts##*|fits }
if [ "$dims" != "1920 1080" ]; then
	not_ok "a 1920x1080 screenshot is kept as $out/report-page.png" "got: ${dims:-no PNG}"
	not_ok "the $first_jit matrix is as wide as the screen at most" "no screenshot"
else
	read -r right bottom topy <<<"$fits"
	if [ "${right:-9999}" -le 1920 ] 2>/dev/null && [ "${bottom:-9999}" -le 1080 ] && [ "${topy:--1}" -ge 0 ]; then
		ok "the whole attack matrix fits the 1920x1080 screenshot (right $right, bottom $bottom): $out/report-page.png"
	else not_ok "the whole attack matrix fits the 1920x1080 screenshot" "the matrix spans to x=$right, y=$bottom (top $topy): $out/report-page.png"; fi
	if [ "${jit_right:-none}" = none ] || [ "$jit_right" -le 1920 ] 2>/dev/null; then
		ok "the $first_jit matrix is as wide as the screen at most (right ${jit_right:-none}): $out/report-page-realjit.png"
	else not_ok "the $first_jit matrix is as wide as the screen at most" "it spans to x=$jit_right: $out/report-page-realjit.png"; fi
fi

# 6: the page names each problem the generator reported
unnamed=$(grep -E '^report:   ' "$w/gen.err" | sed 's/^report:   //; s/: .*//' | sort -u | while read -r f; do
	grep -qF "$f" "$w/problems" 2>/dev/null || echo "$f"; done)
ok_unless "the page names every missing or malformed file the generator reported" ${unnamed:+"not on the page: $unnamed"}

# 7: a cell's detail, by mouse and by keyboard
if [ -z "$rendered" ]; then not_ok "a click (or Enter) on a cell shows its detail (not rendered)"
elif [ "${clicked:-}" = "picked shown maps" ] && [ "${entered:-}" = "picked shown" ]; then
	ok "a click on an attack cell and Enter on a $first_jit cell show their detail: $out/report-page-detail.png"
else not_ok "a click (or Enter) on a cell shows its detail" "attack cell clicked at ${cx:-?},${cy:-?}: ${clicked:-no answer}" \
	"$first_jit cell, Enter: ${entered:-no answer}"; fi

# 7b: no sideways page scroll; each matrix's box within the window, its heads
# in view when it scrolls, its last cell reachable
fits_in() { # SIZE FIT-ANSWER
	local size=$1 fit=$2 page_w win_w why=() id r sx sy dx dy dl b
	if [ -z "$rendered" ] || [ "${fit%%|*}" = "$fit" ]; then not_ok "no sideways page scroll at $size; each matrix scrolls in its box, its heads in view" "not rendered"; return; fi
	read -r _ page_w win_w <<<"${fit%%|*}"
	[ "$page_w" -le "$win_w" ] 2>/dev/null || why+=("the page is $page_w px wide in a $win_w px window")
	while read -r id _ r _ sx _ sy _ dx _ dy _ dl; do
		[ -n "$id" ] || continue
		b="$id: right $r, scrolled $sx,$sy; row name off by $dx, heads by $dy, last cell by $dl"
		if [ "$r" -gt "$win_w" ] 2>/dev/null || { [ "$sx" -gt 0 ] && [ "${dx#-}" -gt 2 ]; } 2>/dev/null ||
			{ [ "$sy" -gt 0 ] && [ "${dy#-}" -gt 2 ]; } 2>/dev/null || [ "$dl" -gt 1 ] 2>/dev/null || [ "$dl" = none ]; then why+=("$b"); fi
	done < <(tr ';' '\n' <<<"${fit#*|}")
	[ -n "${fit#*|}" ] || why+=("no matrix in a box (div.matrix-box)")
	ok_unless "no sideways page scroll at $size; each matrix scrolls in its box, its heads in view" ${why[@]+"${why[@]}"}
}
fits_in 1920x1080 "$fit_1920"
fits_in 1440x900 "$fit_1440"
# 7c: the answer first, on the first screen
read -r _ before _ abottom _ aheight <<<"${opening%%|*}"
if [ -z "$rendered" ]; then not_ok "the page opens with its answer, on the first 1440x900 screen (not rendered)"
elif [ "${before:-0}" = 1 ] && [ "$abottom" -le "$aheight" ] 2>/dev/null; then
	ok "the page opens with its answer, on the first 1440x900 screen (its bottom at $abottom): $out/report-page-1440.png"
else not_ok "the page opens with its answer, on the first 1440x900 screen" "before the first matrix: ${before:-no}; its bottom: ${abottom:-none} of ${aheight:-?}"; fi

# 8: every kernel asked for has a column group in every matrix
runs_in() { tr ';' '\n' <<<"${counts%%|*}" | awk -v t="$1" '$1 == t { print $2 }' | sort | paste -sd' '; }
want_runs=$(tr ' ' '\n' <<<"$kernels" | sed '/^$/d' | sort | paste -sd' ')
lacking=()
for m in attacks $jits; do
	[ "$(runs_in "$m-matrix")" = "$want_runs" ] || lacking+=("$m: $(runs_in "$m-matrix")")
done
if [ ${#lacking[@]} -eq 0 ]; then ok "the attack and real-JIT matrices ($jits) have a column group for each kernel: $want_runs"
else not_ok "the attack and real-JIT matrices ($jits) have a column group for each kernel" "${lacking[@]}" "results: $want_runs"; fi

# 9...: per kernel, the DOM's cells and marks against the TAP
answer_off=()
for k in $kernels; do
	tap=$results/$k-attacks.tap
	dom=$(tr ';' '\n' <<<"${counts%%|*}" | awk -v k="$k" '$1 == "attacks-matrix" && $2 == k { $1 = $2 = ""; print substr($0, 3) }')
	# each real JIT's cells: one per case, its outcome (ERROR, WRONG and
	# NOJIT being ERROR cells), or ERROR for a failed case with no result
	# line after it; a test point that names no case (about the guest as a
	# whole) is no cell
	for lj in $jits; do
		ltap=$results/$k-$lj.tap
		what="$k: $lj cells as the TAP results say"
		ldom=$(tr ';' '\n' <<<"${counts%%|*}" | awk -v k="$k" -v t="$lj-matrix" '$1 == t && $2 == k { $1 = $2 = ""; print substr($0, 3) }')
		if [ ! -f "$ltap" ]; then
			# make test leaves a real JIT on a kernel without mseal() to
			# the whole matrix: a column that says so
			if [ "$("$here/../../kernel/kernels" get "$k" abi 2>/dev/null)" = none ] && [ "$ldom" = absent ] &&
				grep -q "not in make test, which runs the real JITs on the kernels with an mseal()" "$page"; then
				ok "$k: no $lj results (not in make test: no mseal()), and its column says so"
			else not_ok "$what" "no $ltap"; fi
			continue
		fi
		lwant=$(awk 'function close_case() { if (failed) n["ERROR"]++; failed = 0 }
			/^(not )?ok / { close_case(); failed = $0 ~ /^not ok [0-9]+ - [^ ]+ (workload|attack) / }
			/^# result / { failed = 0; for (i = 3; i <= NF; i++) if ($i ~ /^outcome=/) { o = substr($i, 9); n[o ~ /^(WRONG|NOJIT)$/ ? "ERROR" : o]++; break } }
			END { close_case(); printf "%d %d %d %d %d", n["LANDED"], n["BLOCKED"], n["ERROR"], n["RAN"], n["ABORTED"]; printf " %d %d\n", n["UNAVAILABLE"], n["UNSEALED"] }' "$ltap")
		read -r l_l l_b l_m l_e l_r l_a l_u l_x _ _ _ _ l_us _ <<<"$ldom"
		lgot="$l_l $l_b $l_e $l_r $l_a $l_u $l_us"
		words() { awk '{ printf "%d LANDED, %d BLOCKED, %d ERROR, %d RAN, %d ABORTED, %d UNAVAILABLE, %d UNSEALED", $1, $2, $3, $4, $5, $6, $7 }' <<<"$1"; }
		if [ -z "$ldom" ]; then not_ok "$what" "no $lj column for $k on the page"
		elif [ "$lgot" = "$lwant" ] && [ "$l_m" = 0 ] && [ "$l_x" = 0 ]; then ok "$what: $(words "$lgot")"
		else not_ok "$what" "page: $(words "$lgot"), $l_m mixed; $l_x coloured unlike their words" "TAP:  $(words "$lwant")"; fi
	done
	if [ ! -f "$tap" ]; then
		not_ok "$k: cells as the TAP results say" "no $tap"
		not_ok "$k: one mark per case, as the TAP results say" "no $tap"
		not_ok "$k: every maps/smaps line of the TAP in the cells' details" "no $tap"
		continue
	fi
	# the TAP's cells: per scenario x policy, every case's outcome alike or mixed
	want=$(awk '/^# result / {
		for (i = 3; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = substr($i, length(kv[1]) + 2) }
		key = f["scenario"] " " f["policy"]; o = f["outcome"]
		if (!(key in cell)) { cell[key] = o; keys[++nk] = key } else if (cell[key] != o) cell[key] = "mixed"
		if (o == "ERROR") err[key] = 1
		if (!(f["policy"] in pn)) pol[++np] = f["policy"]
		if (!((f["scenario"], f["policy"]) in scen)) { scen[f["scenario"], f["policy"]] = 1; pn[f["policy"]]++ }
		cases[o]++
	}
	/^# kernel=[^ ]*: [0-9]+ cases, / { split($0, t, /[ :;,]+/); closing = t[5] " " t[7] " " t[9] }
	END {
		for (i = 1; i <= nk; i++) {
			c = (keys[i] in err) ? "ERROR" : cell[keys[i]]; n[c]++
			if (c == "BLOCKED") { split(keys[i], sp, " "); pb[sp[2]]++ }
		}
		# the policy that blocks most (the first of them, in the run
		# order), and how many scenarios ran under it: not every one
		# runs under every policy (the key openers: pkey and keyonly only)
		best = 0; of = np ? pn[pol[1]] : 0
		for (i = 1; i <= np; i++) if (pb[pol[i]] > best) { best = pb[pol[i]]; of = pn[pol[i]] }
		printf "%d %d %d %d|%d %d %d|%s|%d %d\n", n["LANDED"], n["BLOCKED"], n["mixed"], n["ERROR"],
			cases["LANDED"], cases["BLOCKED"], cases["ERROR"], closing, best, of
	}' "$tap")
	read -r dl db dm de _ _ _ dx ml mb me dmaps _ <<<"$dom"
	wcells=${want%%|*}; rest=${want#*|}; wcases=${rest%%|*}; rest=${rest#*|}; closing=${rest%%|*}
	# the answer's row: the most scenarios a policy blocks, of how many
	arow=$(tr ';' '\n' <<<"${opening#*|}" | awk -v k="$k" '$1 == k { print $2 " " $3 }')
	[ "${arow:-none}" = "${rest#*|}" ] || answer_off+=("$k: the answer says ${arow:-nothing}, the TAP ${rest#*|} (blocked, scenarios)")
	if [ -z "$dom" ]; then not_ok "$k: cells as the TAP results say" "no column for $k on the page"
	elif [ "$dl $db $dm $de" = "$wcells" ] && [ "$dx" = 0 ]; then
		ok "$k: cells as the TAP results say: $dl LANDED, $db BLOCKED, $dm mixed, $de ERROR"
	else not_ok "$k: cells as the TAP results say" "page: $dl LANDED, $db BLOCKED, $dm mixed, $de ERROR; $dx coloured unlike their words" \
		"TAP:  $(awk '{ printf "%d LANDED, %d BLOCKED, %d mixed, %d ERROR", $1, $2, $3, $4 }' <<<"$wcells")"; fi
	if [ -z "$dom" ]; then not_ok "$k: one mark per case, as the TAP results say" "no column for $k on the page"
	elif [ "$ml $mb $me" = "$wcases" ] && [ "$mb $ml $me" = "$closing" ]; then
		ok "$k: one mark per case, as the TAP results say: $ml LANDED, $mb BLOCKED, $me ERROR"
	else not_ok "$k: one mark per case, as the TAP results say" "page: $ml LANDED, $mb BLOCKED, $me ERROR" \
		"TAP result lines: $(awk '{ printf "%d LANDED, %d BLOCKED, %d ERROR", $1, $2, $3 }' <<<"$wcases"); its closing line (BLOCKED LANDED ERROR): ${closing:-none}"; fi
	tmaps=$(grep -cE '^# s?maps (before|after): ' "$tap")
	if [ -z "$dom" ]; then not_ok "$k: every maps/smaps line of the TAP in the cells' details" "no column for $k on the page"
	elif [ "$dmaps" = "$tmaps" ]; then ok "$k: every maps/smaps line of the TAP in the cells' details: $tmaps"
	else not_ok "$k: every maps/smaps line of the TAP in the cells' details" "page: $dmaps, TAP: $tmaps"; fi
done
# last: the opening answer's counts, every kernel's, against the TAP
if [ -z "$rendered" ]; then not_ok "the answer's blocked scenarios per kernel are what the TAP results make (not rendered)"
else ok_unless "the answer's blocked scenarios per kernel are what the TAP results make" ${answer_off[@]+"${answer_off[@]}"}; fi
tap_end
