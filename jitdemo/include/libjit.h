/*
 * libjit.h - the public interface of libjit, a tiny bytecode JIT whose code
 * arena is written, flipped to read+execute and then sealed with mseal().
 *
 * This is the only header a program outside jitdemo/ includes.  The typical
 * life of a module:
 *
 *	struct jit_diag diag;
 *	struct jit_module *m = jit_load_file("fib.jit", &diag);
 *	struct jit_options opt = jit_default_options();   // --seal=card
 *	jit_compile(m, &opt, &diag);
 *	int64_t args[1] = { 30 }, result;
 *	int trap = jit_call(m, "fib", args, 1, &result);  // 0 or JIT_TRAP_*
 *	struct jit_arena_info info;
 *	jit_arena_info(m, &info);                          // where, how sealed
 *	jit_release(m, NULL);                              // may leave arena
 *
 * Calling convention of JIT'd code.  jit_lookup() returns an ordinary
 * System V x86-64 function of type jit_native_fn:
 *
 *	int64_t fn(struct jit_ctx *ctx, int64_t a0, ..., int64_t a4);
 *
 * A function with fewer than JIT_MAX_ARGS arguments ignores the extra
 * registers, so one pointer type fits all.  Before calling, fill ctx with
 * jit_ctx_init() on the thread that makes the call: it records where that
 * thread's stack ends.  When the function returns, ctx->trap is 0 and the
 * return value is the result, or ctx->trap is one of JIT_TRAP_* and the
 * return value is meaningless.  The interpreter reports the very same trap
 * codes for the same programs.
 *
 * Stack use: JIT'd functions call each other with native call/ret.  A
 * call whose frames would take more than JIT_MAX_CALL_STACK bytes traps
 * with JIT_TRAP_CALL_DEPTH (the interpreter charges the very same frame
 * sizes), and so does one that would come within JIT_STACK_GUARD bytes of
 * the end of the calling thread's stack, at any ulimit -s and on small
 * thread stacks: JIT'd code never overflows the C stack.
 */
#ifndef LIBJIT_H
#define LIBJIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Limits every loaded module obeys; the loader and verifier enforce them. */
#define JIT_MAX_SOURCE_BYTES	(1u << 20)	/* assembler text */
#define JIT_MAX_FUNCS		256
#define JIT_MAX_FUNC_CODE	65536		/* bytecode bytes per function */
#define JIT_MAX_MODULE_CODE	(1024u * 1024)	/* bytecode bytes per module */
#define JIT_MAX_NAME		63
#define JIT_MAX_ARGS		5
#define JIT_MAX_LOCALS		32
#define JIT_MAX_STACK		64		/* operand stack slots */
#define JIT_MAX_CALL_STACK	(1u << 20)	/* bytes of JIT frames per call */
#define JIT_STACK_GUARD		(64u * 1024)	/* kept free at the stack's end */

/* Trap codes: identical in the interpreter and in JIT'd code. */
enum jit_trap {
	JIT_TRAP_NONE = 0,
	JIT_TRAP_DIV_ZERO = 1,		/* div or mod by zero */
	JIT_TRAP_DIV_OVERFLOW = 2,	/* INT64_MIN div/mod -1 */
	JIT_TRAP_CALL_DEPTH = 3,	/* frames past JIT_MAX_CALL_STACK bytes,
					 * or past the thread's stack (JIT) */
};

/* Runtime context passed to JIT'd code in %rdi.  Layout is ABI. */
struct jit_ctx {
	int64_t trap;		/* offset 0: enum jit_trap, set by every call */
	uint64_t saved_rsp;	/* offset 8: the C entry's stack, for traps */
	uint64_t stack_floor;	/* offset 16: lowest rsp JIT'd code may reach */
};

typedef int64_t (*jit_native_fn)(struct jit_ctx *ctx, int64_t a0, int64_t a1,
				 int64_t a2, int64_t a3, int64_t a4);

/* Error text, "FILE:LINE: message" for source errors. */
struct jit_diag {
	char text[512];
};

enum jit_seal_policy {
	JIT_SEAL_CARD,		/* MM_SEAL_MPROTECT|MM_SEAL_MMAP|MM_SEAL_MREMAP */
	JIT_SEAL_ALL,		/* card + MM_SEAL_MUNMAP|MM_SEAL_MSEAL */
	JIT_SEAL_NONE,		/* W^X only */
	JIT_SEAL_PKEY,		/* the key space: read-write-execute under a
				 * protection key, sealed with every type when
				 * made; each module written into it through the
				 * key (WRPKRU), never through mprotect */
	JIT_SEAL_KEYONLY,	/* the key space as JIT_SEAL_PKEY makes it, but
				 * never sealed: W^X by the key alone (a PKU JIT
				 * without mseal; the control of pkey) */
};

/* How the kernel answered the arena's mseal(). */
enum jit_seal_outcome {
	JIT_SEAL_OUTCOME_NOT_YET,	/* not compiled */
	JIT_SEAL_OUTCOME_SEALED,	/* 4-argument mseal() applied the types */
	JIT_SEAL_OUTCOME_UPSTREAM,	/* EINVAL, then mseal(addr,len,0) sealed all */
	JIT_SEAL_OUTCOME_ENOSYS,	/* no mseal(): code is W^X but not sealed */
	JIT_SEAL_OUTCOME_POLICY_NONE,	/* --seal=none: not asked */
	JIT_SEAL_OUTCOME_FAILED,	/* mseal() failed otherwise; see seal_errno */
};

