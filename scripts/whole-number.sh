# scripts/whole-number.sh - sourced by the shell scripts that take counts and
# times on their command line or in the environment (guest/run,
# scripts/bench-kernel.sh, realjit/matrix.sh, realjit/cost.sh, kernel/build.sh's
# JOBS): their one integer parser, as include/sealjit/intparse.h is the C
# programs'.
#
#   whole_number PROG OPTION VALUE [MIN]
#
# Returns when VALUE is a whole decimal number >= MIN (default 1) of at most
# nine digits (no sign, no space, no 0x; a leading zero is decimal, not
# octal); otherwise prints "PROG: OPTION wants a whole number >= MIN, not
# 'VALUE'" on stderr and exits 2.  MIN 1 is the default because a count or
# a time of 0 is never what is meant: `timeout 0` would wait forever.
whole_number() {
	local min=${4:-1}
	if [[ $3 =~ ^[0-9]{1,9}$ ]] && ((10#$3 >= min)); then
		return 0
	fi
	echo "$1: $2 wants a whole number >= $min, not '$3'" >&2
	exit 2
}
