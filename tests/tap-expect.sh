# tests/tap-expect.sh - sourced by the shell TAP suites in tests/.
# expect STATUS PATTERN COMMAND...: COMMAND exits STATUS (0, or "nonzero"
# for any failure) and its stderr+stdout matches the extended regex
# PATTERN; prints one TAP line described by $desc, numbered by $n.
# Needs $work, a scratch directory.
n=0
expect() {
	local want=$1 pattern=$2 got
	shift 2
	"$@" >"$work/out" 2>&1
	got=$?
	n=$((n + 1))
	if { [ "$want" = nonzero ] && [ $got -ne 0 ] || [ "$want" = "$got" ]; } &&
		grep -qE "$pattern" "$work/out"; then
		echo "ok $n - $desc"
	else
		echo "not ok $n - $desc"
		echo "# wanted status $want and /$pattern/, got $got:"
		sed 's/^/#   /' "$work/out" | tail -n 8
	fi
}
