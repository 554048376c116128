#!/bin/sh
# tests/cli.sh ATTACKS EXPECTED - TAP tests of the attacks CLI that need no
# mseal on the host: --list, misuse, the TAP and "# result" line format, and
# that a case missing its expectation fails the run.  Uses only policy none.
attacks=$1 expected=$2
. "$(dirname "$0")/../../tests/tap.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/attacks-$(basename "$0" .sh).XXXXXX")
trap 'rm -rf "$tmp"' EXIT
status_is() { want=$1; shift; "$@" >/dev/null 2>&1; [ $? -eq "$want" ]; }

tap_start
"$attacks" --list >"$tmp/list"
check "--list names 39 scenarios" test "$(wc -l <"$tmp/list")" -eq 39
check "--list includes straddle-mprotect, its narration and description" \
	grep -qP '^straddle-mprotect\t[^\t]+\t[^\t]+$' "$tmp/list"
check "no --kernel is misuse (2)" status_is 2 "$attacks" --expect "$expected"
check "an unknown --scenario is misuse (2)" status_is 2 "$attacks" --kernel mseal --scenario nope
check "an unknown --policy is misuse (2)" status_is 2 "$attacks" --kernel mseal --policy some
check "a scenario that does not run under --policy pkey is misuse (2)" \
	status_is 2 "$attacks" --kernel mseal --policy pkey --scenario mprotect-rw
check "a key opener under --policy card (it runs under pkey and keyonly only) is misuse (2)" \
	status_is 2 "$attacks" --kernel mseal --policy card --scenario pkey-reuse
"$attacks" --kernel vanilla --expect "$expected" --policy keyonly --scenario vm-writev \
	>"$tmp/key.tap" 2>&1
check "--policy keyonly: its cases run where there is PKU, else a skip-all plan (1..0) says why" \
	grep -qE '^(1\.\.0 # SKIP no memory protection keys here \(pkey_alloc: |ok 1 - vm-writev policy=keyonly )' "$tmp/key.tap"
check "an unreadable table is misuse (2)" status_is 2 "$attacks" --kernel mseal --expect "$tmp/none.tsv"

"$attacks" --kernel vanilla --expect "$expected" --policy none \
	--scenario mprotect-rwx >"$tmp/ok.tap" 2>"$tmp/ok.err"
check "a matching run exits 0" test $? -eq 0
check "the plan is 1..4 (root/nocaps x self/child)" grep -qx '1\.\.4' "$tmp/ok.tap"
check "TAP version 13 comes first" test "$(head -n 1 "$tmp/ok.tap")" = "TAP version 13"
check "each case line reads ok N - S policy=P priv=R from=F: LANDED" \
	test "$(grep -c '^ok [1-4] - mprotect-rwx policy=none priv=\(root\|nocaps\) from=\(self\|child\): LANDED$' "$tmp/ok.tap")" -eq 4
check "each case line is followed by exactly one # result line" \
	test "$(awk '/^(not )?ok /{c=1; next} c==1 && /^# result /{r++} {c=0} END{print r}' "$tmp/ok.tap")" -eq 4
check "the # result line carries every key" grep -qx \
	'# result kernel=vanilla scenario=mprotect-rwx policy=none priv=nocaps from=child outcome=LANDED errno=- expected=LANDED/- seals=-' "$tmp/ok.tap"

printf 'mprotect-rwx\tnone\t*\tBLOCKED\tEACCES\twrong on purpose\n' >"$tmp/wrong.tsv"
"$attacks" --kernel mseal --expect "$tmp/wrong.tsv" --policy none \
	--scenario mprotect-rwx >"$tmp/wrong.tap" 2>"$tmp/wrong.err"
check "a case missing its expectation exits 1" test $? -eq 1
check "and reads not ok ...: LANDED (expected BLOCKED EACCES)" \
	grep -q '^not ok 1 - mprotect-rwx policy=none priv=root from=self: LANDED (expected BLOCKED EACCES)$' "$tmp/wrong.tap"
check "and its detail goes to stderr" grep -q 'code now rwxp' "$tmp/wrong.err"

printf 'madvise-dontneed\tnone\t*\tLANDED\t-\tcontrol\n' >"$tmp/partial.tsv"
"$attacks" --kernel mseal --expect "$tmp/partial.tsv" --policy none \
	--scenario mprotect-rw >"$tmp/partial.tap" 2>&1
check "a case without a row exits 1" test $? -eq 1
check "and reads (no expectation), expected=-/-" sh -c \
	"grep -q '(no expectation)\$' '$tmp/partial.tap' && grep -q 'expected=-/- seals=' '$tmp/partial.tap'"

"$attacks" --kernel vanilla --expect "$expected" --policy none --narrate \
	--scenario madvise-dontneed >"$tmp/narrate" 2>&1
check "--narrate tells what happened" grep -q 'madvise(MADV_DONTNEED) the code \.*.* LANDED: code reads back as zeros' "$tmp/narrate"

tap_end
