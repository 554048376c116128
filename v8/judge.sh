#!/usr/bin/env bash
# v8/judge.sh --mode fast|full KERNEL CASES OUTPUT - TAP for one kernel's
# run: one test per line of CASES ("workload|attack NAME POLICY"), judged
# by the first row of expected-workloads.tsv or expected-attacks.tsv that
# matches it, against the `# result` line of OUTPUT (guest/run-cases.sh;
# the result lines follow as TAP comments); then two tests of the run as a
# whole.  luajit/judge.sh's rules, with V8's abort:
#
#   RAN          exit 0, node --jitless's stdout, the workload's expected
#                stderr line, code made executable
#   ABORTED E    V8 stopped itself on a failed CHECK (abort=v8-check), E
#                the errno of the last call the kernel refused it, and V8's
#                words ("Check failed: ...") holding the row's check column:
#                which V8 operation the kernel refused
#   LANDED       the attack's call landed (any errno)
#   BLOCKED E    errno E, nothing changed, and the function, run again,
#                returned the right value (rerun=ok)
#   UNAVAILABLE E  the library stopped node at start-up (exit 3), its probe
#                having got E
#   UNSEALED E   the kernel refused the library's mseal of every area V8
#                made with E (sealed=0, refused_mseal == areas >= 1): the
#                policy could not be applied to V8's code
# and every RAN, ABORTED, LANDED and BLOCKED case must show the policy
# applied, from the library's area lines: code made executable (areas >=
# 1), under none nothing sealed, under a sealing policy every area sealed
# (sealed == areas) and no mseal refused (refused_mseal=0).
# A case with no result line, or no matching row, fails.
#
# The run as a whole: CASES is the mode's case list (cases.sh, from the
# workloads and expected-attacks.tsv's scenarios), and the guest ran to
# the end ("# cases-done N" for all N cases, "# guest/run exit 0").
# Exit status: 0 when every test passed, 1 if not, 2 on misuse.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage() { echo "usage: judge.sh --mode fast|full KERNEL CASES OUTPUT" >&2; exit 2; }
[ $# -eq 5 ] && [ "$1" = --mode ] || usage
mode=$2 kernel=$3 cases=$4 output=$5
case $mode in fast | full) ;; *) echo "judge: unknown mode '$mode' (fast or full)" >&2; exit 2 ;; esac
[ -f "$cases" ] || { echo "judge: no cases file $cases" >&2; exit 2; }
[ -f "$output" ] || output=/dev/null

V8_WHO=judge
. "$here/cases.sh"
v8_read_workloads || exit 2
v8_table_attack_names || exit 2
want_cases=$(mktemp)
trap 'rm -f "$want_cases"' EXIT
v8_write_cases "$mode" >"$want_cases" || exit 2
mode_words=$(v8_mode_words "$mode")

awk -v kernel="$kernel" -v cases="$cases" -v out="$output" -v want_cases="$want_cases" \
	-v mode="$mode" -v mode_words="$mode_words" \
	-v wtsv="$here/expected-workloads.tsv" -v atsv="$here/expected-attacks.tsv" '
