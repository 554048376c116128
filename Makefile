# sealjit: the mseal() RFC on Linux 6.1 and our series that makes its seals
# hold, the same findings on upstream's mseal() in Linux 6.12, a JIT that
# seals its code, real JITs (LuaJIT, V8) sealed under every policy, and the
# attacks that sealing should stop.  See README.md; what each target does,
# and how long the long ones take, measured: docs/running.md.
#
#   make            build everything (kernels, guest, jitdemo, the programs)
#   make test       every test, host and guest; ends with "N passed, N failed"
#   make test-full  make test, then the whole real-JIT matrices it runs
#                   subsets of (luajit-attacks, v8-attacks, node24-attacks)
#                   and the page's whole self-test (test-report-self)
#   make test-busy  make test beside three busy loops (BUSY=N), as on a
#                   loaded CI machine (docs/running.md, "A busy machine")
#   make test-STEP  one of make test's steps alone (TEST_STEPS below: e.g.
#                   test-attacks, test-luajit, test-luajit-pkey, test-v8,
#                   test-node24, test-jitdemo, test-report, selftest)
#   make kernel     the guest kernels (cached outside the repository)
#   make kernel-debug  their KASAN/lockdep twins (kernel/kernels.tsv's debug
#                   column)
#   make check-series  every patch builds on its own (slow; not in make test)
#   make selftest   the mseal selftest on every kernel
#   make attacks    every attack on every kernel (attacks/ and every real JIT's
#                   whole matrix), and attacks/' side-by-side table
#   make luajit-attacks  Debian's LuaJIT and the patched one (realjit/luajit/series/),
#                   every workload and attack under every policy, every kernel
#   make luajit-pkey-cost  the patched LuaJIT against the unpatched, in guest
#                   instructions (3 boots a kernel)
#   make v8-attacks V8 (Debian's Node.js), every workload and attack under
#                   every policy, every kernel (realjit/README.md)
#   make test-node24  V8 13.6 (official Node.js 24) with the node-series
#                   stand-in, without and with its key: both fast subsets
#                   (in make test)
#   make node24-attacks  the same two, every workload and attack under every
#                   policy, every kernel
#   make node24-cost  Node 24 sealed with its key against Node 24 bare, in
#                   guest instructions (3 boots a kernel)
#   make demo       the threat model, narrated, live in QEMU
#   make threat-model  regenerate docs/threat-model.md and its SVG matrix
#                   from a run (every attack and real-JIT matrix first)
#   make report     the threat model on one page, from the last run's results:
#                   build/report/index.html (report/README.md)
#   make bench-jit  the JIT against its interpreter, on the host
#   make bench-kernel  mm call costs on every kernel, in guest instructions;
#                   writes docs/performance.md and its chart (not in make test)
#   make fuzz       the assembler/verifier fuzz target, for a bounded time
#                   (FUZZ_SECONDS, default 60)
#   make test-mmstress  the model-checked mm stress on the series' kernel (50k
#                   calls) and its --no-seal seed on its base (in make test)
#   make test-peer-vm   6.1's own vm selftests and stress-ng's mm stressors
#                   on the series' kernel and its base, side by side (not in
#                   make test)
#   make test-debug the selftest, attacks, a million mm-stress calls and the
#                   peer suites on KASAN/lockdep kernels (not in make test)
#   make guest, jitdemo, attacks-bin, exec-seals-bin, mmstress-bin, bench-bin,
#                   realjit-bin, luajit-bin, luajit-series-bin, v8-bin: one part's build
#   make clean      remove build/ (the kernel cache stays; see README.md)

SHELL := /bin/bash
BUILD := $(CURDIR)/build
RESULTS := $(BUILD)/results

.DEFAULT_GOAL := all

# The kernels, and every fact about each, are kernel/kernels.tsv's (the
# registry); this file names none.  It includes the registry as Make
# variables (kernel/kernels make: REG.main, make test's kernels; REG.debug,
# their debug twins; REG.KERNEL.COLUMN, each cell), made again when the
# registry changes; a registry that does not read stops make there.
REGISTRY := kernel/kernels
include $(BUILD)/registry.mk
$(BUILD)/registry.mk: kernel/kernels.tsv kernel/kernels scripts/kernels.awk kernel/kernels-cli.awk kernel/kernels-make.awk
	@mkdir -p $(@D)
	@$(REGISTRY) make >$@.$$$$ && mv $@.$$$$ $@
