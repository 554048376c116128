#!/bin/sh
# tap-summary.sh FILE... - adds up TAP results; prints "N passed, N failed".
# A file whose plan is missing or larger than its results (a crashed test
# program) counts the missing tests, or one, as failed.
passed=0
failed=0
for f in "$@"; do
	ok=$(grep -c '^ok ' "$f")
	notok=$(grep -c '^not ok ' "$f")
	plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\).*/\1/p' "$f" | head -n 1)
	passed=$((passed + ok))
	failed=$((failed + notok))
	if [ -z "$plan" ]; then
		echo "# $f: no plan (crashed?)"
		failed=$((failed + 1))
	elif [ $((ok + notok)) -lt "$plan" ]; then
		echo "# $f: $((plan - ok - notok)) planned tests did not run"
		failed=$((failed + plan - ok - notok))
	fi
	if [ "$notok" -gt 0 ]; then
		grep '^not ok ' "$f" | sed "s|^|# $(basename "$f"): |"
	fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
