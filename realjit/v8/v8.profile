# shellcheck shell=bash
# shellcheck disable=SC2034 # a profile: read by realjit/ when it sources it
# realjit/v8/v8.profile - V8 in Debian 12's Node.js (fetch-node.sh), unmodified, as
# realjit/ runs it (realjit/README.md: what a profile sets).
RJ_PROGRAM=V8
RJ_TITLE="unmodified V8"
RJ_PROCESS=node
RJ_ATTACK_TARGET="an optimized function's machine code"
RJ_EXT=js
RJ_ATTACKER=$RJ_HOME/attack/attack.js
RJ_TABLE_W=$RJ_HOME/expected-workloads.tsv
RJ_TABLE_A=$RJ_HOME/expected-attacks.tsv
# Its tables have a check column: the words V8's "Check failed:" line must
# hold on an ABORTED row (which V8 operation the refusal broke).
RJ_TABLE_CHECK=yes
# make test's subset (a Node start is seconds of TCG guest time: make
# v8-attacks runs the whole matrix): the tiering workload, and the RFC's
# attack (Node 18 keeps no seal: every attack lands wherever it runs).
RJ_FAST_WORKLOADS=(tier)
RJ_FAST_ATTACKS=(mprotect-rw)
RJ_FAST_CONTROLS=fast
# under none (the control), all (the RFC's every type: V8's first flip of a
# sealed page is refused) and upstream (upstream's call).  A Node start is
# seconds of TCG time; pin (V8 runs, its munmap at exit is refused) and card
# (its flip refused, as under all) run in make v8-attacks.
RJ_FAST_POLICIES=(none all upstream)
# Every result is of V8 10.2 (guest/jit.sh's jit_case_fields).
RJ_REQUIRE=(
	"workload * v8 ^10[.]2$ the result is not of V8 10.2"
	"attack * v8 ^10[.]2$ the result is not of V8 10.2"
)
# Its own stop: a failed CHECK (abort=v8-check, guest/jit.sh), any status.
RJ_ABORT_WANT="a failed CHECK (abort=v8-check)"
RJ_TEST_TARGET="make test-v8"
RJ_FULL_TARGET="make v8-attacks"
RJ_SUMMARY_AWK=$RJ_HOME/summary.awk
RJ_COST_MD=v8-cost.md
RJ_COST_HEADING="What sealing costs V8, in guest instructions"
RJ_TIMEOUT=3600
# The report page's section (report/report.sh): its words before the answer.
RJ_PAGE_INTRO=$RJ_HOME/page.html
# What realjit/v8/Makefile builds: the attacker's addon.
V8_BUILD=$RJ_TOP/build/v8

# rj_list_attacks [NODE...]: attack.js's scenarios, one a line, run with
# its node-flags by NODE... (default: Debian's node from the cache, the
# addon realjit/v8/Makefile built).
rj_list_attacks() {
	local flags root
	read -ra flags < <(sed -n 's|^// node-flags: ||p' "$RJ_ATTACKER")
	if [ $# -eq 0 ]; then
		root=$("$RJ_HOME/fetch-node.sh") || return 1
		set -- env LD_LIBRARY_PATH="$root/usr/lib/x86_64-linux-gnu" \
			SEALJIT_ATTACK_ADDON="$V8_BUILD/sealjit-attack.node" "$root/usr/bin/node"
	fi
	"$@" "${flags[@]}" "$RJ_ATTACKER" --list
}

# rj_package DIR: V8's part of the guest package: node, libnode and every
# library with the loader as jit/ (guest/bundle.sh), V8's version
# (MAJOR.MINOR: v8-version, on every result line), share-nodejs/ (the
# JavaScript Debian's node reads at start-up from /usr/share/nodejs; the
# guest links it there), guest/jit.sh, the workloads, the attacker and its
# addon.  Fails when Debian's node cannot be fetched or a file node reads
# at start-up is missing (scripts/install-deps.sh installs them).
rj_package() {
	local root f
	make -s -C "$RJ_HOME" SEALJIT="$RJ_TOP" BUILD="$V8_BUILD" all >&2 || return 1
	root=$("$RJ_HOME/fetch-node.sh") || return 1
	mkdir -p "$1/share-nodejs"
	# the files Debian's libnode names by absolute path (strings libnode.so.108)
	for f in acorn/dist/acorn.js acorn-walk/dist/walk.js cjs-module-lexer/lexer.js \
		cjs-module-lexer/dist/lexer.js undici/undici-fetch.js; do
		[ -f "/usr/share/nodejs/$f" ] ||
			{ echo "package: no /usr/share/nodejs/$f (scripts/install-deps.sh)" >&2; return 1; }
		(cd /usr/share/nodejs && cp -L --parents "$f" "$1/share-nodejs/")
	done
	LD_LIBRARY_PATH=$root/usr/lib/x86_64-linux-gnu "$root/usr/bin/node" \
		-p 'process.versions.v8.split(".").slice(0, 2).join(".")' >"$1/v8-version" || return 1
	LD_LIBRARY_PATH=$root/usr/lib/x86_64-linux-gnu "$RJ_TOP/guest/bundle.sh" "$root/usr/bin/node" "$1/jit" &&
		cp "$V8_BUILD/sealjit-attack.node" "$RJ_ATTACKER" "$RJ_HOME/guest/jit.sh" "$1/" &&
		cp -r "$RJ_HOME/workloads" "$1/"
}

# The threat model's section (summary.sh --section), before its tables.
rj_section_intro() {
	cat <<'INTRO'
## The JIT the RFC was written for: V8

The RFC's user is Chrome's V8.  Here V8 as Debian 12 ships it (Node.js
18, V8 10.2), unmodified, runs with the same seal-on-exec library under
every policy (`realjit/matrix.sh --jit v8`; `make v8-attacks`); what V8
does to its code memory, call by call, is realjit/v8/code-memory.md, from
`strace -k`.  V8 writes JavaScript code by flipping a code page between
read-execute and read-write-execute (`MemoryChunk::SetCodeModificationPermissions`),
so every policy that seals `mprotect` makes it stop itself on a failed
CHECK at its next write; under `pin` it runs but cannot `munmap` its code
range at exit.  On `mseal` and `upstream-fixes` nothing is sealed at all:
the series refuse to seal memory with fork advice (`EBUSY`), and V8 asks
`MADV_DONTFORK` of all its code.  Those cases are **unsealed**: the policy
was not applied, and V8 ran and was attacked unsealed; the answer below
counts them as not running under the policy.  What a V8 change would be,
operation by operation: realjit/v8/README.md.

INTRO
}
