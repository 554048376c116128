# sealjit: the mseal() RFC on Linux 6.1, a JIT that seals its code, and
# the attacks that sealing should stop.  See README.md.
#
#   make            build everything (kernels, guest, jitdemo)
#   make test       every test, host and guest; ends with "N passed, N failed"
#   make kernel     the guest kernels (cached outside the repository)
#   make check-series  every patch builds on its own (slow; not in make test)
#   make selftest   the mseal selftest on every kernel
#   make attacks    every attack on every kernel, and the side-by-side table
#   make demo       the threat model, narrated, live in QEMU
#   make threat-model  regenerate docs/threat-model.md and its SVG matrix from a run
#   make report     the threat model on one page, from the last run's results:
#                   build/report/index.html (report/README.md)
#   make bench-jit  the JIT against its interpreter, on the host
#   make bench-kernel  mm call costs on every kernel, in guest instructions;
#                   writes docs/performance.md and its chart (~15 min)
#   make fuzz       the assembler/verifier fuzz target, for a bounded time
#   make test-mmstress  the model-checked mm stress on mseal (50k calls) and
#                   its --no-seal seed on vanilla (in make test)
#   make test-peer-vm   6.1's own vm selftests and stress-ng's mm stressors
#                   on vanilla and mseal, side by side (not in make test)
#   make test-debug the selftest, attacks, a million mm-stress calls and the
#                   peer suites on KASAN/lockdep kernels (not in make test)
#   make clean      remove build/ (the kernel cache stays; see README.md)

SHELL := /bin/bash
BUILD := $(CURDIR)/build
RESULTS := $(BUILD)/results
# vanilla: Debian's 6.1.  v1: the faithful RFC port (patches 1-8).
# mseal: the whole series, v1 hardened so that seals hold from every side.
KERNELS := vanilla v1 mseal
# upstream: Debian's 6.12 as shipped, upstream's 3-argument mseal().
# upstream-fixes: upstream with the 6.12 series, the holes our attacks find
# in upstream's mseal() closed in upstream's own ABI.
UPSTREAM_SOURCE := /usr/src/linux-source-6.12.tar.xz
UPSTREAM_KERNELS := upstream upstream-fixes
ATTACK_KERNELS := $(KERNELS) $(UPSTREAM_KERNELS)
# The two series (kernel-series/README.md); kernel/series-info.sh says what
# each applies to.
SERIES_NAMES := 6.1 6.12
series_patches = $(filter-out %/0000-cover-letter.patch,$(sort $(wildcard kernel-series/$(1)/0*.patch)))
SERIES := $(call series_patches,6.1)
SERIES_V1 := $(filter $(addprefix kernel-series/6.1/000,$(addsuffix -%,1 2 3 4 5 6 7 8)),$(SERIES))
SERIES_612 := $(call series_patches,6.12)
SEALED_KERNELS := v1 mseal
INITRAMFS := $(BUILD)/guest/base.cpio.gz
JITDEMO := $(BUILD)/jitdemo/jitdemo-static
CODESPACE := $(BUILD)/jitdemo/test_codespace-static
ATTACKS := $(BUILD)/attacks/attacks
REPORT := $(BUILD)/report
EXEC_SEALS := $(BUILD)/exec-seals/exec-seals
RUN := guest/run

# A step's prerequisites: the programs it boots.  `make test` builds them
# all before its steps start and passes BUILT=yes, so that make starts the
# steps in the order test-steps gives, not as their prerequisites finish.
built = $(if $(filter yes,$(BUILT)),,$(1))

