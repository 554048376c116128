# tests/tap-summary.awk - tests/tap-summary's count of TAP files: passed,
# failed, skipped, and each file that is no whole run (no plan, a plan its
# results do not meet, a bail-out) or a "not ok" (a TODO aside) named on
# stderr.  UNCOUNTED failures the caller found (missing files) are added.
#   awk -v uncounted=N -f tests/tap-summary.awk FILE...
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
/^1\.\.[0-9]+/ && plan == "" {
	plan = substr($1, 4) + 0
	if (plan == 0 && $0 ~ /# *SKIP/) { skipall = 1; skipped++ }
}
/^ok( |$)/ {
	results++
	if ($0 ~ /# *SKIP/) skipped++; else passed++
}
/^not ok( |$)/ {
	results++
	if ($0 ~ /# *TODO/) { passed++; next }
	broken(FILENAME, $0)
}
/^Bail out!/ { broken(FILENAME, $0) }
END {
	close_file(previous)
	failed += uncounted
	printf "%d passed, %d failed, %d skipped\n", passed, failed, skipped
	exit (failed > 0 || passed == 0)
}
