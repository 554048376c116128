/*
 * attacks.h - shared types of the attack matrix (attacks/).
 *
 * One case = one scenario (a corrupted mm system call) x one seal policy x
 * one privilege level x one origin (the compiling process itself, or a
 * forked child of it).  Every case runs in its own forked process, which
 * compiles a real function into a sealed arena (target.c), snapshots it
 * (probe.c), makes the corrupted call (scenarios.c) and classifies what
 * happened (probe.c); case.c runs it and reads the verdict over a pipe.
 * expect.c matches the verdict against attacks/expected.tsv and main.c
 * prints TAP.
 */
#ifndef ATTACKS_H
#define ATTACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <libjit.h>
#include <sealjit/errno-name.h>

enum outcome {
	OUTCOME_BLOCKED,	/* the call failed and nothing changed */
	OUTCOME_LANDED,		/* code, address or permissions changed */
	OUTCOME_ERROR,		/* anything else: the case proves nothing */
};

enum privilege { PRIV_ROOT, PRIV_NOCAPS };
enum origin { FROM_SELF, FROM_CHILD };

/* The compiled function under attack and where its arena lies. */
struct target {
	struct jit_module *module;
	uint8_t *base;		/* arena start, == ARENA_HINT when placed;
				 * in the key space under pkey and keyonly */
	bool in_key_space;	/* --seal=pkey or keyonly: no hint, the pages
				 * above the arena are the key space's own */
	size_t length;		/* arena bytes, a page multiple */
	size_t entry_offset;	/* the attacked function's entry - base */
	size_t page;		/* page size */
	int64_t result;		/* what the function returned after compiling */
	struct jit_arena_info info;
	char seal_note[96];	/* set when the scenario sealed the code itself */
};

/* What a case looked like before the corrupted call. */
#define MAPS_TEXT_MAX 2048
struct snapshot {
	char maps[MAPS_TEXT_MAX];	/* /proc/self/maps lines meeting the arena */
	char below[MAPS_TEXT_MAX];	/* ... meeting the page right below it */
	uint64_t code_hash;		/* FNV-1a of the arena's bytes */
	int64_t result;			/* the function's result */
};

/* The corrupted call's answer: ATTACK_SETUP_FAILED, 0 or an errno. */
#define ATTACK_SETUP_FAILED (-1)

struct scenario {
	const char *name;		/* e.g. "mprotect-rwx" */
	const char *description;	/* one line for --list */
	const char *narration;		/* what the attacker tries, for --narrate */
	bool needs_page_below;		/* map an unsealed page under the arena */
	/* libjit compiles with --seal=none; `finish` seals the code instead */
	bool seals_itself;
	/* `finish` seals with upstream's mseal(addr, len, 0): a kernel with
	 * mseal refuses with upstream's EPERM, not the RFC's EACCES */
	bool sealed_by_upstream_call;
	/* the attack needs state of the process that sealed (a thread,
	 * lazily freed pages): it runs from that process only */
	bool self_only;
	/* the completing call is harmless in itself and succeeds either
	 * way: BLOCKED means the code survived it */
	bool harmless_call;
	/* runs under the key space's policies too (pkey, keyonly): a write
	 * into code that only a protection key keeps W^X */
	bool key_policies;
	/* runs under the key space's policies only (pkey, keyonly): it opens
	 * the code's key, and r-x code under none, card and all has none */
	bool key_space_only;
	/* the write goes only where the mapping is writable (no FOLL_FORCE;
	 * UFFDIO_MOVE's rule): r-x code refuses it with no seal at all, so
	 * none is no control for it; keyonly is */
	bool needs_writable;
	/* Optional: why this case cannot run on this machine (NULL: it can),
	 * for a precondition that is no seal's business (Yama's ptrace_scope) */
	const char *(*unavailable)(enum privilege priv);
	/* the Linux version that brought the call, when the 6.1 kernels
	 * lack it (NULL: every kernel here has it); unavailable says so */
	const char *since;
	/* Optional, in the compiling process right after libjit compiled
	 * (before any fork): the program's own last touches to its code
	 * region (seal it, grow it).  false + why when it could not. */
	bool (*finish)(struct target *t, enum jit_seal_policy policy,
		       char *why, size_t why_len);
	/* Optional, in the attacking process before the snapshot: the
	 * attacker's harmless-looking preparation.  false if it failed. */
	bool (*prepare)(const struct target *t);
	int (*attack)(const struct target *t);
};