# Every result file `make test` must produce; a missing one is a failure.
EXPECTED = tap-summary install-deps progress export-series $(addprefix series-,$(SERIES_NAMES)) kernel-build guest-runner \
	$(addsuffix -selftest,$(KERNELS) $(UPSTREAM_KERNELS)) upstream-fixes-selftest-new-cases \
	'jitdemo-*' $(addsuffix -jitdemo,$(KERNELS)) \
	$(addsuffix -codespace,$(ATTACK_KERNELS)) \
	'attacks-host-*' $(addsuffix -attacks,$(ATTACK_KERNELS)) \
	$(addsuffix -exec-seals,$(ATTACK_KERNELS)) exec-seals-host \
	luajit-host $(addsuffix -luajit,$(ATTACK_KERNELS)) report-page report-self-test \
	mseal-upstream-selftest mseal-upstream-selftest-types upstream-upstream-selftest \
	upstream-fixes-upstream-selftest \
	mmstress-host mseal-mmstress mseal-mmstress-race mseal-mmstress-bad-input \
	vanilla-mmstress vanilla-mmstress-race mseal-mmstress-digest bench-smoke \
	$(if $(DEBUG_CACHED),$(DEBUG_SHORT_EXPECTED),debug-kernels)

.PHONY: all deps kernel kernel-6.1 kernel-6.12 kernel-debug guest jitdemo attacks-bin selftest test test-steps \
	exec-seals-bin test-exec-seals test-exec-seals-host luajit-bin test-luajit test-luajit-host luajit-attacks \
	test-harness test-series test-kernel-build test-guest-runner test-jitdemo \
	test-jitdemo-guest test-attacks test-attacks-host test-peer-selftest attacks demo \
	threat-model report test-report check-series bench-jit fuzz clean \
	mmstress-bin test-mmstress test-peer-vm test-debug test-debug-short test-debug-basics bench-bin bench-kernel \
	test-bench-smoke

all: kernel guest jitdemo attacks-bin exec-seals-bin luajit-bin

jitdemo: deps
	@$(MAKE) --no-print-directory -C jitdemo all static

deps:
	@scripts/install-deps.sh

# The debug flavours (KASAN, lockdep, DEBUG_VM, maple tree checks) of the
# whole series and of its control; `make test-debug` boots them, and so does
# `make test`, briefly, when the cache already holds them.  mseal-debug also
# seals the system mappings at exec (CONFIG_MSEAL_SYSTEM_MAPPINGS, default
# n and off in mseal: it costs every process the checks of a sealed one).
VANILLA_DEBUG := --fragment kernel/debug.fragment vanilla-debug
MSEAL_DEBUG := --fragment kernel/mseal.fragment --fragment kernel/debug.fragment \
	--fragment kernel/sysmap.fragment mseal-debug $(SERIES)
kernel-debug: deps
	@kernel/build.sh $(VANILLA_DEBUG)
	@kernel/build.sh $(MSEAL_DEBUG)
# "yes" when this tree's debug kernels are in the cache (nothing is built).
DEBUG_CACHED = $(shell kernel/build.sh --cached $(VANILLA_DEBUG) >/dev/null 2>&1 && \
	kernel/build.sh --cached $(MSEAL_DEBUG) >/dev/null 2>&1 && echo yes)

# The 6.1 flavors share one build slot and compiled objects (kernel/build.sh),
# so they build one after another; upstream's 6.12 builds beside them, and
# each fills the other's serial steps (unpacking, linking, compressing).
# Two at a time, in the caller's jobserver when there is one.
kernel: deps
	@$(MAKE) --no-print-directory $(if $(findstring jobserver,$(MAKEFLAGS)),,-j2) \
		kernel-6.1 kernel-6.12

kernel-6.1:
	@kernel/build.sh vanilla
	@kernel/build.sh --fragment kernel/mseal.fragment v1 $(SERIES_V1)
	@kernel/build.sh --fragment kernel/mseal.fragment mseal $(SERIES)

kernel-6.12:
	@kernel/build.sh --source $(UPSTREAM_SOURCE) upstream
	@kernel/build.sh --source $(UPSTREAM_SOURCE) upstream-fixes $(SERIES_612)

guest: $(INITRAMFS)

$(INITRAMFS): guest/init guest/settle guest/mkinitramfs.sh | deps
	@guest/mkinitramfs.sh $@