# $(call where,SET,COLUMN,VALUE...): the kernels of SET (main or debug), in
# the registry's order, whose COLUMN holds one of the VALUEs (peer: one of
# its builds); where_not: whose COLUMN holds none of them.
where = $(strip $(foreach k,$(REG.$(1)),$(if $(filter $(3),$(REG.$(k).$(2))),$(k))))
where_not = $(strip $(foreach k,$(REG.$(1)),$(if $(filter $(3),$(REG.$(k).$(2))),,$(k))))
KERNELS := $(REG.main)
DEBUG_KERNELS := $(REG.debug)
SOURCES := $(REG.sources)
# The series (kernel-series/README.md); kernel/series-info.sh says what
# each applies to.
SERIES_NAMES := $(REG.series)
# The kernel K is measured against, and compared with (its base), or
# nothing where it has none or is set beside a different kernel (~K).
base_of = $(REG.$(1).plainbase)
# The same list, each name once, in its first place.
uniq = $(if $(1),$(firstword $(1)) $(call uniq,$(filter-out $(firstword $(1)),$(1))))
INITRAMFS := $(BUILD)/guest/base.cpio.gz
JITDEMO := $(BUILD)/jitdemo/jitdemo-static
ATTACKS := $(BUILD)/attacks/attacks
REPORT := $(BUILD)/report
EXEC_SEALS := $(BUILD)/exec-seals/exec-seals
RUN := guest/run

# A step's prerequisites: the programs it boots.  `make test` builds them
# all before its steps start and passes BUILT=yes, so that make starts the
# steps in the order test-steps gives, not as their prerequisites finish.
built = $(if $(filter yes,$(BUILT)),,$(1))

# Every result file `make test` must produce; a missing one is a failure.
EXPECTED = tap-summary tap-reader shell-pipes install-deps progress suite-times guest-parts export-series realjit-profile $(addprefix series-,$(SERIES_NAMES)) kernel-build guest-runner \
	registry $(addsuffix -selftest,$(SELFTEST_KERNELS) $(SKIP_SELFTEST_KERNELS)) \
	$(addsuffix -selftest-new-cases,$(NEW_CASES_KERNELS)) \
	'jitdemo-*' $(addsuffix -jitdemo,$(JITDEMO_SEALED) $(JITDEMO_ENOSYS)) \
	$(addsuffix -codespace,$(KERNELS)) \
	$(addsuffix -keyspace,$(KERNELS)) $(addsuffix -jitdemo-pkey,$(JITDEMO_SEALED) $(JITDEMO_ENOSYS)) \
	'attacks-host-*' $(addsuffix -attacks,$(KERNELS)) \
	$(addsuffix -exec-seals,$(KERNELS)) exec-seals-host \
	$(REALJIT_EXPECTED) report-page report-inputs \
	$(call peer_results,$(KERNELS)) \
	mmstress-host $(call mmstress_results,$(MMSTRESS_KERNELS)) bench-smoke \
	$(if $(DEBUG_CACHED),$(DEBUG_SHORT_EXPECTED),debug-kernels)

.PHONY: all deps kernel kernel-6.1 kernel-6.12 kernel-debug guest jitdemo attacks-bin selftest test test-steps \
	exec-seals-bin test-exec-seals test-exec-seals-host \
	test-harness test-series test-kernel-build test-guest-runner test-jitdemo \
	test-jitdemo-guest test-attacks test-attacks-host test-peer-selftest attacks demo \
	threat-model report test-report check-series bench-jit fuzz clean \
	mmstress-bin test-mmstress test-peer-vm test-debug test-debug-short test-debug-basics bench-bin bench-kernel \
	test-bench-smoke

all: kernel guest jitdemo attacks-bin exec-seals-bin $(REALJIT_BINS)

jitdemo: deps
	@$(MAKE) --no-print-directory -C jitdemo all static

deps:
	@scripts/install-deps.sh

# The debug twins (KASAN, lockdep, DEBUG_VM, maple tree checks; the
# registry's debug column); `make test-debug` boots them, and so does `make
# test`, briefly, when the cache already holds them.
kernel-debug: deps
	@$(REGISTRY) build $(DEBUG_KERNELS)
# "yes" when this tree's debug kernels are in the cache (nothing is built).
DEBUG_CACHED = $(shell $(REGISTRY) cached $(DEBUG_KERNELS) >/dev/null 2>&1 && echo yes)

