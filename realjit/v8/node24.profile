# shellcheck shell=bash
# shellcheck disable=SC2034 # a profile: read by realjit/ when it sources it
# realjit/v8/node24.profile - the official Node.js 24 LTS (V8 13.6, fetch-node24.sh)
# with the node-series stand-in WITHOUT its key (standin/: the flag, no
# fork advice on code memory, a code range that outlives isolates, but no
# thread-isolated allocator: V8 keeps its 512 MiB code range
# read-write-execute), as realjit/ runs it.  node24-key.profile adds the key.
RJ_PROGRAM=V8
RJ_TITLE="V8 13.6 (Node.js 24) without its key"
RJ_PROCESS=node
RJ_ATTACK_TARGET="an optimized (TurboFan) function's machine code"
RJ_EXT=js
RJ_WORKLOADS=$RJ_HOME/node24/workloads
RJ_GUEST_JIT=$RJ_HOME/node24/guest/jit.sh
RJ_ATTACKER=$RJ_HOME/node24/attack.js
RJ_TABLE_W=$RJ_HOME/node24/expected-workloads.tsv
RJ_TABLE_A=$RJ_HOME/node24/expected-attacks.tsv
RJ_TABLE_CHECK=yes
# make test's subset (make node24-attacks runs the whole matrix): TurboFan
# code, sealed, and a plain store into it, which lands without the key.
RJ_FAST_WORKLOADS=(tier)
RJ_FAST_ATTACKS=(store-code)
RJ_FAST_CONTROLS=fast
# under none (the control), all (the RFC's every type) and upstream
# (upstream's call): a V8 start is seconds of TCG time, and pin and card
# differ from all only by the seal types they leave out (make
# node24-attacks runs them)
RJ_FAST_POLICIES=(none all upstream)
RJ_ABORT_WANT="a failed CHECK (abort=v8-check)"
RJ_REQUIRE=(
	"workload * v8 ^13[.]6$ the result is not of V8 13.6"
	"attack * v8 ^13[.]6$ the result is not of V8 13.6"
)
RJ_TEST_TARGET="make test-node24"
RJ_FULL_TARGET="make node24-attacks"
RJ_SUMMARY_AWK=$RJ_HOME/summary.awk
RJ_COST_MD=node24-cost.md
RJ_COST_HEADING="What sealing costs V8 13.6 without its key, in guest instructions"
RJ_TIMEOUT=3600
RJ_PAGE_INTRO=$RJ_HOME/node24/page.html
# What realjit/v8/Makefile builds: the addon, the stand-in, Node 24's directory.
V8_BUILD=$RJ_TOP/build/v8

# rj_list_attacks [NODE...]: attack.js's scenarios, one a line, run with
# its node-flags by NODE... (default: Node 24 from the cache, the addon
# realjit/v8/Makefile built).
rj_list_attacks() {
	local flags root
	read -ra flags < <(sed -n 's|^// node-flags: ||p' "$RJ_ATTACKER")
	if [ $# -eq 0 ]; then
		root=$("$RJ_HOME/fetch-node24.sh") || return 1
		set -- env SEALJIT_ATTACK_ADDON="$V8_BUILD/sealjit-attack.node" "$root/bin/node"
	fi
	"$@" "${flags[@]}" "$RJ_ATTACKER" --list
}

# rj_package DIR: node and its libraries with the loader as jit/
# (guest/bundle.sh), the stand-in, V8's version (MAJOR.MINOR: v8-version),
# Node 18's guest functions (jit-node18.sh) under Node 24's (jit.sh), the
# workloads, the attacker and its addon.
rj_package() {
	local root v8
	make -s -C "$RJ_HOME" SEALJIT="$RJ_TOP" BUILD="$V8_BUILD" all >&2 || return 1
	root=$("$RJ_HOME/fetch-node24.sh") || return 1
	v8=$("$root/bin/node" -p 'process.versions.v8.split(".").slice(0, 2).join(".")') || return 1
	"$RJ_TOP/guest/bundle.sh" "$root/bin/node" "$1/jit" &&
		echo "$v8" >"$1/v8-version" &&
		cp "$V8_BUILD/sealjit-attack.node" "$V8_BUILD/libsealjit-node-series-standin.so" \
			"$RJ_ATTACKER" "$1/" &&
		cp "$RJ_HOME/guest/jit.sh" "$1/jit-node18.sh" &&
		cp "$RJ_GUEST_JIT" "$1/jit.sh" &&
		cp -rL "$RJ_WORKLOADS" "$1/"
}

rj_section_intro() {
	cat <<'INTRO'
### V8 13.6 without its key (node24)

The official Node.js 24 binary with realjit/v8/standin/ standing in for
realjit/v8/node-series/ but its first patch: no fork advice on code memory while
the kernel refuses to seal it, a code range that outlives isolates, and
one reserved within reach of the builtins (short builtin calls on, no
copy of them into the sealed range); Node's platform gives V8 no
thread-isolated allocator, as today (`realjit/matrix.sh --jit node24`).

INTRO
}
