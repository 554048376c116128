// SPDX-License-Identifier: GPL-2.0
/*
 * platform.cc - what Node's platform would give V8 (standin.h): the
 * thread-isolated allocator (0001).
 *
 * 0001.  NodePlatform (src/node_platform.h) does not override
 * v8::Platform::GetThreadIsolatedAllocator(), whose inline default returns
 * nullptr, so V8's ThreadIsolation (W^X of JIT code by a protection key)
 * stays off.  The patch overrides it with an allocator that is V8's own
 * DefaultThreadIsolatedAllocator (src/libplatform): a key allocated
 * write-disabled, pkey_alloc(0, PKEY_DISABLE_WRITE), and malloc/free; no
 * key (no PKU), no allocator.  Here the same class is built from the
 * binary's own v8-platform.h and given by rewriting the one slot of
 * NodePlatform's vtable (_ZTVN4node12NodePlatformE, exported) that holds
 * the default.  The slot is found from the header (the Itanium ABI's
 * pointer to a virtual member is 1 + its byte offset in the vtable) and
 * checked to hold the default's code, "xor eax,eax; ret" (after an
 * endbr64 where the binary has one), before it is rewritten: another
 * binary stops here, status 5, instead of being patched blind.
 *
 * (Short builtin calls stay on: 0004, placement.c, puts the code range
 * within their reach, so V8 never copies its builtins into the range.)
 */
#include "standin.h"

#include <v8-platform.h>

#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace {

constexpr char kNodePlatformVtable[] = "_ZTVN4node12NodePlatformE";

class KeyAllocator final : public v8::ThreadIsolatedAllocator {
public:
	explicit KeyAllocator(int pkey) : pkey_(pkey) {}
	void *Allocate(size_t size) override { return malloc(size); }
	void Free(void *object) override { free(object); }
	enum Type Type() const override { return Type::kPkey; }
	int Pkey() const override { return pkey_; }

private:
	int pkey_;
};

KeyAllocator *allocator;

v8::ThreadIsolatedAllocator *node_platform_get_allocator(v8::Platform *)
{
	return allocator;
}

// The vtable slot of v8::Platform::GetThreadIsolatedAllocator, from the
// header the binary was built with.
size_t allocator_slot()
{
	auto member = &v8::Platform::GetThreadIsolatedAllocator;
	ptrdiff_t raw;

	static_assert(sizeof(member) == 2 * sizeof(ptrdiff_t), "Itanium ABI");
	memcpy(&raw, &member, sizeof(raw));
	if (!(raw & 1))
		standin_fatal(STANDIN_EXIT_NO_PATCH,
			      "GetThreadIsolatedAllocator is not virtual in this v8-platform.h");
	return (size_t)(raw - 1) / sizeof(void *);
}

// The code of "return nullptr;": [endbr64] xor eax,eax; ret.
bool is_default_getter(const unsigned char *code)
{
	static const unsigned char endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };
	static const unsigned char ret_null[] = { 0x31, 0xc0, 0xc3 };

	if (memcmp(code, endbr64, sizeof(endbr64)) == 0)
		code += sizeof(endbr64);
	return memcmp(code, ret_null, sizeof(ret_null)) == 0;
}

void rewrite_slot(void **slot, void *function)
{
	long page = sysconf(_SC_PAGESIZE);
	uintptr_t start = (uintptr_t)slot & ~(uintptr_t)(page - 1);

	// the vtable is relocated read-only data (RELRO): opened for one store
	if (syscall(SYS_mprotect, start, page, PROT_READ | PROT_WRITE) != 0)
		standin_fatal(STANDIN_EXIT_NO_PATCH, "mprotect of NodePlatform's vtable: %s",
			      strerrorname_np(errno));
	*slot = function;
	if (syscall(SYS_mprotect, start, page, PROT_READ) != 0)
		standin_fatal(STANDIN_EXIT_NO_PATCH, "mprotect of NodePlatform's vtable back: %s",
			      strerrorname_np(errno));
}

} // namespace

int platform_give_allocator(void)
{
	void **vtable = (void **)dlsym(RTLD_DEFAULT, kNodePlatformVtable);
	void **slot;
	int pkey;

	if (!vtable)
		standin_fatal(STANDIN_EXIT_NO_PATCH, "no %s in this process: not Node.js?",
			      kNodePlatformVtable);
	// the address point follows offset-to-top and the type info
	slot = vtable + 2 + allocator_slot();
	if (!is_default_getter((const unsigned char *)*slot))
		standin_fatal(STANDIN_EXIT_NO_PATCH,
			      "NodePlatform's slot %zu is not v8::Platform's default "
			      "GetThreadIsolatedAllocator: another Node.js build",
			      allocator_slot());
	pkey = (int)syscall(SYS_pkey_alloc, 0, PKEY_DISABLE_WRITE);
	if (pkey < 0)
		return -1;	// V8's DefaultPlatform gives no allocator then either
	allocator = new KeyAllocator(pkey);
	rewrite_slot(slot, (void *)node_platform_get_allocator);
	return pkey;
}