# The kernels of one source version share one build slot and compiled
# objects (kernel/build.sh), so they build one after another, in the
# registry's order; the other source's build beside them, and each fills
# the other's serial steps (unpacking, linking, compressing).  Two at a
# time, in the caller's jobserver when there is one.
kernel: deps
	@$(MAKE) --no-print-directory $(if $(findstring jobserver,$(MAKEFLAGS)),,-j2) \
		$(addprefix kernel-,$(SOURCES))

$(addprefix kernel-,$(SOURCES)): kernel-%:
	@$(REGISTRY) build $(call where,main,source,$*)

# guest/run tells each guest its TSC's frequency, measured on the host.
TSC_KHZ := $(BUILD)/guest/tsc-khz
guest: $(INITRAMFS) $(TSC_KHZ)

$(TSC_KHZ): guest/tsc-khz.c
	@mkdir -p $(@D)
	@$(CC) -std=c11 -O2 -Wall -Wextra -Werror -o $@ $<

$(INITRAMFS): guest/init guest/settle guest/mkinitramfs.sh | deps
	@guest/mkinitramfs.sh $@

# Each kernel with mseal() runs the selftest built from its own tree.  One
# without runs that of the first kernel built on it from a whole series,
# and must skip it.  A kernel whose series extends the selftest of a base
# with mseal() runs its extension on that base too, where each new case
# must fail.  SET: main or debug.
selftest_kernels = $(call where_not,$(1),abi,none)
skip_selftest_kernels = $(foreach k,$(call where,$(1),abi,none),$(if $(call selftest_to_skip,$(k)),$(k)))
selftest_to_skip = $(firstword $(foreach k,$(REG.main) $(REG.debug), \
	$(if $(filter $(1),$(REG.$(k).plainbase)),$(if $(filter yes,$(REG.$(k).whole)),$(k)))))
SELFTEST_KERNELS := $(call selftest_kernels,main)
SKIP_SELFTEST_KERNELS := $(call skip_selftest_kernels,main)
NEW_CASES_KERNELS := $(foreach k,$(call where_not,main,series,-),$(if $(call base_of,$(k)), \
	$(if $(filter-out none,$(REG.$(call base_of,$(k)).abi)),$(k))))
# $(call run_selftests,KERNELS,SKIPPING KERNELS,RUN OPTIONS)
run_selftests = \
	$(foreach k,$(1),tests/tap-run $(k)-selftest -- $(RUN) $(3) \
		--add $(BUILD)/kernels/$(k)/mseal_test $(k) -- mseal_test;) \
	$(foreach k,$(2),tests/tap-run --expect-skip $(k)-selftest -- $(RUN) $(3) \
		--add $(BUILD)/kernels/$(call selftest_to_skip,$(k))/mseal_test $(k) -- mseal_test;)
selftest: $(call built,kernel guest)
	@$(call run_selftests,$(SELFTEST_KERNELS),$(SKIP_SELFTEST_KERNELS))
	@$(foreach k,$(NEW_CASES_KERNELS),$(foreach b,$(call base_of,$(k)), \
		$(RUN) --add $(BUILD)/kernels/$(k)/mseal_test $(b) -- mseal_test \
			>$(RESULTS)/$(k)-selftest-on-$(b).out 2>&1; \
		tests/tap-run $(k)-selftest-new-cases -- tests/new-cases-fail.sh \
			$(RESULTS)/$(b)-selftest.tap $(RESULTS)/$(k)-selftest-on-$(b).out;))

# The harness itself: the count cannot read green when a suite did not
# run or a pattern that matched cannot read as a failure, a missing package
# is named, and long steps show their progress.  Needs nothing built.
test-harness:
	@tests/tap-run registry -- tests/registry.sh
	@tests/tap-run tap-summary -- tests/tap-summary-test.sh
	@tests/tap-run tap-reader -- tests/tap-reader.sh
	@tests/tap-run shell-pipes -- tests/shell-pipes.sh
	@tests/tap-run install-deps -- tests/install-deps.sh
	@tests/tap-run progress -- tests/progress.sh
	@tests/tap-run suite-times -- tests/suite-times.sh
	@tests/tap-run guest-parts -- tests/guest-parts.sh
	@tests/tap-run export-series -- tests/export-series.sh
	@tests/tap-run realjit-profile -- tests/realjit-profile.sh