struct jit_options {
	enum jit_seal_policy seal;
	bool require_seal;	/* compiling fails unless the arena got sealed */
	void *hint;		/* NULL: the process's code space (below); else
				 * a dedicated arena mmap()ed at this hint */
};

/*
 * The code space: one reserved region per process.  Every module compiled
 * without a hint gets fresh pages at its end, flipped RX and sealed there,
 * so identically sealed neighbours can merge into one VMA.  A released
 * module's pages are unmapped when the kernel lets us; when its seal pins
 * them (MM_SEAL_MUNMAP/MMAP/MREMAP, or upstream's mseal) they stay mapped
 * for the life of the process and are counted in bytes_pinned: a pinned
 * page can be neither unmapped, nor remapped, nor made writable again, so
 * it can never hold other code.
 */
struct jit_code_space_info {
	void *base;			/* current reservation, NULL before use */
	size_t reserved;		/* bytes reserved in it */
	size_t used;			/* bytes handed out (page multiples) */
	size_t reservations;		/* regions reserved so far */
	size_t modules_live;		/* compiled, not released */
	size_t modules_released;
	size_t bytes_freed;		/* released and unmapped */
	size_t modules_pinned;		/* released, kernel refused munmap */
	size_t bytes_pinned;
};

void jit_code_space_info(struct jit_code_space_info *info);

struct jit_arena_info {
	void *base;			/* NULL before jit_compile() */
	size_t length;			/* mapped bytes, page multiple */
	size_t code_bytes;		/* bytes of machine code in it */
	unsigned types_requested;	/* MM_SEAL_* the policy asked for */
	unsigned types_applied;		/* MM_SEAL_* the kernel enforces */
	enum jit_seal_outcome outcome;
	int seal_errno;			/* errno of the first mseal() try, or 0 */
	uint64_t emit_ns;		/* time to generate the machine code */
	uint64_t protect_ns;		/* time of mprotect(PROT_READ|PROT_EXEC) */
	uint64_t seal_ns;		/* time of the mseal() call(s) */
	size_t bytecode_insns;		/* instructions compiled */
};

/* What jit_release() could do with the arena. */
struct jit_release_report {
	bool arena_unmapped;	/* munmap() succeeded or there was no arena */
	int unmap_errno;	/* EPERM/EACCES when the seal forbids munmap */
};

struct jit_module;

/* Loading parses the assembler text and runs the verifier.  NULL + diag. */
struct jit_module *jit_load_file(const char *path, struct jit_diag *diag);
struct jit_module *jit_load_string(const char *name, const char *text,
				   size_t len, struct jit_diag *diag);

/* Functions of a loaded module; index is 0..jit_func_count()-1. */
int jit_func_count(const struct jit_module *m);
int jit_func_index(const struct jit_module *m, const char *name); /* -1 */
const char *jit_func_name(const struct jit_module *m, int index);
int jit_func_arity(const struct jit_module *m, int index);

struct jit_options jit_default_options(void);
bool jit_parse_seal_policy(const char *text, enum jit_seal_policy *out);
const char *jit_seal_policy_name(enum jit_seal_policy policy);
/* The MM_SEAL_* types a policy asks mseal() for (0 for none). */
unsigned jit_seal_policy_types(enum jit_seal_policy policy);

/* Compile every function into one arena, flip it RX and seal it once. */
int jit_compile(struct jit_module *m, const struct jit_options *opt,
		struct jit_diag *diag);

/* Native entry of a compiled function, NULL if unknown or not compiled. */
jit_native_fn jit_lookup(const struct jit_module *m, const char *name);

/* Fills ctx for calls from the calling thread (cached per thread). */
void jit_ctx_init(struct jit_ctx *ctx);

/* Run by name.  Return 0 and *result, or a JIT_TRAP_* code, or -1 with
 * diag for misuse (unknown name, wrong argument count, not compiled). */
int jit_call(struct jit_module *m, const char *name, const int64_t *args,
	     int nargs, int64_t *result, struct jit_diag *diag);
int jit_interp_call(struct jit_module *m, const char *name,
		    const int64_t *args, int nargs, int64_t *result,
		    struct jit_diag *diag);

const char *jit_trap_text(int trap);

/* Describe the arena; returns 0, or -1 when the module is not compiled. */
int jit_arena_info(const struct jit_module *m, struct jit_arena_info *info);
const char *jit_seal_outcome_text(enum jit_seal_outcome outcome);
/* "mprotect,mmap,mremap" style list of MM_SEAL_* bits into buf. */
const char *jit_seal_types_text(unsigned types, char *buf, size_t len);

/* Per function, where its code lies in the arena (for --dump). */
int jit_func_code(const struct jit_module *m, int index, const uint8_t **code,
		  size_t *len);
/* Readable per-instruction listing of the emitted bytes of one function. */
int jit_dump_func(const struct jit_module *m, int index, char **text);

/* Free the module; unmap the arena only if the kernel allows it. */
void jit_release(struct jit_module *m, struct jit_release_report *report);

#endif /* LIBJIT_H */