/*
 * The arena as the attacking process sees it at one moment: the
 * /proc/self/maps lines meeting it (and the page below it, for the
 * scenarios that map one there), "(nothing mapped)" when none does (a
 * note when maps cannot be read), and the "Seals:" and "VmFlags:" lines
 * /proc/self/smaps shows for the mapping holding its first byte (none
 * when nothing does).  Newline-terminated lines; all empty when the case
 * never got that far.
 */
#define SMAPS_TEXT_MAX 256
struct arena_view {
	char maps[MAPS_TEXT_MAX];
	char smaps[SMAPS_TEXT_MAX];
};

/* The verdict one case process sends back through its pipe (one struct,
 * larger than PIPE_BUF: read_report() loops until it has all of it). */
#define DETAIL_MAX 200
struct case_report {
	enum outcome outcome;
	int call_errno;			/* errno of the corrupted call, 0 if it succeeded */
	char seal[160];			/* how mseal() answered when compiling */
	char smaps_seals[8];		/* the arena's seals as smaps shows them */
	char below_now[64];		/* BLOCKED, yet the page below the arena
					   changed: its new perms (partial apply) */
	char detail[DETAIL_MAX];	/* what changed, or why ERROR */
	struct arena_view before;	/* right before the corrupted call */
	struct arena_view after;	/* right after it */
};

struct case_spec {
	const struct scenario *scenario;
	enum jit_seal_policy policy;
	enum privilege priv;
	enum origin from;
};

/* scenarios.c */
bool seal_like_libjit(void *addr, size_t len, unsigned types);
size_t scenario_count(void);
const struct scenario *scenario_at(size_t index);
const struct scenario *scenario_find(const char *name);

/* across_time.c: set up before the JIT seals, completed after */
bool finish_inflight_below(struct target *t, enum jit_seal_policy policy,
			   char *why, size_t why_len);
bool finish_inflight_code(struct target *t, enum jit_seal_policy policy,
			  char *why, size_t why_len);
int attack_inflight(const struct target *t);
bool finish_lazyfree(struct target *t, enum jit_seal_policy policy,
		     char *why, size_t why_len);
int attack_pageout(const struct target *t);

/* uffd.c: a userfaultfd with user-mode faults only; -1 and errno if none */
int uffd_open(int flags, unsigned long long features);
/* Register [page, page + len) MISSING on fd and UFFDIO_COPY the attacker's
 * bytes there: 0, the errno of the register or the copy, or
 * ATTACK_SETUP_FAILED. */
int uffd_register_missing(int fd, void *page, size_t len);
int uffd_copy_payload(int fd, const struct target *t, void *page);

/* scenarios.c: one never-faulted sealed page above the arena, for the fills */
bool finish_room_above(struct target *t, enum jit_seal_policy policy,
		       char *why, size_t why_len);

/* writers.c: someone other than the thread that holds the key writes the
 * code (another process, a tracer, the kernel's signal frame) */
int attack_vm_writev(const struct target *t);
int attack_child_vm_writev(const struct target *t);
int attack_child_proc_mem(const struct target *t);
int attack_tracer_poke(const struct target *t);
const char *tracer_unavailable(enum privilege priv);
int attack_child_uffd_copy(const struct target *t);
int attack_sigaltstack_frame(const struct target *t);
int attack_uffd_move_out(const struct target *t);
int attack_window_signal_frame(const struct target *t);
/* Fork a child that runs writer(t, this process's pid, arg) against this
 * process; as_tracer: name it this process's ptracer first.  The child's
 * answer, errno its errno. */