# Upstream's own mseal selftest (6.12's tools/testing/selftests/mm), extracted
# and built at test time (never committed; see the script's header), in the
# builds each kernel's row names (its peer column): upstream's program as it
# is (unchanged: refusals with EPERM, which the 6.1 series also gives memory
# sealed by upstream's call), and sealing with all five types (types: EACCES).
PEER := tests/upstream-mseal-selftest.sh
peer_builds = $(REG.$(1).peer)
peer_result = $(1)-upstream-selftest$(if $(filter types,$(2)),-types)
peer_results = $(foreach k,$(1),$(foreach v,$(call peer_builds,$(k)),$(call peer_result,$(k),$(v))))
# $(call run_peer,KERNELS)
run_peer = $(foreach k,$(1),$(foreach v,$(call peer_builds,$(k)), \
	tests/tap-run $(call peer_result,$(k),$(v)) -- $(PEER) run $(k) $(v) $(BUILD)/peer;))
test-peer-selftest: $(call built,kernel guest)
	@$(PEER) build $(BUILD)/peer
	@$(call run_peer,$(KERNELS))

test-series: $(call built,kernel)
	@rc=0; for s in $(SERIES_NAMES); do \
		tests/tap-run series-$$s -- tests/series.sh $$s || rc=1; \
	done; exit $$rc

check-series: kernel
	@tests/tap-run check-series -- kernel/check-series.sh $(SERIES_NAMES)

test-kernel-build: $(call built,kernel)
	@tests/tap-run kernel-build -- tests/kernel-build.sh

test-guest-runner: $(call built,kernel guest)
	@tests/tap-run guest-runner -- guest/tests/runner.sh $(firstword $(KERNELS))

# jitdemo's host suite writes its own build/results/jitdemo-*.tap.
test-jitdemo: $(call built,deps jitdemo)
	@$(MAKE) --no-print-directory -C jitdemo test

# Every example JIT'd in the guest: sealed where the kernel takes the
# 4-argument mseal(), W^X only where it has none.  The code space on every
# kernel: its VMA count bounded where sealed neighbours merge.  The key
# space (--seal=pkey), sealed when made, written through the key.  One
# boot of each kernel runs them all (jitdemo/tests/guest.sh), each its own
# result.
JITDEMO_SEALED := $(call where,main,abi,types)
JITDEMO_ENOSYS := $(call where,main,abi,none)
codespace_mode = $(if $(filter yes,$(REG.$(1).merge)),merge,report)
# What a kernel's mseal() answers a seal with every type: sealed (the
# 4-argument call), upstream (its own call), enosys (none).
seal_answer = $(if $(filter types,$(REG.$(1).abi)),sealed,$(if $(filter upstream,$(REG.$(1).abi)),upstream,enosys))
# The examples, where they run: sealed or enosys.
examples_answer = $(if $(filter $(1),$(JITDEMO_SEALED)),--examples sealed,$(if $(filter $(1),$(JITDEMO_ENOSYS)),--examples enosys))
test-jitdemo-guest: $(call built,kernel guest jitdemo)
	@$(foreach k,$(KERNELS),jitdemo/tests/guest.sh $(call examples_answer,$(k)) \
		--codespace $(call codespace_mode,$(k)) --keyspace $(call seal_answer,$(k)) $(k);)

attacks-bin: deps jitdemo
	@$(MAKE) --no-print-directory -C attacks all

exec-seals-bin: deps
	@$(MAKE) --no-print-directory -C exec-seals all

# A process with sealed memory execs: the new image has none of the old
# seals, and its system mappings are sealed exactly where the registry's
# sysmap column says the kernel seals them.
test-exec-seals: $(call built,kernel guest exec-seals-bin)
	@rc=0; for k in $(KERNELS); do \
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
	@for k in $(KERNELS); do \
		tests/tap-run $$k-attacks -- $(RUN) --add $(ATTACKS) \
			--add attacks/expected.tsv $$k -- \
			attacks --kernel $$k --expect expected.tsv; \
	done

