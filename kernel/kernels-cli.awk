# kernel/kernels-cli.awk - what every query of kernel/kernels runs first:
# the registry read and checked (scripts/kernels.awk's reg_load), the
# query's words in args[1..nargs], and need()/need_column() to refuse an
# unknown kernel (exit 1) or column (exit 2).
BEGIN {
	why = reg_load(registry)
	if (why != "") { print "kernel/kernels: " why > "/dev/stderr"; exit 1 }
	nargs = split(words, args, " ")
}
function need(k) {
	if (!reg_has(k)) {
		printf "kernel/kernels: no kernel %s in %s (kernels: %s)\n", k, registry, reg_names("") > "/dev/stderr"
		exit 1
	}
}
function need_column(c) {
	if (!reg_is_column(c)) {
		printf "kernel/kernels: no column %s (columns: %s)\n", c, reg_columns > "/dev/stderr"
		exit 2
	}
}