# Each patched kernel runs the selftest built from its own tree; vanilla
# runs the whole series' one and must skip it.  On 6.12, upstream runs its
# own selftest, upstream-fixes the 6.12 series' extension of it, and the
# extension runs on upstream too, where each new case must fail.
selftest: $(call built,kernel guest)
	@for k in $(SEALED_KERNELS) $(UPSTREAM_KERNELS); do \
		tests/tap-run $$k-selftest -- $(RUN) \
			--add $(BUILD)/kernels/$$k/mseal_test $$k -- mseal_test; \
	done
	@tests/tap-run --expect-skip vanilla-selftest -- \
		$(RUN) --add $(BUILD)/kernels/mseal/mseal_test vanilla -- mseal_test
	@$(RUN) --add $(BUILD)/kernels/upstream-fixes/mseal_test upstream -- mseal_test \
		>$(RESULTS)/upstream-fixes-selftest-on-upstream.out 2>&1 || true
	@tests/tap-run upstream-fixes-selftest-new-cases -- tests/new-cases-fail.sh \
		$(RESULTS)/upstream-selftest.tap $(RESULTS)/upstream-fixes-selftest-on-upstream.out

# The harness itself: the count cannot read green when a suite did not
# run, a missing package is named, and long steps show their progress.
# Needs nothing built.
test-harness:
	@tests/tap-run tap-summary -- tests/tap-summary-test.sh
	@tests/tap-run install-deps -- tests/install-deps.sh
	@tests/tap-run progress -- tests/progress.sh
	@tests/tap-run export-series -- tests/export-series.sh

# Upstream's own mseal selftest (6.12's tools/testing/selftests/mm), extracted
# and built at test time (never committed; see the script's header):
# unchanged on every kernel with mseal() (EPERM, upstream's call: the 6.1
# series refuses with EPERM what that call sealed), and on mseal also sealing
# with all five types, with EACCES expected.
PEER := tests/upstream-mseal-selftest.sh
test-peer-selftest: $(call built,kernel guest)
	@$(PEER) build $(BUILD)/peer
	@tests/tap-run mseal-upstream-selftest -- $(PEER) run mseal unchanged $(BUILD)/peer
	@tests/tap-run mseal-upstream-selftest-types -- $(PEER) run mseal types $(BUILD)/peer
	@tests/tap-run upstream-upstream-selftest -- $(PEER) run upstream unchanged $(BUILD)/peer
	@tests/tap-run upstream-fixes-upstream-selftest -- $(PEER) run upstream-fixes unchanged $(BUILD)/peer

test-series: $(call built,kernel)
	@rc=0; for s in $(SERIES_NAMES); do \
		tests/tap-run series-$$s -- tests/series.sh $$s || rc=1; \
	done; exit $$rc

check-series: kernel
	@tests/tap-run check-series -- kernel/check-series.sh $(SERIES_NAMES)

test-kernel-build: $(call built,kernel)
	@tests/tap-run kernel-build -- tests/kernel-build.sh

test-guest-runner: $(call built,kernel guest)
	@tests/tap-run guest-runner -- guest/tests/runner.sh vanilla

# jitdemo's host suite writes its own build/results/jitdemo-*.tap.
test-jitdemo: $(call built,deps jitdemo)
	@$(MAKE) --no-print-directory -C jitdemo test

# Every example JIT'd in the guest: sealed on v1 and mseal, W^X only on
# vanilla.
test-jitdemo-guest: $(call built,kernel guest jitdemo)
	@for k in $(SEALED_KERNELS); do \
		tests/tap-run $$k-jitdemo -- $(RUN) --add $(JITDEMO) \
			--add jitdemo/examples --add jitdemo/tests/guest-examples.sh \
			$$k -- sh guest-examples.sh jitdemo-static examples sealed; \
	done
	@tests/tap-run vanilla-jitdemo -- $(RUN) --add $(JITDEMO) \
		--add jitdemo/examples --add jitdemo/tests/guest-examples.sh vanilla -- \
		sh guest-examples.sh jitdemo-static examples enosys
	@for k in $(ATTACK_KERNELS); do \
		tests/tap-run $$k-codespace -- $(RUN) --timeout 600 --progress "$$k: codespace" \
			--add $(CODESPACE) \
			--add jitdemo/tests/codespace-guest.sh $$k -- \
			sh codespace-guest.sh test_codespace-static $$k; \
	done