typedef int (*writer_fn)(const struct target *t, pid_t victim, void *arg);
int in_writer_child(const struct target *t, writer_fn writer, void *arg,
		    bool as_tracer);

/* openers.c: the kernel opens the code's key for the attacker (issue 41) */
uint32_t pkru_read(void);
void pkru_write(uint32_t pkru);
void key_window_open(int key);
int attack_pkey_reuse(const struct target *t);
int attack_sigreturn_edit(const struct target *t);
int attack_sigreturn_forged(const struct target *t);
int attack_ptrace_xstate(const struct target *t);
int attack_window_thread_store(const struct target *t);
int attack_window_clone_store(const struct target *t);
int attack_window_clone_madvise(const struct target *t);
const char *uffd_move_unavailable(enum privilege priv);
/* The attacker's 6 bytes for the function's entry (target_payload's). */
#define ENTRY_PAYLOAD_LEN 6
void entry_payload(uint8_t bytes[ENTRY_PAYLOAD_LEN]);

/* the key space's policies: no PKU here, or the policy is none of them */
bool policy_in_key_space(enum jit_seal_policy policy);
const char *key_policies_unavailable(void);

/* target.c: the JIT'd victim function */
#define TARGET_FUNC "fib"
#define TARGET_ARG 20
bool target_build(struct target *t, enum jit_seal_policy policy,
		  const struct scenario *s, char *why, size_t why_len);
bool target_call(const struct target *t, int64_t *result);
void target_payload(const struct target *t, uint8_t *buf, size_t len);
#define PAYLOAD_RESULT 0x41414141

/* probe.c: snapshots, views and the verdict */
bool snapshot_take(const struct target *t, struct snapshot *snap);
void arena_view_take(const struct target *t, bool with_page_below,
		     struct arena_view *view);
void classify(const struct target *t, const struct snapshot *before,
	      int call_result, bool harmless_call, struct case_report *report);

/* smaps.c: the arena's seals in /proc/self/smaps: "PMR", "sl" or "-";
 * and the raw "Seals:"/"VmFlags:" lines of the mapping holding base. */
void smaps_seals(uintptr_t base, char *out, size_t out_len);
void smaps_lines(uintptr_t base, char *out, size_t out_len);
/* The protection key of the mapping holding base; -1 if none or unknown. */
int smaps_pkey(uintptr_t base);

/* privilege.c */
bool privilege_drop_all(char *why, size_t why_len);

/* case.c: one case in its own process */
void case_run(const struct case_spec *spec, struct case_report *report);

/* names.c */
const char *outcome_name(enum outcome outcome);
bool outcome_parse(const char *text, enum outcome *out);
const char *privilege_name(enum privilege priv);
const char *origin_name(enum origin from);

/* expect.c: attacks/expected.tsv */
struct expectation {
	char scenario[64];	/* the pattern before any "@origin" */
	char origin[8];		/* "self", "child", or "" for either */
	char policy[16];
	char kernel[32];
	enum outcome outcome;
	int err;		/* 0 for "-" */
	char reason[200];
	int line;
};

struct expectations {
	struct expectation *rows;
	size_t count;
};

bool expectations_parse(FILE *in, const char *path, struct expectations *out,
			char *why, size_t why_len);
bool expectations_load(const char *path, struct expectations *out,
		       char *why, size_t why_len);
const struct expectation *expectations_match(const struct expectations *e,
					     const char *scenario,
					     const char *policy,
					     const char *kernel,
					     enum origin from);
bool expectation_met(const struct expectation *want,
		     const struct case_report *got);
void expectations_free(struct expectations *e);

#endif /* ATTACKS_H */