function load(file, kind,   line, f, n) {
	while ((getline line < file) > 0) {
		if (line ~ /^#/ || line == "") continue
		n = split(line, f, "\t")
		if (n != 7) { print "Bail out! not 7 columns in " file ": " line; exit 2 }
		rows[kind, ++nrows[kind]] = line
	}
	close(file)
}
function glob(pattern, text) {
	gsub(/\*/, ".*", pattern)
	return text ~ ("^" pattern "$")
}
# The first row that matches: "outcome<TAB>errno<TAB>check<TAB>reason", or "".
function expected(kind, name, policy,   i, f) {
	for (i = 1; i <= nrows[kind]; i++) {
		split(rows[kind, i], f, "\t")
		if (glob(f[1], name) && glob(f[2], policy) && glob(f[3], kernel))
			return f[4] "\t" f[5] "\t" f[6] "\t" f[7]
	}
	return ""
}
# A field of a result line, before its detail (which is free text).
function field(line, name,   n, i, kv) {
	n = split(line, kv, " ")
	for (i = 1; i <= n; i++) {
		if (index(kv[i], "detail=") == 1) break
		if (index(kv[i], name "=") == 1) return substr(kv[i], length(name) + 2)
	}
	return ""
}
function detail(line) { return index(line, " detail=") ? substr(line, index(line, " detail=") + 8) : "" }
function number(v) { return v ~ /^[0-9]+$/ }
# Why a result that has the expected outcome still fails, or "".
function fault(kind, policy, got, want,   e, o, areas, sealed, refused) {
	split(want, e, "\t")
	o = field(got, "outcome")
	if (o != e[1]) return "not the expected outcome"
	if (o == "UNAVAILABLE")
		return field(got, "errno") != e[2] ? "not the expected probe result" : \
			field(got, "status") != "3" ? "status " field(got, "status") ", not the library'"'"'s 3" : ""
	if (o == "RAN" && field(got, "status") != "0") return "status " field(got, "status") ", not 0"
	if (o == "UNSEALED") {
		if (field(got, "errno") != e[2]) return "not the expected mseal errno"
		areas = field(got, "areas"); sealed = field(got, "sealed"); refused = field(got, "refused_mseal")
		return number(areas) && areas + 0 >= 1 && sealed == "0" && refused == areas ? "" : \
			"not every area refused (areas=" areas " sealed=" sealed " refused_mseal=" refused ")"
	}
	if (o == "ABORTED") {
		if (field(got, "errno") != e[2]) return "not the expected errno"
		if (kind == "workload" && field(got, "abort") != "v8-check")
			return "not V8'"'"'s own abort (abort=" field(got, "abort") ", wanted v8-check: a failed CHECK)"
		if (index(detail(got), "Check failed: ") == 0 || (e[3] != "-" && index(detail(got), e[3]) == 0))
			return "V8'"'"'s words do not name the expected operation (" e[3] ")"
	}
	if (o == "BLOCKED") {
		if (field(got, "errno") != e[2]) return "not the expected errno"
		if (field(got, "rerun") != "ok") return "the function, run again, did not return the right value"
	}
	areas = field(got, "areas"); sealed = field(got, "sealed"); refused = field(got, "refused_mseal")
	if (!number(areas) || !number(sealed) || !number(refused))
		return "the library'"'"'s counts are missing (areas=" areas " sealed=" sealed " refused_mseal=" refused ")"
	if (areas + 0 < 1) return "no machine code made executable (areas=0)"
	if (policy == "none") return sealed + 0 != 0 ? "none sealed " sealed " areas" : ""
	if (refused + 0 != 0) return "the kernel refused " refused " mseal calls"
	if (sealed + 0 != areas + 0) return "sealed " sealed " of " areas " areas"
	return ""
}
function last_value(prefix,   line, v) {
	v = ""
	while ((getline line < out) > 0) {
		sub(/\r$/, "", line)
		if (index(line, prefix) == 1) v = substr(line, length(prefix) + 1)
	}
	close(out)
	return v
}
BEGIN {
	load(wtsv, "workload"); load(atsv, "attack")
	while ((getline line < out) > 0) {
		sub(/\r$/, "", line)
		if (line ~ /^# result /)
			result[field(line, "kind"), field(line, "name"), field(line, "policy")] = line
	}
	close(out)
	n = 0; listed = ""
	while ((getline line < cases) > 0) {
		listed = listed line "\n"
		split(line, c, " ")
		if (c[1] == "") continue
		order[++n] = c[1] SUBSEP c[2] SUBSEP c[3]
		label[n] = kernel " " c[1] " " c[2] " " c[3]
		kindof[n] = c[1]; nameof[n] = c[2]; policyof[n] = c[3]
	}
	nwant = 0; wanted = ""
	while ((getline line < want_cases) > 0) { wanted = wanted line "\n"; nwant++ }
	printf "TAP version 13\n1..%d\n# v8-matrix mode=%s\n", n + 2, mode
	bad = 0
	for (i = 1; i <= n; i++) {
		want = expected(kindof[i], nameof[i], policyof[i])
		got = (order[i] in result) ? result[order[i]] : ""
		split(want, e, "\t")
		if (want == "") { ok = 0; why = "no row of the expected table matches" }
		else if (got == "") { ok = 0; why = "no result (the guest died or the case hung)" }
		else {
			f = fault(kindof[i], policyof[i], got, want)
			ok = (f == "")
			why = field(got, "outcome") " " field(got, "errno")
			if (kindof[i] == "attack") why = why " rerun=" field(got, "rerun")
			why = why " (expected " e[1] " " e[2] ")" (ok ? "" : ": " f)
		}
		printf "%sok %d - %s: %s\n", ok ? "" : "not ", i, label[i], why
		if (got != "") print got
		if (!ok && e[4] != "") print "# expected because: " e[4]
		bad += !ok
	}
	ok = (listed == wanted)
	printf "%sok %d - %s run: the %s mode'"'"'s %d cases (%s)%s\n", ok ? "" : "not ", n + 1, kernel, mode, nwant,
		mode_words, ok ? "" : ": the case list has " n ", not that list"
	bad += !ok
	done_n = last_value("# cases-done "); rc = last_value("# guest/run exit ")
	ok = (done_n == n "" && rc == "0")
	printf "%sok %d - %s run: the guest ran to the end (cases-done %s of %d, guest/run exit %s)\n",
		ok ? "" : "not ", n + 2, kernel, done_n == "" ? "none" : done_n, n, rc == "" ? "none" : rc
	bad += !ok
	exit bad > 0
}'
