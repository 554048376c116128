# tests/tap-summary.awk - tests/tap-summary's count of TAP files: passed,
# failed, skipped, and each file that is no whole run (no plan, a plan its
# results do not meet, a bail-out) or a "not ok" (a TODO aside) named on
# stderr.  UNCOUNTED failures the caller found (missing files) are added.
#   awk -v uncounted=N -f scripts/result.awk -f scripts/tap.awk \
#       -f tests/tap-summary.awk FILE...
function broken(file, why) {
	failed++
	print "FAILED: " file ": " why > "/dev/stderr"
}
function close_file(file) {
	if (file == "" || file == "/dev/null")
		return
	if (plan == "")
		broken(file, "no TAP plan (empty or cut short)")
	else if (plan != results && !(plan == 0 && skipall))
		broken(file, "plan says " plan " results, got " results)
}
FNR == 1 {
	close_file(previous)
	previous = FILENAME
	plan = ""; results = 0; skipall = 0
}
{ tap = tap_read($0) }
tap == "plan" && plan == "" {
	plan = tap_plan
	if (plan == 0 && tap_skip) { skipall = 1; skipped++ }
}
tap == "point" {
	results++
	if (tap_ok) {
		if (tap_skip) skipped++; else passed++
	} else if (tap_todo) passed++
	else broken(FILENAME, $0)
}
tap == "bailout" { broken(FILENAME, $0) }
END {
	close_file(previous)
	failed += uncounted
	printf "%d passed, %d failed, %d skipped\n", passed, failed, skipped
	exit (failed > 0 || passed == 0)
}
