#!/bin/sh
# test_cli.sh JITDEMO NO_MSEAL - the jitdemo command line, as TAP.
jit=$1
no_mseal=$2
here=$(cd "$(dirname "$0")" && pwd)
examples=$here/../examples
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$here/../../tests/tap.sh"

tap_start
set -- "$examples"/*.args
tap_files "the examples of jitdemo/examples/" "$@" &&
for args_file; do
	base=${args_file%.args}
	name=${base##*/}
	for engine in --interp --seal=none; do
		# shellcheck disable=SC2046
		"$jit" run $engine "$base.jit" $(cat "$args_file") >"$tmp/out" 2>"$tmp/err"
		if cmp -s "$tmp/out" "$base.expected"; then
			ok "$name $engine prints $(cat "$base.expected")"
		else
			not_ok "$name $engine prints $(cat "$base.expected")"
		fi
	done
done

fib=$examples/fib.jit
printf 'func f 1 0\n arg 0\n const 0\n div\n ret\n' >"$tmp/div.jit"
printf 'func f 0 0\n const 1\n\n frob\n ret\n' >"$tmp/bad.jit"
expect_text 0 "usage: jitdemo run" "--help prints usage" "$jit" --help
expect_text 2 "missing command" "no arguments: usage error" "$jit"
expect_text 2 "unknown option '--frob'" "unknown option: usage error" "$jit" run --frob "$fib" fib 1
expect_text 2 "unknown seal policy 'some'" "bad --seal: usage error" "$jit" run --seal=some "$fib" fib 1
expect_text 2 "not a 64-bit integer" "non-numeric argument: usage error" "$jit" run "$fib" fib 12x
expect_text 2 "not a 64-bit integer" "argument past int64: usage error" "$jit" run "$fib" fib 9223372036854775808
expect_text 2 "not a 64-bit integer" "leading space in an argument: usage error" "$jit" run "$fib" fib " 5"
expect_text 2 "not a 64-bit integer" "'+5' is not a number: usage error" "$jit" run "$fib" fib +5
expect_text 0 "55" "010 is ten, not octal eight (fib 10 = 55)" "$jit" run --interp "$fib" fib 010
expect_text 0 "21" "0x8 is hex (fib 8 = 21)" "$jit" run --interp "$fib" fib 0x8
printf 'func f 0 0\n const 010\n ret\n' >"$tmp/ten.jit"
expect_text 0 "10" "the assembler reads 010 as ten too" "$jit" run --interp "$tmp/ten.jit" f
printf 'func f 0 0\n const 99999999999999999999\n ret\n' >"$tmp/big.jit"
expect_text 1 "out of range" "an overflowing constant is reported as out of range" "$jit" check "$tmp/big.jit"
mkfifo "$tmp/fifo.jit"
expect_text 1 "not a regular file" "check FIFO: refused at once, no hang" timeout 10 "$jit" check "$tmp/fifo.jit"
expect_text 2 "takes 1 argument(s), 2 given" "wrong argument count: usage error" "$jit" run "$fib" fib 1 2
expect_text 2 "has no function 'nope'" "unknown function: usage error" "$jit" run "$fib" nope
expect_text 2 "unknown command 'walk'" "unknown command: usage error" "$jit" walk "$fib"
expect_text 1 "cannot open" "missing file: program error" "$jit" run "$tmp/none.jit" f
expect_text 1 "$tmp/bad.jit:4: unknown instruction 'frob'" "syntax error: FILE:LINE, program error" "$jit" run "$tmp/bad.jit" f
expect_text 1 "$tmp/bad.jit:4: unknown instruction" "check reports the same error" "$jit" check "$tmp/bad.jit"
expect_text 0 "ok, 1 function(s)" "check accepts a good file" "$jit" check "$fib"
expect_text 1 "trap: division by zero" "JIT trap: exit 1" "$jit" run --seal=none "$tmp/div.jit" f 5
expect_text 1 "trap: division by zero" "interpreter trap: exit 1" "$jit" run --interp "$tmp/div.jit" f 5
expect_text 0 "-9223372036854775808" "negative and extreme arguments parse" "$jit" run --seal=none "$examples/gcd.jit" gcd -9223372036854775808 0
expect_text 0 "@0000 arg 0" "--dump lists instructions with their bytes" "$jit" run --seal=none --dump "$fib" fib 5
expect_text 0 "r-xp" "--maps shows the arena read+execute" "$jit" run --seal=none --maps "$fib" fib 5
expect_text 0 "requested mprotect,mmap,mremap" "seal report names the requested types" "$jit" run "$fib" fib 5
expect_text 0 "requested mseal,mprotect,munmap,mmap,mremap" "--seal=all requests every type" "$jit" run --seal=all "$fib" fib 5
expect_text 1 "--require-seal: code arena not sealed" "--seal=none --require-seal fails" "$jit" run --seal=none --require-seal "$fib" fib 5
expect_text 0 "not sealed (the policy asks for no seal" "--seal=none says so" "$jit" run --seal=none "$fib" fib 5
# --seal=pkey needs memory protection keys: one clear line where there are
# none (this project's hosts), the key space where there are.
if grep -qw pku /proc/cpuinfo; then
	expect_text 0 "5" "--seal=pkey runs from the key space (this CPU has PKU)" "$jit" run --seal=pkey "$fib" fib 5
else
	expect_text 1 "jitdemo: --seal=pkey needs memory protection keys: pkey_alloc:" \
		"--seal=pkey without PKU: one line saying so, exit 1" "$jit" run --seal=pkey "$fib" fib 5
fi
expect_text 0 "code is W^X but not sealed" "without mseal (ENOSYS): says W^X but not sealed" "$no_mseal" "$jit" run "$fib" fib 5
expect_text 1 "code is W^X but not sealed" "without mseal, --require-seal fails" "$no_mseal" "$jit" run --require-seal "$fib" fib 5
expect_text 0 "5" "without mseal the result is still right" "$no_mseal" "$jit" run "$fib" fib 5

# The guest checker, on this host: as an upstream kernel, and as vanilla.
if sh "$here/guest-examples.sh" "$jit" "$examples" upstream >"$tmp/out" 2>"$tmp/err"; then
	ok "guest-examples.sh passes here with 'upstream'"
else
	# on a patched kernel the host would answer 'sealed'
	if sh "$here/guest-examples.sh" "$jit" "$examples" sealed >"$tmp/out" 2>"$tmp/err"; then
		ok "guest-examples.sh passes here with 'sealed'"
	else
		not_ok "guest-examples.sh passes on this host"
	fi
fi
printf '#!/bin/sh\nexec "%s" "%s" "$@"\n' "$no_mseal" "$jit" >"$tmp/vanilla-jitdemo"
chmod +x "$tmp/vanilla-jitdemo"
if sh "$here/guest-examples.sh" "$tmp/vanilla-jitdemo" "$examples" enosys >"$tmp/out" 2>"$tmp/err"; then
	ok "guest-examples.sh passes with 'enosys' under a simulated vanilla kernel"
else
	not_ok "guest-examples.sh passes with 'enosys' under a simulated vanilla kernel"
fi
if sh "$here/guest-examples.sh" "$tmp/vanilla-jitdemo" "$examples" sealed >"$tmp/out" 2>"$tmp/err"; then
	not_ok "guest-examples.sh fails 'sealed' on a kernel without mseal"
else
	ok "guest-examples.sh fails 'sealed' on a kernel without mseal"
fi

tap_end
