# shellcheck shell=bash
# shellcheck disable=SC2034 # a profile: read by realjit/ when it sources it
# realjit/v8/node24-key.profile - Node.js 24 with the whole node-series stand-in:
# node24.profile, and Node's platform giving V8 its thread-isolated
# allocator, so that ThreadIsolation keeps the code range write-disabled
# by a protection key outside V8's own write scopes.  Its own tables, and
# what its results must show.
# shellcheck source=realjit/v8/node24.profile
. "$RJ_HOME/node24.profile"
RJ_TITLE="V8 13.6 (Node.js 24) with its key"
RJ_TABLE_W=$RJ_HOME/node24/expected-key-workloads.tsv
RJ_TABLE_A=$RJ_HOME/node24/expected-key-attacks.tsv
# Every workload that ran made its code executable under the key the
# stand-in gave V8, and every attacked mapping was under a key (smaps'
# ProtectionKey): KIND OUTCOME FIELD REGEX WHY.
RJ_REQUIRE=(
	"workload * v8 ^13[.]6$ the result is not of V8 13.6"
	"attack * v8 ^13[.]6$ the result is not of V8 13.6"
	"workload RAN keyed_code ^yes$ V8 made no code executable under the key the stand-in gave it"
	"attack LANDED pkey ^[1-9][0-9]*$ the attacked code was under no protection key"
	"attack BLOCKED pkey ^[1-9][0-9]*$ the attacked code was under no protection key"
)
# make test's subset: GC that frees code pages (V8 opens its key around
# the discard), a store into the code, and the key's own opener.
RJ_FAST_WORKLOADS=(codegc)
RJ_FAST_ATTACKS=(store-code pkey-reuse)
# under none (the control), all (the RFC's every type) and upstream
# (upstream's call): a V8 start is seconds of TCG time, and pin and card
# differ from all only by the seal types they leave out (make
# node24-attacks runs them)
RJ_FAST_POLICIES=(none all upstream)
RJ_TEST_TARGET="make test-node24"
RJ_COST_MD=node24-key-cost.md
RJ_COST_HEADING="What sealing costs V8 13.6 with its key, in guest instructions (make node24-cost)"
RJ_PAGE_INTRO=$RJ_HOME/node24/page-key.html

rj_section_intro() {
	cat <<'INTRO'
### V8 13.6 with its key (node24-key)

The same, and Node's platform giving V8 its thread-isolated allocator
(patch 1): V8 makes its code range read-write-execute under a protection
key that every thread keeps write-disabled outside V8's write scopes
(`realjit/matrix.sh --jit node24-key`).  SIGSEGV: the attacker's store
into the code faulted on the key.  Every RAN workload made its code
executable under the key, and every attacked mapping was under it.

INTRO
}
