# realjit/v8/tools/code-ops.awk - what a process did to its code memory, from
# `strace -f -e trace=mmap,mprotect,munmap,mremap,madvise,pkey_alloc,pkey_mprotect`
# output (one or more files; the first pid seen is the main thread).
#
# Pass 1 (the first file argument, given twice on the command line) finds
# the code reservations: anonymous PROT_NONE MAP_NORESERVE mappings that a
# later call makes executable.  Pass 2 names every call inside them, from
# its shape and the state of the 4 KiB pages it touches (what the last
# call left there), and prints one line per operation:
#   op<TAB>calls<TAB>threads<TAB>callers<TAB>first call (addresses as
#   reservation+offset)
# callers: with `strace -k` (a backtrace after each call), the V8
# functions that made the call: the first frames of libnode (or of a
# statically linked node, Node 24's official binary) outside
# v8::base and the page-allocator helpers, "<"-joined, the most frequent
# chains first (at most three, with their counts); "-" without -k.
# op starts with the reservation's name: coderange (the 128 MiB one of V8
# 10.2, the 512 MiB one of V8 13.6: V8's code range, where JavaScript code
# lives) or wasmspace (any other: a
# WebAssembly module's code space).
# threads: main, worker or main+worker.  Calls outside code reservations
# are not printed, except pkey_alloc and pkey_free (V8's protection key).  Lines
# that match no known shape are "other": nothing is left out.
function hex(s,   i, v, c) {
	v = 0; s = tolower(s); sub(/^0x/, "", s)
	for (i = 1; i <= length(s); i++) {
		c = index("0123456789abcdef", substr(s, i, 1))
		if (!c) break
		v = v * 16 + c - 1
	}
	return v
}
function arg(n,   body, f) {	# the n-th argument of the call, trimmed
	body = $0; sub(/^[a-z_0-9]+\(/, "", body); sub(/\) += .*$/, "", body)
	split(body, f, ", ")
	return f[n]
}
function result(   r) { r = $0; sub(/^.*\) += /, "", r); sub(/ .*/, "", r); return r }
function num(s) { return s ~ /^0x/ ? hex(s) : s + 0 }
function perm(p) {	# PROT_READ|PROT_EXEC -> RX
	if (p == "PROT_NONE") return "-"
	return (p ~ /READ/ ? "R" : "") (p ~ /WRITE/ ? "W" : "") (p ~ /EXEC/ ? "X" : "")
}
function joined(line) {	# strace -f: "<unfinished ...>" and "<... x resumed>"
	tid = line; sub(/ .*/, "", tid)
	sub(/^[0-9]+ +/, "", line)
	if (line ~ /<unfinished \.\.\.>$/) { sub(/ <unfinished \.\.\.>$/, "", line); pending[tid] = line; return "" }
	if (line ~ /^<\.\.\. [a-z_0-9]+ resumed>/) { sub(/^<\.\.\. [a-z_0-9]+ resumed>/, "", line); line = pending[tid] line }
	return line
}
function in_reservation(a,   i) {
	for (i = 1; i <= nres; i++) if (a >= rlo[i] && a < rhi[i]) return i
	return 0
}
function offset(a,   i) { i = in_reservation(a); return sprintf("%s+%#x", rname[i], a - rlo[i]) }
function sizeword(n) {
	if (n == 262144) return "256 KiB"
	if (n % 1048576 == 0) return (n / 1048576) " MiB"
	if (n % 1024 == 0) return (n / 1024) " KiB"
	return n " B"
}
# The state of [a, a+n): its permissions, "+"-joined in the order met
# ("never" for pages no call touched, "-" for none); anyx is set when a
# page is executable now, ever when any page was executable before.
function state(a, n,   p, k, s, st) {
	ever = 0; anyx = 0; s = ""
	for (p = int(a / 4096); p < int((a + n + 4095) / 4096); p++) {
		k = sprintf("%.0f", p)	# mawk would key a large number as %.6g
		st = (k in page) ? page[k] : "never"
		if (k in wasx) ever = 1
		if (st ~ /X/) anyx = 1
		if (index("+" s "+", "+" st "+") == 0) s = s == "" ? st : s "+" st
	}
	return s
}
function set(a, n, v,   p, k) {
	for (p = int(a / 4096); p < int((a + n + 4095) / 4096); p++) {
		k = sprintf("%.0f", p)
		if (v == "gone") { delete page[k]; delete wasx[k]; continue }
		page[k] = v
		if (v ~ /X/) wasx[k] = 1
	}
}
function count(op, example,   who, r) {
	who = (tid == main) ? "main" : "worker"
	r = in_reservation(a)
	if (r) op = rname[r] ": " op
	if (!(op in calls)) { order[++nops] = op; first[op] = example; threads[op] = who }
	else if (index(threads[op], who) == 0) threads[op] = "main+worker"
	calls[op]++
	if (chain != "") {
		if (!((op, chain) in chains)) { nchains[op]++; chain_at[op, nchains[op]] = chain }
		chains[op, chain]++
	}
}
# The V8 frames of the current call's backtrace, as a short chain.
function caller_chain(   i, f, out, n) {
	out = ""; n = 0
	for (i = 1; i <= nframes && n < 3; i++) {
		f = frame[i]
		if (f !~ /(libnode\.so[.0-9]*|\/node)\(/) continue	# Debian's libnode, or a static node
		sub(/^[^(]*\(/, "", f); sub(/\+0x[0-9a-f]+\).*$/, "", f)
		sub(/\(.*$/, "", f)	# the argument list
		if (f ~ /^v8::base::/ || f ~ /VirtualMemory::|^v8::internal::(SetPermissions|FreePages|DiscardSystemPages|AllocatePages|ReleasePages)$/) continue
		sub(/^v8::internal::/, "", f)
		out = out == "" ? f : out " < " f
		n++
	}
	return out
}
# The chains of op, most frequent first: "CHAIN (N); ...".
function callers(op,   i, j, best, bestn, used, out, k) {
	out = ""
	for (k = 1; k <= 3; k++) {
		best = ""; bestn = 0
		for (i = 1; i <= nchains[op]; i++)
			if (!((op, i) in used) && chains[op, chain_at[op, i]] > bestn) { best = i; bestn = chains[op, chain_at[op, i]] }
		if (best == "") break
		used[op, best] = 1
		out = out (out == "" ? "" : "; ") chain_at[op, best] " (" bestn ")"
	}
	if (nchains[op] > 3) out = out "; ..."
	return out == "" ? "-" : out
}
function example(   e, b) {
	e = $0
	gsub(/ +=/, " =", e)
	while (match(e, /0x[0-9a-f]+/)) {
		b = hex(substr(e, RSTART, RLENGTH))
		if (!in_reservation(b)) break
		e = substr(e, 1, RSTART - 1) offset(b) substr(e, RSTART + RLENGTH)
	}
	return e
}
# Pass 1: the reservations, and which of them are ever made executable.
FNR == NR {
	if ($0 ~ /^ > /) next
	line = joined($0)
	if (line == "") next
	if (main == "") main = tid
	$0 = line
	if ($0 ~ /^mmap\(/ && arg(3) == "PROT_NONE" && arg(4) ~ /MAP_NORESERVE/ && result() ~ /^0x/) {
		cand[++ncand] = hex(result()); candlen[ncand] = num(arg(2))
	}
	if ($0 ~ /^(mprotect|pkey_mprotect)\(/ && arg(3) ~ /EXEC/ && result() == "0") {
		a = hex(arg(1))
		for (i = ncand; i >= 1; i--)
			if (a >= cand[i] && a < cand[i] + candlen[i]) { code[i] = 1; break }
	}
	next
}
FNR == 1 {
	for (i = 1; i <= ncand; i++) if (i in code) {
		rlo[++nres] = cand[i]; rhi[nres] = cand[i] + candlen[i]
		rname[nres] = candlen[i] == 134217728 || candlen[i] == 536870912 ? "coderange" : "wasmspace"
	}
	main = ""
}
# Pass 2: a call is named once its backtrace (if any) has been read.
/^ > / { frame[++nframes] = $0; next }
{
	current = $0	# name_call() sets $0
	if (held != "") name_call(held, heldtid)
	nframes = 0; held = ""
	line = joined(current)
	if (line == "") next
	if (main == "") main = tid
	held = line; heldtid = tid
}
function name_call(line, calltid,   call) {
	$0 = line; tid = calltid
	chain = caller_chain()
	call = $0; sub(/\(.*/, "", call)
	if (call == "pkey_alloc") { a = -1; count("pkey_alloc: ask the CPU for a protection key (" result() ")", $0); return }
	if (call == "pkey_free") { a = -1; count("pkey_free: give the key back", $0); return }
	if (call !~ /^(mmap|mprotect|pkey_mprotect|munmap|mremap|madvise)$/) return
	a = arg(1) == "NULL" ? hex(result()) : hex(arg(1))
	if (!in_reservation(a)) return
	n = num(arg(2))
	ex = example()
	if (result() !~ /^(0|0x[0-9a-f]+)$/) { count("refused: " call " " arg(3) " (" substr($0, index($0, "= ") + 2) ")", ex); return }
	if (call == "mmap" && arg(3) == "PROT_NONE" && arg(4) ~ /MAP_NORESERVE/) {
		r = in_reservation(a)
		if (a == rlo[r]) { count("reserve: mmap PROT_NONE MAP_NORESERVE (" sizeword(n) ")", ex); return }
	}
	if (call == "madvise" && arg(3) == "MADV_DONTFORK") { count("keep out of fork() children: madvise MADV_DONTFORK", ex); return }
	if (call == "munmap") {
		r = in_reservation(a)
		count(a == rlo[r] && n == rhi[r] - rlo[r] ? "release the reservation: munmap" : "unmap part: munmap", ex)
		set(a, n, "gone"); return
	}
	if (call == "madvise") {
		s = state(a, n)
		count("discard pages: madvise " arg(3) " of " (ever ? "pages that held code, now " : "never-executable pages, ") s, ex)
		return
	}
	if (call == "mprotect" || call == "pkey_mprotect") {
		new = perm(arg(3)); s = state(a, n)
		key = call == "pkey_mprotect" ? " key " arg(4) : ""
		what = call " " s " -> " new key
		if (new ~ /X/ && !anyx) op = "make executable: " what
		else if (new ~ /X/ && s == new) op = "again, no change: " what
		else if (new ~ /X/ && new ~ /W/) op = "open for writing: " what
		else if (new ~ /X/) op = "close for writing (W^X): " what
		else if (new ~ /W/ && (anyx || ever)) op = "make writable, not executable: " what
		else if (new ~ /W/) op = "commit read-write (never executable yet): " what
		else if (n == 262144 && s == "never") op = "reset a page before first use: " what " (256 KiB)"
		else if (n == 262144 && s == "-" && ever) op = "reset a freed code page before reuse: " what " (256 KiB)"
		else if (n == 262144 && (anyx || ever)) op = "free a code page: " what " (256 KiB)"
		else if (new == "-" && (anyx || ever) && s != "-") op = "release part of a code area: " what " (" sizeword(n) ")"
		else if (new == "-") op = "guard: " what " (" sizeword(n) ")"
		else op = "other: " what
		count(op, ex)
		set(a, n, new)
		return
	}
	count("other: " call, ex)
}
END {
	if (held != "") name_call(held, heldtid)
	for (i = 1; i <= nops; i++)
		printf "%s\t%d\t%s\t%s\t%s\n", order[i], calls[order[i]], threads[order[i]],
			callers(order[i]), first[order[i]]
}