# The real JITs, each under every seal policy on every kernel and attacked
# from inside, by one harness (realjit/README.md) and a profile each
# (realjit/DIR/NAME.profile).  Nothing here names a JIT: realjit/jits
# reads the profiles into Make variables (build/realjit.mk, made again
# when a profile changes), and each JIT's targets are made from them:
#   DIR-bin, test-DIR-host   a JIT folder's build (make -C realjit/DIR) and
#                            host tests, if it has them (result DIR-host)
#   test-NAME..., NAME-attacks...   each profile's RJ_TEST_TARGET (its fast
#                            subset, in make test) and RJ_FULL_TARGET (its
#                            whole matrix, in make test-full), each running
#                            every profile that names it
# and a folder's realjit/DIR/top.mk adds what that JIT has beyond them
# (its series, its cost), to REALJIT_BINS, REALJIT_STEPS and
# REALJIT_EXPECTED.  matrix.sh exits 0 once its TAP is written (make test
# counts a miss, and make -k still runs test-report); --strict fails on a
# miss and --brief shows the failed cases (the whole TAP is in RESULTS).
# The page draws every one with expected tables (report/report.sh --jits).
include $(BUILD)/realjit.mk
$(BUILD)/realjit.mk: realjit/jits realjit/cases.sh realjit $(wildcard realjit/*/ realjit/*/*.profile)
	@mkdir -p $(@D)
	@realjit/jits make >$@.$$$$ && mv $@.$$$$ $@