attacks-bin: deps jitdemo
	@$(MAKE) --no-print-directory -C attacks all

exec-seals-bin: deps
	@$(MAKE) --no-print-directory -C exec-seals all

# A process with sealed memory execs: the new image has none of the old
# seals, and its system mappings are sealed exactly where the kernel has
# CONFIG_MSEAL_SYSTEM_MAPPINGS (mseal-debug, in the debug passes).
test-exec-seals: $(call built,kernel guest exec-seals-bin)
	@rc=0; for k in $(ATTACK_KERNELS); do \
		tests/tap-run $$k-exec-seals -- $(RUN) --add $(EXEC_SEALS) $$k -- \
			exec-seals --kernel $$k || rc=1; \
	done; exit $$rc

# Its command line on the host: misuse, a bad --after-exec state, and a
# state no exec handed over, each refused or failed (no mseal() called).
test-exec-seals-host: $(call built,exec-seals-bin)
	@tests/tap-run exec-seals-host -- exec-seals/tests/cli.sh $(EXEC_SEALS)

test-attacks-host: $(call built,attacks-bin)
	@$(MAKE) --no-print-directory -C attacks test

# Every scenario x policy x privilege on every kernel, against the table.
test-attacks: $(call built,kernel guest attacks-bin)
	@for k in $(ATTACK_KERNELS); do \
		tests/tap-run $$k-attacks -- $(RUN) --add $(ATTACKS) \
			--add attacks/expected.tsv $$k -- \
			attacks --kernel $$k --expect expected.tsv; \
	done

attacks: test-attacks luajit-attacks
	@scripts/attack-table.sh $(ATTACK_KERNELS)

# Debian's LuaJIT, unmodified, under every seal policy, attacked from inside
# (luajit/README.md).  make test runs the fast subset (each policy once,
# every attack's control, the key blocked cases); make attacks the matrix.
LUAJIT_ENV := SEALJIT=$(CURDIR) BUILD=$(BUILD)/luajit RESULTS=$(RESULTS)
luajit-bin: deps
	@$(MAKE) --no-print-directory -C luajit all

test-luajit-host: $(call built,luajit-bin)
	@$(LUAJIT_ENV) tests/tap-run luajit-host -- luajit/tests/host.sh

# matrix.sh exits 0 once its TAP is written (make test counts a miss, and
# make -k still runs test-report); make luajit-attacks fails on a miss and
# shows the failed cases (--strict --brief; the whole TAP is in RESULTS).
test-luajit: $(call built,kernel guest luajit-bin)
	@$(LUAJIT_ENV) luajit/matrix.sh --fast $(ATTACK_KERNELS)

luajit-attacks: kernel guest luajit-bin
	@$(LUAJIT_ENV) luajit/matrix.sh --strict --brief $(ATTACK_KERNELS)

demo: kernel guest jitdemo attacks-bin luajit-bin
	@scripts/demo.sh $(ATTACK_KERNELS)

threat-model: test-attacks luajit-attacks
	@scripts/threat-model.sh $(ATTACK_KERNELS)

# The threat model on one page, from whatever the last runs left in
# build/results/ (make attacks or make test; make bench-kernel, make
# bench-jit): every kernel's attack and LuaJIT results are required, the
# cost and speed are named missing when they are.
report:
	@report/report.sh --kernels "$(ATTACK_KERNELS)" $(RESULTS) $(REPORT)

