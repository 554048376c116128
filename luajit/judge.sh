#!/usr/bin/env bash
# luajit/judge.sh KERNEL CASES OUTPUT - TAP for one kernel's run: one test
# per line of CASES ("workload|attack NAME POLICY"), judged by the first
# row of expected-workloads.tsv or expected-attacks.tsv that matches it,
# against the `# result` line of OUTPUT (guest/run-cases.sh).  The result
# lines follow as TAP comments.
#
#   RAN          must be RAN (exit 0, output of luajit -joff, code made
#                executable)
#   ABORTED E    must be ABORTED with E the errno of the first refused call
#   LANDED       must be LANDED (any errno)
#   BLOCKED E    must be BLOCKED with errno E, and the trace, run again,
#                must return the right value (rerun=ok)
#   UNAVAILABLE E  the library's probe must have got E
# A case with no result line, or no matching row, fails.
# Exit status: 0 when every case passed, 1 if not, 2 on misuse.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 3 ] || { echo "usage: judge.sh KERNEL CASES OUTPUT" >&2; exit 2; }
kernel=$1 cases=$2 output=$3
[ -f "$cases" ] || { echo "judge: no cases file $cases" >&2; exit 2; }
[ -f "$output" ] || output=/dev/null

awk -v kernel="$kernel" -v cases="$cases" -v out="$output" \
	-v wtsv="$here/expected-workloads.tsv" -v atsv="$here/expected-attacks.tsv" '
function load(file, kind,   line, f, n) {
	while ((getline line < file) > 0) {
		if (line ~ /^#/ || line == "") continue
		n = split(line, f, "\t")
		if (n < 5) { print "Bail out! malformed row in " file ": " line; exit 2 }
		rows[kind, ++nrows[kind]] = line
	}
	close(file)
}
function glob(pattern, text) {
	gsub(/\*/, ".*", pattern)
	return text ~ ("^" pattern "$")
}
# The first row that matches: "outcome<TAB>errno<TAB>reason", or "".
function expected(kind, name, policy,   i, f) {
	for (i = 1; i <= nrows[kind]; i++) {
		split(rows[kind, i], f, "\t")
		if (glob(f[1], name) && glob(f[2], policy) && glob(f[3], kernel))
			return f[4] "\t" f[5] "\t" f[6]
	}
	return ""
}
function field(line, name,   n, i, kv) {
	n = split(line, kv, " ")
	for (i = 1; i <= n; i++)
		if (index(kv[i], name "=") == 1) return substr(kv[i], length(name) + 2)
	return ""
}
function verdict(kind, got, want,   e, o, r) {
	split(want, e, "\t")
	o = field(got, "outcome"); r = field(got, "rerun")
	if (o != e[1]) return 0
	if (o == "RAN" || o == "LANDED") return 1
	if (field(got, "errno") != e[2]) return 0
	return o != "BLOCKED" || r == "ok"
}
BEGIN {
	load(wtsv, "workload"); load(atsv, "attack")
	while ((getline line < out) > 0)
		if (line ~ /^# result /)
			result[field(line, "kind"), field(line, "name"), field(line, "policy")] = line
	n = 0
	while ((getline line < cases) > 0) {
		split(line, c, " ")
		if (c[1] == "") continue
		order[++n] = c[1] SUBSEP c[2] SUBSEP c[3]
		label[n] = kernel " " c[1] " " c[2] " " c[3]
		kindof[n] = c[1]; nameof[n] = c[2]; policyof[n] = c[3]
	}
	printf "TAP version 13\n1..%d\n", n
	bad = 0
	for (i = 1; i <= n; i++) {
		want = expected(kindof[i], nameof[i], policyof[i])
		got = (order[i] in result) ? result[order[i]] : ""
		split(want, e, "\t")
		if (want == "") { ok = 0; why = "no row of the expected table matches" }
		else if (got == "") { ok = 0; why = "no result (the guest died or the case hung)" }
		else {
			ok = verdict(kindof[i], got, want)
			why = field(got, "outcome") " " field(got, "errno")
			if (kindof[i] == "attack") why = why " rerun=" field(got, "rerun")
			why = why " (expected " e[1] " " e[2] ")"
		}
		printf "%sok %d - %s: %s\n", ok ? "" : "not ", i, label[i], why
		if (got != "") print got
		if (!ok && e[3] != "") print "# expected because: " e[3]
		bad += !ok
	}
	exit bad > 0
}'
