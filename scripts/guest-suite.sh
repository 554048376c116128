# shellcheck shell=bash
# scripts/guest-suite.sh - sourced by the peer suites that run one script
# in a guest of each kernel and print "RESULT NAME ..." lines there
# (scripts/peer-vm.sh, scripts/stress-ng-vm.sh).  Needs $top, $out and
# the array kernels.
#
#   boot_all TIMEOUT LABEL SCRIPT [ADD...]  boot every kernel at once (one
#       core each), running sh SCRIPT with SCRIPT and each ADD copied in;
#       each shows its progress where the caller's standard error goes;
#       the output in $out/KERNEL.out, its last line "guest/run exit N"
#   result KERNEL NAME  the words after "RESULT NAME " in KERNEL's output

boot_all() {
	local timeout=$1 label=$2 script=$3 k add=()
	shift 3
	for k; do add+=(--add "$k"); done
	exec 3>&2
	for k in "${kernels[@]}"; do
		{
			PROGRESS_FD=3 "$top/guest/run" --timeout "$timeout" --progress "$k: $label" \
				"${add[@]}" --add "$script" "$k" -- \
				sh "$(basename "$script")" >"$out/$k.out" 2>&1
			echo "guest/run exit $?" >>"$out/$k.out"
		} &
	done
	wait
}

result() { grep -a "^RESULT $2 " "$out/$1.out" 2>/dev/null | head -n 1 | cut -d' ' -f3- | tr -d '\r'; }