# The page in headless chromium (report/tests/page.sh), and that test shown
# to fail when it should (report/tests/self-test.sh).  In make test they
# wait for this run's attack and LuaJIT results; alone they use the last ones.
test-report: $(if $(filter yes,$(BUILT)),test-attacks test-luajit)
	@tests/tap-run report-page -- report/tests/page.sh --kernels "$(ATTACK_KERNELS)" $(RESULTS) $(RESULTS)
	@tests/tap-run report-self-test -- report/tests/self-test.sh --kernels "$(ATTACK_KERNELS)" $(RESULTS) $(RESULTS)

bench-bin: deps
	@$(MAKE) --no-print-directory -C bench all

# Every kernel, 3 boots each, under --icount; a subset, to iterate:
#   scripts/bench-kernel.sh --kernels "vanilla mseal" --cases "..."
bench-kernel: kernel guest bench-bin
	@rc=0; scripts/bench-kernel.sh --kernels "$(ATTACK_KERNELS)" || rc=$$?; \
	[ $$rc -le 1 ] && scripts/performance-doc.sh $(RESULTS)/bench-kernel.tsv; \
	exit $$rc

# The harness on one case and one kernel, in seconds.
test-bench-smoke: $(call built,kernel guest bench-bin)
	@tests/tap-run bench-smoke -- tests/bench-smoke.sh vanilla

bench-jit: deps
	@$(MAKE) --no-print-directory -C jitdemo bench

fuzz: deps
	@$(MAKE) --no-print-directory -C jitdemo fuzz

mmstress-bin: deps
	@$(MAKE) --no-print-directory -C mmstress all

# mmstress: host-side CLI tests, then a boot of mseal (the random run with
# the series' semantics, the same seed --no-seal, threaded race, bad input
# to mseal) beside one of vanilla (the same seed --no-seal: the digests
# must agree).
test-mmstress: $(call built,kernel guest mmstress-bin)
	@$(MAKE) --no-print-directory -C mmstress test
	@scripts/mmstress.sh --kernel mseal --control vanilla

# Peer suites nobody here wrote: 6.1's selftests/vm and stress-ng.
test-peer-vm: kernel guest
	@scripts/peer-vm.sh vanilla mseal
	@scripts/stress-ng-vm.sh vanilla mseal

# The debug flavours (make kernel-debug): the selftest, every attack,
# upstream's selftest, a million model-checked calls, 6.1's vm selftests and
# stress-ng's mm stressors, where KASAN, lockdep and the maple tree checks
# watch; any splat panics the guest (panic_on_warn) and fails the step.
# Not part of make test: 38 minutes on two idle cores (README.md).
DEBUG_EXPECTED := mseal-debug-selftest vanilla-debug-selftest mseal-debug-attacks mseal-debug-exec-seals \
	mseal-debug-upstream-selftest mseal-debug-upstream-selftest-types \
	mseal-debug-mmstress mseal-debug-mmstress-race mseal-debug-mmstress-bad-input \
	vanilla-debug-mmstress vanilla-debug-mmstress-race mseal-debug-mmstress-digest \
	peer-vm-debug stress-ng-vm-debug
test-debug: kernel-debug guest attacks-bin mmstress-bin exec-seals-bin
	@rm -rf $(RESULTS)
	@$(MAKE) --no-print-directory test-debug-basics
	@tests/tap-run --expect-skip vanilla-debug-selftest -- $(RUN) --timeout 900 \
		--add $(BUILD)/kernels/mseal-debug/mseal_test vanilla-debug -- mseal_test
	@$(PEER) build $(BUILD)/peer
	@tests/tap-run mseal-debug-upstream-selftest -- $(PEER) run mseal-debug unchanged $(BUILD)/peer
	@tests/tap-run mseal-debug-upstream-selftest-types -- $(PEER) run mseal-debug types $(BUILD)/peer
	@scripts/peer-vm.sh --tap peer-vm-debug --slow 4 vanilla-debug mseal-debug
	@# The million calls keep one core to themselves; stress-ng's two guests
	@# and mmstress's other two boots share the other at nice 10, and
	@# stress-ng's table follows mmstress's results.
	@nice -n 10 scripts/stress-ng-vm.sh --tap stress-ng-vm-debug --slow 4 --ops 100 vanilla-debug \
		mseal-debug >$(BUILD)/stress-ng-vm-debug.log & sng=$$!; \
		scripts/mmstress.sh --long --kernel mseal-debug --control vanilla-debug; \
		wait $$sng; cat $(BUILD)/stress-ng-vm-debug.log
	@tests/tap-summary $(DEBUG_EXPECTED)

