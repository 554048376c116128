# shellcheck shell=bash
# scripts/guest-parts.sh - sourced: several suites in one guest boot (a
# boot is seconds of TCG time), each kept apart in the boot's output and
# counted as a result of its own by tests/tap-run, as if it had booted
# alone (scripts/mmstress.sh, jitdemo/tests/guest.sh).  Needs $top.
#
#   part NAME COMMAND   the guest shell lines that run COMMAND as part NAME:
#                       "==PART NAME==", its output, "==RC NAME STATUS=="
#   parts_end OUT STATUS   end a boot's output file OUT with the status of
#                       guest/run ("==GUEST STATUS==")
#   part_output OUT PART   PART's output in OUT, up to its status, the
#                       next part or the boot's end (carriage returns dropped)
#   collect OUT RESULT PART   PART's output in OUT as RESULT's TAP
#                       (build/results/RESULT.tap, through tests/tap-run),
#                       with PART's status; a part the guest never ended
#                       takes the boot's status (1 when the boot left none),
#                       so a boot that died fails each part it did not finish

part() { printf 'echo "==PART %s=="; %s; echo "==RC %s $?=="\n' "$1" "$2" "$1"; }

parts_end() { echo "==GUEST $2==" >>"$1"; }

part_output() {
	awk -v p="$2" '/^==(PART|RC|GUEST) / { on = $0 == "==PART " p "=="; next } on' "$1" | tr -d '\r'
}

collect() {
	local out=$1 result=$2 part=$3 rc guest tap
	tap=$(dirname "$out")/$result.tap
	guest=$(sed -n 's/^==GUEST \([0-9]*\)==$/\1/p' "$out")
	part_output "$out" "$part" >"$tap"
	rc=$(sed -n "s/^==RC $part \\([0-9]*\\)==\\r*\$/\\1/p" "$out")
	[ -n "$rc" ] || rc=${guest:-1}
	"$top/tests/tap-run" "$result" -- sh -c 'cat "$1"; exit "$2"' sh "$tap" "$rc"
}
