# realjit/v8/top.mk - what V8 adds to the top Makefile beyond the targets
# every real JIT gets there (v8-bin, test-v8-host, and its profiles'
# test-v8, test-node24, v8-attacks, node24-attacks).
#
# node24-cost: V8 13.6 in the official Node.js 24 (fetch-node24.sh) with
# standin/ (the stand-in for node-series/) and its key, sealed under every
# policy its kernels take, against bare Node 24, in guest instructions.
.PHONY: node24-cost
node24-cost: kernel guest v8-bin
	@$(REALJIT_ENV) realjit/cost.sh --jit node24-key \
		--policies "bare none card upstream" $(KERNELS)