# The selftest, every attack and exec with sealed system mappings on
# mseal-debug: both passes start here.
test-debug-basics:
	@tests/tap-run mseal-debug-selftest -- $(RUN) --timeout 900 \
		--add $(BUILD)/kernels/mseal-debug/mseal_test mseal-debug -- mseal_test
	@tests/tap-run mseal-debug-attacks -- $(RUN) --timeout 900 --add $(ATTACKS) \
		--add attacks/expected.tsv mseal-debug -- \
		attacks --kernel mseal --expect expected.tsv
	@tests/tap-run mseal-debug-exec-seals -- $(RUN) --timeout 900 --add $(EXEC_SEALS) \
		mseal-debug -- exec-seals --kernel mseal-debug

# make test's share of the debug kernels, when the cache holds them (about
# 80 s of one core): the selftest, every attack on mseal-debug, and 20,000
# model-checked calls plus the race and bad-input passes.  No vanilla-debug
# control: the production kernels compare the same seed's --no-seal
# digests.  Otherwise one skipped result says how to get them.
DEBUG_SHORT_EXPECTED := mseal-debug-selftest mseal-debug-attacks mseal-debug-exec-seals \
	mseal-debug-mmstress mseal-debug-mmstress-race mseal-debug-mmstress-bad-input
test-debug-short: $(call built,guest attacks-bin mmstress-bin exec-seals-bin)
	@if [ "$(DEBUG_CACHED)" != yes ]; then \
		tests/tap-run debug-kernels -- printf '%s\n' '1..0 # SKIP no debug kernels' \
			'# in the cache: make kernel-debug (~15 min), then make test-debug'; \
	else \
		kernel/build.sh $(VANILLA_DEBUG) && kernel/build.sh $(MSEAL_DEBUG); \
		$(MAKE) --no-print-directory test-debug-basics; \
		scripts/mmstress.sh --kernel mseal-debug --control none \
			--calls 20000 --race-calls 10000; \
	fi

# Each step records its results under build/results/; the summary counts
# them all, and counts a step that left no results as failed.  The kernels
# come first, in the open, where their progress shows, then the programs
# the steps boot (so that make starts the steps in the order given).  Then
# the steps run two at a time (most are one single-threaded guest), each
# one's output kept together (-O), and scripts/test-progress.sh says every
# 30 s which are running and for how long.
test:
	@rm -rf $(RESULTS)
	@$(MAKE) --no-print-directory kernel || true
	@$(MAKE) --no-print-directory -j2 guest jitdemo attacks-bin mmstress-bin bench-bin \
		exec-seals-bin luajit-bin || true
	@scripts/test-progress.sh $(MAKE) --no-print-directory -j2 -O -k test-steps BUILT=yes || true
	@tests/tap-summary $(EXPECTED)

# The longest steps come first, so that the short ones fill the gaps; the
# page (test-report, 1.5 min of chromium) is named right after the steps it
# is drawn from, so that it starts when they end rather than alone at the end.
test-steps: test-debug-short test-kernel-build test-mmstress test-attacks test-luajit test-report \
	test-series test-harness test-guest-runner selftest test-jitdemo test-jitdemo-guest \
	test-attacks-host test-peer-selftest test-bench-smoke test-exec-seals test-exec-seals-host test-luajit-host

clean:
	rm -rf $(BUILD)