REALJIT_ENV := SEALJIT=$(CURDIR) BUILD=$(BUILD)/realjit RESULTS=$(RESULTS)
# $(call realjit_matrix,JIT,OPTIONS[,KERNELS]): on KERNELS (default: all)
realjit_matrix = $(REALJIT_ENV) realjit/matrix.sh --jit $(1) $(2) $(or $(3),$(KERNELS))
# The fast subsets run on the kernels with an mseal(): on one without (abi
# none) every sealing policy is UNAVAILABLE at start-up and its none
# column is the other kernels', so make test leaves it to the whole
# matrices (make test-full), and the page says so in its column.
RJ_FAST_KERNELS := $(filter $(call where_not,main,abi,none),$(KERNELS))
# $(call realjit_needs,JIT...): the builds their runs need
realjit_needs = $(call uniq,$(foreach j,$(1),$(RJ.$(j).dir)-bin $(RJ.$(j).needs)))
REALJIT_BINS :=
REALJIT_STEPS :=
REALJIT_EXPECTED :=
include $(wildcard realjit/*/top.mk)
REALJIT_BINS := realjit-bin $(addsuffix -bin,$(RJ.dirs)) $(REALJIT_BINS)
REALJIT_STEPS := test-realjit-host $(addprefix test-,$(addsuffix -host,$(RJ.tested))) $(REALJIT_STEPS)
REALJIT_EXPECTED := realjit-host $(addsuffix -host,$(RJ.tested)) \
	$(foreach j,$(RJ.matrix),$(addsuffix -$(j),$(RJ_FAST_KERNELS))) $(REALJIT_EXPECTED)

realjit-bin: deps
	@$(MAKE) --no-print-directory -C realjit all

# The harness's own host tests (realjit/tests/host.sh: run-cases, cases,
# judge, summary and matrix, with LuaJIT's and V8's profiles).
test-realjit-host: $(call built,realjit-bin)
	@$(REALJIT_ENV) tests/tap-run realjit-host -- realjit/tests/host.sh

# (one recipe line for each, as a hand-written target would have)
define newline


endef
space := $(subst ,, )
# $(call realjit_dir,DIR): a JIT folder's build; realjit_host: its host
# tests.
define realjit_dir
$(1)-bin: deps
	@$$(MAKE) --no-print-directory -C realjit/$(1) all
endef
define realjit_host
test-$(1)-host: $$(call built,$(1)-bin)
	@$$(REALJIT_ENV) tests/tap-run $(1)-host -- realjit/$(1)/tests/host.sh
endef
# $(call realjit_test,TARGET): make test's fast subset of every profile
# that names TARGET, then what its top.mk adds (realjit_also.TARGET).  Its
# guests boot one at a time inside make test (BUILT=yes), which already
# runs a step more than the cores: four guests on two cores cost a fifth
# more CPU than two (test-node24: 300 s in make test, 244 s alone).
RJ_TEST_JOBS = $(if $(filter yes,$(BUILT)),1,2)
define realjit_test
$(1): $$(call built,kernel guest $(call realjit_needs,$(RJ.$(1))))$(subst $(space)$(newline),$(newline),$(foreach j,$(RJ.$(1)),$(newline)	@$$(call realjit_matrix,$(j),--fast --jobs $$(RJ_TEST_JOBS),$$(RJ_FAST_KERNELS))))
	@$$(realjit_also.$(1))
endef
# $(call realjit_full,TARGET): the whole matrix of every profile that
# names TARGET; fails when one of them missed.
define realjit_full
$(1): kernel guest $$(call realjit_needs,$$(RJ.$(1)))
	@rc=0; $$(foreach j,$$(RJ.$(1)),$$(call realjit_matrix,$$(j),--strict --brief) || rc=1;) exit $$$$rc
endef
$(foreach d,$(RJ.dirs),$(eval $(call realjit_dir,$(d))))
$(foreach d,$(RJ.tested),$(eval $(call realjit_host,$(d))))
$(foreach t,$(RJ.tests),$(eval $(call realjit_test,$(t))))
$(foreach t,$(RJ.fulls),$(eval $(call realjit_full,$(t))))
.PHONY: realjit-bin test-realjit-host $(addsuffix -bin,$(RJ.dirs)) $(addprefix test-,$(addsuffix -host,$(RJ.tested))) $(RJ.tests) $(RJ.fulls)

demo: kernel guest jitdemo attacks-bin $(REALJIT_BINS)
	@scripts/demo.sh $(KERNELS)

# Every attack: attacks/ on every kernel, then every real JIT's whole
# matrix (after RJ.fulls is defined), then attacks/' side-by-side table.
attacks: test-attacks $(RJ.fulls)
	@scripts/attack-table.sh $(KERNELS)

threat-model: test-attacks $(RJ.fulls)
	@scripts/threat-model.sh $(KERNELS)

# The threat model on one page, from whatever the last runs left in
# build/results/ (make attacks or make test; make bench-kernel, make
# bench-jit): every kernel's attack and LuaJIT results are required, the
# cost and speed are named missing when they are.
report: attacks-bin
	@report/report.sh --kernels "$(KERNELS)" $(RESULTS) $(REPORT)

# The page in headless chromium (report/tests/page.sh), and report.sh on
# bad results: refused, named, drawn (report/tests/self-test.sh
# --no-browser).  In make test they wait for this run's attack and
# real-JIT results (timed-test-report, below); alone they use the last
# ones.  test-report-self: the whole self-test, page.sh shown failing on
# 20 bad pages in chromium (about 300 s of CPU; in make test-full).
test-report: $(if $(filter yes,$(BUILT)),,attacks-bin)
	@tests/tap-run report-page -- report/tests/page.sh --kernels "$(KERNELS)" $(RESULTS) $(RESULTS)
	@tests/tap-run report-inputs -- report/tests/self-test.sh --no-browser --kernels "$(KERNELS)" $(RESULTS) $(RESULTS)

.PHONY: test-report-self
test-report-self: $(if $(filter yes,$(BUILT)),,attacks-bin)
	@tests/tap-run report-self-test -- report/tests/self-test.sh --kernels "$(KERNELS)" $(RESULTS) $(RESULTS)
	@tests/tap-summary --only report-self-test

bench-bin: deps
	@$(MAKE) --no-print-directory -C bench all

# Every kernel, 5 boots each, under --icount; a subset, to iterate:
#   scripts/bench-kernel.sh --kernels "K..." --cases "..."
bench-kernel: kernel guest bench-bin
	@rc=0; scripts/bench-kernel.sh --kernels "$(KERNELS)" || rc=$$?; \
	[ $$rc -le 1 ] && scripts/performance-doc.sh $(RESULTS)/bench-kernel.tsv; \
	exit $$rc

# The harness on one case and one kernel without mseal() (a sealed case is
# n/a there), in seconds.
test-bench-smoke: $(call built,kernel guest bench-bin)
	@tests/tap-run bench-smoke -- tests/bench-smoke.sh $(firstword $(JITDEMO_ENOSYS) $(KERNELS))

bench-jit: deps
	@$(MAKE) --no-print-directory -C jitdemo bench

fuzz: deps
	@$(MAKE) --no-print-directory -C jitdemo fuzz

mmstress-bin: deps
	@$(MAKE) --no-print-directory -C mmstress all

# mmstress: host-side CLI tests, then a boot of each kernel whose model is
# the series' (the random run with that model, the same seed --no-seal,
# threaded race, bad input to mseal) beside one of its base (the same seed
# --no-seal: the digests must agree).
MMSTRESS_KERNELS := $(call where,main,model,series)
mmstress_results = $(foreach k,$(1),$(k)-mmstress $(k)-mmstress-race $(k)-mmstress-bad-input \
	$(if $(call base_of,$(k)),$(k)-mmstress-digest)) \
	$(foreach b,$(call uniq,$(foreach k,$(1),$(call base_of,$(k)))),$(b)-mmstress $(b)-mmstress-race)
test-mmstress: $(call built,kernel guest mmstress-bin)
	@$(MAKE) --no-print-directory -C mmstress test
	@$(foreach k,$(MMSTRESS_KERNELS),scripts/mmstress.sh --kernel $(k);)

# Peer suites nobody here wrote: 6.1's selftests/vm and stress-ng, on each
# kernel with the series' model beside its base.
PEER_VM_KERNELS = $(call uniq,$(foreach k,$(1),$(call base_of,$(k)) $(k)))
test-peer-vm: kernel guest
	@scripts/peer-vm.sh $(call PEER_VM_KERNELS,$(MMSTRESS_KERNELS))
	@scripts/stress-ng-vm.sh $(call PEER_VM_KERNELS,$(MMSTRESS_KERNELS))

# The debug twins (make kernel-debug): the selftest, every attack,
# upstream's selftest, a million model-checked calls, 6.1's vm selftests and
# stress-ng's mm stressors, where KASAN, lockdep and the maple tree checks
# watch; any splat panics the guest (panic_on_warn) and fails the step.
# Not part of make test; its time, measured: docs/running.md, "Debug
# kernels".
DEBUG_SEALING := $(call selftest_kernels,debug)
DEBUG_SKIPPING := $(call skip_selftest_kernels,debug)
DEBUG_MODELLED := $(call where,debug,model,series)
DEBUG_EXPECTED := $(addsuffix -selftest,$(DEBUG_SEALING) $(DEBUG_SKIPPING)) \
	$(addsuffix -attacks,$(DEBUG_SEALING)) $(addsuffix -exec-seals,$(DEBUG_SEALING)) \
	$(call peer_results,$(DEBUG_KERNELS)) $(call mmstress_results,$(DEBUG_MODELLED)) \
	peer-vm-debug stress-ng-vm-debug
test-debug: kernel-debug guest attacks-bin mmstress-bin exec-seals-bin
	@rm -rf $(RESULTS)
	@$(MAKE) --no-print-directory test-debug-basics
	@$(call run_selftests,,$(DEBUG_SKIPPING),--timeout 900)
	@$(PEER) build $(BUILD)/peer
	@$(call run_peer,$(DEBUG_KERNELS))
	@scripts/peer-vm.sh --tap peer-vm-debug --slow 4 $(call PEER_VM_KERNELS,$(DEBUG_MODELLED))
	@# The million calls keep one core to themselves; stress-ng's two guests
	@# and mmstress's other two boots share the other at nice 10, and
	@# stress-ng's table follows mmstress's results.
	@nice -n 10 scripts/stress-ng-vm.sh --tap stress-ng-vm-debug --slow 4 --ops 100 \
		$(call PEER_VM_KERNELS,$(DEBUG_MODELLED)) >$(BUILD)/stress-ng-vm-debug.log & sng=$$!; \
		$(foreach k,$(DEBUG_MODELLED),scripts/mmstress.sh --long --kernel $(k);) \
		wait $$sng; cat $(BUILD)/stress-ng-vm-debug.log
	@tests/tap-summary $(DEBUG_EXPECTED)

# The selftest, every attack and exec (with sealed system mappings, where
# the row says so) on the debug kernels with mseal(): both passes start here.
test-debug-basics:
	@$(call run_selftests,$(DEBUG_SEALING),,--timeout 900)
	@$(foreach k,$(DEBUG_SEALING),tests/tap-run $(k)-attacks -- $(RUN) --timeout 900 \
		--add $(ATTACKS) --add attacks/expected.tsv $(k) -- \
		attacks --kernel $(k) --expect expected.tsv;)
	@$(foreach k,$(DEBUG_SEALING),tests/tap-run $(k)-exec-seals -- $(RUN) --timeout 900 \
		--add $(EXEC_SEALS) $(k) -- exec-seals --kernel $(k);)

# make test's share of the debug kernels, when the cache holds them (about
# 80 s of one core): the selftest, every attack and exec on those with
# mseal(), and on those with the series' model 20,000 model-checked calls
# plus the race and bad-input passes.  No control of their base: the main
# kernels compare the same seed's --no-seal digests.  Otherwise one skipped
# result says how to get them.
DEBUG_SHORT_EXPECTED := $(addsuffix -selftest,$(DEBUG_SEALING)) $(addsuffix -attacks,$(DEBUG_SEALING)) \
	$(addsuffix -exec-seals,$(DEBUG_SEALING)) \
	$(foreach k,$(DEBUG_MODELLED),$(k)-mmstress $(k)-mmstress-race $(k)-mmstress-bad-input)
test-debug-short: $(call built,guest attacks-bin mmstress-bin exec-seals-bin)
	@if [ "$(DEBUG_CACHED)" != yes ]; then \
		tests/tap-run debug-kernels -- printf '%s\n' '1..0 # SKIP no debug kernels' \
			'# in the cache: make kernel-debug (~15 min), then make test-debug'; \
	else \
		$(REGISTRY) build $(DEBUG_KERNELS); \
		$(MAKE) --no-print-directory test-debug-basics; \
		$(foreach k,$(DEBUG_MODELLED),scripts/mmstress.sh --kernel $(k) --control none \
			--calls 20000 --race-calls 10000;) \
	fi

# Each step records its results under build/results/; the summary counts
# them all, and counts a step that left no results as failed.  The kernels
# come first, in the open, where their progress shows, then the programs
# the steps boot (so that make starts the steps in the order given).  Then
# the steps run TEST_JOBS at a time, one more than the cores (most are one
# single-threaded guest; the third fills the core that a step waiting on a
# timeout or a fork-heavy host suite leaves idle: 508.7 s -> 482.7 s warm
# on two cores), each one's output kept together (-O), and
# scripts/test-progress.sh says every 30 s which are running and for how
# long.
# Every build and step is timed where it starts (scripts/step-time.sh, and
# tests/tap-run each suite); at the end, the ten longest steps and the whole
# table, build/results/suite-times.tsv (scripts/suite-times.sh), then the
# count.
TIME := scripts/step-time.sh
TEST_JOBS ?= $(shell echo $$(($$(nproc) + 1)))
test:
	@rm -rf $(RESULTS)
	@$(TIME) phase kernels $(MAKE) --no-print-directory kernel || true
	@$(TIME) phase programs $(MAKE) --no-print-directory -j2 -k guest jitdemo attacks-bin mmstress-bin bench-bin \
		exec-seals-bin $(REALJIT_BINS) || true
	@$(TIME) phase steps scripts/test-progress.sh $(MAKE) --no-print-directory -j$(TEST_JOBS) -O -k test-steps BUILT=yes || true
	@TEST_JOBS=$(TEST_JOBS) scripts/suite-times.sh $(RESULTS) || true
	@tests/tap-summary $(EXPECTED)

# make test runs a subset of each real JIT's matrix (its profile's RJ_FAST_*
# lists: a Node start is seconds of TCG time) and the page's self-test
# without its browser; test-full adds the whole matrices and the whole
# self-test, so that every case still runs under a name.  Fails when any
# part failed.
.PHONY: test-full
test-full:
	@rc=0; $(MAKE) --no-print-directory test || rc=1; \
	$(MAKE) --no-print-directory -k $(RJ.fulls) test-report-self || rc=1; \
	exit $$rc

# The longest steps come first, so that the short ones fill the gaps; the
# page (test-report, 1.5 min of chromium) waits for the steps it is drawn
# from, and starts when they end rather than alone at the end.  Each step
# runs in a make of its own (timed-STEP), so that its time is its own.
TEST_STEPS := test-debug-short test-kernel-build test-mmstress test-attacks $(RJ.tests) \
	test-report test-series test-harness test-guest-runner selftest test-jitdemo test-jitdemo-guest \
	test-attacks-host test-peer-selftest test-bench-smoke test-exec-seals test-exec-seals-host $(REALJIT_STEPS)
.PHONY: $(addprefix timed-,$(TEST_STEPS))
test-steps: $(addprefix timed-,$(TEST_STEPS))
timed-test-report: timed-test-attacks $(addprefix timed-,$(RJ.tests))
$(addprefix timed-,$(TEST_STEPS)): timed-%:
	@$(TIME) step $* $(MAKE) --no-print-directory $* BUILT=yes

# make test with the cores saturated (docs/running.md, "A busy machine"):
# BUSY busy loops (default 3) beside it, as on a shared CI machine.
BUSY ?= 3
.PHONY: test-busy
test-busy:
	@scripts/busy.sh $(BUSY) $(MAKE) --no-print-directory test

clean:
	rm -rf $(BUILD)
